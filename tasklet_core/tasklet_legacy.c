/* SPDX-License-Identifier: MIT */
/* The tasklet before 5.9: generation `legacy` (v4.14 .. v5.8). */
#define TH_NO_KERNEL_NAMES
#include "th/tasklet_legacy.h"

#include <stdint.h>

/* tasklet_action() (v4.14) / tasklet_action_common() (v4.18 .. v5.8):
 * t->func(t->data), whatever the bytes say. */
#define TH_TASKLET		struct legacy_tasklet_struct
#define TH_TP(name)		legacy_##name
#define TH_TASKLET_CALL(t)	(t)->func((t)->data)
/* Deliberate: the function's address as data, for the WARN line. */
#define TH_TASKLET_FN(t)	((const void *)(uintptr_t)(t)->func)
#define TH_TASKLET_FN_KIND(t)	"func"
#define TH_TASKLET_SCHED_BUG	1
#define TH_TASKLET_GEN_NAME	"legacy"
#include "softirq_impl.h"

/* tasklet_init() (kernel/softirq.c, v4.14 .. v5.8). */
void legacy_tasklet_init(struct legacy_tasklet_struct *t,
			 void (*func)(unsigned long), unsigned long data)
{
	t->next = NULL;
	t->state = 0;
	t->count.counter = 0;	/* atomic_set(&t->count, 0) */
	t->func = func;
	t->data = data;
}
