// SPDX-License-Identifier: MIT
/*
 * `timerharness bench`: what the wheel costs per operation, for each timer
 * variant, against an indexed binary min-heap given the same work, as
 * ratios measured in the same run and as instructions per call.
 *
 * Workload, per N (number of pending timers): each timer is armed at
 * now + d, d uniform in [1, 2^20) jiffies (1 ms .. ~17 min at HZ 1000),
 * drawn from a seeded RNG; the same draws feed every variant and the heap.
 *   add     mod_timer() on an inactive timer
 *   mod     mod_timer() on a pending timer, to a fresh draw
 *   del     del_timer() on a pending timer
 *   expire  all N armed, then the wheel run once to the jiffy of its last
 *           collection, the heap popped to the same jiffy; per timer
 *   step    the same, run every --step jiffies (a tick) instead of once:
 *           idle ticks included; per timer
 * Timers live in one preallocated array, visited in array order or in one
 * shuffled order (--order), the same for every implementation.
 *
 * Method: an untimed pass first checks every result, the whole structure
 * after each phase (timers_check(), th_heap_check()) and every expiry in
 * both modes (never early; the last at the bucket calc_wheel_index() gives).
 * Then --reps timed samples, the implementations interleaved (rotated each
 * repetition) so that drift hits all alike, each right after an untimed one
 * of the same implementation (warm caches). A sample below 1e6 timers is
 * the median of several rounds, each on a fresh structure (stepping: one
 * round). Time is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), less the
 * cost of reading it. Ratios to the heap are taken within a repetition, then
 * the median over repetitions. Instructions are counted by valgrind's
 * callgrind in a separate run of th-bench-count, the same code built with
 * DWARF 4 (bench/README.md has the command); not a timing.
 */
#define _GNU_SOURCE
#define TH_NO_KERNEL_NAMES
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if TH_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#endif

#include "bench_impl.h"
#include "results/results_write.h"
#include "th/compiler.h"
#include "th/timer_base.h"
#include "lib/opts.h"
#include "lib/proc.h"
#include "lib/stats.h"

#ifndef TH_BENCH_CONFIG
#define TH_BENCH_CONFIG "none"	/* the hardening config the wheel was built with */
#endif
#ifndef TH_TOOLCHAIN
#define TH_TOOLCHAIN "clang"
#endif
#ifndef TH_VERSION
#define TH_VERSION "unknown"
#endif

#define BENCH_JSON_SCHEMA	"timerharness/bench/v1"
#define DEFAULT_REPS	7
#define QUICK_REPS	3
#define MAX_REPS	100
#define DEFAULT_SEED	42
#define MIN_N		100u	/* below, reading the clock would be the cost */
#define MAX_N		10000000u
#define MAX_SIZES	8
#define MIN_SAMPLE_OPS	100000u	/* below 1e6 timers, rounds up to this many ops */
#define MIN_ROUNDS	5u	/* ... and never fewer rounds */
#define ROUNDS_FROM	1000000u	/* from here on, one round (a phase >= 10 ms) */
#define MAX_ROUNDS	(MIN_SAMPLE_OPS / MIN_N)
#define COUNT_MAX_N	100000u	/* instructions are counted up to this N */
#define MAX_STEP	(SPREAD / 4)

static const uint32_t full_sizes[] = { 1000, 100000, 1000000 };
static const uint32_t quick_sizes[] = { 1000, 10000 };

static const struct bench_impl *const impls[] = {
	&bench_legacy, &bench_transitional, &bench_modern, &bench_heap,
};
#define NR_IMPL		((int)(sizeof(impls) / sizeof(impls[0])))
#define IMPL_HEAP	(NR_IMPL - 1)

/* Can this build run implementation @im (bench_impl.unavailable)? */
static bool impl_on(int im)
{
	return !impls[im]->unavailable;
}

static const char *const op_name[NR_OP] = { "add", "mod", "del", "expire", "step" };

struct options {
	unsigned int reps;
	uint64_t seed;
	bool quick, shuffled, instructions, count_child;
	unsigned long step;
	uint32_t sizes[MAX_SIZES];
	unsigned int nsizes;
	const char *json;
};

/* One cell: an implementation's operation at one N, over the repetitions. */
struct cell {
	double med, min, max;	/* ns/op */
	double ratio;		/* to the heap: median of the per-repetition ratios */
	double instr;		/* instructions per call (per timer: expire, step); NAN if not counted */
	bool instr_loop;	/* counted as the whole phase / n (the call was inlined) */
};

struct size_result {
	uint32_t n, rounds;
	struct cell c[NR_IMPL][NR_OP];
	struct bench_late late[NR_IMPL][NR_MODE];
};

struct results {
	struct size_result s[MAX_SIZES];
	double clock_ns;	/* the cost of one clock read, subtracted */
	char instr_status[256];	/* "" when counted, else why not */
};

/* The timers of every implementation, one after the other (sized for the
 * largest timer), and the draws. */
struct arena {
	void *timers;
	uint32_t *d_add, *d_mod, *order;
};

/* ---- messages -------------------------------------------------------------- */

__attribute__((format(printf, 2, 0)))
static void say(const char *what, const char *fmt, va_list ap, const char *tail)
{
	fprintf(stderr, "timerharness bench: %s", what);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
}

int bench_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("FAILED: ", fmt, ap, "\n");
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 1, 2)))
static int bad_arg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap, "\ntry 'timerharness bench --help'\n");
	va_end(ap);
	return 2;
}

