/* SPDX-License-Identifier: MIT */
/*
 * One document writer, two back ends: a section of report.md and
 * report.html is written once, against these calls, and comes out as
 * Markdown or as HTML (Kconfig's confdata.c: one walk over one model, the
 * printer passed in). Text from a file goes through th_doc_text() or
 * th_doc_code(), escaped for the format; markup of ours (a heading, a
 * table, a list) through the rest.
 */
#ifndef TH_REPORT_DOC_H
#define TH_REPORT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

struct th_doc {
	FILE *out;
	bool html;
	bool in_table;	/* Markdown: a '|' in code is escaped inside a table */
	/*
	 * HTML: a table's rows in a <tbody>. report.html's own tables (the
	 * reach, kernel, configs and run sections) have always had one; the
	 * bench's and the fuzz campaigns' were written without, and a page's
	 * bytes are kept: a section says which it writes.
	 */
	bool tbody;
};

/* Text from a file: Markdown's escaping (every unsafe character visible), or HTML's. */
void th_doc_text(struct th_doc *d, const char *s);
/* A name from a file, as inline code. */
void th_doc_code(struct th_doc *d, const char *s);
/* th_doc_text() of a formatted string (up to 511 bytes). */
__attribute__((format(printf, 2, 3))) void th_doc_textf(struct th_doc *d, const char *fmt, ...);
/* Text of ours, the same in both formats (no markup, nothing to escape). */
void th_doc_raw(struct th_doc *d, const char *s);
/* A fixed text of ours (headlines.c) whose `names` are Markdown's code
 * spans: as it is in Markdown, the spans as <code> in HTML. */
void th_doc_prose(struct th_doc *d, const char *s);
/* Text of ours, shown dimmed: as it is in Markdown, a muted <span> in HTML. */
void th_doc_muted(struct th_doc *d, const char *s);
/* A heading of ours: "### text" or "<h3 id=...>text</h3>" (id: NULL for none). */
void th_doc_heading(struct th_doc *d, int level, const char *id, const char *text);
/* A heading whose text is from a file, escaped (id: ours, or NULL). */
void th_doc_heading_text(struct th_doc *d, int level, const char *id, const char *text);
void th_doc_para(struct th_doc *d);
void th_doc_end_para(struct th_doc *d);
/* Ours, emphasised: "**s**" or "<strong>s</strong>". */
void th_doc_strong(struct th_doc *d, const char *s);
/* Emphasis around what follows (text from a file, escaped): "**" / <strong>. */
void th_doc_strong_begin(struct th_doc *d);
void th_doc_strong_end(struct th_doc *d);
/* A table: its column heads (ours), rows of cells. */
void th_doc_table_head(struct th_doc *d, const char *const *heads, size_t n);
/* The same, the heads escaped as text (a name from a file, or a '_'). */
void th_doc_table_head_text(struct th_doc *d, const char *const *heads, size_t n);
void th_doc_row_begin(struct th_doc *d);
/* A row marked for the eye: HTML's <tr class="cls">; Markdown has no mark. */
void th_doc_row_begin_mark(struct th_doc *d, const char *cls);
void th_doc_cell_begin(struct th_doc *d);
void th_doc_cell_end(struct th_doc *d);
/* A cell of our own text (figures). */
void th_doc_cell(struct th_doc *d, const char *s);
/* One cell across n columns: HTML's colspan; Markdown has none, so n-1
 * empty cells follow it. */
void th_doc_cell_span_begin(struct th_doc *d, int n);
void th_doc_cell_span_end(struct th_doc *d, int n);
void th_doc_row_end(struct th_doc *d);
void th_doc_table_end(struct th_doc *d);
/* An outcome: its name (Markdown), a coloured badge (HTML); no outcome
 * (TH_OUTCOME_INVALID): "none", muted in HTML. */
void th_doc_outcome(struct th_doc *d, enum th_outcome o);
/* A cell's observed outcome, or the counts when its runs disagreed;
 * with_verdict adds "(regression; expected X)" (th_report_md_cell(),
 * th_html_cell_badges()). */
void th_doc_cell_outcome(struct th_doc *d, const struct th_cell *c, bool with_verdict);
/* A bulleted list. */
void th_doc_list_begin(struct th_doc *d);
void th_doc_item_begin(struct th_doc *d);
void th_doc_item_end(struct th_doc *d);
void th_doc_list_end(struct th_doc *d);
/* Text from a file, as a block kept as it is (a fence, or <pre>). */
void th_doc_pre(struct th_doc *d, const char *s);

#endif
