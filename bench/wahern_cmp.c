// SPDX-License-Identifier: MIT
/*
 * The modern wheel against wahern/timeout (github.com/wahern/timeout), one
 * process, the same draws: the timings, instruction counts and cache and
 * branch simulations of bench/README.md, "Against wahern/timeout". Not built by CMake (it needs
 * wahern's timeout.c, which is not in this tree); the build and the
 * valgrind commands are in the README.
 *
 *   wahern_cmp modern|wahern N add|mod|del [shuffled|array [DMIN]]
 *   wahern_cmp time N REPS [shuffled|array|fresh [DMIN]]
 *
 * Every timer is set up (untimed), then armed at now + d_add[i] in visiting
 * order (cmp_add_*); `mod` then re-arms each pending timer to now + d_mod[i]
 * (cmp_mod_*), `del` deletes each (cmp_del_*). Only the phase asked for is
 * collected: valgrind --toggle-collect=cmp_<op>_<modern|wahern>. Draws: bench.c's splitmix64
 * stream for N and seed 42, d in [1, 2^20); now = TH_INITIAL_JIFFIES(1000)
 * for both (wahern's clock is moved there first with timeouts_update()).
 * DMIN (default 1) narrows the draws to [DMIN, 2^20): 262144 puts every
 * timer on the kernel's level 5 (HZ 1000) and on wahern's wheel 3.
 * `time` runs both in one process, REPS repetitions alternating which goes
 * first, each op's ns (thread CPU time) per op, fresh structures (below
 * 1e5 timers, rounds of them up to 1e5 ops); the ratio taken within each
 * repetition, the median printed. `fresh`: every round of a repetition
 * has its own draws (the same rounds for both), where otherwise the rounds
 * below 1e5 timers repeat one sequence of N draws.
 * debugobjects off (th_debugobj_enable(false)), as the bench runs it.
 */
#define TH_NO_KERNEL_NAMES
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "th/compiler.h"
#include "th/timer_modern.h"
#include "timeout.h"
#include "lib/stats.h"

#define SPREAD (1UL << 20)

static uint32_t n, *d_add, *d_mod, *order;
static unsigned long dmin = 1;
static int fresh;	/* time: new draws for every round (the same for both) */
static unsigned long now;
static struct timer_base base;
static struct modern_timer_list *kt;
static struct timeouts *T;
static struct timeout *wt;
static long sink;

static void fire(struct modern_timer_list *t)
{
	(void)t;
}

static void draw(uint64_t *state)
{
	for (uint32_t i = 0; i < n; i++) {
		d_add[i] = (uint32_t)(dmin + th_splitmix64(state) % (SPREAD - dmin));
		d_mod[i] = (uint32_t)(dmin + th_splitmix64(state) % (SPREAD - dmin));
	}
}

/* ---- the phases: what is collected ---------------------------------------- */

/* -DCMP_PREFETCH=K: each loop prefetches the timer K visits ahead (an
 * experiment on the harness's side: the timer's line then arrives early). */
#ifdef CMP_PREFETCH
#define PF(t)	do { if (k + CMP_PREFETCH < n) __builtin_prefetch(&(t)[order[k + CMP_PREFETCH]], 1); } while (0)
#else
#define PF(t)	do { } while (0)
#endif

static th_noinline long cmp_add_modern(void)
{
	long s = 0;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		PF(kt);
		s += modern_mod_timer(&kt[i], now + d_add[i]);
	}
	return s;
}

static th_noinline long cmp_mod_modern(void)
{
	long s = 0;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		PF(kt);
		s += modern_mod_timer(&kt[i], now + d_mod[i]);
	}
	return s;
}

static th_noinline long cmp_del_modern(void)
{
	long s = 0;

	for (uint32_t k = 0; k < n; k++) {
		PF(kt);
		s += modern_del_timer(&kt[order[k]]);
	}
	return s;
}

static th_noinline long cmp_add_wahern(void)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		PF(wt);
		timeouts_add(T, &wt[i], d_add[i]);
	}
	return 0;
}