void bench_late_add(struct bench_late *l, unsigned long ran_at, unsigned long expires)
{
	long late = (long)(ran_at - expires);

	if (!l->fired++ || time_after(ran_at, l->last))
		l->last = ran_at;
	if (late < 0) {
		l->early++;
		return;
	}
	l->sum += (unsigned long)late;
	if ((unsigned long)late > l->max)
		l->max = (unsigned long)late;
}

/* ---- time ------------------------------------------------------------------- */

/* The thread's CPU time: what another process or a migration does not add to. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What one clock read costs: the median gap between back-to-back reads. */
static double clock_overhead(void)
{
	double gap[501];
	uint64_t prev = cpu_ns();

	for (unsigned int i = 0; i < 501; i++) {
		uint64_t now = cpu_ns();

		gap[i] = (double)(now - prev);
		prev = now;
	}
	return th_median(gap, 501);
}

static double clock_ns;

/* One timed phase; adds its result to *sum. Return: nanoseconds. */
static double timed(const struct bench_impl *im, void *timers, const struct bench_work *w,
		    enum bench_op op, long *sum)
{
	uint64_t t0 = cpu_ns();
	double ns;

	*sum += im->phase(timers, w, op);
	ns = (double)(cpu_ns() - t0) - clock_ns;
	return ns > 0 ? ns : 0;
}

/* ---- workload ------------------------------------------------------------------ */

static uint32_t rounds_for(uint32_t n)
{
	uint32_t r;

	if (n >= ROUNDS_FROM)
		return 1;
	r = (MIN_SAMPLE_OPS + n - 1) / n;
	return r < MIN_ROUNDS ? MIN_ROUNDS : r > MAX_ROUNDS ? MAX_ROUNDS : r;
}

static void workload_init(struct bench_work *w, struct arena *a, uint32_t n,
			  const struct options *o)
{
	/* A stream per N: --quick and a full run see the same N=1000 draws. */
	uint64_t state = o->seed ^ ((uint64_t)n * 0xd1b54a32d192ed03ULL);
	unsigned int depth = TH_LVL_DEPTH(BENCH_HZ);

	w->n = n;
	w->start = TH_INITIAL_JIFFIES(BENCH_HZ);
	w->step = o->step;
	w->d_add = a->d_add;
	w->d_mod = a->d_mod;
	w->order = a->order;
	w->end = w->start;
	for (uint32_t i = 0; i < n; i++) {
		unsigned long be;

		a->d_add[i] = (uint32_t)(1 + th_splitmix64(&state) % (SPREAD - 1));
		a->d_mod[i] = (uint32_t)(1 + th_splitmix64(&state) % (SPREAD - 1));
		a->order[i] = i;
		/* Armed on a fresh wheel (clk = start): the bucket is collected
		 * at the bucket expiry; the last of them ends every expiry run. */
		th_calc_wheel_index(w->start + a->d_add[i], w->start, depth, &be);
		if (time_after(be, w->end))
			w->end = be;
	}
	if (o->shuffled)
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(th_splitmix64(&state) % (i + 1)), t = a->order[i];

			a->order[i] = a->order[j];
			a->order[j] = t;
		}
}

static int arena_alloc(struct arena *a, uint32_t n_max)
{
	size_t tsize = 0, bytes;

	for (int im = 0; im < NR_IMPL; im++)
		if (impls[im]->timer_size > tsize)
			tsize = impls[im]->timer_size;
	bytes = ((size_t)n_max * tsize + 63) & ~(size_t)63;
	memset(a, 0, sizeof(*a));
	a->timers = aligned_alloc(64, bytes);
	a->d_add = calloc(n_max, sizeof(*a->d_add));
	a->d_mod = calloc(n_max, sizeof(*a->d_mod));
	a->order = calloc(n_max, sizeof(*a->order));
	if (!a->timers || !a->d_add || !a->d_mod || !a->order)
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
	free(a->order);
}

/* ---- one sample ------------------------------------------------------------------ */

/*
 * @rounds rounds, each on a fresh structure: el[r * NR_OP + op] gets the
 * nanoseconds round r spent in phase op (OP_STEP: round 0 only, and only
 * if @step). Every call's result is summed and checked.
 */
static int sample(const struct bench_impl *im, void *timers, const struct bench_work *w,
		  uint32_t rounds, bool step, double *el)
{
	const long n = w->n;
	long sum[NR_OP] = { 0 };
	long unused = 0;

	for (uint32_t r = 0; r < rounds; r++) {
		double *e = el + (size_t)r * NR_OP;

		if (im->reset(timers, w))
			return -1;
		e[OP_ADD] = timed(im, timers, w, OP_ADD, &sum[OP_ADD]);
		e[OP_MOD] = timed(im, timers, w, OP_MOD, &sum[OP_MOD]);
		e[OP_DEL] = timed(im, timers, w, OP_DEL, &sum[OP_DEL]);
		unused += im->phase(timers, w, OP_ADD);
		e[OP_EXPIRE] = timed(im, timers, w, OP_EXPIRE, &sum[OP_EXPIRE]);
		if (r == 0 && step) {
			if (im->reset(timers, w))
				return -1;
			unused += im->phase(timers, w, OP_ADD);
			e[OP_STEP] = timed(im, timers, w, OP_STEP, &sum[OP_STEP]);
		}
	}
	/* Every add returns 0, every mod and del 1; every timer fires once
	 * per expiry. A refusal would be negative. */
	if (unused || sum[OP_ADD] || sum[OP_MOD] != n * rounds || sum[OP_DEL] != n * rounds ||
	    sum[OP_EXPIRE] != n * rounds || sum[OP_STEP] != (step ? n : 0))
		return bench_fail("%s: unexpected results: add %ld (want 0), mod %ld, del %ld, expire %ld "
				  "(want %ld), step %ld (want %ld)", im->name, sum[OP_ADD], sum[OP_MOD],
				  sum[OP_DEL], sum[OP_EXPIRE], n * rounds, sum[OP_STEP], step ? n : 0);
	return 0;
}

