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

/* Return: 0 done (outcomes are for `check` to judge); 2 bad input, nothing
 * written; 130 interrupted (a valid results.json marked partial written). */
int th_matrix_main(const struct th_matrix_opts *opts);

#endif
