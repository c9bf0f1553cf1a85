// SPDX-License-Identifier: MIT
/* The baseline in the benchmark: the indexed binary min-heap (heap.c) as a
 * struct bench_impl, given exactly the wheel's work. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_impl.h"
#include "heap.h"
#include "th/compiler.h"
#include "th/kernel.h"

static struct th_heap heap;
static unsigned long heap_fired;
static struct bench_late *cur_late;
static uint64_t heap_now;		/* the time th_heap_run() was called with */
static uint64_t prev_expiry;
static unsigned long order_errors;

static void heap_fire(struct th_heap_timer *t)
{
	(void)t;
	heap_fired++;
}

static void heap_fire_check(struct th_heap_timer *t)
{
	heap_fired++;
	if (time_before((unsigned long)t->expires, (unsigned long)prev_expiry))
		order_errors++;
	prev_expiry = t->expires;
	/* The heap pops at the time it is run with: exactly the expiry when
	 * run every jiffy, up to a step late otherwise. */
	bench_late_add(cur_late, (unsigned long)heap_now, (unsigned long)t->expires);
}

static void setup_all(struct th_heap_timer *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		th_heap_timer_setup(&t[i], check ? heap_fire_check : heap_fire);
}

static int arm_all(struct th_heap_timer *t, const struct bench_work *w, const uint32_t *d, int was)
{
	for (uint32_t k = 0; k < w->n; k++) {
		uint32_t i = w->order[k];
		int ret = th_heap_mod(&heap, &t[i], w->start + d[i]);

		if (ret != was)
			return bench_fail("heap: arming timer %u returned %d, expected %d", i, ret, was);
	}
	return 0;
}

static int check_heap(const char *when)
{
	char err[256];

	if (th_heap_check(&heap, err, sizeof(err)))
		return bench_fail("heap inconsistent %s: %s", when, err);
	return 0;
}

/* OP_STEP: pop every w->step jiffies up to w->end, as the wheel steps. */
static long run_stepping(const struct bench_work *w)
{
	unsigned long now = w->start;
	long sum = 0;

	do {
		now = w->end - now <= w->step ? w->end : now + w->step;
		heap_now = now;
		sum += (long)th_heap_run(&heap, now);
	} while (now != w->end);
	return sum;
}

static int heap_init(uint32_t n_max)
{
	return th_heap_init(&heap, n_max) ? bench_fail("heap: no room for %u timers", n_max) : 0;
}

static void heap_fini(void)
{
	th_heap_free(&heap);
}

static int heap_reset(void *timers, const struct bench_work *w)
{
	th_heap_clear(&heap);
	setup_all(timers, w->n, false);
	return 0;
}

static int heap_validate(void *timers, const struct bench_work *w, struct bench_late late[NR_MODE])
{
	struct th_heap_timer *t = timers;

	th_heap_clear(&heap);
	setup_all(t, w->n, true);
	if (arm_all(t, w, w->d_add, 0) || check_heap("after add") ||
	    arm_all(t, w, w->d_mod, 1) || check_heap("after mod"))
		return -1;
	for (uint32_t k = 0; k < w->n; k++)
		if (th_heap_del(&heap, &t[w->order[k]]) != 1)
			return bench_fail("heap: del of queued timer %u did not find it", w->order[k]);
	if (heap.n != 0)
		return bench_fail("heap: %u timers left after deleting all", heap.n);
	for (int mode = 0; mode < NR_MODE; mode++) {
		long ran;

		th_heap_clear(&heap);
		setup_all(t, w->n, true);
		if (arm_all(t, w, w->d_add, 0))
			return -1;
		memset(&late[mode], 0, sizeof(late[mode]));
		cur_late = &late[mode];
		prev_expiry = w->start;
		order_errors = 0;
		heap_now = w->end;
		ran = mode == MODE_JUMP ? (long)th_heap_run(&heap, w->end) : run_stepping(w);
		cur_late = NULL;
		if (ran != (long)w->n || late[mode].fired != w->n || heap.n != 0)
			return bench_fail("heap: %s popped %ld timers, expected %u",
					  mode == MODE_JUMP ? "running once" : "stepping", ran, w->n);
		if (order_errors)
			return bench_fail("heap: %lu timers popped out of expiry order", order_errors);
		if (late[mode].early)
			return bench_fail("heap: %lu timers popped before their expiry", late[mode].early);
	}
	return 0;
}

/* Timed (and counted): one phase, out of line like the wheel's. */
static th_noinline long heap_phase(void *timers, const struct bench_work *w, enum bench_op op)
{
	struct th_heap_timer *t = timers;
	const uint32_t *order = w->order;
	const uint64_t start = w->start;
	long sum = 0;

	switch (op) {
	case OP_ADD:
	case OP_MOD: {
		const uint32_t *d = op == OP_ADD ? w->d_add : w->d_mod;

		for (uint32_t k = 0; k < w->n; k++) {
			uint32_t i = order[k];

			sum += th_heap_mod(&heap, &t[i], start + d[i]);
		}
		break;
	}
	case OP_DEL:
		for (uint32_t k = 0; k < w->n; k++)
			sum += th_heap_del(&heap, &t[order[k]]);
		break;
	case OP_EXPIRE:
		sum = (long)th_heap_run(&heap, w->end);
		break;
	case OP_STEP:
		sum = run_stepping(w);
		break;
	case NR_OP:
		break;
	}
	return sum;
}

const struct bench_impl bench_heap = {
	.name = "heap", .label = "heap (binary, indexed)", .wheel = false,
	.timer_size = sizeof(struct th_heap_timer),
	.api = { [OP_ADD] = "th_heap_mod", [OP_MOD] = "th_heap_mod", [OP_DEL] = "th_heap_del",
		 [OP_EXPIRE] = "th_heap_run", [OP_STEP] = "th_heap_run" },
	.init = heap_init, .fini = heap_fini, .validate = heap_validate,
	.reset = heap_reset, .phase = heap_phase,
};