/* Validate every implementation at N = sizes[si], then time them. */
static int measure_size(unsigned int si, const struct options *o, struct arena *a,
			struct size_result *res)
{
	const unsigned int reps = o->reps;
	const uint32_t rounds = rounds_for(o->sizes[si]);
	double *ns = calloc((size_t)NR_IMPL * NR_OP * reps, sizeof(*ns));
	double *tmp = calloc(reps > MAX_ROUNDS ? reps : MAX_ROUNDS, sizeof(*tmp));
	double *el = calloc((size_t)MAX_ROUNDS * NR_OP, sizeof(*el));
	struct bench_work w;
	int ret = -1;
#define NS(im, op)	(ns + ((size_t)(im) * NR_OP + (op)) * reps)

	if (!ns || !tmp || !el) {
		bench_fail("out of memory");
		goto out;
	}
	workload_init(&w, a, o->sizes[si], o);
	res->n = w.n;
	res->rounds = rounds;
	for (int im = 0; im < NR_IMPL; im++)
		if (impl_on(im) && impls[im]->validate(a->timers, &w, res->late[im]))
			goto out;

	/* Rotate the order each repetition: no implementation always goes first. */
	for (unsigned int rep = 0; rep < reps; rep++) {
		for (int k = 0; k < NR_IMPL; k++) {
			int im = (k + (int)rep) % NR_IMPL;

			if (!impl_on(im))
				continue;
			/* Untimed first: the timed sample then starts with the
			 * caches as this implementation leaves them (stepping,
			 * ms long, needs no warming). */
			if (sample(impls[im], a->timers, &w, rounds, false, el) ||
			    sample(impls[im], a->timers, &w, rounds, true, el))
				goto out;
			/* The median round: a preemption spoils a round, not the sample. */
			for (int op = 0; op < NR_OP; op++) {
				uint32_t nr = op == OP_STEP ? 1 : rounds;

				for (uint32_t r = 0; r < nr; r++)
					tmp[r] = el[(size_t)r * NR_OP + op] / w.n;
				NS(im, op)[rep] = th_median(tmp, nr);
			}
		}
	}
	/* Ratios within a repetition, before the medians sort the samples: a
	 * slow spell of the machine slows both sides of a ratio alike. */
	for (int im = 0; im < NR_IMPL; im++)
		for (int op = 0; op < NR_OP; op++) {
			for (unsigned int rep = 0; rep < reps; rep++)
				tmp[rep] = NS(im, op)[rep] / NS(IMPL_HEAP, op)[rep];
			res->c[im][op].ratio = impl_on(im) ? th_median(tmp, reps) : NAN;
		}
	for (int im = 0; im < NR_IMPL; im++)
		for (int op = 0; op < NR_OP; op++) {
			struct cell *c = &res->c[im][op];

			c->med = th_median(NS(im, op), reps);	/* sorts them */
			c->min = NS(im, op)[0];
			c->max = NS(im, op)[reps - 1];
			c->instr = NAN;
			if (!impl_on(im))
				c->med = c->min = c->max = NAN;
		}
#undef NS
	ret = 0;
out:
	free(ns);
	free(tmp);
	free(el);
	return ret;
}

/* ---- instructions: callgrind ------------------------------------------------------ */

/*
 * The child's side, run under `valgrind --tool=callgrind --collect-atstart=no`
 * (count_instructions()): every phase of every implementation once per N,
 * collected alone and dumped under a label the parent parses.
 */
static int count_child(const struct options *o, struct arena *a)
{
#if TH_HAVE_CALLGRIND_H
	for (unsigned int si = 0; si < o->nsizes; si++) {
		struct bench_work w;

		workload_init(&w, a, o->sizes[si], o);
		for (int im = 0; im < NR_IMPL; im++) {
			const struct bench_impl *b = impls[im];
			long sum = 0;

			if (!impl_on(im))
				continue;
			for (int op = 0; op < NR_OP; op++) {
				char label[96];

				/* A fresh structure; expire and step find all armed. */
				if (op == OP_ADD || op == OP_STEP)
					if (b->reset(a->timers, &w))
						return 1;
				if (op == OP_EXPIRE || op == OP_STEP)
					sum += b->phase(a->timers, &w, OP_ADD);
				CALLGRIND_TOGGLE_COLLECT;
				sum += b->phase(a->timers, &w, (enum bench_op)op);
				CALLGRIND_TOGGLE_COLLECT;
				snprintf(label, sizeof(label), "th-bench n=%u impl=%s op=%s", w.n, b->name,
					 op_name[op]);
				CALLGRIND_DUMP_STATS_AT(label);
			}
			TH_OPAQUE(sum) += 0;
		}
	}
	return 0;
#else
	(void)o;
	(void)a;
	fprintf(stderr, "timerharness bench: built without valgrind/callgrind.h\n");
	return 1;
#endif
}

