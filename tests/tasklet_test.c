/* SPDX-License-Identifier: MIT */
/*
 * tasklet_core: the three generations' layouts, tasklet_schedule() and the
 * per-CPU tasklet_vec list (FIFO by its tail), SCHED (no double queueing),
 * RUN and count (requeued, the softirq raised again), tasklet_clear_sched()
 * (6.1: WARN_ONCE, the call skipped; before 5.9: BUG()), the transitional
 * dispatch chosen by use_callback, and the list checker.
 * Run one case: tasklet_test CASE (CTest registers one test per case).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define TH_NO_KERNEL_NAMES
#include "th/tasklet_legacy.h"
#include "th/tasklet_modern.h"
#include "th/tasklet_transitional.h"

#define CHECK(P) do {							\
	char err_[256];							\
	if (P##tasklets_check(err_, sizeof(err_)))			\
		fail_msg("line %d: tasklet lists inconsistent: %s", __LINE__, err_); \
} while (0)

/* What the callbacks saw, in order. */
static uintptr_t seen[16];
static unsigned int nseen;

static void note(uintptr_t v)
{
	if (nseen < sizeof(seen) / sizeof(seen[0]))
		seen[nseen++] = v;
}

static int reset(void **state)
{
	(void)state;
	legacy_softirq_init();
	transitional_softirq_init();
	modern_softirq_init();
	nseen = 0;
	memset(seen, 0, sizeof(seen));
	th_warn_set_quiet(true);
	return 0;
}

static void legacy_fn(unsigned long data) { note(data); }
static void transitional_fn(unsigned long data) { note(data); }
static void transitional_cb(struct transitional_tasklet_struct *t) { note((uintptr_t)t); }
static void modern_cb(struct modern_tasklet_struct *t) { note((uintptr_t)t); }

/* ---- layouts: x86-64, as include/linux/interrupt.h has them ------------ */
static void layout_legacy(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct legacy_tasklet_struct, next), 0);
	assert_int_equal(offsetof(struct legacy_tasklet_struct, state), 8);
	assert_int_equal(offsetof(struct legacy_tasklet_struct, count), 16);
	assert_int_equal(offsetof(struct legacy_tasklet_struct, func), 24);
	assert_int_equal(offsetof(struct legacy_tasklet_struct, data), 32);
	assert_int_equal(sizeof(struct legacy_tasklet_struct), 40);
}

static void layout_transitional(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct transitional_tasklet_struct, next), 0);
	assert_int_equal(offsetof(struct transitional_tasklet_struct, state), 8);
	assert_int_equal(offsetof(struct transitional_tasklet_struct, count), 16);
	assert_int_equal(offsetof(struct transitional_tasklet_struct, use_callback), 20);
	assert_int_equal(offsetof(struct transitional_tasklet_struct, func), 24);
	assert_int_equal(offsetof(struct transitional_tasklet_struct, callback), 24);
	assert_int_equal(offsetof(struct transitional_tasklet_struct, data), 32);
	assert_int_equal(sizeof(struct transitional_tasklet_struct), 40);
}

static void layout_modern(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct modern_tasklet_struct, next), 0);
	assert_int_equal(offsetof(struct modern_tasklet_struct, state), 8);
	assert_int_equal(offsetof(struct modern_tasklet_struct, count), 16);
	assert_int_equal(offsetof(struct modern_tasklet_struct, callback), 24);
	assert_int_equal(sizeof(struct modern_tasklet_struct), 32);
}

