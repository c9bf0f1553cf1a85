/* SPDX-License-Identifier: MIT */
/*
 * Variant `transitional`: the 4.14-rc3 timer_setup() shim (commit
 * 686fef928bba, "timer: Prepare to change timer callback argument type")
 * over the legacy layout. Callbacks take a struct timer_list *, but the
 * shim casts them to TIMER_FUNC_TYPE and stores the timer itself in .data,
 * so the wheel still calls fn(data) through a void (*)(unsigned long): a
 * type-based CFI check at that call sees the wrong type on every
 * legitimate call (Android 4.14 added a trampoline for exactly this).
 */
#ifndef TH_TIMER_TRANSITIONAL_H
#define TH_TIMER_TRANSITIONAL_H

#include "th/timer_legacy.h"

#define TIMER_DATA_TYPE		unsigned long
#define TIMER_FUNC_TYPE		void (*)(TIMER_DATA_TYPE)

static inline void transitional_timer_setup(struct legacy_timer_list *timer,
					    void (*callback)(struct legacy_timer_list *),
					    unsigned int flags)
{
#pragma clang diagnostic push
	/* Deliberate: this cast IS the 4.14-rc3 shim under test. */
#pragma clang diagnostic ignored "-Wcast-function-type"
	legacy___setup_timer(timer, (TIMER_FUNC_TYPE)callback,
			     (TIMER_DATA_TYPE)timer, flags);
#pragma clang diagnostic pop
}

#define transitional_from_timer(var, callback_timer, timer_fieldname) \
	container_of(callback_timer, __typeof__(*var), timer_fieldname)

#ifndef TH_NO_KERNEL_NAMES
#define timer_setup		transitional_timer_setup
#define from_timer		transitional_from_timer
#endif

#endif
