/* SPDX-License-Identifier: MIT */
/* `timerharness check`, fuzzing campaigns: fuzz.json against fuzz/campaigns.tsv
 * (the plan), the build it ran from and fuzz/expected.tsv. */
#ifndef TH_REPORT_CHECK_FUZZ_H
#define TH_REPORT_CHECK_FUZZ_H

#include <stdbool.h>
#include <stdio.h>

#include "check_json.h"

struct th_check_fuzz_opts {
	const char *fuzz;	/* the campaign summary */
	const char *expect;	/* fuzz/expected.tsv */
	const char *plan;	/* fuzz/campaigns.tsv: the campaigns a run must hold */
	const char *build_root;	/* the builds (fuzz-manifest.tsv): the toolchains there are */
	bool allow_slice;	/* a run of part of the plan (fuzz --variant, --config,
				 * --toolchain) passes, judged by its selection */
	bool allow_partial;	/* accept an interrupted summary */
	bool verbose;		/* list every declared finding too */
	bool no_replay;		/* do not replay the findings' reproducers (no build
				 * here), nor hold the run's saved findings against
				 * the list: said on stdout, never silent */
	bool beside;		/* judged beside results.json, whose verdict screen
				 * already says what the campaigns found: no
				 * per-generation sentences unless verbose */
	struct th_check_fuzz_counts *counts;	/* filled when not NULL and the
						 * summary could be judged
						 * (check --json) */
};

/**
 * th_check_fuzz_main() - gate the campaigns by their declaration.
 *
 * The plan: every campaign of @plan's campaign rows on every toolchain the
 * build under @build_root holds (of the recorded selection: a slice fails
 * unless allow_slice) must be in the summary, and nothing else: a
 * campaign of a toolchain not built there, a config or variant the plan
 * does not hold, outside the selection, or that ran where the build could
 * not build it, is unplanned (bad input). A campaign recorded unsupported
 * is coverage lost unless a plan row declares it; one that ran 0
 * executions, or ran short of the budget in a whole summary, lost coverage
 * too. Every finding (its chain, variant, config, toolchain), in any
 * campaign, must be declared by a `finding` rule at least as severe; every
 * `require` rule must be met by every campaign it matches. Each finding's
 * reproducer must exist beside the summary with its recorded SHA-256 (bad
 * input otherwise), and replays, with the build's binary that ran its campaign,
 * to the signature the summary records (bad input otherwise, and when the
 * binary is not there, unless no_replay). A campaign whose executions per
 * CPU second fall below the floor no campaign runs under, or whose CPU
 * time is under 1% of its wall clock, is doctored (bad input); a finding
 * the run saved (its findings folder) that the summary does not list is
 * erased (bad input; not checked with no_replay). A partial summary fails unless allow_partial (its
 * missing campaigns are listed even then); a summary with no campaign that
 * ran is bad input; a campaign that failed or counted a HARNESS_ERROR run
 * is a harness error. One line per judgement on @out, then the counts
 * ("check fuzz: N campaigns: ...").
 *
 * Return: TH_CHECK_OK, _REGRESSION, _BAD_INPUT or _HARNESS_ERROR (check.h;
 * when several apply: bad input, then regression, then harness error).
 */
int th_check_fuzz_main(const struct th_check_fuzz_opts *o, FILE *out, FILE *err);

/**
 * th_check_fuzz_plan_build() - does the build hold exactly the plan?
 *
 * For every toolchain of the build under @build_root (its libFuzzer builds
 * of the overflow target): every campaign the plan holds there is built or
 * recorded unsupported, each unsupported one is declared by the plan, and
 * nothing else is built. Each difference a line on @out.
 * Return: the number of differences, or -1 when a file cannot be read
 * (said on @err).
 */
int th_check_fuzz_plan_build(const char *plan, const char *build_root, FILE *out, FILE *err);

#endif