static th_noinline long cmp_mod_wahern(void)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];

		PF(wt);
		timeouts_add(T, &wt[i], d_mod[i]);
	}
	return 0;
}

static th_noinline long cmp_del_wahern(void)
{
	for (uint32_t k = 0; k < n; k++) {
		PF(wt);
		timeouts_del(T, &wt[order[k]]);
	}
	return 0;
}

/* Distinct buckets holding timers, and the share of timers in the fullest
 * level (kernel: level 5 at HZ 1000; wahern: wheel 3). */
static void buckets(int modern)
{
	static unsigned char seen[1 << 16];
	unsigned int distinct = 0;

	memset(seen, 0, sizeof(seen));
	for (uint32_t i = 0; i < n; i++) {
		size_t b;

		if (modern)
			b = (kt[i].flags & TIMER_ARRAYMASK) >> TIMER_ARRAYSHIFT;
		else
			b = ((uintptr_t)wt[i].pending >> 4) & 0xffff;	/* a 16 B list head */
		if (!seen[b]) {
			seen[b] = 1;
			distinct++;
		}
	}
	fprintf(stderr, "%s n=%u: %u distinct buckets hold the timers\n",
		modern ? "modern" : "wahern", n, distinct);
}

/* ---- time: both in one process, interleaved ------------------------------ */

static void reset_modern(void)
{
	th_base_release(&base);
	if (th_base_init(&base, 0, 1000, now) || th_set_cpu(0))
		exit(1);
	for (uint32_t i = 0; i < n; i++)
		modern_timer_setup(&kt[i], fire, 0);
}

