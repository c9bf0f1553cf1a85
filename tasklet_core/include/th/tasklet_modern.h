/* SPDX-License-Identifier: MIT */
/*
 * Tasklet generation `modern`: callback only, as the upstream removal of
 * tasklet_init() would leave 6.1's code (no kernel has shipped it: 6.1's
 * include/linux/interrupt.h and kernel/softirq.c with func, data and
 * use_callback taken out, DECLARE_TASKLET_OLD and tasklet_init() gone).
 * The softirq calls t->callback(t) only: a void (*)(struct tasklet_struct *)
 * call site, whose argument is the tasklet itself.
 */
#ifndef TH_TASKLET_MODERN_H
#define TH_TASKLET_MODERN_H

#include "th/tasklet_base.h"

/* x86-64: next @0, state @8, count @16, callback @24; 32 bytes. */
struct modern_tasklet_struct {
	struct modern_tasklet_struct *next;
	unsigned long state;
	th_atomic_t count;
	void (*callback)(struct modern_tasklet_struct *t);
} __randomize_layout;

TH_TASKLET_API(modern_, struct modern_tasklet_struct)

/* tasklet_setup() (kernel/softirq.c, v6.1, without use_callback and data). */
void modern_tasklet_setup(struct modern_tasklet_struct *t,
			  void (*callback)(struct modern_tasklet_struct *));

#define modern_from_tasklet(var, callback_tasklet, tasklet_fieldname) \
	container_of(callback_tasklet, __typeof__(*var), tasklet_fieldname)

#ifndef TH_NO_KERNEL_NAMES
#define tasklet_struct		modern_tasklet_struct
#define tasklet_setup		modern_tasklet_setup
#define from_tasklet		modern_from_tasklet
#define tasklet_schedule	modern_tasklet_schedule
#define tasklet_hi_schedule	modern_tasklet_hi_schedule
#define tasklet_trylock		modern_tasklet_trylock
#define tasklet_unlock		modern_tasklet_unlock
#define tasklet_disable_nosync	modern_tasklet_disable_nosync
#define tasklet_disable		modern_tasklet_disable
#define tasklet_enable		modern_tasklet_enable
#define tasklet_action		modern_tasklet_action
#define tasklet_hi_action	modern_tasklet_hi_action
#define softirq_init		modern_softirq_init
#endif

#endif
