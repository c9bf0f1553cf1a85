/* SPDX-License-Identifier: MIT */
/* The tasklet after tasklet_init()'s removal: generation `modern` (6.1's
 * code without func, data and use_callback). */
#define TH_NO_KERNEL_NAMES
#include "th/tasklet_modern.h"

#include <stdint.h>

/* tasklet_action_common() (kernel/softirq.c, v6.1's callback branch only). */
#define TH_TASKLET		struct modern_tasklet_struct
#define TH_TP(name)		modern_##name
#define TH_TASKLET_CALL(t)	(t)->callback(t)
/* Deliberate: the function's address as data, for the WARN line. */
#define TH_TASKLET_FN(t)	((const void *)(uintptr_t)(t)->callback)
#define TH_TASKLET_FN_KIND(t)	"callback"
#define TH_TASKLET_SCHED_BUG	0
#define TH_TASKLET_GEN_NAME	"modern"
#include "softirq_impl.h"

/* tasklet_setup() (kernel/softirq.c, v6.1, without use_callback and data). */
void modern_tasklet_setup(struct modern_tasklet_struct *t,
			  void (*callback)(struct modern_tasklet_struct *))
{
	t->next = NULL;
	t->state = 0;
	t->count.counter = 0;	/* atomic_set(&t->count, 0) */
	t->callback = callback;
}