/* One callgrind dump: its label, the collected total, and the inclusive
 * cost of the calls to the function an op's phase calls. */
struct dump {
	uint32_t n;
	int impl, op;
	unsigned long long calls, incl, total;
};

/* "th-bench n=1000 impl=modern op=mod" -> n, impl, op. Return: 0 or -1. */
static int parse_label(const char *s, struct dump *d)
{
	char impl[32], op[16];

	if (sscanf(s, "th-bench n=%" SCNu32 " impl=%31s op=%15s", &d->n, impl, op) != 3)
		return -1;
	d->impl = d->op = -1;
	for (int i = 0; i < NR_IMPL; i++)
		if (!strcmp(impls[i]->name, impl))
			d->impl = i;
	for (int i = 0; i < NR_OP; i++)
		if (!strcmp(op_name[i], op))
			d->op = i;
	return d->impl < 0 || d->op < 0 ? -1 : 0;
}

/*
 * A callgrind output file (--compress-strings=no): `cfn=NAME`, then
 * `calls=COUNT ...`, then a cost line `POSITION INCLUSIVE`. Return: 0 with
 * *d filled (calls and incl of the op's API function), or -1.
 */
static int parse_dump(const char *path, struct dump *d)
{
	FILE *f = fopen(path, "r");
	char line[4096], callee[256] = "";
	bool labelled = false, after_calls = false;
	unsigned long long calls = 0;

	if (!f)
		return -1;
	memset(d, 0, sizeof(*d));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (after_calls) {
			unsigned long long pos, cost;

			after_calls = false;
			if (sscanf(line, "%llu %llu", &pos, &cost) == 2 && labelled &&
			    !strcmp(callee, impls[d->impl]->api[d->op])) {
				d->calls += calls;
				d->incl += cost;
			}
		} else if (!strncmp(line, "desc: Trigger: Client Request: ", 31)) {
			labelled = !parse_label(line + 31, d);
		} else if (!strncmp(line, "summary: ", 9)) {
			d->total = strtoull(line + 9, NULL, 10);
		} else if (!strncmp(line, "cfn=", 4)) {
			snprintf(callee, sizeof(callee), "%s", line + 4);
		} else if (!strncmp(line, "calls=", 6)) {
			calls = strtoull(line + 6, NULL, 10);
			after_calls = true;
		}
	}
	fclose(f);
	return labelled ? 0 : -1;
}

/* The counting executable: the same sources built with DWARF 4 (callgrind
 * cannot read clang's DWARF 5). */
static const char *count_exe(void)
{
	const char *env = getenv("TH_BENCH_COUNT_EXE");

	if (env && *env)
		return env;
#ifdef TH_BENCH_COUNT_EXE
	return TH_BENCH_COUNT_EXE;
#else
	return NULL;
#endif
}

/*
 * Count the instructions of every phase at each N <= COUNT_MAX_N: run
 * th-bench-count under callgrind, read one dump per phase. On failure
 * res->instr_status says why (the timings stand; this is not a timing).
 */
