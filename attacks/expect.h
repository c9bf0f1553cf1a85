/* SPDX-License-Identifier: MIT */
/*
 * Declared expectations (attacks/expected.tsv; its header comment is the
 * format's documentation): per cell, the WORST acceptable outcome, or the
 * set of outcomes a probabilistic cell may show ("HIJACKED|CRASHED"), and why.
 * Loaded once per process; the runner compares each observed outcome with
 * th_expect_lookup() (more severe than declared = regression).
 */
#ifndef TH_ATTACKS_EXPECT_H
#define TH_ATTACKS_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "results/outcome.h"

struct th_check_difference;	/* results/difference.h */
struct th_results;		/* results/results.h */

/*
 * Load (replacing any earlier table). Return: 0, or -1 with
 * "FILE:LINE: what is wrong" (or "FILE: <errno text>") in err.
 */
int th_expect_load(const char *path, char *err, size_t n);

/*
 * The first rule matching the cell on platform ("model", or a real
 * kernel's "linux-<release>"; NULL means "model"): a rule applies to the
 * platforms of the last "@platform GLOB" line before it, to "model" when
 * there is none. Return: the outcome column as written ("HIJACKED", or a
 * set "HIJACKED|CRASHED": th_outcome_set_parse() reads both), or NULL if no
 * rule matches or nothing is loaded; *reason (if reason is not NULL) gets
 * the rule's reason.
 */
const char *th_expect_lookup_on(const char *platform, const char *attack, const char *variant,
				const char *config, const char *toolchain, const char **reason);
/* The same rule's outcome column as a set (one outcome: a set of one;
 * "HIJACKED|CRASHED": a probabilistic cell's); 0 when no rule matches. */
th_outcome_set th_expect_set_on(const char *platform, const char *attack, const char *variant,
				const char *config, const char *toolchain);
/* th_expect_lookup_on() without the reason: the gate's declaration
 * (report/check.h struct th_check_decl's expect). */
const char *th_expect_outcome_on(const char *platform, const char *attack, const char *variant,
				 const char *config, const char *toolchain);
/* "FILE:LINE" of the rule th_expect_lookup_on() would use, or NULL. */
const char *th_expect_where_on(const char *platform, const char *attack, const char *variant,
			       const char *config, const char *toolchain);

/* The same on the model: th_expect_lookup_on("model", ...). */
const char *th_expect_lookup(const char *attack, const char *variant, const char *config,
			     const char *toolchain, const char **reason);
const char *th_expect_where(const char *attack, const char *variant, const char *config,
			    const char *toolchain);

/*
 * Declared differences: the rows of "@differs" sections, each of the
 * platforms of the "@platform" before it: a real-kernel cell (attack,
 * variant, config, toolchain globs) may differ from the model's cell of the
 * same key exactly as declared (the model's outcome, the kernel's).
 */
size_t th_expect_difference_count(void);
/* Row i (0..count-1), NULL past the end; valid until the table changes. */
const struct th_check_difference *th_expect_difference(size_t i);
/* Does row i apply to platform (its @platform globs match)? */
bool th_expect_difference_on(size_t i, const char *platform);
/* The first row whose platform and cell globs match: its index, or -1. */
long th_expect_differs(const char *platform, const char *attack, const char *variant,
		       const char *config, const char *toolchain);
/* results/results.h's th_difference_fn over the rows (ctx unused): true
 * when the first matching row declares exactly (model, kernel). */
bool th_expect_declared_difference(void *ctx, const char *platform, const char *attack,
				   const char *variant, const char *config, const char *toolchain,
				   enum th_outcome model, enum th_outcome kernel,
				   const char **reason, const char **rule);

/*
 * Judge res by the loaded table, as the matrix judges its cells: every
 * cell's expected outcome and expected_line (on its own platform) and its
 * verdict (without a baseline), and the agreement stored with the declared
 * differences (th_results_set_agreement). Records the table as res's
 * expectations when res has none; refuses res judged by another file (by
 * SHA-256). For a real kernel's run, after th_results_replace_platform().
 * Return: 0, or -1 with err set.
 */
int th_expect_judge_results(struct th_results *res, char *err, size_t n);

/* The file loaded (as named to th_expect_load) and the SHA-256 of every
 * byte read from it (64 lower-case hex digits); NULL when none is loaded. */
const char *th_expect_path(void);
const char *th_expect_sha256(void);

/* Number of rules loaded (the @differs rows not counted). */
size_t th_expect_count(void);
/* Number of rules that apply to platform (their @platform globs match). */
size_t th_expect_count_on(const char *platform);

/* Forget the table. */
void th_expect_free(void);

#endif
