// SPDX-License-Identifier: MIT
/*
 * `timerharness bench`: what the wheel costs per operation, for each timer
 * variant, against an indexed binary min-heap (heap.c) given the same work.
 *
 * Workload, per N (number of pending timers): each timer is armed at
 * now + d, d uniform in [1, 2^20) jiffies (1 ms .. ~17 min at HZ 1000),
 * drawn from a seeded RNG; the same draws feed every variant and the heap.
 *   add    mod_timer() on an inactive timer
 *   mod    mod_timer() on a pending timer, to a fresh draw
 *   del    del_timer() on a pending timer
 *   expire run until all N have fired; callbacks only count. The wheel runs
 *          once to the jiffy of its last collection; the heap pops the
 *          minimum until every timer is past. Reported per timer.
 * Timers live in one preallocated array and are visited in array order.
 *
 * Method: an untimed pass first checks every result, the whole structure
 * after each phase (timers_check(), th_heap_check()) and every expiry (never
 * early); the three wheel variants must agree on when the last bucket is
 * collected. Then --reps timed samples, the implementations interleaved
 * (rotated each repetition) so drift hits all alike, each timed sample right
 * after an untimed one of the same implementation (warm caches). A sample at
 * small N is the median of enough rounds (each on a fresh wheel or heap) to
 * make MIN_SAMPLE_OPS operations per phase. The median sample is reported, in
 * ns per operation; wheel/heap ratios are the median of per-repetition ratios.
 */
#define TH_NO_KERNEL_NAMES
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "heap.h"
#include "th/compiler.h"
#include "th/timer_modern.h"
#include "th/timer_transitional.h"

#define BENCH_HZ	1000
#define BENCH_CPU	0
#define SPREAD_BITS	20
#define SPREAD		(1UL << SPREAD_BITS)	/* expiries in [1, SPREAD) from now */

#define DEFAULT_REPS	7
#define QUICK_REPS	3
#define MAX_REPS	100
#define DEFAULT_SEED	42
#define MIN_N		100u	/* below, clock_gettime() would be the cost */
#define MAX_N		10000000u
#define MAX_SIZES	8
#define MIN_SAMPLE_OPS	100000u	/* small N: repeat rounds up to this */
#define MAX_ROUNDS	(MIN_SAMPLE_OPS / MIN_N)

/*
 * The bar: what hierarchical wheel libraries do on this machine at 1e6
 * pending timers; and a wheel that expires slower than a heap has no
 * reason to exist.
 */
#define BAR_N		1000000u
#define BAR_ADD_NS	14.0
#define BAR_DEL_NS	3.0

static const uint32_t full_sizes[] = { 1000, 100000, 1000000 };
static const uint32_t quick_sizes[] = { 1000, 10000 };

enum impl { IMPL_LEGACY, IMPL_TRANSITIONAL, IMPL_MODERN, IMPL_HEAP, NR_IMPL };
#define NR_WHEEL	IMPL_HEAP
static const char *const impl_name[NR_IMPL] = {
	[IMPL_LEGACY] = "legacy",
	[IMPL_TRANSITIONAL] = "transitional",
	[IMPL_MODERN] = "modern",
	[IMPL_HEAP] = "heap",
};

enum op { OP_ADD, OP_MOD, OP_DEL, OP_EXPIRE, NR_OP };
static const char *const op_name[NR_OP] = { "add", "mod", "del", "expire" };

struct workload {
	uint32_t n;
	uint32_t rounds;	/* per sample: n * rounds >= MIN_SAMPLE_OPS */
	unsigned long start;	/* jiffies when the timers are armed */
	uint32_t *d_add;	/* delta of each timer's first expiry */
	uint32_t *d_mod;	/* delta it is re-armed to */
	unsigned long wheel_end;	/* jiffy of the wheel's last collection */
	uint64_t heap_end;	/* the latest expiry */
};

/* How late the wheel fired, over one validation run (in jiffies). */
struct lateness {
	unsigned long fired, early;
	unsigned long sum, max;
	unsigned long last_clk;
};

struct options {
	unsigned int reps;
	uint64_t seed;
	bool quick;
	uint32_t sizes[MAX_SIZES];
	unsigned int nsizes;
};

