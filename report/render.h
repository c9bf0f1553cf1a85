/* SPDX-License-Identifier: MIT */
/*
 * Renderers of a results model. They read only the model (the results file,
 * loaded); they never run, look up or assume an outcome. Files are replaced
 * atomically, like results.json: a failed render leaves the old file.
 *
 * What each says below of "the cells" is of the model's cells (platform
 * "model"), rendered exactly as for results without a real kernel; each
 * real kernel's cells (a "linux-*" platform) follow in their own section,
 * suites or tests, named by the platform, with the agreement computed from
 * the cells (docs/outputs.md).
 */
#ifndef TH_REPORT_RENDER_H
#define TH_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* Widest line of the terminal matrix. */
#define TH_MATRIX_WIDTH 140
/* Widest line of the verdict screen: a terminal's 80 columns. */
#define TH_VERDICT_WIDTH 80

/**
 * th_render_verdict() - the verdict screen: the toolchains, then whether
 * type-based CFI (cfi-icall, kcfi) stops CVE-2017-7308's overwrite on each
 * API generation and what 4.15 + CFI still lets through, each answered by
 * the cells it selects (their most severe outcome, and how many cells had
 * each); then CFI reach, fuzzing campaigns ("not run" when the results
 * hold none) and the outcome totals. Lines of at most TH_VERDICT_WIDTH
 * columns (long names excepted); ANSI colours only when use_color.
 * Return: 0, -1 when out of memory or out reports an error.
 */
int th_render_verdict(FILE *out, const struct th_results *res, int use_color);

/* What the commands print beside it, within the same width: text after
 * indent, its words wrapped at TH_VERDICT_WIDTH columns, each further line
 * indented two more (a word wider than any line breaks after its commas,
 * a list, and a piece still wider after its TH_FZ_CHAIN_SEPs, a fuzz chain
 * ID; one without either, a long path, stays whole); shown as
 * th_report_put_line() shows text (never raw); a newline after it. */
void th_report_put_wrapped(FILE *out, const char *indent, const char *text);
/* The same for text shown escaped already (th_report_put_line()). */
void th_report_put_wrapped_escaped(FILE *out, const char *indent, const char *escaped);
/* A count as a reader takes it in: 812, 9.4k, 4.2M (render_common.c). */
void th_report_short_count(long long n, char *buf, size_t len);

/* Colour on a terminal: fd is one, and NO_COLOR (no-color.org) is unset or
 * empty. */
int th_render_color_ok(int fd);

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
 * NOT_APPLICABLE; the evidence in <system-out>. A real kernel's cells: a
 * testsuite per platform and toolchain ("linux-6.1.192/clang-22"),
 * classname timerharness.<platform>.<toolchain>.<variant>.<config>.
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
 * th_render_sarif() - a SARIF 2.1.0 log for code scanning: one run of tool
 * "timerharness", a rule per reported outcome (HIJACKED, PRIVILEGED_WRITE,
 * REDIRECTED, CRASHED, HANG, TIMER_LOST, HARNESS_ERROR, FALSE_POSITIVE, and
 * REGRESSION for a regressed cell of any other outcome), and a result only
 * for what the gate does not accept: level error for a regressed cell,
 * warning for a new cell (no rule declares it) of a rule's outcome; one
 * result for the cells of one attack, variant, config (and platform) on
 * every toolchain, at the line of the expectations file that declares it,
 * fingerprinted by that identity (no toolchain). A run that passes the gate
 * has no result. At most TH_SARIF_MAX_RESULTS results, the most severe.
 * Return: 0, or -1 with err set (path untouched).
 */
int th_render_sarif(const struct th_results *res, const char *path,
		    char *err, size_t errlen);
int th_render_sarif_to(FILE *out, const struct th_results *res,
		       char *err, size_t errlen);

/* The same findings as GitLab's Code Quality report (a JSON array of issues:
 * description, check_name, fingerprint, severity, location.path and
 * location.lines.begin), which merge requests show in every GitLab tier:
 * "[]" when the gate passes. Return: 0, or -1 with err set. */
