/* SPDX-License-Identifier: MIT */
/* `timerharness check`: the CI gate over results.json. */
#ifndef TH_REPORT_CHECK_H
#define TH_REPORT_CHECK_H

#include <stdio.h>

#define TH_CHECK_DEFAULT_RESULTS "out/results.json"

enum {
	TH_CHECK_OK = 0,		/* nothing regressed */
	TH_CHECK_REGRESSION = 1,	/* a cell regressed, or a baseline cell is gone */
	TH_CHECK_BAD_INPUT = 2,		/* unreadable, not JSON, wrong schema, unknown names */
};

/**
 * th_check_main() - recompute and report every verdict.
 * @results_path: results.json to judge; NULL means TH_CHECK_DEFAULT_RESULTS.
 * @baseline_path: an earlier results.json, or NULL. Cells are matched by
 *                 (attack, variant, config, toolchain).
 * @out: one line per regression, improvement, new and missing cell, then one
 *       summary line ("check: N cells: a pass, b regression, ...").
 * @err: the message when the input is bad.
 *
 * Stored verdicts are ignored: each is recomputed from the observed outcome
 * (th_cell_observed), the expectation and the baseline (th_verdict). A
 * baseline cell missing from the results is coverage lost and fails the
 * check, unless the results are partial (the summary then says so).
 *
 * Return: TH_CHECK_OK, TH_CHECK_REGRESSION or TH_CHECK_BAD_INPUT.
 */
int th_check_main(const char *results_path, const char *baseline_path, FILE *out, FILE *err);

#endif