static struct timer_base bench_base;
/* Callbacks count here: the minimal work, and proof that each one ran. */
static unsigned long bench_fired;
/* Results are summed into it so no timed call can be optimised away. */
static unsigned long bench_sink;
/* Set during validation runs: where checking callbacks report. */
static struct lateness *bench_late;
static uint64_t heap_prev_expiry;
static unsigned long heap_order_errors;

/* "timerharness bench: <what><message><tail>" on stderr. */
__attribute__((format(printf, 2, 0)))
static void say(const char *what, const char *fmt, va_list ap, const char *tail)
{
	fprintf(stderr, "timerharness bench: %s", what);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
}

__attribute__((format(printf, 1, 2)))
static int bench_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("FAILED: ", fmt, ap, "\n");
	va_end(ap);
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: seeds and draws; plenty for uniform deltas. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int wheel_reset(const struct workload *w)
{
	th_base_release(&bench_base);
	if (th_base_init(&bench_base, BENCH_CPU, BENCH_HZ, w->start) ||
	    th_set_cpu(BENCH_CPU))
		return bench_fail("cannot attach a timer base as CPU %d", BENCH_CPU);
	return 0;
}

/* ---- callbacks ----------------------------------------------------------- */

static void wheel_fired_check(unsigned long expires)
{
	struct lateness *l = bench_late;
	unsigned long clk = th_this_base()->running_clk;
	long late = (long)(clk - expires);

	bench_fired++;
	if (!l)
		return;
	if (!l->fired++ || time_after(clk, l->last_clk))
		l->last_clk = clk;
	if (late < 0) {
		l->early++;
		return;
	}
	l->sum += (unsigned long)late;
	if ((unsigned long)late > l->max)
		l->max = (unsigned long)late;
}

static void legacy_fire(unsigned long data)
{
	(void)data;
	bench_fired++;
}

static void legacy_fire_check(unsigned long data)
{
	wheel_fired_check(((struct legacy_timer_list *)(uintptr_t)data)->expires);
}

static void transitional_fire(struct legacy_timer_list *t)
{
	(void)t;
	bench_fired++;
}

static void transitional_fire_check(struct legacy_timer_list *t)
{
	wheel_fired_check(t->expires);
}

static void modern_fire(struct modern_timer_list *t)
{
	(void)t;
	bench_fired++;
}

static void modern_fire_check(struct modern_timer_list *t)
{
	wheel_fired_check(t->expires);
}

static void heap_fire(struct th_heap_timer *t)
{
	(void)t;
	bench_fired++;
}

static void heap_fire_check(struct th_heap_timer *t)
{
	if (time_before(t->expires, heap_prev_expiry))
		heap_order_errors++;
	heap_prev_expiry = t->expires;
	bench_fired++;
}

/* ---- setup (untimed) ----------------------------------------------------- */

static void legacy_setup_all(struct legacy_timer_list *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		legacy___setup_timer(&t[i], check ? legacy_fire_check : legacy_fire,
				     (unsigned long)(uintptr_t)&t[i], 0);
}

static void transitional_setup_all(struct legacy_timer_list *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		transitional_timer_setup(&t[i], check ? transitional_fire_check : transitional_fire, 0);
}

static void modern_setup_all(struct modern_timer_list *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		modern_timer_setup(&t[i], check ? modern_fire_check : modern_fire, 0);
}

/* ---- the wheels: bench_wheel_impl.h once per layout ---------------------- */

#define BW_TIMER	struct legacy_timer_list
#define BW_P(name)	legacy_##name
#define BW_B(name)	bw_legacy_##name
#include "bench_wheel_impl.h"
#undef BW_TIMER
#undef BW_P
#undef BW_B

#define BW_TIMER	struct modern_timer_list
#define BW_P(name)	modern_##name
#define BW_B(name)	bw_modern_##name
#include "bench_wheel_impl.h"
#undef BW_TIMER
#undef BW_P
#undef BW_B

/* ---- the heap ------------------------------------------------------------ */

static void heap_setup_all(struct th_heap_timer *t, uint32_t n, bool check)
{
	for (uint32_t i = 0; i < n; i++)
		th_heap_timer_setup(&t[i], check ? heap_fire_check : heap_fire);
}

static int heap_arm_all(struct th_heap *h, struct th_heap_timer *t, const struct workload *w,
			const uint32_t *d, int was)
{
	for (uint32_t i = 0; i < w->n; i++) {
		int ret = th_heap_mod(h, &t[i], w->start + d[i]);

		if (ret != was)
			return bench_fail("heap: arming timer %u returned %d, expected %d", i, ret, was);
	}
	return 0;
}