int th_render_codequality_to(FILE *out, const struct th_results *res,
			     char *err, size_t errlen);

/* The results of a run GitHub's code scanning keeps ("SARIF results exceed
 * one or more limits": the top 5,000, prioritized by severity). */
#define TH_SARIF_MAX_RESULTS 5000

/* When res has more findings than the log holds, the sentence saying so
 * into buf ("report.sarif: 5432 findings, more than ...") and 1; else 0
 * (buf empty); -1 out of memory. */
int th_render_sarif_cap_note(const struct th_results *res, char *buf, size_t n);

/**
 * th_render_ktap() - KTAP version 1: a test per toolchain (then per real
 * kernel and toolchain, "linux-6.1.192/clang-22"), a subtest per cell
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
 * report.html, junit.xml, report.sarif and results.json. Each is rendered in memory and
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
/* "outputs in DIR/: report.md ... results.json", the names on a line of
 * their own (indented) when DIR leaves no room for them in 80 columns. */
void th_render_outputs_line(FILE *out, const char *dir);

/**
 * th_render_lock_dir() - one writer of a set at a time in dir.
 * @who: what the holder is, said to a refused writer ("matrix", "kernel").
 *
 * Takes an exclusive flock(2) on dir/.timerharness.lock (created if
 * missing) and writes "PID WHO" into it. It is held until
 * th_render_unlock_dir() (which removes the file), the descriptor is
 * closed, or the process ends, however it ends (a file left by a killed
 * run is taken over, never a refusal by itself). Take it
 * before reading what the set will replace (results.json) and keep it
 * until the set is written: `matrix` and a real kernel's run then never mix
 * their files. Return: the descriptor, or -1 with err set ("DIR is in use
 * by another matrix run (pid N): wait for it, or choose another --out").
 */
int th_render_lock_dir(const char *dir, const char *who, char *err, size_t errlen);
/* Release the lock and remove dir/.timerharness.lock, so a finished run
 * leaves nothing behind; fd < 0: nothing. */
void th_render_unlock_dir(int fd, const char *dir);

/**
 * th_render_write_set() - results.json and every report into dir, as
 * `matrix` writes them: the campaigns (fuzz.json) and the bench's files
 * lying beside dir/results.json are read into res's sections
 * (th_results_load_fuzz_beside(), th_results_load_bench_beside()), then
 * th_render_output_set() writes the set (all of it, or none replaced).
 * A file beside it that does not load is left out of the reports, one line
 * each in warn ("DIR/fuzz.json: ...: the campaigns are left out of the
 * reports"; "" when none). The sections stay in res, for the verdict
 * screen. Call with dir locked (th_render_lock_dir). Return: 0, or -1 with
 * err set.
 */
int th_render_write_set(struct th_results *res, const char *dir, char *warn, size_t warnlen,
			char *err, size_t errlen);

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
	TH_RENDER_VERDICT,	/* "verdict": the verdict screen */
	TH_RENDER_CODEQUALITY,	/* "codequality": GitLab's Code Quality report */
	TH_RENDER_FORMAT_COUNT,
	TH_RENDER_FORMAT_INVALID = -1
};

/* The format's name; NULL when invalid. */
const char *th_render_format_name(enum th_render_format f);
/* What each format is, as `report --help` lists them: the first line after
 * first ("  --format   "), the others after indent (as wide). */
void th_render_format_usage(FILE *f, const char *first, const char *indent);
/* Exact name; TH_RENDER_FORMAT_INVALID for anything else. */
enum th_render_format th_render_format_parse(const char *s);

/* Render res in format f to out; use_color only affects the terminal
 * formats (matrix, verdict).
 * Return: 0, or -1 with err set. */
int th_render_format_to(FILE *out, enum th_render_format f,
			const struct th_results *res, int use_color,
			char *err, size_t errlen);
/* The same, replacing path atomically (never in colour).
 * Return: 0, or -1 with err set (path untouched). */
int th_render_format_file(const char *path, enum th_render_format f,
			  const struct th_results *res, char *err, size_t errlen);

#endif
