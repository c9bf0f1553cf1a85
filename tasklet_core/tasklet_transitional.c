/* SPDX-License-Identifier: MIT */
/* The tasklet since 5.9, as 6.1 has it: generation `transitional`. */
#define TH_NO_KERNEL_NAMES
#include "th/tasklet_transitional.h"

#include <stdint.h>

/* tasklet_action_common() (kernel/softirq.c, v6.1):
 *   if (t->use_callback) t->callback(t); else t->func(t->data);
 * Two indirect call sites of two types, chosen by one byte of the struct. */
#define TH_TASKLET		struct transitional_tasklet_struct
#define TH_TP(name)		transitional_##name
#define TH_TASKLET_CALL(t)						\
	do {								\
		if ((t)->use_callback)					\
			(t)->callback(t);				\
		else							\
			(t)->func((t)->data);				\
	} while (0)
/* tasklet_clear_sched()'s WARN: t->use_callback ? t->callback : t->func.
 * Deliberate: the function's address as data, for the WARN line. */
#define TH_TASKLET_FN(t)						\
	((t)->use_callback ? (const void *)(uintptr_t)(t)->callback	\
			   : (const void *)(uintptr_t)(t)->func)
#define TH_TASKLET_FN_KIND(t)	((t)->use_callback ? "callback" : "func")
#define TH_TASKLET_SCHED_BUG	0
#define TH_TASKLET_GEN_NAME	"transitional"
#include "softirq_impl.h"

/* tasklet_setup() (kernel/softirq.c, v6.1). */
void transitional_tasklet_setup(struct transitional_tasklet_struct *t,
				void (*callback)(struct transitional_tasklet_struct *))
{
	t->next = NULL;
	t->state = 0;
	t->count.counter = 0;	/* atomic_set(&t->count, 0) */
	t->callback = callback;
	t->use_callback = true;
	t->data = 0;
}

/* tasklet_init() (kernel/softirq.c, v6.1). */
void transitional_tasklet_init(struct transitional_tasklet_struct *t,
			       void (*func)(unsigned long), unsigned long data)
{
	t->next = NULL;
	t->state = 0;
	t->count.counter = 0;	/* atomic_set(&t->count, 0) */
	t->func = func;
	t->use_callback = false;
	t->data = data;
}