static int heap_check_or_fail(const struct th_heap *h)
{
	char err[256];

	if (th_heap_check(h, err, sizeof(err)))
		return bench_fail("heap inconsistent: %s", err);
	return 0;
}

static int heap_validate(struct th_heap *h, struct th_heap_timer *t, struct workload *w)
{
	const uint32_t n = w->n;
	size_t ran;

	th_heap_clear(h);
	heap_setup_all(t, n, true);
	if (heap_arm_all(h, t, w, w->d_add, 0) || heap_check_or_fail(h) ||
	    heap_arm_all(h, t, w, w->d_mod, 1) || heap_check_or_fail(h))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (th_heap_del(h, &t[i]) != 1)
			return bench_fail("heap: del of queued timer %u did not find it", i);
	if (h->n != 0)
		return bench_fail("heap: %u timers left after deleting all", h->n);
	if (heap_arm_all(h, t, w, w->d_add, 0))
		return -1;

	w->heap_end = w->start;
	for (uint32_t i = 0; i < n; i++)
		if (time_after(w->start + w->d_add[i], w->heap_end))
			w->heap_end = w->start + w->d_add[i];
	heap_prev_expiry = w->start;
	heap_order_errors = 0;
	ran = th_heap_run(h, w->heap_end);
	if (ran != n || h->n != 0)
		return bench_fail("heap: popped %zu timers, expected %u", ran, n);
	if (heap_order_errors)
		return bench_fail("heap: %lu timers popped out of expiry order", heap_order_errors);
	return 0;
}

static int heap_sample(struct th_heap *h, struct th_heap_timer *t, const struct workload *w,
		       uint64_t *el)
{
	const uint32_t n = w->n;
	const uint64_t now = w->start;
	long sum_add = 0, sum_mod = 0, sum_del = 0;

	for (uint32_t r = 0; r < w->rounds; r++) {
		uint64_t *e = el + (size_t)r * NR_OP;
		unsigned long fired;
		uint64_t t0;
		size_t ran;

		th_heap_clear(h);
		heap_setup_all(t, n, false);

		t0 = now_ns();
		for (uint32_t i = 0; i < n; i++)
			sum_add += th_heap_mod(h, &t[i], now + w->d_add[i]);
		e[OP_ADD] = now_ns() - t0;

		t0 = now_ns();
		for (uint32_t i = 0; i < n; i++)
			sum_mod += th_heap_mod(h, &t[i], now + w->d_mod[i]);
		e[OP_MOD] = now_ns() - t0;

		t0 = now_ns();
		for (uint32_t i = 0; i < n; i++)
			sum_del += th_heap_del(h, &t[i]);
		e[OP_DEL] = now_ns() - t0;

		if (heap_arm_all(h, t, w, w->d_add, 0))
			return -1;
		fired = bench_fired;
		t0 = now_ns();
		ran = th_heap_run(h, w->heap_end);
		e[OP_EXPIRE] = now_ns() - t0;
		if (ran != n || bench_fired - fired != n)
			return bench_fail("heap: expire popped %zu timers, expected %u", ran, n);
	}
	if (sum_add != 0 || sum_mod != (long)n * w->rounds || sum_del != (long)n * w->rounds)
		return bench_fail("heap: unexpected returns: add sum %ld, mod %ld, del %ld",
				  sum_add, sum_mod, sum_del);
	TH_OPAQUE(bench_sink) += (unsigned long)(sum_add + sum_mod + sum_del);
	return 0;
}

/* ---- driver -------------------------------------------------------------- */

/* One array serves every implementation in turn (the largest layout sizes
 * it): a smaller footprint leaves more of the cache to the one measured. */
struct arena {
	void *timers;
	struct th_heap heap;
	uint32_t *d_add, *d_mod;
};

#define TIMER_SIZE_MAX \
	(sizeof(struct legacy_timer_list) > sizeof(struct th_heap_timer) ? \
	 sizeof(struct legacy_timer_list) : sizeof(struct th_heap_timer))
_Static_assert(sizeof(struct modern_timer_list) <= sizeof(struct legacy_timer_list),
	       "the arena is sized by the largest timer");

