/* SPDX-License-Identifier: MIT */
/*
 * The matrix runner: every cell (attack x variant x config x toolchain) in
 * its own child process, classified by cfi/, judged against attacks'
 * declared expectations, written to results.json by report/.
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
	int quiet;			/* no verdict screen on stdout */
	int grid;			/* the terminal matrix on stdout too */
	int use_color;			/* ANSI colours on stdout */
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
#define TH_MATRIX_LOCKUP_MS 300

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

/* Return: one of the statuses above. */
int th_matrix_main(const struct th_matrix_opts *opts);

struct th_config_info;	/* cfi/config_table.h */
/* A config's flags as results.json records them (cfi/configs.tsv's, with
 * its per-build placeholders spelled out): what another run of the same
 * configs (a real kernel's, th_results_replace_platform) must record too. */
void th_matrix_config_flags(const struct th_config_info *c, char *out, size_t n);

#endif
