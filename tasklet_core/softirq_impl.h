/* SPDX-License-Identifier: MIT */
/*
 * The tasklet lists and their softirq, written once (kernel/softirq.c,
 * v6.1, "Tasklets"), instantiated per generation by tasklet_legacy.c,
 * tasklet_transitional.c and tasklet_modern.c. Before including, define:
 *   TH_TASKLET            the generation's struct type
 *   TH_TP(name)           the generation's symbol for @name (prefix)
 *   TH_TASKLET_CALL(t)    the dispatch: the only generation-specific code of
 *                         the softirq, expanded inside tasklet_action_common()
 *   TH_TASKLET_FN(t)      the function the WARN names, as a code address
 *   TH_TASKLET_FN_KIND(t) "func" or "callback", as the WARN says it
 *   TH_TASKLET_SCHED_BUG  1: a listed tasklet without SCHED is a BUG()
 *                         (v4.14 .. v5.x); 0: tasklet_clear_sched()'s
 *                         WARN_ONCE and the call skipped (v6.1)
 *   TH_TASKLET_GEN_NAME   "legacy" / "transitional" / "modern", for messages
 */
#include <stdio.h>

struct TH_TP(tasklet_head) TH_TP(tasklet_vec)[TH_NR_CPUS];
struct TH_TP(tasklet_head) TH_TP(tasklet_hi_vec)[TH_NR_CPUS];

/* irq_stat[cpu].__softirq_pending: the raised softirqs of each CPU. */
static unsigned long softirq_pending_[TH_NR_CPUS];
/* Inside tasklet_action_common() (softirqs do not nest on a CPU). */
static bool in_tasklet_softirq_;

/* softirq_init() (kernel/softirq.c, v6.1): tail = &head on every CPU. Run at
 * start-up as the kernel runs it at boot, and again by a test to start over. */
void TH_TP(softirq_init)(void)
{
	for (unsigned int cpu = 0; cpu < TH_NR_CPUS; cpu++) {
		TH_TP(tasklet_vec)[cpu].head = NULL;
		TH_TP(tasklet_vec)[cpu].tail = &TH_TP(tasklet_vec)[cpu].head;
		TH_TP(tasklet_hi_vec)[cpu].head = NULL;
		TH_TP(tasklet_hi_vec)[cpu].tail = &TH_TP(tasklet_hi_vec)[cpu].head;
		softirq_pending_[cpu] = 0;
	}
}

__attribute__((constructor)) static void softirq_boot(void)
{
	TH_TP(softirq_init)();
}

bool TH_TP(softirq_pending)(unsigned int cpu, unsigned int nr)
{
	return cpu < TH_NR_CPUS && (softirq_pending_[cpu] >> nr & 1);
}

/* __raise_softirq_irqoff(): or_softirq_pending(1UL << nr) on this CPU. */
static void raise_softirq_irqoff(unsigned int nr)
{
	softirq_pending_[th_this_cpu()] |= 1UL << nr;
}

/* __tasklet_schedule_common() (kernel/softirq.c, v6.1): append at the tail
 * of this CPU's list, raise the softirq. */
static void tasklet_schedule_common(TH_TASKLET *t, struct TH_TP(tasklet_head) *vec,
				    unsigned int softirq_nr)
{
	struct TH_TP(tasklet_head) *head = &vec[th_this_cpu()];

	/* local_irq_save(flags); head = this_cpu_ptr(headp); */
	t->next = NULL;
	*head->tail = t;
	head->tail = &(t->next);
	raise_softirq_irqoff(softirq_nr);
	/* local_irq_restore(flags); */
}

/* tasklet_schedule() (include/linux/interrupt.h, v6.1; the same since 2.6):
 * a tasklet already SCHED is not queued twice. */
void TH_TP(tasklet_schedule)(TH_TASKLET *t)
{
	if (!th_test_and_set_bit(TASKLET_STATE_SCHED, &t->state))
		tasklet_schedule_common(t, TH_TP(tasklet_vec), TASKLET_SOFTIRQ);
}