static int arena_alloc(struct arena *a, uint32_t n_max)
{
	size_t bytes = ((size_t)n_max * TIMER_SIZE_MAX + 63) & ~(size_t)63;

	memset(a, 0, sizeof(*a));
	a->timers = aligned_alloc(64, bytes);
	a->d_add = calloc(n_max, sizeof(*a->d_add));
	a->d_mod = calloc(n_max, sizeof(*a->d_mod));
	if (!a->timers || !a->d_add || !a->d_mod || th_heap_init(&a->heap, n_max))
		return bench_fail("out of memory for %u timers (%zu MiB)", n_max, bytes >> 20);
	/* Fault every page in now, not inside the first timed phase. */
	memset(a->timers, 0, bytes);
	return 0;
}

static void arena_free(struct arena *a)
{
	free(a->timers);
	free(a->d_add);
	free(a->d_mod);
	th_heap_free(&a->heap);
}

static void workload_init(struct workload *w, struct arena *a, uint32_t n, uint64_t seed)
{
	/* A stream per N: --quick and a full run see the same N=1000 draws. */
	uint64_t state = seed ^ ((uint64_t)n * 0xd1b54a32d192ed03ULL);

	w->n = n;
	w->rounds = n >= MIN_SAMPLE_OPS ? 1 : (MIN_SAMPLE_OPS + n - 1) / n;
	w->start = TH_INITIAL_JIFFIES(BENCH_HZ);
	w->d_add = a->d_add;
	w->d_mod = a->d_mod;
	for (uint32_t i = 0; i < n; i++) {
		w->d_add[i] = (uint32_t)(1 + rng_next(&state) % (SPREAD - 1));
		w->d_mod[i] = (uint32_t)(1 + rng_next(&state) % (SPREAD - 1));
	}
}

static int validate(enum impl im, struct arena *a, struct workload *w, struct lateness *late)
{
	switch (im) {
	case IMPL_LEGACY:
		return bw_legacy_validate(a->timers, w, legacy_setup_all, late, "legacy");
	case IMPL_TRANSITIONAL:
		return bw_legacy_validate(a->timers, w, transitional_setup_all, late, "transitional");
	case IMPL_MODERN:
		return bw_modern_validate(a->timers, w, modern_setup_all, late, "modern");
	case IMPL_HEAP:
		return heap_validate(&a->heap, a->timers, w);
	case NR_IMPL:
		break;
	}
	return -1;
}

static int sample(enum impl im, struct arena *a, const struct workload *w, uint64_t *el)
{
	switch (im) {
	case IMPL_LEGACY:
		return bw_legacy_sample(a->timers, w, legacy_setup_all, el, "legacy");
	case IMPL_TRANSITIONAL:
		return bw_legacy_sample(a->timers, w, transitional_setup_all, el, "transitional");
	case IMPL_MODERN:
		return bw_modern_sample(a->timers, w, modern_setup_all, el, "modern");
	case IMPL_HEAP:
		return heap_sample(&a->heap, a->timers, w, el);
	case NR_IMPL:
		break;
	}
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "1,000,000" */
static const char *fmt_n(uint64_t n, char *buf, size_t len)
{
	char digits[32];
	int nd = snprintf(digits, sizeof(digits), "%" PRIu64, n);
	size_t o = 0;

	for (int i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* One output line built piecewise; printed without trailing blanks. */
struct line {
	char buf[512];
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n : sizeof(l->buf) - l->len - 1;
}

static void line_put(struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	printf("%.*s\n", (int)l->len, l->buf);
	l->len = 0;
}

/* Where uniform deltas in [1, SPREAD) land: the share of each wheel level. */
static void print_level_shares(void)
{
	unsigned int depth = TH_LVL_DEPTH(BENCH_HZ);
	struct line l = { .len = 0 };
	char item[64];

	line_add(&l, "  levels  the draws land at");
	for (unsigned int lvl = depth; lvl-- > 0;) {
		unsigned long lo = lvl ? LVL_START(lvl) : 1;
		unsigned long hi = lvl + 1 < depth ? LVL_START(lvl + 1) : ~0UL;
		double share;

		if (hi > SPREAD)
			hi = SPREAD;
		if (lo >= hi)
			continue;
		share = 100.0 * (double)(hi - lo) / (double)(SPREAD - 1);
		if (share < 0.05)
			continue;
		if (hi == SPREAD) {
			snprintf(item, sizeof(item), " L%u %.1f%% (granularity %lu jiffies)",
				 lvl, share, LVL_GRAN(lvl));
		} else {
			snprintf(item, sizeof(item), ", L%u %.1f%% (%lu)", lvl, share, LVL_GRAN(lvl));
			if (l.len + strlen(item) > 86) {
				line_add(&l, ",");
				line_put(&l);
				line_add(&l, "         ");
				memmove(item, item + 1, strlen(item));	/* drop the comma */
			}
		}
		line_add(&l, "%s", item);
	}
	line_put(&l);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness bench [--quick] [--reps N] [--seed S] [--sizes N,...]\n"
		"\n"
		"Median ns/op of add, mod, del and expire on the timer wheel (variants legacy,\n"
		"transitional, modern) and on an indexed binary min-heap, at N pending timers.\n"
		"\n"
		"  --quick         smoke run: N = 1000 and 10000, %d repetitions (unless --reps)\n"
		"  --reps N        timed repetitions per cell, median reported (default %d; 1..%d)\n"
		"  --seed S        RNG seed for the expiries, decimal or 0x-hex (default %d)\n"
		"  --sizes N,...   numbers of pending timers (default 1000,100000,1000000;\n"
		"                  each %u..%u, at most %d)\n"
		"  -h, --help      this text\n"
		"\n"
		"Exit status: 0 ran (bars met or not), 1 a correctness check failed, 2 bad arguments.\n",
		QUICK_REPS, DEFAULT_REPS, MAX_REPS, DEFAULT_SEED, MIN_N, MAX_N, MAX_SIZES);
}

static int bad_arg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_arg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap, "\ntry 'timerharness bench --help'\n");
	va_end(ap);
	return 2;
}