static void count_instructions(const struct options *o, struct results *res)
{
	char dir[] = "/tmp/th-bench-XXXXXX", out[64], log[64], sizes[160] = "", seed[32], step[32];
	const char *exe = count_exe();
	char *argv[24];
	int argc = 0, status, counted = 0;
	bool keep_log = false;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	for (unsigned int si = 0; si < o->nsizes; si++)
		if (o->sizes[si] <= COUNT_MAX_N)
			snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%u",
				 *sizes ? "," : "", o->sizes[si]);
	if (!*sizes) {
		snprintf(res->instr_status, sizeof(res->instr_status),
			 "not counted: every N is above %u", COUNT_MAX_N);
		return;
	}
	if (!exe || access(exe, X_OK)) {
		snprintf(res->instr_status, sizeof(res->instr_status),
			 "not counted: no counting executable (%s)", exe ? exe : "not built");
		return;
	}
	if (!mkdtemp(dir)) {
		snprintf(res->instr_status, sizeof(res->instr_status), "not counted: mkdtemp: %s",
			 strerror(errno));
		return;
	}
	snprintf(out, sizeof(out), "--callgrind-out-file=%s/cg", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	snprintf(seed, sizeof(seed), "%" PRIu64, o->seed);
	snprintf(step, sizeof(step), "%lu", o->step);
	argv[argc++] = "valgrind";
	argv[argc++] = "--tool=callgrind";
	argv[argc++] = "-q";
	argv[argc++] = "--collect-atstart=no";
	argv[argc++] = "--compress-strings=no";
	argv[argc++] = "--compress-pos=no";
	argv[argc++] = out;
	argv[argc++] = (char *)exe;
	argv[argc++] = "--count-child";
	argv[argc++] = "--sizes";
	argv[argc++] = sizes;
	argv[argc++] = "--seed";
	argv[argc++] = seed;
	argv[argc++] = "--step";
	argv[argc++] = step;
	argv[argc++] = "--order";
	argv[argc++] = o->shuffled ? "shuffled" : "array";
	argv[argc] = NULL;

	fflush(NULL);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	status = posix_spawnp(&pid, "valgrind", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (status) {
		snprintf(res->instr_status, sizeof(res->instr_status), "not counted: valgrind: %s%s",
			 strerror(status), status == ENOENT ? " (install valgrind)" : "");
	} else if (th_wait_child(pid, &status)) {
		snprintf(res->instr_status, sizeof(res->instr_status), "not counted: waitpid: %s",
			 strerror(errno));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(res->instr_status, sizeof(res->instr_status),
			 "not counted: valgrind exited with %d (its output: %s)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), log);
		keep_log = true;
	}
	for (int part = 1;; part++) {
		char path[96];
		struct dump d;
		struct cell *c = NULL;

		snprintf(path, sizeof(path), "%s/cg.%d", dir, part);
		if (access(path, F_OK))
			break;
		if (!keep_log && !parse_dump(path, &d)) {
			for (unsigned int si = 0; si < o->nsizes; si++)
				if (res->s[si].n == d.n)
					c = &res->s[si].c[d.impl][d.op];
			if (c) {
				/*
				 * The collected phase makes exactly n calls (add, mod,
				 * del) or one run: the inclusive cost of the op's
				 * function per timer. Call counts also include calls
				 * made while collection was off, so they only tell
				 * whether the function was called at all (inlined: the
				 * whole phase per timer instead).
				 */
				bool per_call = d.calls > 0 && d.incl > 0;

				c->instr = (double)(per_call ? d.incl : d.total) / (double)d.n;
				c->instr_loop = !per_call;
				counted++;
			}
		}
		unlink(path);
	}
	if (!*res->instr_status && !counted) {
		snprintf(res->instr_status, sizeof(res->instr_status),
			 "not counted: callgrind wrote no phase (its output: %s)", log);
		keep_log = true;
	}
	snprintf(out, sizeof(out), "%s/cg", dir);
	unlink(out);
	if (!keep_log) {
		unlink(log);
		rmdir(dir);
	}
}

/* ---- output ------------------------------------------------------------------------ */

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

/* "1e6" for a power of ten, else the digits. */
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

static void print_header_row(const char *head)
{
	printf("  %-24s", head);
	for (int op = 0; op < NR_OP; op++)
		printf(" %9s", op_name[op]);
	printf("\n");
}

static void print_size(const struct options *o, const struct size_result *s)
{
	char nb[32], head[48];

	printf("\nN = %s (a sample: the median of %u round%s; step: one round)\n",
	       fmt_n(s->n, nb, sizeof(nb)), s->rounds, s->rounds == 1 ? "" : "s");
	snprintf(head, sizeof(head), "ns/op, median of %u", o->reps);
	print_header_row(head);
	for (int im = 0; im < NR_IMPL; im++) {
		printf("  %-24s", impls[im]->label);
		for (int op = 0; op < NR_OP; op++)
			if (isnan(s->c[im][op].med))
				printf(" %9s", "-");
			else
				printf(" %9.1f", s->c[im][op].med);
		printf("\n");
	}
	print_header_row("ratio to the heap");
	for (int im = 0; im < IMPL_HEAP; im++) {
		printf("  %-24s", impls[im]->name);
		for (int op = 0; op < NR_OP; op++)
			if (isnan(s->c[im][op].ratio))
				printf(" %9s", "-");
			else
				printf(" %8.2fx", s->c[im][op].ratio);
		printf("\n");
	}
	fflush(stdout);
}

static void print_instructions(const struct options *o, const struct results *res)
{
	char nb[32];

	printf("\ninstructions per op (callgrind: the inclusive cost of the API function, per\n"
	       "call for add, mod, del, per timer for expire and step; `~`: the call was inlined,\n"
	       "the whole phase / N)\n");
	if (*res->instr_status) {
		printf("  %s\n", res->instr_status);
		return;
	}
	for (unsigned int si = 0; si < o->nsizes; si++) {
		const struct size_result *s = &res->s[si];

		if (s->n > COUNT_MAX_N)
			continue;
		printf("N = %s\n", fmt_n(s->n, nb, sizeof(nb)));
		print_header_row("instructions/op");
		for (int im = 0; im < NR_IMPL; im++) {
			printf("  %-24s", impls[im]->label);
			for (int op = 0; op < NR_OP; op++) {
				const struct cell *c = &s->c[im][op];

				if (isnan(c->instr))
					printf(" %9s", "-");
				else
					printf(" %s%8.1f", c->instr_loop ? "~" : " ", c->instr);
			}
			printf("\n");
		}
	}
	if (o->nsizes && o->sizes[o->nsizes - 1] > COUNT_MAX_N)
		printf("  (counted up to N = %s: callgrind runs ~50x slower)\n",
		       fmt_short(COUNT_MAX_N, nb, sizeof(nb)));
}

/* Where uniform deltas in [1, SPREAD) land: the share of each wheel level. */
static void print_level_shares(void)
{
	unsigned int depth = TH_LVL_DEPTH(BENCH_HZ), k = 0;

	printf("  levels  the draws land at");
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
		if (k++ == 0)
			printf(" L%u %.1f%% (granularity %lu jiffies),\n          ", lvl, share,
			       LVL_GRAN(lvl));
		else
			printf("%sL%u %.1f%% (%lu)", k > 2 ? ", " : "", lvl, share, LVL_GRAN(lvl));
	}
	printf("\n");
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
				const struct cell *c = &res->s[si].c[im][op];
				double r = c->med > 0 ? (c->max - c->min) / c->med : 0;

				if (!impl_on(im))
					continue;
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
	       o->reps, 100 * th_median(rel, n), 100 * worst, impls[wim]->name, op_name[wop],
	       fmt_short(o->sizes[wsi], nb, sizeof(nb)));
}

