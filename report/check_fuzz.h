/* SPDX-License-Identifier: MIT */
/* `timerharness check`, fuzzing campaigns: fuzz.json against fuzz/expected.tsv. */
#ifndef TH_REPORT_CHECK_FUZZ_H
#define TH_REPORT_CHECK_FUZZ_H

#include <stdbool.h>
#include <stdio.h>

struct th_check_fuzz_opts {
	const char *fuzz;	/* the campaign summary */
	const char *expect;	/* fuzz/expected.tsv */
	bool allow_slice;	/* a required campaign that did not run is not a regression */
	bool allow_partial;	/* accept an interrupted summary */
	bool verbose;		/* list every declared finding too */
	bool beside;		/* judged beside results.json, whose verdict screen
				 * already says what the campaigns found: no
				 * per-generation sentences unless verbose */
};

/**
 * th_check_fuzz_main() - gate the campaigns by their declaration.
 *
 * Every finding (its chain, variant, config, toolchain) must be declared by
 * a `finding` rule at least as severe; every `require` rule must be met by
 * every campaign it matches (and, unless allow_slice, match one). A partial
 * summary fails unless allow_partial; a summary with no campaign that ran
 * is bad input; a campaign that failed or counted a HARNESS_ERROR run is a
 * harness error. One line per campaign and per judgement on @out, then a
 * summary line ("check fuzz: N campaigns: ...").
 *
 * Return: TH_CHECK_OK, _REGRESSION, _BAD_INPUT or _HARNESS_ERROR (check.h;
 * when several apply: bad input, then regression, then harness error).
 */
int th_check_fuzz_main(const struct th_check_fuzz_opts *o, FILE *out, FILE *err);

#endif