/* A whole unsigned number, decimal or 0x-hex, no sign. Return: 0 or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_sizes(const char *s, struct options *o)
{
	o->nsizes = 0;
	for (const char *p = s;; p++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char tok[24];
		uint64_t v;

		if (o->nsizes == MAX_SIZES)
			return bad_arg("--sizes: at most %d sizes, got '%s'", MAX_SIZES, s);
		snprintf(tok, sizeof(tok), "%.*s", (int)len, p);
		if (len == 0 || len >= sizeof(tok) || parse_u64(tok, &v) || v < MIN_N || v > MAX_N)
			return bad_arg("--sizes: '%.*s' in '%s' is not a number of timers in %u..%u",
				       (int)len, p, s, MIN_N, MAX_N);
		o->sizes[o->nsizes++] = (uint32_t)v;
		if (!comma)
			return 0;
		p = comma;
	}
}

/* Return: 0 to run, 1 if --help was printed, 2 for bad arguments. */
static int parse_args(int argc, char **argv, struct options *o)
{
	bool reps_given = false, sizes_given = false;

	memset(o, 0, sizeof(*o));
	o->reps = DEFAULT_REPS;
	o->seed = DEFAULT_SEED;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		char name[32];
		uint64_t v;

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return 1;
		}
		if (!strcmp(arg, "--quick")) {
			o->quick = true;
			continue;
		}
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		if (strcmp(name, "--reps") && strcmp(name, "--seed") && strcmp(name, "--sizes"))
			return bad_arg("unknown argument '%s'", arg);
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return bad_arg("%s needs a value", name);

		if (!strcmp(name, "--reps")) {
			if (parse_u64(val, &v) || v < 1 || v > MAX_REPS)
				return bad_arg("--reps: expected a whole number 1..%d, got '%s'",
					       MAX_REPS, val);
			o->reps = (unsigned int)v;
			reps_given = true;
		} else if (!strcmp(name, "--seed")) {
			if (parse_u64(val, &v))
				return bad_arg("--seed: expected an unsigned 64-bit number (decimal or 0x-hex), got '%s'",
					       val);
			o->seed = v;
		} else {
			int ret = parse_sizes(val, o);

			if (ret)
				return ret;
			sizes_given = true;
		}
	}
	if (!sizes_given) {
		const uint32_t *s = o->quick ? quick_sizes : full_sizes;
		unsigned int n = o->quick ? sizeof(quick_sizes) / sizeof(*s)
					  : sizeof(full_sizes) / sizeof(*s);

		memcpy(o->sizes, s, n * sizeof(*s));
		o->nsizes = n;
	}
	if (o->quick && !reps_given)
		o->reps = QUICK_REPS;
	return 0;
}