/* ---- schedule: SCHED set once, FIFO through the tail, softirq raised ---- */
static void schedule_once_fifo(void **state)
{
	struct legacy_tasklet_struct t[3];

	(void)state;
	for (int i = 0; i < 3; i++)
		legacy_tasklet_init(&t[i], legacy_fn, 100 + i);
	assert_false(legacy_softirq_pending(0, TASKLET_SOFTIRQ));
	legacy_tasklet_schedule(&t[0]);
	legacy_tasklet_schedule(&t[1]);
	legacy_tasklet_schedule(&t[0]);		/* SCHED: not queued twice */
	legacy_tasklet_schedule(&t[2]);
	CHECK(legacy_);
	assert_true(legacy_softirq_pending(0, TASKLET_SOFTIRQ));
	assert_ptr_equal(legacy_tasklet_vec[0].head, &t[0]);
	assert_ptr_equal(t[0].next, &t[1]);
	assert_ptr_equal(t[1].next, &t[2]);
	assert_ptr_equal(legacy_tasklet_vec[0].tail, &t[2].next);
	assert_int_equal(t[0].state, 1UL << TASKLET_STATE_SCHED);

	assert_int_equal(legacy_tasklet_action(), 3);
	CHECK(legacy_);
	assert_false(legacy_softirq_pending(0, TASKLET_SOFTIRQ));
	assert_int_equal(nseen, 3);
	assert_int_equal(seen[0], 100);
	assert_int_equal(seen[1], 101);
	assert_int_equal(seen[2], 102);
	for (int i = 0; i < 3; i++)
		assert_int_equal(t[i].state, 0);	/* SCHED and RUN clear */
	assert_null(legacy_tasklet_vec[0].head);
	assert_int_equal(legacy_tasklet_action(), 0);	/* one-shot */
}

/* The hi list is its own: tasklet_action() does not run it. */
static void hi_list_apart(void **state)
{
	struct modern_tasklet_struct a, b;

	(void)state;
	modern_tasklet_setup(&a, modern_cb);
	modern_tasklet_setup(&b, modern_cb);
	modern_tasklet_hi_schedule(&a);
	modern_tasklet_schedule(&b);
	assert_true(modern_softirq_pending(0, HI_SOFTIRQ));
	assert_true(modern_softirq_pending(0, TASKLET_SOFTIRQ));
	CHECK(modern_);
	assert_int_equal(modern_tasklet_action(), 1);
	assert_int_equal(nseen, 1);
	assert_int_equal(seen[0], (uintptr_t)&b);
	assert_int_equal(modern_tasklet_hi_action(), 1);
	assert_int_equal(seen[1], (uintptr_t)&a);
	CHECK(modern_);
}

/* ---- count: a disabled tasklet stays listed and re-raises the softirq -- */
static void disabled_requeued(void **state)
{
	struct transitional_tasklet_struct a, b;

	(void)state;
	transitional_tasklet_setup(&a, transitional_cb);
	transitional_tasklet_setup(&b, transitional_cb);
	assert_int_equal(transitional_tasklet_disable(&a), 0);
	assert_int_equal(a.count.counter, 1);
	transitional_tasklet_schedule(&a);
	transitional_tasklet_schedule(&b);
	assert_int_equal(transitional_tasklet_action(), 1);
	assert_int_equal(seen[0], (uintptr_t)&b);
	/* a: put back at the tail, still SCHED, the softirq raised again. */
	assert_ptr_equal(transitional_tasklet_vec[0].head, &a);
	assert_true(a.state & (1UL << TASKLET_STATE_SCHED));
	assert_false(a.state & (1UL << TASKLET_STATE_RUN));
	assert_true(transitional_softirq_pending(0, TASKLET_SOFTIRQ));
	CHECK(transitional_);
	transitional_tasklet_enable(&a);
	assert_int_equal(transitional_tasklet_action(), 1);
	assert_int_equal(seen[1], (uintptr_t)&a);
	assert_false(transitional_softirq_pending(0, TASKLET_SOFTIRQ));
	CHECK(transitional_);
}

/* ---- RUN: a tasklet running elsewhere (trylock fails) is requeued ------ */
static void running_requeued(void **state)
{
	struct legacy_tasklet_struct t;

	(void)state;
	legacy_tasklet_init(&t, legacy_fn, 7);
	legacy_tasklet_schedule(&t);
	assert_int_equal(legacy_tasklet_trylock(&t), 1);	/* "another CPU" runs it */
	assert_int_equal(legacy_tasklet_trylock(&t), 0);
	assert_int_equal(legacy_tasklet_action(), 0);
	assert_ptr_equal(legacy_tasklet_vec[0].head, &t);
	assert_true(legacy_softirq_pending(0, TASKLET_SOFTIRQ));
	legacy_tasklet_unlock(&t);
	assert_int_equal(legacy_tasklet_action(), 1);
	assert_int_equal(seen[0], 7);
	CHECK(legacy_);
}

