/* SPDX-License-Identifier: MIT */
/* `timerharness check`: the CI gate over results.json. */
#ifndef TH_REPORT_CHECK_H
#define TH_REPORT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/difference.h"

struct th_cell;

#define TH_CHECK_DEFAULT_RESULTS "out/results.json"

/* Exit statuses. When several apply, the first in this order wins: bad
 * input, regression, harness error. */
enum {
	TH_CHECK_OK = 0,		/* every planned cell there, nothing regressed */
	TH_CHECK_REGRESSION = 1,	/* a cell regressed, coverage was lost (a cell
					 * or a defence missing, a slice or a partial
					 * run not allowed) */
	TH_CHECK_BAD_INPUT = 2,		/* unreadable, invalid or doctored results, no
					 * cells, usage, or standard output unwritable */
	TH_CHECK_HARNESS_ERROR = 3,	/* a cell the harness could not run or observe */
};


/*
 * What the results are judged against: the declaration, never the file.
 * The model's plan is every attack x every variant x every config x every
 * toolchain the results' model cells (or no cells) name; a real kernel's
 * (a platform "linux-*") every attack of its plan x modern x every kernel
 * config x every toolchain its cells name.
 */
struct th_check_decl {
	const char *expect_path;	/* the expectations file */
	const char *expect_sha256;	/* SHA-256 of its bytes, 64 hex digits */
	/* A cell's declared outcome name on platform ("model", "linux-..."),
	 * or a probabilistic cell's set of them ("HIJACKED|CRASHED",
	 * th_outcome_set_parse), NULL when none is declared. */
	const char *(*expect)(const char *platform, const char *attack, const char *variant,
			      const char *config, const char *toolchain);
	/* Where it is declared ("FILE:LINE"), NULL when it is not. */
	const char *(*where)(const char *platform, const char *attack, const char *variant,
			     const char *config, const char *toolchain);
	/* The declared differences (NULL: none): the first row whose
	 * platform and cell globs match (its index, -1 for none), row i, and
	 * whether row i applies to a platform. */
	long (*differs)(const char *platform, const char *attack, const char *variant,
			const char *config, const char *toolchain);
	size_t ndifferences;
	const struct th_check_difference *(*difference)(size_t i);
	bool (*difference_on)(size_t i, const char *platform);
	/* The real kernel's plan (kernel/cells.tsv's attacks, the kernel
	 * configs of kernel/configs/), and where it was read; judged for every
	 * linux-* platform of the results. NULL: no plan (results with a
	 * real kernel's cells are then bad input). */
	const char *const *kernel_attacks;
	size_t nkernel_attacks;
	/* kernel_variants[i]: the variant kernel_attacks[i]'s cells are
	 * ("modern" for the timer, "transitional" for the tasklet on 6.1 and
	 * 6.12: attacks/kernel_plan.h); NULL: every one modern. */
	const char *const *kernel_variants;
	const char *const *kernel_configs;
	size_t nkernel_configs;
	/* Is a kernel config planned on that platform (kernel/kernels.tsv:
	 * each release its configs)? NULL: every config on every platform. */
	bool (*kernel_config_on)(const void *arg, const char *platform, const char *config);
	const void *kernel_config_arg;
	const char *kernel_plan;
	/* Why there is no plan (it could not be read), for the message. */
	const char *kernel_plan_error;
	/* kernel_configs[i] builds a check that can stop a call (its
	 * kernel/configs/<name>.config sets CONFIG_CFI_CLANG or
	 * CONFIG_X86_KERNEL_IBT): a real kernel's block under one that does
	 * not was never observed. NULL: not judged. */
	const bool *kernel_config_cfi;
	const char *const *attacks;	/* the attack registry's IDs */
	size_t nattacks;
	/* attack_apis[i]: the API family of the victim attacks[i] writes into
	 * (results/api.def's names); a model cell saying another is doctored.
	 * NULL: not judged. */
	const char *const *attack_apis;
	const char *const *configs;	/* every config, in declaration order */
	size_t nconfigs;
	/* configs[i]'s compiler flags (cfi/configs.tsv): a model cell's
	 * evidence must name a defence its config builds
	 * (th_evidence_defence()). NULL: not judged. */
	const char *const *config_cflags;
	/* Cells a run adds only when asked (matrix --selftests). */
	const char *const *selftests;
	size_t nselftests;
};

