/* SPDX-License-Identifier: MIT */
/*
 * What the attacker knows of the victim's memory: the DEFAULT layouts of
 * the 4.14 and 4.15 structs, from its own mirror declarations, never from
 * the victim's real types. Under randstruct the real layout is shuffled by
 * a seed the attacker does not have, so its writes land at these offsets
 * anyway and miss: that is the defence being measured.
 *
 * victim.c checks (default builds only) that each mirror matches the real
 * layout, so a drift in either is a build error, not a silent miss.
 */
#ifndef TH_ATTACKS_LAYOUT_H
#define TH_ATTACKS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "variant.h"

/* include/linux/timer.h, 4.14, x86-64, no lockdep: 48 bytes. */
struct atk_timer_414 {
	uintptr_t next, pprev;	/* struct hlist_node entry */
	unsigned long expires;
	uintptr_t function;
	unsigned long data;
	uint32_t flags;
};
_Static_assert(offsetof(struct atk_timer_414, function) == 24, "4.14 .function @24");
_Static_assert(offsetof(struct atk_timer_414, data) == 32, "4.14 .data @32");
_Static_assert(sizeof(struct atk_timer_414) == 48, "4.14 timer_list is 48 bytes");

/* 4.15: .data gone; 40 bytes. */
struct atk_timer_415 {
	uintptr_t next, pprev;
	unsigned long expires;
	uintptr_t function;
	uint32_t flags;
};
_Static_assert(offsetof(struct atk_timer_415, function) == 24, "4.15 .function @24");
_Static_assert(sizeof(struct atk_timer_415) == 40, "4.15 timer_list is 40 bytes");

/* The kernel's version banner tells the attacker which layout it faces. */
#if TH_ATK_HAS_DATA
typedef struct atk_timer_414 atk_timer;
#else
typedef struct atk_timer_415 atk_timer;
#endif

/* The first 16 bytes of v4.14's struct cred (victim.h): what fits in name[16].
 * euid lies at +20, past them. */
struct atk_cred {
	int32_t usage;
	uint32_t uid, gid, suid;
};

struct atk_ring {
	char name[16];
	atk_timer timer;
	uint32_t owner_uid;
	uint32_t closed;
	uintptr_t cur_block;
};

/* Offsets of the timer's fields inside the ring, as the attacker counts. */
#define ATK_OFF_TIMER		offsetof(struct atk_ring, timer)
#define ATK_OFF_NEXT		(ATK_OFF_TIMER + offsetof(atk_timer, next))
#define ATK_OFF_PPREV		(ATK_OFF_TIMER + offsetof(atk_timer, pprev))
#define ATK_OFF_FUNCTION	(ATK_OFF_TIMER + offsetof(atk_timer, function))
#if TH_ATK_HAS_DATA
#define ATK_OFF_DATA		(ATK_OFF_TIMER + offsetof(atk_timer, data))
#endif

#endif
