/* SPDX-License-Identifier: MIT */
/*
 * Renderers of a results model. They read only the model (the results file,
 * loaded); they never run, look up or assume an outcome. Files are replaced
 * atomically, like results.json: a failed render leaves the old file.
 */
#ifndef TH_REPORT_RENDER_H
#define TH_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* Widest line of the terminal matrix. */
#define TH_MATRIX_WIDTH 140

/**
 * th_render_matrix() - the terminal matrix, one table per toolchain.
 *
 * Rows: attack IDs grouped by technique, then timing. Columns: configs,
 * grouped by variant; names too wide become keys listed under the table.
 * One th_outcome_symbol() per cell (the observed, most severe outcome),
 * followed by '!' for a regression or '*' when the runs disagreed; blank
 * when the results have no such cell. Then a legend and per-outcome counts.
 * ANSI colours only when use_color.
 *
 * Return: 0, -1 when out of memory or out reports an error.
 */
int th_render_matrix(FILE *out, const struct th_results *res, int use_color);

/**
 * th_render_markdown() - report.md: run facts, configs with support per
 * toolchain, counts, headline findings (each a question answered by the
 * cells it selects, with their evidence verbatim), then the full matrix.
 * Return: 0, or -1 with err set (path untouched).
 */
int th_render_markdown(const struct th_results *res, const char *path,
		       char *err, size_t errlen);
/* The same document, to a stream. */
int th_render_markdown_to(FILE *out, const struct th_results *res,
			  char *err, size_t errlen);

/**
 * th_render_junit() - JUnit XML: a testsuite per toolchain, a testcase per
 * cell (classname timerharness.<toolchain>.<variant>.<config>, name the
 * attack ID); <failure> on regression, <skipped> for UNSUPPORTED and
 * NOT_APPLICABLE; the evidence in <system-out>.
 * Return: 0, or -1 with err set (path untouched).
 */
int th_render_junit(const struct th_results *res, const char *path,
		    char *err, size_t errlen);
int th_render_junit_to(FILE *out, const struct th_results *res,
		       char *err, size_t errlen);

#endif