/* The wheel against the heap in one line per op: the worst ratio over N. */
static void print_summary(const struct options *o, const struct results *res)
{
	const int im = 2;	/* modern: the layout the kernel kept */
	char nb[32];

	printf("\nmodern vs heap, the worst ratio over N (< 1: the wheel is faster at every N):\n ");
	for (int op = 0; op < NR_OP; op++) {
		double worst = 0;
		unsigned int at = 0;

		for (unsigned int si = 0; si < o->nsizes; si++)
			if (res->s[si].c[im][op].ratio > worst) {
				worst = res->s[si].c[im][op].ratio;
				at = si;
			}
		printf(" %s %.2fx (N = %s)%s", op_name[op], worst,
		       fmt_short(o->sizes[at], nb, sizeof(nb)), op + 1 < NR_OP ? "," : "\n");
	}
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
	       "          skipped through the bitmap), the heap popped at that jiffy; callbacks count\n"
	       "  step    per timer: the same time run every %lu jiff%s (%lu runs), idle ticks included\n"
	       "  x       to the heap, the median of per-repetition ratios (< 1: the wheel is faster)\n",
	       SPREAD_BITS, o->step, o->step == 1 ? "y" : "ies", (SPREAD + o->step - 1) / o->step);
	print_level_shares();
	printf("  late    the wheel fires late, by up to the granularity of the level a timer was\n"
	       "          queued at (never early), the same whether run once or stepped; the heap\n"
	       "          fires at the first run at or after the expiry. Measured, jiffies:\n");
	for (unsigned int si = 0; si < o->nsizes; si++) {
		const struct size_result *s = &res->s[si];
		const struct bench_late *wj = &s->late[2][MODE_JUMP], *ws = &s->late[2][MODE_STEP];
		const struct bench_late *hs = &s->late[IMPL_HEAP][MODE_STEP];

		printf("          N = %s: wheel mean %.0f, max %lu (stepped: mean %.0f, max %lu); "
		       "heap stepped: max %lu\n", fmt_short(s->n, nb, sizeof(nb)),
		       wj->fired ? (double)wj->sum / (double)wj->fired : 0.0, wj->max,
		       ws->fired ? (double)ws->sum / (double)ws->fired : 0.0, ws->max, hs->max);
	}
	print_noise(o, res);
}

/* ---- JSON ----------------------------------------------------------------------------- */

/* A JSON string as results/ writes one (results.json's writer: jansson),
 * after results/'s UTF-8 check (a byte that is not UTF-8 becomes '?').
 * Return: 0, or -1 when out of memory (nothing written). */
static int json_str(FILE *f, const char *s)
{
	char *clean = th_results_strdup(s), *text = NULL;
	json_t *j = clean ? json_string(clean) : NULL;

	if (j)
		text = json_dumps(j, JSON_ENCODE_ANY);
	if (text)
		fputs(text, f);
	free(text);
	json_decref(j);
	free(clean);
	return text ? 0 : -1;
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6g", v);
}

static void json_late(FILE *f, const struct bench_late *l)
{
	fputs("{\"mean\": ", f);
	json_num(f, l->fired ? (double)l->sum / (double)l->fired : 0.0);
	fprintf(f, ", \"max\": %lu}", l->max);
}

/* The figures as timerharness/bench/v1 (bench/README.md), laid out as
 * this writer always has (a size or a cell a line), the strings results/'s.
 * Return: 0, or -1 when a string could not be written (out of memory). */
static int json_write(FILE *f, const struct options *o, const struct results *res)
{
	char host[256] = "", created[32];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	int e = 0;

	gethostname(host, sizeof(host) - 1);
	if (uname(&u))
		strcpy(u.release, "");
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);

	fprintf(f, "{\n  \"schema\": ");
	e |= json_str(f, BENCH_JSON_SCHEMA);
	fprintf(f, ",\n  \"version\": ");
	e |= json_str(f, TH_VERSION);
	fprintf(f, ",\n  \"created\": ");
	e |= json_str(f, created);
	fprintf(f, ",\n  \"host\": {\"hostname\": ");
	e |= json_str(f, host);
	fprintf(f, ", \"kernel\": ");
	e |= json_str(f, u.release);
	fprintf(f, ", \"cpus\": %ld},\n  \"toolchain\": {\"name\": ", sysconf(_SC_NPROCESSORS_ONLN));
	e |= json_str(f, TH_TOOLCHAIN);
	fprintf(f, ", \"version\": ");
	e |= json_str(f, __clang_version__);
	fprintf(f, "},\n  \"config\": ");
	e |= json_str(f, TH_BENCH_CONFIG);
	fprintf(f, ",\n  \"settings\": {\"hz\": %d, \"spread_bits\": %d, \"seed\": %" PRIu64
		", \"reps\": %u, \"order\": \"%s\", \"step\": %lu, \"quick\": %s, "
		"\"clock\": \"CLOCK_THREAD_CPUTIME_ID\", \"clock_read_ns\": ",
		BENCH_HZ, SPREAD_BITS, o->seed, o->reps, o->shuffled ? "shuffled" : "array", o->step,
		o->quick ? "true" : "false");
	json_num(f, res->clock_ns);
	fprintf(f, "},\n  \"instructions\": {\"tool\": \"callgrind\", \"max_n\": %u, \"status\": ",
		COUNT_MAX_N);
	e |= json_str(f, *res->instr_status ? res->instr_status : "counted");
	fprintf(f, "},\n  \"sizes\": [");
	for (unsigned int si = 0; si < o->nsizes; si++) {
		const struct size_result *s = &res->s[si];

		fprintf(f, "%s\n    {\"n\": %u, \"rounds\": %u, \"lateness_jiffies\": {\"wheel\": ",
			si ? "," : "", s->n, s->rounds);
		json_late(f, &s->late[2][MODE_JUMP]);
		fprintf(f, ", \"wheel_stepped\": ");
		json_late(f, &s->late[2][MODE_STEP]);
		fprintf(f, ", \"heap_stepped\": ");
		json_late(f, &s->late[IMPL_HEAP][MODE_STEP]);
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ],\n  \"cells\": [");
	for (unsigned int si = 0, first = 1; si < o->nsizes; si++)
		for (int im = 0; im < NR_IMPL; im++)
			for (int op = 0; op < NR_OP; op++, first = 0) {
				const struct cell *c = &res->s[si].c[im][op];

				fprintf(f, "%s\n    {\"n\": %u, \"impl\": \"%s\", \"op\": \"%s\", \"ns_per_op\": ",
					first ? "" : ",", res->s[si].n, impls[im]->name, op_name[op]);
				json_num(f, c->med);
				fprintf(f, ", \"ns_min\": ");
				json_num(f, c->min);
				fprintf(f, ", \"ns_max\": ");
				json_num(f, c->max);
				fprintf(f, ", \"ratio_to_heap\": ");
				json_num(f, c->ratio);
				fprintf(f, ", \"instructions_per_op\": ");
				json_num(f, c->instr);
				fprintf(f, ", \"instructions_whole_phase\": %s}", c->instr_loop ? "true" : "false");
			}
	fprintf(f, "\n  ]\n}\n");
	return e;
}

