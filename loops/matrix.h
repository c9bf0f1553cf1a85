/* SPDX-License-Identifier: MIT */
/*
 * The matrix runner: every cell (attack x variant x config x toolchain) in
 * its own child process, classified by cfi/, judged against attacks'
 * declared expectations, into a results model (results/) that the CLI
 * writes and shows with report/.
 */
#ifndef TH_LOOPS_MATRIX_H
#define TH_LOOPS_MATRIX_H

#include <stddef.h>

struct th_matrix_opts {
	const char *build_root;		/* holds <preset>/th-manifest.tsv */
	const char *build_hint;		/* what to do when it holds no build */
	const char *out_dir;		/* NULL: TH_MATRIX_OUT, or TH_MATRIX_SLICE_OUT
					 * for a slice or a shard */
	const char *expect_path;	/* attacks/expected.tsv */
	const char *toolchains;		/* comma lists; NULL = all */
	const char *configs;
	const char *variants;
	const char *attack_glob;	/* comma-separated fnmatch globs on attack IDs; NULL = all */
	int jobs;
	double timeout;			/* seconds per run */
	unsigned lockup_ms;		/* soft-lockup probes every this many ms of wall
					 * time (runner/child.h); 0: none */
	int quiet;			/* no throughput lines on stderr */
	int progress;			/* a live progress line on stderr (a terminal) */
	int selftests;			/* add SELFTEST_HANG and SELFTEST_SEGV cells */
	int fork_server;		/* runs forked by a server per attack binary
					 * (runner/child.h struct th_fsrv); 0: an exec
					 * per run (--no-fork-server) */
	unsigned shard_index;		/* --shard I/N: run the cells of shard I (1..N) */
	unsigned shard_count;		/* 0: not sharded */
	int replace;			/* a slice may replace a full run's results */
	/* How each cell's rerun command names this program, and the
	 * defaults it leaves out (options equal to them are not repeated). */
	const char *self;
	const char *default_build_root, *default_expect;
	double default_timeout;
	unsigned default_lockup_ms;
};

/* The spin a cell's soft lockup is proven in: the model's v4.14
 * lock_timer_base() (timer_core/wheel_impl.h), noinline. */
#define TH_MATRIX_LOCKUP_FUNC "lock_timer_base"
#define TH_MATRIX_LOCKUP_MS 20

/*
 * Runs at once by default: this many a CPU, at most TH_MATRIX_MAX_JOBS. A run
 * waits on the runner at each of its ptrace stops (the fork, its breakpoints,
 * a trap, its exit), so one a CPU leaves the CPUs idle between stops: with
 * --jobs 2 on the 2-CPU machine the matrix used 1.21 CPUs (perf stat). The
 * whole plan of both toolchains (14,784 cells, 11,868 runs), quiet, two runs
 * each: --jobs 2 15.3 s and 15.3 s, 4 11.2 and 11.6, 8 10.3 and 9.4, 16 9.5
 * and 8.6, 32 8.6 and 9.0. Outcomes do not depend on it: three whole
 * matrices at the default gave the same outcome in every cell (a traced run's
 * layout is fixed, runner/child.c; before that, 22 randstruct cells moved
 * with ASLR between any two runs, at --jobs 1 and 2 as well).
 */
#define TH_MATRIX_JOBS_PER_CPU 8
#define TH_MATRIX_MAX_JOBS 32

/* Where results go: a full run, and a slice or shard unless --out says. */
#define TH_MATRIX_OUT "out"
#define TH_MATRIX_SLICE_OUT "out/slice"

/* Exit statuses of `timerharness matrix`. */
enum {
	TH_MATRIX_OK = 0,		/* every cell ran and was observed; outcomes
					 * are for `check` to judge */
	TH_MATRIX_NOT_WRITTEN = 1,	/* the run's files could not be written (a
					 * full disk...): the previous set is kept */
	TH_MATRIX_BAD_INPUT = 2,	/* bad option, build or expectations, an
					 * empty selection, --out in use by another
					 * run, or a slice that would replace a full
					 * run's results: nothing run, nothing written */
	TH_MATRIX_HARNESS_ERROR = 3,	/* written, but some cells are HARNESS_ERROR
					 * (a binary or probe missing, a child that
					 * could not start) or a run could not be
					 * started (results partial) */
	TH_MATRIX_STDOUT_LOST = 4,	/* written and every cell observed, but the
					 * verdict could not be written to standard
					 * output (a closed pipe, a full disk) */
	TH_MATRIX_INTERRUPTED = 130,	/* SIGINT/SIGTERM: partial results written */
};

/* The runner's own self-test cells (--selftests), not attacks. */
extern const char *const th_matrix_selftests[];
extern const size_t th_matrix_nselftests;

/*
 * The matrix as a loop that fills a results model and never renders: the
 * CLI (cli/cmd_matrix.c) takes the out folder's lock between planning and
 * running, and writes and shows the model after.
 *
 * th_matrix_plan() - read the builds and the declaration and plan every
 * cell (probing each config's support); nothing run, nothing written.
 * Return: the planned run, or NULL with err set (bad input: exit
 * TH_MATRIX_BAD_INPUT).
 *
 * th_matrix_out_dir() - where its set goes: opts->out_dir, or the default
 * of a full run or of a slice.
 *
 * th_matrix_check_out() - refuse a slice that would replace a full run's
 * results in the out folder (unless opts->replace). Call it with the
 * folder locked (report/render.h th_render_lock_dir()), and keep
 * the lock until the set is written: th_matrix_run() reads the real
 * kernels' cells of the results it replaces. Return: 0, or -1 with err set.
 *
 * th_matrix_run() - run every cell (until done, or SIGINT/SIGTERM) and fill
 * the model: cells, reach section, metrics, the real kernels' cells kept.
 * Says its throughput on stderr (not with opts->quiet). Return: the number
 * of cells that could not be run or observed (HARNESS_ERROR), or -1 with
 * err set when the model could not be filled (nothing to write).
 */
struct th_matrix;
struct th_results;

struct th_matrix *th_matrix_plan(const struct th_matrix_opts *opts, char *err, size_t errlen);
const char *th_matrix_out_dir(const struct th_matrix *m);
int th_matrix_check_out(struct th_matrix *m, char *err, size_t errlen);
long th_matrix_run(struct th_matrix *m, char *err, size_t errlen);
/* The model th_matrix_run() filled; owned by m. */
struct th_results *th_matrix_results(const struct th_matrix *m);
void th_matrix_free(struct th_matrix *m);

/* How the run went, for the lines after the verdict and the exit status. */
enum th_matrix_end {
	TH_MATRIX_RAN_ALL,
	TH_MATRIX_STOPPED_BY_SIGNAL,	/* SIGINT/SIGTERM: partial results */
	TH_MATRIX_STOPPED_BY_HARNESS,	/* a run could not be started: partial */
};
struct th_matrix_stats {
	size_t ncells, nruns;
	int jobs;
	double started;			/* lib/clock.h th_now_s() at the plan */
	int slice;			/* a slice or a shard of the plan */
	long harness;			/* HARNESS_ERROR cells */
	enum th_matrix_end interrupted;
};
void th_matrix_stats(const struct th_matrix *m, struct th_matrix_stats *st);

struct th_config_info;	/* cfi/config_table.h */
/* A config's flags as results.json records them (cfi/configs.tsv's, with
 * its per-build placeholders spelled out): what another run of the same
 * configs (a real kernel's, th_results_replace_platform) must record too. */
void th_matrix_config_flags(const struct th_config_info *c, char *out, size_t n);

#endif
