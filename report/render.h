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
 * ANSI colours only when use_color. No line ends in a blank.
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

/**
 * th_render_html() - report.html: one self-contained page (inline CSS, no
 * script, no external asset): run facts, configs with support per toolchain,
 * counts, the headline findings of report.md, then per toolchain the matrix
 * as a colour-coded grid (rows: attacks grouped by technique and timing;
 * columns: configs grouped by variant), each cell's tooltip holding its
 * outcome, counts, expectation, verdict and evidence; regressions framed.
 * Return: 0, or -1 with err set (path untouched).
 */
int th_render_html(const struct th_results *res, const char *path,
		   char *err, size_t errlen);
int th_render_html_to(FILE *out, const struct th_results *res,
		      char *err, size_t errlen);

/**
 * th_render_sarif() - a SARIF 2.1.0 log: one run of tool "timerharness", a
 * rule per reported outcome (HIJACKED, REDIRECTED, CRASHED, HANG,
 * FALSE_POSITIVE, and REGRESSION for a regressed cell of any other outcome),
 * a result per such cell: level error when it regressed, else warning
 * (HIJACKED, REDIRECTED, FALSE_POSITIVE) or note; the attack ID as logical
 * location; expected, verdict and counts in its properties.
 * Return: 0, or -1 with err set (path untouched).
 */
int th_render_sarif(const struct th_results *res, const char *path,
		    char *err, size_t errlen);
int th_render_sarif_to(FILE *out, const struct th_results *res,
		       char *err, size_t errlen);

/**
 * th_render_ktap() - KTAP version 1: a test per toolchain, a subtest per cell
 * (<attack>.<variant>.<config>): "not ok" on regression, "ok ... # SKIP
 * <reason>" for UNSUPPORTED and NOT_APPLICABLE, "ok" otherwise; before each
 * result a diagnostic line "# outcome=... expected=... evidence=...".
 * Return: 0, or -1 with err set (path untouched).
 */
int th_render_ktap(const struct th_results *res, const char *path,
		   char *err, size_t errlen);
int th_render_ktap_to(FILE *out, const struct th_results *res,
		      char *err, size_t errlen);

/**
 * th_render_output_set() - one run's files into dir, as a set: report.md,
 * report.html, junit.xml and results.json. Each is rendered in memory and
 * written (fsynced) to a temporary file beside its target; only when all of
 * them are on disk are they renamed into place, results.json last. A failure
 * before the renames (a full disk, a target that is not a regular file)
 * replaces none of them and leaves no temporary file.
 * Return: 0, or -1 with err set.
 */
int th_render_output_set(const struct th_results *res, const char *dir,
			 char *err, size_t errlen);
/* The i-th file name of the set (in the order above); NULL past the end. */
const char *th_render_set_name(size_t i);

/* May path be written by th_render_format_file()? It must not exist or be
 * a regular file (a symbolic link, a device node, a FIFO or a directory is
 * never replaced). Return: 0, or -1 with err set. */
int th_render_out_ok(const char *path, char *err, size_t errlen);

/* The formats of `timerharness report --format`. */
enum th_render_format {
	TH_RENDER_MARKDOWN,	/* "md" */
	TH_RENDER_HTML,		/* "html" */
	TH_RENDER_JUNIT,	/* "junit" */
	TH_RENDER_SARIF,	/* "sarif" */
	TH_RENDER_KTAP,		/* "ktap" */
	TH_RENDER_MATRIX,	/* "matrix": the terminal matrix */
	TH_RENDER_FORMAT_COUNT,
	TH_RENDER_FORMAT_INVALID = -1
};

/* The format's name; NULL when invalid. */
const char *th_render_format_name(enum th_render_format f);
/* Exact name; TH_RENDER_FORMAT_INVALID for anything else. */
enum th_render_format th_render_format_parse(const char *s);

/* Render res in format f to out; use_color only affects the matrix.
 * Return: 0, or -1 with err set. */
int th_render_format_to(FILE *out, enum th_render_format f,
			const struct th_results *res, int use_color,
			char *err, size_t errlen);
/* The same, replacing path atomically (never in colour).
 * Return: 0, or -1 with err set (path untouched). */
int th_render_format_file(const char *path, enum th_render_format f,
			  const struct th_results *res, char *err, size_t errlen);

#endif
