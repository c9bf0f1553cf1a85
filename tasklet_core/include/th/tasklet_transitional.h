/* SPDX-License-Identifier: MIT */
/*
 * Tasklet generation `transitional`: 5.9 (commit 12cc923f1ccc, "tasklet:
 * Introduce new initialization API") to today; the code is 6.1's. The new
 * tasklet_setup() sits beside tasklet_init() in ONE struct, and a bool
 * chooses the call (include/linux/interrupt.h, v6.1):
 *   struct tasklet_struct { next; state; count; bool use_callback;
 *     union { void (*func)(unsigned long); void (*callback)(struct tasklet_struct *); };
 *     unsigned long data; };
 * tasklet_action_common() (kernel/softirq.c, v6.1) runs t->func(t->data)
 * whenever use_callback is false: an overflow that clears the bool and
 * writes func and data reaches a void (unsigned long) call site, even on a
 * tasklet its driver set up with tasklet_setup().
 */
#ifndef TH_TASKLET_TRANSITIONAL_H
#define TH_TASKLET_TRANSITIONAL_H

#include "th/tasklet_base.h"

/* x86-64: next @0, state @8, count @16, use_callback @20, func/callback @24,
 * data @32; 40 bytes. */
struct transitional_tasklet_struct {
	struct transitional_tasklet_struct *next;
	unsigned long state;
	th_atomic_t count;
	bool use_callback;
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct transitional_tasklet_struct *t);
	};
	unsigned long data;
} __randomize_layout;

TH_TASKLET_API(transitional_, struct transitional_tasklet_struct)

/* tasklet_setup() and tasklet_init() (kernel/softirq.c, v6.1). */
void transitional_tasklet_setup(struct transitional_tasklet_struct *t,
				void (*callback)(struct transitional_tasklet_struct *));
void transitional_tasklet_init(struct transitional_tasklet_struct *t,
			       void (*func)(unsigned long), unsigned long data);

/* from_tasklet() (include/linux/interrupt.h, v5.9+): container_of. */
#define transitional_from_tasklet(var, callback_tasklet, tasklet_fieldname) \
	container_of(callback_tasklet, __typeof__(*var), tasklet_fieldname)

#ifndef TH_NO_KERNEL_NAMES
#define tasklet_struct		transitional_tasklet_struct
#define tasklet_setup		transitional_tasklet_setup
#define tasklet_init		transitional_tasklet_init
#define from_tasklet		transitional_from_tasklet
#define tasklet_schedule	transitional_tasklet_schedule
#define tasklet_hi_schedule	transitional_tasklet_hi_schedule
#define tasklet_trylock		transitional_tasklet_trylock
#define tasklet_unlock		transitional_tasklet_unlock
#define tasklet_disable_nosync	transitional_tasklet_disable_nosync
#define tasklet_disable		transitional_tasklet_disable
#define tasklet_enable		transitional_tasklet_enable
#define tasklet_action		transitional_tasklet_action
#define tasklet_hi_action	transitional_tasklet_hi_action
#define softirq_init		transitional_softirq_init
#endif

#endif
