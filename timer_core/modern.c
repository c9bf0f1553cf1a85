/* SPDX-License-Identifier: MIT */
/* The wheel over the 4.15 layout: variant `modern`. */
#define TH_NO_KERNEL_NAMES
#include "th/timer_modern.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

/*
 * call_timer_fn() (4.15): fn(timer). Out of line on purpose: this indirect
 * call is the CFI check site the harness measures, and trap classification
 * finds it by this function's name.
 */
static th_noinline void call_timer_fn(struct modern_timer_list *timer,
				      void (*fn)(struct modern_timer_list *))
{
	fn(timer);
}

#define TH_CALL_TIMER_FN(timer)	call_timer_fn((timer), (timer)->function)
#define TH_TIMER	struct modern_timer_list
#define TH_P(name)	modern_##name
#define TH_VARIANT_NAME	"modern"
#include "wheel_impl.h"

void modern_timer_setup(struct modern_timer_list *timer,
			void (*callback)(struct modern_timer_list *),
			unsigned int flags)
{
	/* Deliberate: the callback's address as data, for debugobjects' hint. */
	if (!init_timer_key(timer, flags, "timer_setup", (const void *)(uintptr_t)callback))
		return;
	timer->function = callback;
}
