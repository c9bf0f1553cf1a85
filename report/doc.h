/* SPDX-License-Identifier: MIT */
/*
 * One document writer, a back end per format: a section of report.md and
 * report.html is written once, against these calls, and comes out as
 * Markdown or as HTML through the table of functions the document was
 * opened with (Kconfig's confdata.c: one walk over one model, the printer
 * passed in). The back ends are doc_markdown.c (markdown.h) and doc_html.c
 * (html.h); each holds its format's escaping, and nothing else calls it but
 * the rows only its format has. A section never asks which format it
 * writes: where the two differ (HTML folds what Markdown shows under a
 * title, marks what Markdown leaves plain), the call says what the text
 * is, and each back end writes that its way.
 *
 * Text from a file goes through th_doc_text() or th_doc_code(), escaped for
 * the format; th_doc_raw() takes text of ours with no markup and nothing to
 * escape (the same bytes in both formats); markup through the rest.
 */
#ifndef TH_REPORT_DOC_H
#define TH_REPORT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* The formats, as a bit each (sections.h's rows say which they are in). */
#define TH_DOC_MARKDOWN	0x1u
#define TH_DOC_HTML	0x2u

struct th_doc;

/*
 * A finding (report.md and report.html's headline findings and
 * differences): a question and what answers it. HTML folds it (a
 * <details> whose summary holds the question and the answer); Markdown
 * gives a heading, the cells' description and the answer below them.
 */
struct th_doc_finding {
	const char *title;	/* ours; `names` as Markdown's code spans (th_doc_prose) */
	const char *about;	/* which cells answer it, the same */
	const char *note;	/* a caveat shown with it, the same; NULL: none */
	bool open;		/* HTML: open at first */
	/* What was observed, written by answer(d, x) (text of the document's
	 * calls): in the fold's summary, or a paragraph under the head.
	 * NULL: none. */
	void (*answer)(struct th_doc *d, const void *x);
	const void *x;
	/* A line only a fold's summary has (how many rows it folds); NULL:
	 * none. */
	const char *summary;
};

/* A back end: a function per thing the sections write, in the order of
 * the th_doc_* calls below, each documented there. */
struct th_doc_ops {
	unsigned format;	/* TH_DOC_* */
	void (*text)(struct th_doc *d, const char *s);
	void (*code)(struct th_doc *d, const char *s);
	void (*prose)(struct th_doc *d, const char *s);
	void (*muted)(struct th_doc *d, const char *s);
	void (*alert)(struct th_doc *d, const char *s);
	void (*good)(struct th_doc *d, const char *s);
	void (*bad)(struct th_doc *d, const char *s);
	void (*heading_begin)(struct th_doc *d, int level, const char *id);
	void (*heading_end)(struct th_doc *d, int level);
	void (*para)(struct th_doc *d, const char *cls);
	void (*end_para)(struct th_doc *d);
	void (*line_begin)(struct th_doc *d);
	void (*line_end)(struct th_doc *d);
	void (*banner)(struct th_doc *d);
	void (*caption)(struct th_doc *d, const char *s);
	void (*fold_hint)(struct th_doc *d, const char *s);
	void (*strong_begin)(struct th_doc *d);
	void (*strong_end)(struct th_doc *d);
	void (*table_head)(struct th_doc *d, const char *const *heads, size_t n, const char *align,
			   bool escape);
	void (*row_begin)(struct th_doc *d, const char *cls);
	void (*cell_begin)(struct th_doc *d, bool num);
	void (*cell_end)(struct th_doc *d);
	void (*cell_span_begin)(struct th_doc *d, int n);
	void (*cell_span_end)(struct th_doc *d, int n);
	void (*row_end)(struct th_doc *d);
	void (*table_end)(struct th_doc *d);
	void (*outcome)(struct th_doc *d, enum th_outcome o);
	void (*cell_outcome)(struct th_doc *d, const struct th_cell *c, bool with_verdict);
	void (*list_begin)(struct th_doc *d);
	void (*item_begin)(struct th_doc *d);
	void (*item_end)(struct th_doc *d);
	void (*item_end_block)(struct th_doc *d, const char *s);
	void (*list_end)(struct th_doc *d);
	void (*pre)(struct th_doc *d, const char *s);
	void (*fold_begin)(struct th_doc *d, const char *summary, bool open, int level,
			   const char *title);
	void (*fold_end)(struct th_doc *d);
	void (*finding_begin)(struct th_doc *d, const struct th_doc_finding *f);
	void (*finding_end)(struct th_doc *d);
	void (*nav_begin)(struct th_doc *d);
	void (*link)(struct th_doc *d, const char *id, const char *text);
	void (*nav_end)(struct th_doc *d);
};

/* Markdown (doc_markdown.c) and HTML (doc_html.c). */
extern const struct th_doc_ops th_doc_markdown;
extern const struct th_doc_ops th_doc_html;

