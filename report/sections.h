/* SPDX-License-Identifier: MIT */
/*
 * The sections of report.md and report.html, and the one table of them
 * both documents walk (sections.c), in order: a section is a function that
 * writes it against the document writer (doc.h), in its own file, and a
 * row. A new section is its file and its row; a new format that doc.h can
 * write walks the same table (LKDTM's core.c walks its per-family tables
 * the same way).
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

/* The formats a row is written in. */
#define TH_SECTION_MD	0x1u
#define TH_SECTION_HTML	0x2u
#define TH_SECTION_BOTH	(TH_SECTION_MD | TH_SECTION_HTML)

struct th_section {
	const char *id;		/* its HTML anchor; the row's name */
	const char *title;	/* its heading as report.html's <nav> links to it */
	unsigned formats;	/* TH_SECTION_* */
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
/* report.html's <nav>: a link per row with nav that the model has. */
void th_sections_nav(struct th_doc *d, const struct th_section_ctx *c);

/* ---- sections written once for both formats ---- */

/* Each real kernel (the results' platforms): what it is, its cells beside
 * the model's (the agreement, computed from the cells), then its cells.
 * From c->full, every platform's cells. Nothing when there is no real
 * kernel. Return: 0, or -1 (out of memory). */
int th_section_kernel(struct th_doc *d, const struct th_section_ctx *c);
/* The matrix: a table per toolchain and variant (report.md), a colour
 * grid per toolchain (report.html) (section_matrix.c). */
int th_section_matrix(struct th_doc *d, const struct th_section_ctx *c);
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

/* ---- sections each format writes its own way ---- */

/* report.md (render_markdown.c): its title and the verdict screen, the
 * run, the outcome counts and metrics. */
int th_md_title(struct th_doc *d, const struct th_section_ctx *c);
int th_md_verdict(struct th_doc *d, const struct th_section_ctx *c);
int th_md_run(struct th_doc *d, const struct th_section_ctx *c);
int th_md_summary(struct th_doc *d, const struct th_section_ctx *c);
/* report.html (render_html.c): its header, the <nav>, the charts (inline
 * SVG), the run (with the counts); the verdict card (section_card.c). */
int th_html_header(struct th_doc *d, const struct th_section_ctx *c);
int th_html_card(struct th_doc *d, const struct th_section_ctx *c);
int th_html_nav(struct th_doc *d, const struct th_section_ctx *c);
int th_html_charts(struct th_doc *d, const struct th_section_ctx *c);
int th_html_run(struct th_doc *d, const struct th_section_ctx *c);

#endif
