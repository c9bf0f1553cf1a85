/* SPDX-License-Identifier: MIT */
/*
 * Variant `modern`: Linux 4.15 struct timer_list. .data is gone, .function
 * takes the timer itself, and expiry calls fn(timer): a prototype only
 * timer callbacks have, and an argument the attacker does not choose.
 */
#ifndef TH_TIMER_MODERN_H
#define TH_TIMER_MODERN_H

#include "th/compiler.h"
#include "th/timer_api.h"

/* 4.15, x86-64, no lockdep: entry @0, expires @16, function @24,
 * flags @32; 40 bytes. */
struct modern_timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(struct modern_timer_list *);
	u32 flags;
} __randomize_layout;

TH_TIMER_API(modern_, struct modern_timer_list)

/* timer_setup(): init_timer_key() with the callback. A timer that
 * debugobjects tracks as queued is refused (WARN "init active"), untouched. */
void modern_timer_setup(struct modern_timer_list *timer,
			void (*callback)(struct modern_timer_list *),
			unsigned int flags);

#define modern_from_timer(var, callback_timer, timer_fieldname) \
	container_of(callback_timer, __typeof__(*var), timer_fieldname)

#ifndef TH_NO_KERNEL_NAMES
#define timer_list		modern_timer_list
#define timer_setup		modern_timer_setup
#define from_timer		modern_from_timer
#define mod_timer		modern_mod_timer
#define mod_timer_pending	modern_mod_timer_pending
#define timer_reduce		modern_timer_reduce
#define add_timer		modern_add_timer
#define del_timer		modern_del_timer
#define del_timer_sync		modern_del_timer
#define timer_pending		modern_timer_pending
#define run_timers		modern_run_timers
#define timers_check		modern_timers_check
#define jiffies			th_jiffies()
#endif

#endif
