/* SPDX-License-Identifier: MIT */
/*
 * Variant `legacy`: Linux 4.14 struct timer_list and the setup_timer()
 * family. Expiry calls fn(data): whoever rewrites .function and .data
 * chooses the function and its first argument.
 */
#ifndef TH_TIMER_LEGACY_H
#define TH_TIMER_LEGACY_H

#include "th/compiler.h"
#include "th/timer_api.h"

/* 4.14, x86-64, no lockdep: entry @0, expires @16, function @24,
 * data @32, flags @40; 48 bytes. */
struct legacy_timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(unsigned long);
	unsigned long data;
	u32 flags;
} __randomize_layout;

TH_TIMER_API(legacy_, struct legacy_timer_list)

/* __setup_timer(): init_timer_key() + .function and .data. A timer that
 * debugobjects tracks as queued is refused (WARN "init active"), untouched. */
void legacy___setup_timer(struct legacy_timer_list *timer,
			  void (*fn)(unsigned long), unsigned long data,
			  unsigned int flags);

#ifndef TH_NO_KERNEL_NAMES
#define timer_list		legacy_timer_list
#define __setup_timer		legacy___setup_timer
#define setup_timer(t, fn, data)	legacy___setup_timer((t), (fn), (data), 0)
#define setup_deferrable_timer(t, fn, data) \
	legacy___setup_timer((t), (fn), (data), TIMER_DEFERRABLE)
#define setup_pinned_timer(t, fn, data) \
	legacy___setup_timer((t), (fn), (data), TIMER_PINNED)
#define mod_timer		legacy_mod_timer
#define mod_timer_pending	legacy_mod_timer_pending
#define timer_reduce		legacy_timer_reduce
#define add_timer		legacy_add_timer
#define del_timer		legacy_del_timer
#define del_timer_sync		legacy_del_timer
#define timer_pending		legacy_timer_pending
#define run_timers		legacy_run_timers
#define timers_check		legacy_timers_check
#define jiffies			th_jiffies()
#endif

#endif
