/* SPDX-License-Identifier: MIT */
/*
 * The wheel over the 4.14 layout: variants `legacy` and `transitional`
 * (the rc3 shim changes only setup, in timer_transitional.h).
 */
#define TH_NO_KERNEL_NAMES
#include "th/timer_legacy.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

/*
 * call_timer_fn() (4.14): fn(data). Out of line on purpose: this indirect
 * call is the CFI check site the harness measures, and trap classification
 * finds it by this function's name.
 */
static th_noinline void call_timer_fn(struct legacy_timer_list *timer,
				      void (*fn)(unsigned long), unsigned long data)
{
	(void)timer;
	fn(data);
}

/* expire_timers() (4.14) reads .function and .data after detaching. */
#define TH_CALL_TIMER_FN(timer) \
	call_timer_fn((timer), (timer)->function, (timer)->data)
#define TH_TIMER	struct legacy_timer_list
#define TH_P(name)	legacy_##name
#define TH_VARIANT_NAME	"legacy"
#include "wheel_impl.h"

void legacy___setup_timer(struct legacy_timer_list *timer,
			  void (*fn)(unsigned long), unsigned long data,
			  unsigned int flags)
{
	/* Deliberate: the callback's address as data, for debugobjects' hint. */
	if (!init_timer_key(timer, flags, "setup_timer", (const void *)(uintptr_t)fn))
		return;
	timer->function = fn;
	timer->data = data;
}
