/* SPDX-License-Identifier: MIT */
/*
 * Tasklet generation `legacy`: before 5.9 (4.14 .. 5.8), tasklet_init()
 * only. include/linux/interrupt.h (v4.14, unchanged to v5.8):
 *   struct tasklet_struct { next; state; count; func; data; };
 * and the softirq calls t->func(t->data): whoever rewrites .func and .data
 * chooses the function and its first argument, as with the 4.14 timer.
 */
#ifndef TH_TASKLET_LEGACY_H
#define TH_TASKLET_LEGACY_H

#include "th/tasklet_base.h"

/* x86-64: next @0, state @8, count @16, func @24, data @32; 40 bytes. */
struct legacy_tasklet_struct {
	struct legacy_tasklet_struct *next;
	unsigned long state;
	th_atomic_t count;
	void (*func)(unsigned long);
	unsigned long data;
} __randomize_layout;

TH_TASKLET_API(legacy_, struct legacy_tasklet_struct)

/* tasklet_init() (kernel/softirq.c, v4.14 .. v5.8). */
void legacy_tasklet_init(struct legacy_tasklet_struct *t,
			 void (*func)(unsigned long), unsigned long data);

#ifndef TH_NO_KERNEL_NAMES
#define tasklet_struct		legacy_tasklet_struct
#define tasklet_init		legacy_tasklet_init
#define tasklet_schedule	legacy_tasklet_schedule
#define tasklet_hi_schedule	legacy_tasklet_hi_schedule
#define tasklet_trylock		legacy_tasklet_trylock
#define tasklet_unlock		legacy_tasklet_unlock
#define tasklet_disable_nosync	legacy_tasklet_disable_nosync
#define tasklet_disable		legacy_tasklet_disable
#define tasklet_enable		legacy_tasklet_enable
#define tasklet_action		legacy_tasklet_action
#define tasklet_hi_action	legacy_tasklet_hi_action
#define softirq_init		legacy_softirq_init
#endif

#endif