/* One cell: an implementation's operation at one N, over the repetitions. */
struct cell {
	double med, min, max;	/* ns/op */
	double ratio;		/* wheel/heap: median of the per-repetition ratios */
};

struct results {
	struct cell c[MAX_SIZES][NR_IMPL][NR_OP];
	struct lateness late[MAX_SIZES];
};

static void print_ratio_row(const char *label, const struct cell *wheel)
{
	printf("  %-22s", label);
	for (int op = 0; op < NR_OP; op++)
		printf(" %8.2fx", wheel[op].ratio);
	printf("\n");
}

/* Validate every implementation at N = sizes[si], then time them. */
static int measure_size(unsigned int si, const struct options *o, struct arena *a,
			struct results *res)
{
	const unsigned int reps = o->reps;
	double *ns = calloc((size_t)NR_IMPL * NR_OP * reps, sizeof(*ns));
	double *ratio = calloc(reps > MAX_ROUNDS ? reps : MAX_ROUNDS, sizeof(*ratio));
	uint64_t *el = calloc((size_t)MAX_ROUNDS * NR_OP, sizeof(*el));
	struct workload w;
	unsigned long wheel_end = 0;
	char nb[32];
	int ret = -1;
#define NS(im, op)	(ns + ((size_t)(im) * NR_OP + (op)) * reps)

	if (!ns || !ratio || !el) {
		bench_fail("out of memory");
		goto out;
	}
	workload_init(&w, a, o->sizes[si], o->seed);

	for (int im = 0; im < NR_IMPL; im++) {
		struct lateness late;

		if (validate((enum impl)im, a, &w, &late))
			goto out;
		if (im == IMPL_LEGACY) {
			res->late[si] = late;
			wheel_end = w.wheel_end;
		} else if (im < NR_WHEEL && w.wheel_end != wheel_end) {
			bench_fail("N=%u: %s collects its last bucket at jiffy %lu, legacy at %lu",
				   w.n, impl_name[im], w.wheel_end, wheel_end);
			goto out;
		}
	}

	/* Rotate the order each repetition: no implementation always goes first. */
	for (unsigned int rep = 0; rep < reps; rep++) {
		for (int k = 0; k < NR_IMPL; k++) {
			enum impl im = (enum impl)((k + rep) % NR_IMPL);

			/* Untimed first: the timed sample then starts with the
			 * caches as this implementation leaves them, not as the
			 * previous one did (at N = 1e6, up to 2x on this machine). */
			if (sample(im, a, &w, el) || sample(im, a, &w, el))
				goto out;
			/* The median round: a preemption spoils one round, not the sample. */
			for (int op = 0; op < NR_OP; op++) {
				for (uint32_t r = 0; r < w.rounds; r++)
					ratio[r] = (double)el[(size_t)r * NR_OP + op] / w.n;
				NS(im, op)[rep] = median(ratio, w.rounds);
			}
		}
	}

	/* Ratios within a repetition, before the medians sort the samples: a
	 * slow spell of the machine then slows both sides of a ratio alike. */
	for (int im = 0; im < NR_WHEEL; im++) {
		for (int op = 0; op < NR_OP; op++) {
			for (unsigned int rep = 0; rep < reps; rep++)
				ratio[rep] = NS(im, op)[rep] / NS(IMPL_HEAP, op)[rep];
			res->c[si][im][op].ratio = median(ratio, reps);
		}
	}
	for (int im = 0; im < NR_IMPL; im++) {
		for (int op = 0; op < NR_OP; op++) {
			struct cell *c = &res->c[si][im][op];

			c->med = median(NS(im, op), reps);	/* sorts them */
			c->min = NS(im, op)[0];
			c->max = NS(im, op)[reps - 1];
		}
	}
#undef NS

	printf("N = %s", fmt_n(w.n, nb, sizeof(nb)));
	if (w.rounds > 1)
		printf(" (each sample: the median of %u rounds)", w.rounds);
	printf("\n");
	for (int im = 0; im < NR_IMPL; im++) {
		printf("  %-22s", im == IMPL_HEAP ? "heap (binary, indexed)" : impl_name[im]);
		for (int op = 0; op < NR_OP; op++)
			printf(" %9.1f", res->c[si][im][op].med);
		printf("\n");
	}
	for (int im = 0; im < NR_WHEEL; im++) {
		char label[32];

		snprintf(label, sizeof(label), "%s/heap", impl_name[im]);
		print_ratio_row(label, res->c[si][im]);
	}
	fflush(stdout);
	ret = 0;
out:
	free(ns);
	free(ratio);
	free(el);
	return ret;
}

