/* SPDX-License-Identifier: MIT */
/*
 * The tasklet family (the second API family; timer_core/ is the first): what
 * its three generations share. The kernel's tasklet is a one-shot deferred
 * call run by a softirq: tasklet_schedule() puts it on this CPU's
 * tasklet_vec list (its ->next pointer), tasklet_action() runs the list.
 * Each generation (include/th/tasklet_{legacy,transitional,modern}.h) has its
 * own struct and symbol prefix, so all three link into one process.
 *
 * Single-threaded model of a kernel that is SMP (CONFIG_SMP: the RUN bit is
 * real): one simulated CPU runs at a time (th_this_cpu(), timer_core), so
 * local_irq_disable()/enable() and the barriers are empty, and a wait for
 * another CPU (tasklet_unlock_wait()) that could never end is refused with a
 * WARN instead of spinning for ever.
 */
#ifndef TH_TASKLET_BASE_H
#define TH_TASKLET_BASE_H

#include <stdbool.h>

#include "th/compiler.h"
#include "th/kernel.h"
#include "th/timer_base.h"

/* include/linux/types.h: atomic_t. One simulated CPU at a time: plain int. */
typedef struct {
	int counter;
} th_atomic_t;

/* include/linux/interrupt.h (every version since 2.6): the state bits. */
enum {
	TASKLET_STATE_SCHED,	/* Tasklet is scheduled for execution */
	TASKLET_STATE_RUN	/* Tasklet is running (SMP only) */
};

/* include/linux/interrupt.h: the softirq numbers the two lists raise. */
enum {
	HI_SOFTIRQ = 0,
	TASKLET_SOFTIRQ = 6,
};

/* include/asm-generic/bitops (x86: lock bts/btr); one CPU at a time here. */
static inline int th_test_and_set_bit(unsigned int nr, unsigned long *addr)
{
	unsigned long mask = 1UL << nr, old = *addr;

	*addr = old | mask;
	return (old & mask) != 0;
}

static inline int th_test_and_clear_bit(unsigned int nr, unsigned long *addr)
{
	unsigned long mask = 1UL << nr, old = *addr;

	*addr = old & ~mask;
	return (old & mask) != 0;
}

static inline int th_test_bit(unsigned int nr, const unsigned long *addr)
{
	return (*addr >> nr) & 1;
}

/*
 * The API every generation offers, declared once. P is the generation's
 * prefix, T its struct. The kernel's void functions stay void; where the
 * kernel would spin for ever on another CPU the model returns TH_EPENDING.
 */
#define TH_TASKLET_API(P, T)						\
/* The per-CPU list heads (kernel/softirq.c, struct tasklet_head).	\
 * softirq_init() sets tail = &head for every possible CPU. */		\
struct P##tasklet_head {						\
	T *head;							\
	T **tail;							\
};									\
extern struct P##tasklet_head P##tasklet_vec[TH_NR_CPUS];		\
extern struct P##tasklet_head P##tasklet_hi_vec[TH_NR_CPUS];		\
/* softirq_init(): every CPU's lists empty, no softirq pending. */	\
void P##softirq_init(void);						\
/* tasklet_schedule() / tasklet_hi_schedule() (interrupt.h): queue @t	\
 * on this CPU's list unless TASKLET_STATE_SCHED is already set. */	\
void P##tasklet_schedule(T *t);						\
void P##tasklet_hi_schedule(T *t);					\
/* tasklet_trylock() (interrupt.h, SMP): set RUN; 1 if it was clear. */	\
int P##tasklet_trylock(T *t);						\
/* tasklet_unlock() (kernel/softirq.c, SMP): clear RUN. */		\
void P##tasklet_unlock(T *t);						\
/* tasklet_disable_nosync(): count++; tasklet_enable(): count--. */	\
void P##tasklet_disable_nosync(T *t);					\
void P##tasklet_enable(T *t);						\
/* tasklet_disable(): disable_nosync() then tasklet_unlock_wait().	\
 * Return: 0, or TH_EPENDING (the count still raised) when RUN is set:	\
 * called from its own callback, the kernel would wait for ever. */	\
int P##tasklet_disable(T *t);						\
/* The softirq on this CPU: tasklet_action() (TASKLET_SOFTIRQ) or	\
 * tasklet_hi_action() (HI_SOFTIRQ). Return: callbacks run, or -1 when	\
 * called from inside a tasklet softirq (softirqs do not nest). */	\
long P##tasklet_action(void);						\
long P##tasklet_hi_action(void);					\
/* Is softirq @nr raised on CPU @cpu (raise_softirq_irqoff())? */	\
bool P##softirq_pending(unsigned int cpu, unsigned int nr);		\
/* Consistency of every CPU's two lists: tail is the last ->next, every	\
 * listed tasklet has SCHED set, no cycle. Return 0, or -1 with @err. */	\
int P##tasklets_check(char *err, size_t n);

#endif
