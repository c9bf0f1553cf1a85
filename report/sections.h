/* SPDX-License-Identifier: MIT */
/*
 * The sections of report.md and report.html, and the one table of them
 * both documents walk (sections.c), in order: a section is a function that
 * writes it against the document writer (doc.h), in its own file, and a
 * row. A new section is its file and its row; a new format is a back end
 * of doc.h (its table of functions) that walks the same table (LKDTM's
 * core.c walks its per-family tables the same way).
 */
#ifndef TH_REPORT_SECTIONS_H
#define TH_REPORT_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "doc.h"
#include "results.h"

/* What a section is written from: the model's cells (res, a view of full
 * without the real kernels' cells), the whole results (full), res's cells
 * in display order, its toolchains sorted. */
struct th_section_ctx {
	const struct th_results *res;
	const struct th_results *full;
	const struct th_cell **all;
	const struct th_toolchain **tcs;
	size_t ntc;
};

struct th_section {
	const char *id;		/* its HTML anchor; the row's name */
	const char *title;	/* its heading as report.html's <nav> links to it */
	unsigned formats;	/* the formats it is in: TH_DOC_* (doc.h) */
	bool nav;		/* linked from report.html's <nav> */
	/* HTML: its tables' rows in a <tbody> (struct th_doc's tbody: the
	 * sections report.html always wrote so; the others' bytes are kept). */
	bool tbody;
	/* Does the model have it? NULL: always. A section without it is
	 * neither written nor linked. */
	bool (*has)(const struct th_section_ctx *c);
	/* Write it; return 0, or -1 (out of memory). */
	int (*write)(struct th_doc *d, const struct th_section_ctx *c);
};

extern const struct th_section th_sections[];
extern const size_t th_nsections;

/* report.md or report.html of res, written by page(): the model's cells
 * as ever (a view of res without the real kernels'), each real kernel's
 * in its own section. what: the format, for the error ("cannot write the
 * Markdown report"). Return: 0, or -1 with err set. */
int th_sections_document(FILE *out, const struct th_results *res,
			 int (*page)(FILE *out, const struct th_section_ctx *c), const char *what,
			 char *err, size_t errlen);
/* Write every row of d's format, in order. Return: 0, or -1. */
int th_sections_write(struct th_doc *d, const struct th_section_ctx *c);
/* report.html's <nav>: a link per row with nav that the model has
 * (sections.c, a row of its own table). */
int th_section_nav(struct th_doc *d, const struct th_section_ctx *c);

/* ---- the sections, each in its own file, each written against doc.h ---- */

/* Each real kernel (the results' platforms): what it is, its cells beside
 * the model's (the agreement, computed from the cells), then its cells.
 * From c->full, every platform's cells. Nothing when there is no real
 * kernel. Return: 0, or -1 (out of memory). */
int th_section_kernel(struct th_doc *d, const struct th_section_ctx *c);
/* The matrix (section_matrix.c): a table per toolchain and variant
 * (report.md's), or a colour grid per toolchain whose cells link to their
 * evidence (report.html's: HTML only, written with html.h). */
int th_section_matrix_tables(struct th_doc *d, const struct th_section_ctx *c);
int th_section_matrix_grid(struct th_doc *d, const struct th_section_ctx *c);
/* The configs and their support per toolchain (section_configs.c). */
int th_section_configs(struct th_doc *d, const struct th_section_ctx *c);
/* The headline findings (headlines.c's questions, each answered by the
 * cells its selector picks: the cells and their evidence verbatim), and
 * the rows that regressed or differ between toolchains
 * (section_findings.c). */
int th_section_findings(struct th_doc *d, const struct th_section_ctx *c);
int th_section_differences(struct th_doc *d, const struct th_section_ctx *c);
/* The reach section (render_reach.c), the fuzz campaigns (render_fuzz.c),
 * the bench's figures (render_bench.c). */
int th_section_reach(struct th_doc *d, const struct th_section_ctx *c);
int th_section_fuzz(struct th_doc *d, const struct th_section_ctx *c);
int th_section_bench(struct th_doc *d, const struct th_section_ctx *c);
/* The head of each document (section_head.c): report.md's title and the
 * verdict screen as text; report.html's header (what was run, in a line; a
 * partial run or a slice said first). */
int th_section_title(struct th_doc *d, const struct th_section_ctx *c);
int th_section_verdict_screen(struct th_doc *d, const struct th_section_ctx *c);
int th_section_header(struct th_doc *d, const struct th_section_ctx *c);
/* The run (section_run.c): report.md's run and its summary (the outcome
 * counts), report.html's run (the two together, the counts with each
 * outcome's meaning); the metrics table, last in both. */
int th_section_run(struct th_doc *d, const struct th_section_ctx *c);
int th_section_summary(struct th_doc *d, const struct th_section_ctx *c);
int th_section_run_counts(struct th_doc *d, const struct th_section_ctx *c);
int th_section_metrics(struct th_doc *d, const struct th_section_ctx *c);
/* report.html's charts, inline SVG (render_charts.c), and its verdict card
 * (section_card.c): HTML only, written with html.h. */
int th_section_charts(struct th_doc *d, const struct th_section_ctx *c);
int th_html_card(struct th_doc *d, const struct th_section_ctx *c);

#endif