/* A callback that schedules itself runs again on the next softirq, not in
 * this one (the list was taken whole); one that disables itself would wait
 * for ever in tasklet_unlock_wait(): refused. One that runs the softirq
 * from inside it is refused (softirqs do not nest). */
static struct modern_tasklet_struct self_t;
static long inner_action;
static int inner_disable;

static void modern_self(struct modern_tasklet_struct *t)
{
	note((uintptr_t)t);
	if (nseen == 1) {
		modern_tasklet_schedule(t);
		inner_action = modern_tasklet_action();
		inner_disable = modern_tasklet_disable(t);
		modern_tasklet_enable(t);
	}
}

static void callback_reschedules(void **state)
{
	(void)state;
	modern_tasklet_setup(&self_t, modern_self);
	modern_tasklet_schedule(&self_t);
	assert_int_equal(modern_tasklet_action(), 1);
	assert_int_equal(inner_action, -1);
	assert_int_equal(inner_disable, TH_EPENDING);
	assert_int_equal(self_t.count.counter, 0);
	assert_int_equal(nseen, 1);
	assert_ptr_equal(modern_tasklet_vec[0].head, &self_t);
	CHECK(modern_);
	assert_int_equal(modern_tasklet_action(), 1);
	assert_int_equal(nseen, 2);
	assert_null(modern_tasklet_vec[0].head);
}

/* ---- per-CPU lists: a tasklet runs on the CPU that scheduled it -------- */
static void per_cpu_lists(void **state)
{
	static struct timer_base b0, b1;
	struct legacy_tasklet_struct a, b;

	(void)state;
	assert_int_equal(th_base_init(&b0, 0, 1000, 0), 0);
	assert_int_equal(th_base_init(&b1, 1, 1000, 0), 0);
	legacy_tasklet_init(&a, legacy_fn, 1);
	legacy_tasklet_init(&b, legacy_fn, 2);
	legacy_tasklet_schedule(&a);
	assert_int_equal(th_set_cpu(1), 0);
	legacy_tasklet_schedule(&b);
	assert_true(legacy_softirq_pending(1, TASKLET_SOFTIRQ));
	assert_int_equal(legacy_tasklet_action(), 1);
	assert_int_equal(seen[0], 2);
	assert_int_equal(th_set_cpu(0), 0);
	assert_int_equal(legacy_tasklet_action(), 1);
	assert_int_equal(seen[1], 1);
	CHECK(legacy_);
	th_base_release(&b1);
	th_base_release(&b0);
}

/* ---- transitional: one byte chooses the call and its type -------------- */
static void transitional_dispatch(void **state)
{
	struct transitional_tasklet_struct s, i, d;

	(void)state;
	transitional_tasklet_setup(&s, transitional_cb);
	assert_true(s.use_callback);
	assert_int_equal(s.data, 0);
	transitional_tasklet_init(&i, transitional_fn, 0x1234);
	assert_false(i.use_callback);
	/* d: set up with tasklet_setup(), then use_callback cleared and
	 * func/data written, as an overflow would: the softirq calls
	 * func(data) (v6.1 tasklet_action_common()'s else branch). */
	transitional_tasklet_setup(&d, transitional_cb);
	d.use_callback = false;
	d.func = transitional_fn;
	d.data = 0x407f0;
	transitional_tasklet_schedule(&s);
	transitional_tasklet_schedule(&i);
	transitional_tasklet_schedule(&d);
	assert_int_equal(transitional_tasklet_action(), 3);
	assert_int_equal(seen[0], (uintptr_t)&s);
	assert_int_equal(seen[1], 0x1234);
	assert_int_equal(seen[2], 0x407f0);
	CHECK(transitional_);
}

/* from_tasklet(): container_of, the callback's way back to its object. */
struct holder {
	char name[16];
	struct modern_tasklet_struct t;
};