static const char *verdict(bool met)
{
	return met ? "meets" : "misses";
}

/* "1e6" for a power of ten, else the digits: table headers. */
static const char *fmt_short(uint32_t n, char *buf, size_t len)
{
	uint32_t m = n;
	int e = 0;

	while (m >= 10 && m % 10 == 0) {
		m /= 10;
		e++;
	}
	if (m == 1 && e >= 3)
		snprintf(buf, len, "1e%d", e);
	else
		fmt_n(n, buf, len);
	return buf;
}

/* The bars, judged on the medians. */
static void print_bars(const struct options *o, const struct results *res)
{
	struct line l = { .len = 0 };
	int bar_si = -1;
	char nb[32], cell[32];

	for (unsigned int si = 0; si < o->nsizes; si++)
		if (o->sizes[si] == BAR_N)
			bar_si = (int)si;

	printf("\nbar: hierarchical wheel libraries do ~%.0f ns/add and ~%.0f ns/del at N = %s on this\n"
	       "     machine; a wheel's expiry per timer must not be slower than the heap's, at every N.\n",
	       BAR_ADD_NS, BAR_DEL_NS, fmt_short(BAR_N, nb, sizeof(nb)));
	line_add(&l, "  %-14s  add <= %-5.0f  del <= %-5.0f  expire <= heap", "", BAR_ADD_NS, BAR_DEL_NS);
	line_put(&l);
	line_add(&l, "  %-14s", "ns/op, median");
	for (int k = 0; k < 2; k++)
		line_add(&l, "  N = %-8s", fmt_short(BAR_N, nb, sizeof(nb)));
	for (unsigned int si = 0; si < o->nsizes; si++)
		line_add(&l, "  N = %-8s", fmt_short(o->sizes[si], nb, sizeof(nb)));
	line_put(&l);
	line_add(&l, "  %-14s  %-12s  %-12s", "heap", "", "");
	for (unsigned int si = 0; si < o->nsizes; si++)
		line_add(&l, "  %-12.1f", res->c[si][IMPL_HEAP][OP_EXPIRE].med);
	line_put(&l);
	for (int im = 0; im < NR_WHEEL; im++) {
		line_add(&l, "  %-14s", impl_name[im]);
		for (int k = 0; k < 2; k++) {
			int op = k ? OP_DEL : OP_ADD;
			double bar = k ? BAR_DEL_NS : BAR_ADD_NS;

			if (bar_si < 0) {
				line_add(&l, "  %-12s", "not judged");
				continue;
			}
			snprintf(cell, sizeof(cell), "%.1f %s", res->c[bar_si][im][op].med,
				 verdict(res->c[bar_si][im][op].med <= bar));
			line_add(&l, "  %-12s", cell);
		}
		for (unsigned int si = 0; si < o->nsizes; si++) {
			double v = res->c[si][im][OP_EXPIRE].med;

			snprintf(cell, sizeof(cell), "%.1f %s", v,
				 verdict(v <= res->c[si][IMPL_HEAP][OP_EXPIRE].med));
			line_add(&l, "  %-12s", cell);
		}
		line_put(&l);
	}
	if (bar_si < 0)
		printf("  (add and del are judged at N = %s only; this run has no such N%s)\n",
		       fmt_short(BAR_N, nb, sizeof(nb)), o->quick ? ": --quick" : "");
}

/* How much the repetitions disagreed: (max - min) / median of each cell. */
static void print_noise(const struct options *o, const struct results *res)
{
	double rel[MAX_SIZES * NR_IMPL * NR_OP], worst = -1;
	unsigned int n = 0, wsi = 0;
	int wim = 0, wop = 0;
	char nb[32];

	for (unsigned int si = 0; si < o->nsizes; si++)
		for (int im = 0; im < NR_IMPL; im++)
			for (int op = 0; op < NR_OP; op++) {
				const struct cell *c = &res->c[si][im][op];
				double r = c->med > 0 ? (c->max - c->min) / c->med : 0;

				rel[n++] = r;
				if (r > worst) {
					worst = r;
					wsi = si;
					wim = im;
					wop = op;
				}
			}
	printf("  noise   (max - min) / median over the %u repetitions: %.0f%% in the median cell,\n"
	       "          worst %.0f%% (%s %s, N = %s)\n",
	       o->reps, 100 * median(rel, n), 100 * worst, impl_name[wim], op_name[wop],
	       fmt_short(o->sizes[wsi], nb, sizeof(nb)));
}