struct th_check_opts {
	const char *results;	/* NULL: TH_CHECK_DEFAULT_RESULTS */
	const char *baseline;	/* an earlier results.json, or NULL */
	bool allow_slice;	/* judge a recorded slice by its own selection */
	bool allow_partial;	/* accept an interrupted run (missing cells listed) */
	bool verbose;		/* list improvements too, not only their count */
	bool defer_answer;	/* no answer line: the caller judges more, then
				 * prints it (th_check_answer) */
	/* check --json: a jansson object (json_t *) that gets "counts",
	 * "slice", "partial" ("interrupted") and "findings" (every finding an
	 * object {kind, message, ...}: docs/schema/check.schema.json) instead of
	 * finding lines on out (the summary lines still go there); NULL: none. */
	void *json;
	/* check --consoles DIR: a real kernel's cell's console log, read and
	 * classified again (kernel/console.h); 0 when it is there and gives
	 * the cell's outcome, else -1 with why (the log, what it gave). NULL:
	 * the logs are not judged. */
	int (*console_recheck)(void *arg, const struct th_cell *c, char *why, size_t n);
	void *console_arg;
};

/**
 * th_check_main() - judge a results file against the declaration.
 * @o:    which files, and what is allowed.
 * @d:    the declaration.
 * @out:  one line per finding (new cells, with @o->verbose improvements, first;
 *        failures last), then the counts ("check: N cells: a pass, ...") and
 *        the gate's answer ("check: PASS ..." or "check: FAIL ...").
 * @err:  the message when the input is bad.
 *
 * Nothing stored is trusted: each cell's expectation is looked up in @d and
 * a stored one that differs is reported as doctored (bad input); the
 * results must record the expectations file the run used, and its SHA-256
 * must be @d's (else bad input); a cell whose outcome no run backs (runs 0,
 * counts that do not sum to them, an outcome none of its counts is, empty
 * evidence; UNSUPPORTED, NOT_APPLICABLE and a HARNESS_ERROR that never
 * started aside) is doctored (bad input); each verdict is recomputed from the
 * observed outcome (th_cell_observed), the declared expectation and the
 * baseline (th_verdict). Coverage is judged without a baseline: every cell
 * of the plan must be there (of the recorded selection with allow_slice; a
 * recorded slice without it fails), UNSUPPORTED or NOT_APPLICABLE where a
 * real outcome is declared is a regression, and so is a config probed
 * unsupported where its cells declare real outcomes (a lost defence). A
 * partial run fails unless allow_partial, and its missing cells are always
 * listed. A file with no cells, no recorded expectations or selection, or
 * a cell outside the plan is bad input. With a baseline, its cells are
 * matched by (platform, attack, variant, config, toolchain); one missing
 * from the results fails too.
 *
 * Real-kernel cells (platform linux-*) are judged by their platform's own
 * rules as the model's are by theirs, against their own plan (every
 * attack of the kernel plan x modern x every kernel config, for each
 * toolchain their cells name; a declared platform without cells lost them
 * all). Their agreement with the model is recomputed from the cells: a
 * stored agreement that differs is doctored (bad input); a difference no
 * @differs row declares (with exactly those two outcomes) is a
 * regression; a row whose outcomes are not what was observed, or that no
 * cell pair uses (unless the file is a slice), is stale: a regression.
 *
 * Return: TH_CHECK_OK, _REGRESSION, _BAD_INPUT or _HARNESS_ERROR.
 */
int th_check_main(const struct th_check_opts *o, const struct th_check_decl *d, FILE *out,
		  FILE *err);

/* path relative to the working directory when it is under it (cwd: a
 * buffer of n bytes for it); else path. For what check prints. */
const char *th_check_shorter_path(const char *path, char *cwd, size_t n);

/* The answer, last: "check: PASS (exit 0): RESULTS judged by EXPECT [and
 * the baseline B] [MORE]" (FAIL, BAD INPUT, HARNESS ERROR for the other
 * statuses), its words wrapped within 80 columns (further lines indented
 * two spaces; a path wider than that stays whole). */
void th_check_answer(FILE *out, int rc, const char *results, const char *expect,
		     const char *baseline, const char *more);

#endif