static void holder_cb(struct modern_tasklet_struct *t)
{
	struct holder *h = modern_from_tasklet(h, t, t);

	note((uintptr_t)h);
}

static void from_tasklet_container(void **state)
{
	struct holder h;

	(void)state;
	modern_tasklet_setup(&h.t, holder_cb);
	modern_tasklet_schedule(&h.t);
	assert_int_equal(modern_tasklet_action(), 1);
	assert_int_equal(seen[0], (uintptr_t)&h);
}

/* ---- tasklet_clear_sched() (v6.1): listed without SCHED -> WARN_ONCE, the
 * call skipped, the list walked on -------------------------------------- */
static void clear_sched_warns(void **state)
{
	struct transitional_tasklet_struct a, b;
	unsigned long w0 = th_warn_count();

	(void)state;
	transitional_tasklet_setup(&a, transitional_cb);
	transitional_tasklet_setup(&b, transitional_cb);
	transitional_tasklet_schedule(&a);
	transitional_tasklet_schedule(&b);
	a.state = 0;			/* a write that clears the state word */
	assert_int_not_equal(transitional_tasklets_check((char[128]){0}, 128), 0);
	assert_int_equal(transitional_tasklet_action(), 1);
	assert_int_equal(nseen, 1);
	assert_int_equal(seen[0], (uintptr_t)&b);
	assert_int_equal(th_warn_count(), w0 + 1);
	assert_int_equal(a.state, 0);	/* RUN released */
	CHECK(transitional_);
}

/* Before 5.9: BUG() (ud2), the process dies by SIGILL. */
static void legacy_sched_bug(void **state)
{
	pid_t pid;
	int st = 0;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct legacy_tasklet_struct t;

		/* The kernel's outcome, not cmocka's handler (inherited). */
		signal(SIGILL, SIG_DFL);
		legacy_tasklet_init(&t, legacy_fn, 1);
		legacy_tasklet_schedule(&t);
		t.state = 0;
		legacy_tasklet_action();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGILL);
	assert_int_equal(nseen, 0);
}

/* ---- the checker sees a broken list: a cycle, a tail not at the end ---- */
static void checker_catches_corruption(void **state)
{
	struct legacy_tasklet_struct a, b;
	char err[256];

	(void)state;
	legacy_tasklet_init(&a, legacy_fn, 1);
	legacy_tasklet_init(&b, legacy_fn, 2);
	legacy_tasklet_schedule(&a);
	legacy_tasklet_schedule(&b);
	CHECK(legacy_);
	b.next = &a;				/* a write through ->next */
	assert_int_equal(legacy_tasklets_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cycle"));
	b.next = NULL;
	legacy_tasklet_vec[0].tail = &a.next;
	assert_int_equal(legacy_tasklets_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tail"));
	legacy_tasklet_vec[0].tail = &b.next;
	CHECK(legacy_);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(layout_legacy, reset),
		cmocka_unit_test_setup(layout_transitional, reset),
		cmocka_unit_test_setup(layout_modern, reset),
		cmocka_unit_test_setup(schedule_once_fifo, reset),
		cmocka_unit_test_setup(hi_list_apart, reset),
		cmocka_unit_test_setup(disabled_requeued, reset),
		cmocka_unit_test_setup(running_requeued, reset),
		cmocka_unit_test_setup(callback_reschedules, reset),
		cmocka_unit_test_setup(per_cpu_lists, reset),
		cmocka_unit_test_setup(transitional_dispatch, reset),
		cmocka_unit_test_setup(from_tasklet_container, reset),
		cmocka_unit_test_setup(clear_sched_warns, reset),
		cmocka_unit_test_setup(legacy_sched_bug, reset),
		cmocka_unit_test_setup(checker_catches_corruption, reset),
	};

	if (argc > 1) {
		if (!strcmp(argv[1], "--list")) {
			for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
				printf("%s\n", tests[i].name);
			return 0;
		}
		cmocka_set_test_filter(argv[1]);
	}
	return cmocka_run_group_tests_name("tasklet", tests, NULL, NULL);
}
