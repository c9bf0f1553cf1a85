/* SPDX-License-Identifier: MIT */
/*
 * The matrix runner: every cell (attack x variant x config x toolchain) in
 * its own child process, classified by cfi/, judged against attacks'
 * declared expectations, written to results.json by report/.
 */
#ifndef TH_ATTACKS_MATRIX_H
#define TH_ATTACKS_MATRIX_H

#include <stddef.h>

struct th_matrix_opts {
	const char *build_root;		/* holds <preset>/th-manifest.tsv */
	const char *out_dir;
	const char *expect_path;	/* attacks/expected.tsv */
	const char *toolchains;		/* comma lists; NULL = all */
	const char *configs;
	const char *variants;
	const char *attack_glob;	/* comma-separated fnmatch globs on attack IDs; NULL = all */
	int jobs;
	double timeout;			/* seconds per run */
	int quiet;			/* no matrix on stdout */
	int selftests;			/* add SELFTEST_HANG and SELFTEST_SEGV cells */
};

/* Exit statuses of `timerharness matrix`. */
enum {
	TH_MATRIX_OK = 0,		/* every cell ran and was observed; outcomes
					 * are for `check` to judge */
	TH_MATRIX_NOT_WRITTEN = 1,	/* the run's files could not be written (a
					 * full disk...): the previous set is kept */
	TH_MATRIX_BAD_INPUT = 2,	/* bad option, build or expectations, an
					 * empty selection, or --out in use by
					 * another run: nothing run, nothing written */
	TH_MATRIX_HARNESS_ERROR = 3,	/* written, but some cells are HARNESS_ERROR
					 * (a binary or probe missing, a child that
					 * could not start) or a run could not be
					 * started (results partial) */
	TH_MATRIX_INTERRUPTED = 130,	/* SIGINT/SIGTERM: partial results written */
};

/* The runner's own self-test cells (--selftests), not attacks. */
extern const char *const th_matrix_selftests[];
extern const size_t th_matrix_nselftests;

/* Return: one of the statuses above. */
int th_matrix_main(const struct th_matrix_opts *opts);

#endif