static void print_notes(const struct options *o, const struct results *res)
{
	char nb[32];

	printf("\nnotes:\n"
	       "  add     mod_timer() on an inactive timer, at now + uniform [1, 2^%d) jiffies\n"
	       "  mod     mod_timer() of a pending timer to a fresh draw (the kernel's same-bucket\n"
	       "          shortcut applies when the new expiry lands in the timer's bucket)\n"
	       "  del     del_timer() of a pending timer\n"
	       "  expire  per timer: the wheel run once to its last collection (empty jiffies are\n"
	       "          skipped through the bitmap), the heap popped until every timer is past;\n"
	       "          callbacks only count\n"
	       "  x       wheel/heap, the median of per-repetition ratios (< 1: the wheel is faster)\n",
	       SPREAD_BITS);
	print_level_shares();
	printf("  *       the wheel fires late, by up to the granularity of the level a timer was\n"
	       "          queued at (never early); the heap fires exactly. Lateness measured, jiffies:\n");
	for (unsigned int si = 0; si < o->nsizes; si++) {
		const struct lateness *l = &res->late[si];

		printf("          N = %s: mean %.0f, max %lu\n", fmt_short(o->sizes[si], nb, sizeof(nb)),
		       l->fired ? (double)l->sum / (double)l->fired : 0.0, l->max);
	}
	print_noise(o, res);
}

int th_bench_main(int argc, char **argv)
{
	struct options o;
	struct results *res = NULL;
	struct arena a;
	bool was_debugobj;
	unsigned long warns;
	uint32_t n_max = 0;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	for (unsigned int si = 0; si < o.nsizes; si++)
		if (o.sizes[si] > n_max)
			n_max = o.sizes[si];

	res = calloc(1, sizeof(*res));
	if (!res || arena_alloc(&a, n_max)) {
		if (res)
			arena_free(&a);
		free(res);
		return 1;
	}
	was_debugobj = th_debugobj_enabled();
	th_debugobj_enable(false);
	warns = th_warn_count();

	printf("timerharness bench: the timer wheel (3 variants) vs an indexed binary min-heap\n");
	printf("  seed %" PRIu64 " (--seed), %u repetition%s (--reps), median reported; CLOCK_MONOTONIC%s\n",
	       o.seed, o.reps, o.reps == 1 ? "" : "s", o.quick ? "; --quick" : "");
	printf("  HZ %d (wheel depth %d); debugobjects off (a debug option, off in production kernels)\n",
	       BENCH_HZ, TH_LVL_DEPTH(BENCH_HZ));
	printf("  expiries uniform in [1, 2^%d) jiffies from now; timers in one preallocated\n"
	       "  array, visited in array order; each timed sample follows an untimed one\n",
	       SPREAD_BITS);
	printf("\nsizeof(struct timer_list): legacy %zu B, transitional %zu B, modern %zu B"
	       " (heap: %zu B timer + %zu B slot)\n\n",
	       sizeof(struct legacy_timer_list), sizeof(struct legacy_timer_list),
	       sizeof(struct modern_timer_list), sizeof(struct th_heap_timer),
	       sizeof(struct th_heap_slot));
	{
		char head[32];

		snprintf(head, sizeof(head), "ns/op, median of %u", o.reps);
		printf("%-24s", head);
	}
	for (int op = 0; op < NR_OP; op++)
		printf(" %9s", op_name[op]);
	printf("\n");
	fflush(stdout);

	ret = 0;
	for (unsigned int si = 0; si < o.nsizes && !ret; si++)
		if (measure_size(si, &o, &a, res))
			ret = 1;
	/* Every call here is legitimate: a WARN means the wheel refused one. */
	if (!ret && th_warn_count() != warns)
		ret = -bench_fail("the wheel refused %lu calls; the last WARN: %s",
				  th_warn_count() - warns, th_warn_last());
	if (!ret) {
		print_bars(&o, res);
		print_notes(&o, res);
	} else {
		printf("\nstopped: a correctness check failed (see stderr); no bar is judged.\n");
	}

	th_base_release(&bench_base);
	th_debugobj_enable(was_debugobj);
	arena_free(&a);
	free(res);
	return ret;
}