static void reset_wahern(void)
{
	int err = 0;

	if (T)
		timeouts_close(T);
	T = timeouts_open(1000, &err);
	if (!T)
		exit(1);
	timeouts_update(T, now);
	for (uint32_t i = 0; i < n; i++)
		timeout_init(&wt[i], 0);
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per op of add, mod, del over @rounds fresh structures. */
static void time_impl(int modern, uint32_t rounds, double ns[3])
{
	double t0;

	uint64_t state = 7;

	ns[0] = ns[1] = ns[2] = 0;
	for (uint32_t r = 0; r < rounds; r++) {
		if (fresh)
			draw(&state);	/* untimed; the same sequence for both */
		modern ? reset_modern() : reset_wahern();
		t0 = cpu_ns();
		sink += modern ? cmp_add_modern() : cmp_add_wahern();
		ns[0] += cpu_ns() - t0;
		t0 = cpu_ns();
		sink += modern ? cmp_mod_modern() : cmp_mod_wahern();
		ns[1] += cpu_ns() - t0;
		t0 = cpu_ns();
		sink += modern ? cmp_del_modern() : cmp_del_wahern();
		ns[2] += cpu_ns() - t0;
	}
	for (int o = 0; o < 3; o++)
		ns[o] /= (double)rounds * n;
}

/* Each repetition times both (the order alternating), the ratio taken
 * within it; the medians over @reps are printed. */
static void time_both(int reps)
{
	static const char *ops[3] = { "add", "mod", "del" };
	uint32_t rounds = n >= 100000 ? 1 : (100000 + n - 1) / n;
	double m[3][128], w[3][128], q[3][128];

	if (reps > 128)
		reps = 128;
	kt = aligned_alloc(64, ((size_t)n * sizeof(*kt) + 63) & ~(size_t)63);
	wt = aligned_alloc(64, ((size_t)n * sizeof(*wt) + 63) & ~(size_t)63);
	th_debugobj_enable(false);
	for (int r = 0; r < reps; r++) {
		double a[3], b[3];

		if (r % 2) {
			time_impl(0, rounds, b);
			time_impl(1, rounds, a);
		} else {
			time_impl(1, rounds, a);
			time_impl(0, rounds, b);
		}
		for (int o = 0; o < 3; o++) {
			m[o][r] = a[o];
			w[o][r] = b[o];
			q[o][r] = a[o] / b[o];
		}
	}
	for (int o = 0; o < 3; o++) {
		double mm = th_median(m[o], (size_t)reps), wm = th_median(w[o], (size_t)reps), lo, hi;

		qsort(q[o], (size_t)reps, sizeof(double), th_cmp_double);
		lo = q[o][0];
		hi = q[o][reps - 1];
		/* th_median() sorted m[] and w[]: [0] is the fastest repetition. */
		printf("n=%u %s: modern %.1f ns, wahern %.1f ns, modern/wahern %.2fx (%.2f-%.2f), "
		       "fastest %.1f / %.1f = %.2fx, %d reps\n", n, ops[o], mm, wm, th_median(q[o], (size_t)reps),
		       lo, hi, m[o][0], w[o][0], m[o][0] / w[o][0], reps);
	}
}

int main(int argc, char **argv)
{
	uint64_t state;
	int modern, op, err = 0;

	if (argc < 4 || (strcmp(argv[1], "modern") && strcmp(argv[1], "wahern") &&
			 strcmp(argv[1], "time"))) {
		fprintf(stderr, "usage: wahern_cmp modern|wahern N add|mod|del [shuffled|array [DMIN]]\n"
			"       wahern_cmp time N REPS [shuffled|array|fresh [DMIN]]\n");
		return 2;
	}
	modern = !strcmp(argv[1], "modern");
	n = (uint32_t)strtoul(argv[2], NULL, 0);
	op = !strcmp(argv[3], "add") ? 0 : !strcmp(argv[3], "mod") ? 1 : 2;
	if (argc > 5)
		dmin = strtoul(argv[5], NULL, 0);
	if (!n || dmin < 1 || dmin >= SPREAD) {
		fprintf(stderr, "wahern_cmp: N must be > 0 and DMIN in [1, 2^20)\n");
		return 2;
	}
	state = 42 ^ ((uint64_t)n * 0xd1b54a32d192ed03ULL);	/* bench.c's stream for N */
	d_add = malloc(n * sizeof(*d_add));
	d_mod = malloc(n * sizeof(*d_mod));
	order = malloc(n * sizeof(*order));
	draw(&state);
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	fresh = argc > 4 && !strcmp(argv[4], "fresh");
	if (argc > 4 && !strcmp(argv[4], "shuffled"))
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(th_splitmix64(&state) % (i + 1)), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
	now = TH_INITIAL_JIFFIES(1000);
	fprintf(stderr, "sizeof(struct modern_timer_list) %zu, sizeof(struct timeout) %zu\n",
		sizeof(struct modern_timer_list), sizeof(struct timeout));

	if (!strcmp(argv[1], "time")) {
		time_both(atoi(argv[3]));
		fprintf(stderr, "(%ld)\n", sink);
		return 0;
	}
	if (modern) {
		th_debugobj_enable(false);	/* as in a production kernel, and the bench */
		kt = aligned_alloc(64, ((size_t)n * sizeof(*kt) + 63) & ~(size_t)63);
		if (th_base_init(&base, 0, 1000, now) || th_set_cpu(0))
			return 1;
		for (uint32_t i = 0; i < n; i++)
			modern_timer_setup(&kt[i], fire, 0);
		sink += cmp_add_modern();
		buckets(1);
		if (op == 1)
			sink += cmp_mod_modern();
		else if (op == 2)
			sink += cmp_del_modern();
	} else {
		wt = aligned_alloc(64, ((size_t)n * sizeof(*wt) + 63) & ~(size_t)63);
		T = timeouts_open(1000, &err);
		if (!T)
			return 1;
		timeouts_update(T, now);
		for (uint32_t i = 0; i < n; i++)
			timeout_init(&wt[i], 0);
		sink += cmp_add_wahern();
		buckets(0);
		if (op == 1)
			sink += cmp_mod_wahern();
		else if (op == 2)
			sink += cmp_del_wahern();
	}
	printf("%ld\n", sink);
	return 0;
}