void TH_TP(tasklet_hi_schedule)(TH_TASKLET *t)
{
	if (!th_test_and_set_bit(TASKLET_STATE_SCHED, &t->state))
		tasklet_schedule_common(t, TH_TP(tasklet_hi_vec), HI_SOFTIRQ);
}

/* tasklet_trylock() (include/linux/interrupt.h, v6.1, CONFIG_SMP). */
int TH_TP(tasklet_trylock)(TH_TASKLET *t)
{
	return !th_test_and_set_bit(TASKLET_STATE_RUN, &(t)->state);
}

/* tasklet_unlock() (kernel/softirq.c, v6.1, CONFIG_SMP): clear_bit(RUN),
 * then wake_up_var(&t->state), which has no waiter here (one CPU at a time:
 * nobody can be in tasklet_unlock_wait()). */
void TH_TP(tasklet_unlock)(TH_TASKLET *t)
{
	t->state &= ~(1UL << TASKLET_STATE_RUN);
}

/* tasklet_disable_nosync() / tasklet_enable() (interrupt.h, v6.1). */
void TH_TP(tasklet_disable_nosync)(TH_TASKLET *t)
{
	t->count.counter++;
}

void TH_TP(tasklet_enable)(TH_TASKLET *t)
{
	t->count.counter--;
}

/* tasklet_disable() (interrupt.h, v6.1): disable_nosync(), then
 * tasklet_unlock_wait(): wait_var_event() until RUN is clear. RUN is set only
 * while this CPU's softirq runs the tasklet, so a wait from inside it (its
 * own callback) would never end: refused, the count left raised as the
 * kernel's would be. */
int TH_TP(tasklet_disable)(TH_TASKLET *t)
{
	char buf[128];

	TH_TP(tasklet_disable_nosync)(t);
	if (th_test_bit(TASKLET_STATE_RUN, &t->state)) {
		th_warn("tasklet_disable(%p): TASKLET_STATE_RUN is set (%s %s): "
			"tasklet_unlock_wait() would wait for ever on this CPU (%s)",
			(void *)t, TH_TASKLET_FN_KIND(t),
			th_symbolize(TH_TASKLET_FN(t), buf, sizeof(buf)), TH_TASKLET_GEN_NAME);
		return TH_EPENDING;
	}
	return 0;
}

#if TH_TASKLET_SCHED_BUG
/*
 * tasklet_action() (v4.14; tasklet_action_common() v4.18 .. v5.8):
 *   if (!test_and_clear_bit(TASKLET_STATE_SCHED, &t->state)) BUG();
 * BUG() is ud2: the process dies by SIGILL. Out of line (the kernel's is
 * inline) so that this ud2 is never taken for the CFI check of the
 * dispatch it sits beside; the oops names this function.
 */
th_cold __attribute__((noreturn)) static void tasklet_sched_bug(TH_TASKLET *t)
{
	fprintf(stderr, "TH-NOTE: kernel BUG at kernel/softirq.c: tasklet %p on the list "
		"without TASKLET_STATE_SCHED (%s)\n", (void *)t, TH_TASKLET_GEN_NAME);
	fflush(stderr);
	__builtin_trap();
}

static bool tasklet_clear_sched(TH_TASKLET *t)
{
	if (!th_test_and_clear_bit(TASKLET_STATE_SCHED, &t->state))
		tasklet_sched_bug(t);
	return true;
}
#else
/* tasklet_clear_sched() (kernel/softirq.c, v6.1): clear SCHED and
 * wake_up_var() (no waiter here), or WARN_ONCE and skip the call. */
static bool tasklet_clear_sched(TH_TASKLET *t)
{
	static bool warned_;
	char buf[128];

	if (th_test_and_clear_bit(TASKLET_STATE_SCHED, &t->state))
		return true;
	if (!warned_) {
		warned_ = true;
		th_warn("tasklet SCHED state not set: %s %s", TH_TASKLET_FN_KIND(t),
			th_symbolize(TH_TASKLET_FN(t), buf, sizeof(buf)));
	}
	return false;
}
#endif