struct th_doc {
	FILE *out;
	const struct th_doc_ops *ops;
	bool in_table;	/* Markdown: a '|' in code is escaped inside a table */
	/* Markdown: the list's last item ended with a block, whose fence ended
	 * the list's line too. */
	bool item_block;
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
/* th_doc_raw() of a formatted string (figures): no markup in fmt, and no
 * text from a file among the arguments. */
__attribute__((format(printf, 2, 3))) void th_doc_rawf(struct th_doc *d, const char *fmt, ...);
/* A fixed text of ours (headlines.c) whose `names` are Markdown's code
 * spans: as it is in Markdown, the spans as <code> in HTML. */
void th_doc_prose(struct th_doc *d, const char *s);
/* Text of ours, shown dimmed: as it is in Markdown, a muted <span> in HTML. */
void th_doc_muted(struct th_doc *d, const char *s);
/* Text of ours that calls for attention where the page marks it too (a
 * regression's row, a disagreement): <strong> in HTML; plain in Markdown,
 * which marks no row. */
void th_doc_alert(struct th_doc *d, const char *s);
/* An answer of ours that is good or bad news ("yes", "no"): coloured in
 * HTML; in Markdown the bad one in bold. */
void th_doc_good(struct th_doc *d, const char *s);
void th_doc_bad(struct th_doc *d, const char *s);
/* A heading of ours: "### text" or "<h3 id=...>text</h3>" (id: NULL for none). */
void th_doc_heading(struct th_doc *d, int level, const char *id, const char *text);
/* A heading whose text is from a file, escaped (id: ours, or NULL). */
void th_doc_heading_text(struct th_doc *d, int level, const char *id, const char *text);
/* A heading whose text is written by the calls between (text of a file,
 * and of ours). */
void th_doc_heading_begin(struct th_doc *d, int level, const char *id);
void th_doc_heading_end(struct th_doc *d, int level);
void th_doc_para(struct th_doc *d);
/* A paragraph of a class of the page's (<p class="cls">); Markdown's is a
 * paragraph like any other. */
void th_doc_para_mark(struct th_doc *d, const char *cls);
void th_doc_end_para(struct th_doc *d);
/* A line of its own that heads what follows it (a cell's name over its
 * evidence): a <div>; in Markdown a paragraph. */
void th_doc_line_begin(struct th_doc *d);
void th_doc_line_end(struct th_doc *d);
/* A paragraph said before the rest (a partial run): a blockquote, a
 * banner; th_doc_end_para() ends it. */
void th_doc_banner(struct th_doc *d);
/* What the table below is, in a sentence of ours: the page's paragraph;
 * report.md, whose tables always went without, writes nothing. */
void th_doc_caption(struct th_doc *d, const char *s);
/* A hint of ours about the page's folds ("Open one for ..."): nothing in
 * Markdown, which folds nothing. */
void th_doc_fold_hint(struct th_doc *d, const char *s);
/* Ours, emphasised: "**s**" or "<strong>s</strong>". */
void th_doc_strong(struct th_doc *d, const char *s);
/* Emphasis around what follows (text from a file, escaped): "**" / <strong>. */
void th_doc_strong_begin(struct th_doc *d);
void th_doc_strong_end(struct th_doc *d);
/* A table: its column heads (ours), rows of cells. */
void th_doc_table_head(struct th_doc *d, const char *const *heads, size_t n);
/* The same, the heads escaped as text (a name from a file, or a '_'). */
void th_doc_table_head_text(struct th_doc *d, const char *const *heads, size_t n);
/* The same, align a letter per column: 'l' text, 'r' figures (Markdown's
 * "---:"; HTML's alignment is the cell's, th_doc_cell_num()). */
void th_doc_table_head_align(struct th_doc *d, const char *const *heads, size_t n,
			     const char *align);
void th_doc_row_begin(struct th_doc *d);
/* A row marked for the eye: HTML's <tr class="cls">; Markdown has no mark. */
void th_doc_row_begin_mark(struct th_doc *d, const char *cls);
void th_doc_cell_begin(struct th_doc *d);
/* A cell of figures, right-aligned in HTML (td class "n"). */
void th_doc_cell_begin_num(struct th_doc *d);
void th_doc_cell_end(struct th_doc *d);
/* A cell of our own text (figures). */
void th_doc_cell(struct th_doc *d, const char *s);
void th_doc_cell_num(struct th_doc *d, const char *s);
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
 * with_verdict adds "(regression; expected X)" (th_md_cell(),
 * th_html_cell_badges()). */
void th_doc_cell_outcome(struct th_doc *d, const struct th_cell *c, bool with_verdict);
/* A bulleted list. */
void th_doc_list_begin(struct th_doc *d);
void th_doc_item_begin(struct th_doc *d);
void th_doc_item_end(struct th_doc *d);
/* The item ended by a block of text from a file kept as it is (in place of
 * th_doc_item_end()): Markdown's fence after a blank line, <pre> in HTML. */
void th_doc_item_end_block(struct th_doc *d, const char *s);
void th_doc_list_end(struct th_doc *d);
/* Text from a file, as a block kept as it is (a fence, or <pre>). */
void th_doc_pre(struct th_doc *d, const char *s);
/*
 * A block the page folds (<details>, open or not) and Markdown shows in
 * full under a title: summary is the fold's line (ours), title Markdown's:
 * a heading of that level, or with level 0 a line of its own ending in ':'.
 */
void th_doc_fold_begin(struct th_doc *d, const char *summary, bool open, int level,
		       const char *title);
void th_doc_fold_end(struct th_doc *d);
/* A finding's head (struct th_doc_finding), and its end. */
void th_doc_finding_begin(struct th_doc *d, const struct th_doc_finding *f);
void th_doc_finding_end(struct th_doc *d);
/* A row of links to the sections (the page's <nav>), each to an id of
 * ours with a text of ours. */
void th_doc_nav_begin(struct th_doc *d);
void th_doc_link(struct th_doc *d, const char *id, const char *text);
void th_doc_nav_end(struct th_doc *d);

/* What both back ends write the same way, for them: a finding's cells and
 * note as paragraphs ("Cells: ..."; the note of class "banner"). */
void th_doc_finding_about(struct th_doc *d, const struct th_doc_finding *f);

#endif