/* A target --json may replace: absent, or a regular file (never a device
 * or a symlink). Return: 0, or 2 after saying why not. */
static int json_target_ok(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!lstat(path, &st)) {
		if (!S_ISREG(st.st_mode))
			return bad_arg("--json %s: exists and is not a regular file; refusing to replace it",
				       path);
		return 0;
	}
	if (errno != ENOENT)
		return bad_arg("--json %s: %s", path, strerror(errno));
	/* Absent: its directory must take a new file (checked before the run). */
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK))
		return bad_arg("--json %s: cannot create it in %s: %s", path, dir,
			       errno ? strerror(errno) : "not a directory");
	return 0;
}

/* Written whole or not at all, never through a link: results/'s atomic
 * write (th_results_write_atomic()). Return: 0, or 3 after saying why. */
static int json_save(const char *path, const struct options *o, const struct results *res)
{
	char *buf = NULL, err[4096 + 512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int bad = !f;

	if (f) {
		bad = json_write(f, o, res);
		bad |= fclose(f) != 0;
	}
	if (bad)
		snprintf(err, sizeof(err), "%s: %s", path, strerror(ENOMEM));
	if (bad || th_results_write_atomic(path, buf, len, err, sizeof(err))) {
		fprintf(stderr, "timerharness bench: cannot write %s\n", err);
		free(buf);
		return 3;
	}
	free(buf);
	return 0;
}

/* ---- arguments ----------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness bench [--quick] [--reps N] [--seed S] [--sizes N,...]\n"
		"                          [--order array|shuffled] [--step J] [--json FILE]\n"
		"                          [--no-instructions]\n"
		"\n"
		"ns/op of add, mod, del and expire (run once, or stepped) on the timer wheel\n"
		"(variants legacy, transitional, modern) and on an indexed binary min-heap at N\n"
		"pending timers; ratios to the heap from the same run; instructions per op\n"
		"counted by valgrind's callgrind (N <= %u). Thread CPU time; no fixed bars.\n"
		"\n"
		"  --quick            smoke run: N = 1000 and 10000, %d repetitions (unless\n"
		"                     --reps)\n"
		"  --reps N           timed repetitions per cell, median reported (default %d;\n"
		"                     1..%d)\n"
		"  --seed S           RNG seed for the expiries, decimal or 0x-hex (default %d)\n"
		"  --sizes N,...      numbers of pending timers (default 1000,100000,1000000;\n"
		"                     each %u..%u, at most %d)\n"
		"  --order O          visit the timers in array order (default) or in one\n"
		"                     shuffled order, the same for every implementation\n"
		"  --step J           jiffies between the runs of the stepping expiry (default 1,\n"
		"                     a tick; 1..%lu)\n"
		"  --json FILE        also write the figures as JSON (timerharness/bench/v1)\n"
		"  --no-instructions  skip the callgrind run\n"
		"  -h, --help         this text\n"
		"\n"
		"Exit: 0 ran; 1 a correctness check failed; 2 bad arguments; 3 the output\n"
		"(stdout or --json FILE) could not be written.\n",
		COUNT_MAX_N, QUICK_REPS, DEFAULT_REPS, MAX_REPS, DEFAULT_SEED, MIN_N, MAX_N, MAX_SIZES,
		MAX_STEP);
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
		for (unsigned int i = 0; i < o->nsizes; i++)
			if (o->sizes[i] == v)
				return bad_arg("--sizes: %" PRIu64 " twice in '%s'", v, s);
		o->sizes[o->nsizes++] = (uint32_t)v;
		if (!comma)
			return 0;
		p = comma;
	}
}

/* Return: 0 to run, 1 if --help was printed, 2 for bad arguments. */
static int parse_args(int argc, char **argv, struct options *o)
{
	static const char *const valued[] = { "--reps", "--seed", "--sizes", "--order", "--step",
					      "--json" };
	bool reps_given = false, sizes_given = false;

	memset(o, 0, sizeof(*o));
	o->reps = DEFAULT_REPS;
	o->seed = DEFAULT_SEED;
	o->step = 1;
	o->instructions = true;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		char name[32];
		bool known = false;
		uint64_t v;

		if (!strcmp(arg, "-h") || th_optname(arg, "--help", false)) {
			usage(stdout);
			return 1;
		}
		if (th_optname(arg, "--quick", false)) {
			o->quick = true;
			continue;
		}
		if (th_optname(arg, "--no-instructions", false)) {
			o->instructions = false;
			continue;
		}
		/* Internal: the run count_instructions() puts under callgrind. */
		if (!strcmp(arg, "--count-child")) {
			o->count_child = true;
			continue;
		}
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		for (size_t k = 0; k < sizeof(valued) / sizeof(*valued); k++)
			known |= th_optname(name, valued[k], true);
		if (!known)
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
		} else if (!strcmp(name, "--order")) {
			if (strcmp(val, "array") && strcmp(val, "shuffled"))
				return bad_arg("--order: expected array or shuffled, got '%s'", val);
			o->shuffled = !strcmp(val, "shuffled");
		} else if (!strcmp(name, "--step")) {
			if (parse_u64(val, &v) || v < 1 || v > MAX_STEP)
				return bad_arg("--step: expected a whole number of jiffies 1..%lu, got '%s'",
					       MAX_STEP, val);
			o->step = (unsigned long)v;
		} else if (!strcmp(name, "--json")) {
			if (!*val)
				return bad_arg("--json needs a file name");
			o->json = val;
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
	if (o->json)
		return json_target_ok(o->json);
	return 0;
}

/* ---- main ------------------------------------------------------------------------------ */

/* Return: 0, or 3 after saying why stdout could not be written. */
static int stdout_ok(void)
{
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	fprintf(stderr, "timerharness bench: cannot write stdout: %s\n",
		errno ? strerror(errno) : "write error");
	return 3;
}

static int run(const struct options *o, struct arena *a, struct results *res)
{
	unsigned long warns = th_warn_count();
	char nb[32];

	if (o->count_child)
		return count_child(o, a);

	clock_ns = res->clock_ns = clock_overhead();
	printf("timerharness bench: the timer wheel (3 variants) vs an indexed binary min-heap\n");
	printf("  seed %" PRIu64 " (--seed), %u repetition%s (--reps), medians; order %s; %s\n",
	       o->seed, o->reps, o->reps == 1 ? "" : "s", o->shuffled ? "shuffled" : "array",
	       o->quick ? "--quick" : "full");
	printf("  time: CLOCK_THREAD_CPUTIME_ID, a read costs ~%.0f ns (subtracted)\n", res->clock_ns);
	printf("  HZ %d (wheel depth %d); debugobjects off (a debug option, off in production\n"
	       "  kernels); wheel built with config %s; expiries uniform in [1, 2^%d) jiffies\n",
	       BENCH_HZ, TH_LVL_DEPTH(BENCH_HZ), TH_BENCH_CONFIG, SPREAD_BITS);
	printf("  sizeof(struct timer_list): legacy %zu B, transitional %zu B, modern %zu B;"
	       " heap timer %zu B\n", bench_legacy.timer_size, bench_transitional.timer_size,
	       bench_modern.timer_size, bench_heap.timer_size);
	for (int im = 0; im < NR_IMPL; im++)
		if (!impl_on(im))
			printf("  %s: not run in this build (%s)\n", impls[im]->name,
			       impls[im]->unavailable);
	if (stdout_ok())
		return 3;

	for (unsigned int si = 0; si < o->nsizes; si++) {
		if (measure_size(si, o, a, &res->s[si])) {
			printf("\nstopped at N = %s: a correctness check failed (see stderr)\n",
			       fmt_short(o->sizes[si], nb, sizeof(nb)));
			return 1;
		}
		print_size(o, &res->s[si]);
		if (stdout_ok())
			return 3;
	}
	/* Every call here is legitimate: a WARN means the wheel refused one. */
	if (th_warn_count() != warns)
		return -bench_fail("the wheel refused %lu calls; the last WARN: %s",
				   th_warn_count() - warns, th_warn_last());
	if (o->instructions)
		count_instructions(o, res);
	else
		snprintf(res->instr_status, sizeof(res->instr_status), "not counted: --no-instructions");
	print_instructions(o, res);
	print_summary(o, res);
	print_notes(o, res);
	if (stdout_ok())
		return 3;
	return o->json ? json_save(o->json, o, res) : 0;
}

int th_bench_main(int argc, char **argv)
{
	struct options o;
	struct results *res;
	struct arena a;
	bool was_debugobj;
	uint32_t n_max = 0;
	int ret, inited = 0;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? stdout_ok() : ret;
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
	for (ret = 0; inited < NR_IMPL && !ret; inited++)
		ret = impls[inited]->init(n_max) ? 1 : 0;
	if (!ret)
		ret = run(&o, &a, res);
	while (inited-- > 0)
		impls[inited]->fini();
	th_debugobj_enable(was_debugobj);
	arena_free(&a);
	free(res);
	return ret;
}