/*
 * tasklet_action_common() (kernel/softirq.c, v6.1; v4.18+, and v4.14's
 * tasklet_action() has the same loop): take this CPU's whole list, run each
 * tasklet that is not running elsewhere and not disabled, put the others
 * back and raise the softirq again. Out of line on purpose: its indirect
 * call is the CFI check site the harness measures ("CFI failure at
 * tasklet_action_common" on a kCFI kernel), found by this function's name.
 */
static th_noinline long tasklet_action_common(struct TH_TP(tasklet_head) *tl_head,
					      unsigned int softirq_nr)
{
	TH_TASKLET *list;
	long ran = 0;

	/* local_irq_disable(); */
	list = tl_head->head;
	tl_head->head = NULL;
	tl_head->tail = &tl_head->head;
	/* local_irq_enable(); */

	while (list) {
		TH_TASKLET *t = list;

		list = list->next;

		if (TH_TP(tasklet_trylock)(t)) {
			if (!TH_OPAQUE(t->count.counter)) {
				if (tasklet_clear_sched(t)) {
					TH_TASKLET_CALL(t);
					ran++;
				}
				TH_TP(tasklet_unlock)(t);
				continue;
			}
			TH_TP(tasklet_unlock)(t);
		}

		/* local_irq_disable(); */
		t->next = NULL;
		*tl_head->tail = t;
		tl_head->tail = &t->next;
		raise_softirq_irqoff(softirq_nr);
		/* local_irq_enable(); */
	}
	return ran;
}

/* __do_softirq() clears the pending bits before it runs the handlers
 * (set_softirq_pending(0)); then tasklet_action() / tasklet_hi_action(). */
static long run_softirq(struct TH_TP(tasklet_head) *vec, unsigned int softirq_nr)
{
	unsigned int cpu = th_this_cpu();
	long ran;

	if (in_tasklet_softirq_)
		return -1;
	softirq_pending_[cpu] &= ~(1UL << softirq_nr);
	in_tasklet_softirq_ = true;
	ran = tasklet_action_common(&vec[cpu], softirq_nr);
	in_tasklet_softirq_ = false;
	return ran;
}

long TH_TP(tasklet_action)(void)
{
	return run_softirq(TH_TP(tasklet_vec), TASKLET_SOFTIRQ);
}

long TH_TP(tasklet_hi_action)(void)
{
	return run_softirq(TH_TP(tasklet_hi_vec), HI_SOFTIRQ);
}

static int check_list(const struct TH_TP(tasklet_head) *h, const char *name,
		      unsigned int cpu, char *err, size_t n)
{
	TH_TASKLET *const *link = &h->head;
	size_t steps = 0;

	while (*link) {
		const TH_TASKLET *t = *link;

		if (++steps > (1u << 20)) {
			snprintf(err, n, "%s[%u]: no end after %zu tasklets (a cycle through ->next?)",
				 name, cpu, steps - 1);
			return -1;
		}
		if (!th_test_bit(TASKLET_STATE_SCHED, &t->state)) {
			snprintf(err, n, "%s[%u]: tasklet %p is listed without TASKLET_STATE_SCHED",
				 name, cpu, (const void *)t);
			return -1;
		}
		link = &t->next;
	}
	if (h->tail != link) {
		snprintf(err, n, "%s[%u]: tail %p is not the last ->next (%p)", name, cpu,
			 (void *)h->tail, (const void *)link);
		return -1;
	}
	return 0;
}

int TH_TP(tasklets_check)(char *err, size_t n)
{
	for (unsigned int cpu = 0; cpu < TH_NR_CPUS; cpu++) {
		if (check_list(&TH_TP(tasklet_vec)[cpu], "tasklet_vec", cpu, err, n) ||
		    check_list(&TH_TP(tasklet_hi_vec)[cpu], "tasklet_hi_vec", cpu, err, n))
			return -1;
	}
	return 0;
}
