/* SPDX-License-Identifier: MIT */
/*
 * The Markdown back end of the document writer (doc.h): report.md's
 * escaping and markup. GitHub-flavoured: tables with '|', fenced blocks;
 * nothing folds, nothing is coloured, a row has no mark.
 */
#define _POSIX_C_SOURCE 200809L
#include "doc.h"
#include "report_internal.h"

#include <stdbool.h>
#include <string.h>

/* ---- escaping ---- */

/* Plain text; in a table a newline would end the row, so it becomes a
 * space. */
static void text_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && (*b == '\n' || *b == '\r'))
		fputc(' ', out);
	else if (n == 1 && strchr("\\`*_[]<>|#~", *b))
		fprintf(out, "\\%c", *b);
	else
		fwrite(b, 1, n, out);
}

static void code_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && (*b == '\n' || *b == '\r'))
		fputc(' ', out);
	else
		fwrite(b, 1, n, out);
}

/* ... and '|' in a table, where GFM splits cells on it, even in code. */
static void code_table_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '|')
		fputs("\\|", out);
	else
		code_cp(out, b, n);
}

/* In a fenced block the lines stay lines; a CR is shown, not obeyed. */
static void fence_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '\r')
		fputs("\\r", out);
	else
		fwrite(b, 1, n, out);
}

/* The longest run of backticks in s. */
static size_t backticks(const char *s)
{
	size_t run = 0, longest = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

static void fence(FILE *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc('`', out);
}

/* Every unsafe character (report_internal.h) as a visible escape,
 * Markdown's specials backslashed, a line break a space (it would end a
 * table row). */
static void md_text(struct th_doc *d, const char *s)
{
	th_report_put_visible(d->out, s, text_cp);
}

/* Inline code, fenced with more backticks than it holds, unsafe characters
 * visible; in a table '|' escaped. */
static void md_code(struct th_doc *d, const char *s)
{
	size_t longest = backticks(s);
	bool padded = *s == '`' || (*s && s[strlen(s) - 1] == '`') || !*s;

	fence(d->out, longest + 1);
	if (padded)
		fputc(' ', d->out);
	th_report_put_visible(d->out, s, d->in_table ? code_table_cp : code_cp);
	if (padded)
		fputc(' ', d->out);
	fence(d->out, longest + 1);
}

/* A ```text block: the lines as they are but for their unsafe characters
 * (a CR shown), the fence longer than any backtick run inside; an empty
 * text says so. */
static void md_pre(struct th_doc *d, const char *s)
{
	size_t longest = backticks(s), n = longest < 3 ? 3 : longest + 1;
	const char *t = *s ? s : "(no evidence recorded)";

	fence(d->out, n);
	fputs("text\n", d->out);
	th_report_put_visible(d->out, t, fence_cp);
	if (t[strlen(t) - 1] != '\n')
		fputc('\n', d->out);
	fence(d->out, n);
	fputs("\n\n", d->out);
}

/* ---- text of ours ---- */

static void md_plain(struct th_doc *d, const char *s)
{
	fputs(s, d->out);
}

static void md_bold(struct th_doc *d, const char *s)
{
	fprintf(d->out, "**%s**", s);
}

static void md_none(struct th_doc *d, const char *s)
{
	(void)d;
	(void)s;
}

/* What Markdown has no markup for (a list's start, a fold's end). */
static void md_nothing(struct th_doc *d)
{
	(void)d;
}

static void md_heading_begin(struct th_doc *d, int level, const char *id)
{
	(void)id;
	fprintf(d->out, "%.*s ", level, "######");
}

static void md_heading_end(struct th_doc *d, int level)
{
	(void)level;
	fputs("\n\n", d->out);
}

static void md_para(struct th_doc *d, const char *cls)
{
	(void)d;
	(void)cls;
}

static void md_end_para(struct th_doc *d)
{
	fputs("\n\n", d->out);
}

static void md_banner(struct th_doc *d)
{
	fputs("> ", d->out);
}

static void md_strong(struct th_doc *d)
{
	fputs("**", d->out);
}

/* ---- tables ---- */

static void md_table_head(struct th_doc *d, const char *const *heads, size_t n, const char *align,
			  bool escape)
{
	d->in_table = true;
	fputc('|', d->out);
	for (size_t i = 0; i < n; i++) {
		fputc(' ', d->out);
		if (escape)
			md_text(d, heads[i]);
		else
			fputs(heads[i], d->out);
		fputs(" |", d->out);
	}
	fputs("\n|", d->out);
	for (size_t i = 0; i < n; i++)
		fputs(align && align[i] == 'r' ? "---:|" : "---|", d->out);
	fputc('\n', d->out);
}

static void md_row_begin(struct th_doc *d, const char *cls)
{
	(void)cls;
	fputc('|', d->out);
}

static void md_cell_begin(struct th_doc *d, bool num)
{
	(void)num;
	fputc(' ', d->out);
}

static void md_cell_end(struct th_doc *d)
{
	fputs(" |", d->out);
}

static void md_cell_span_begin(struct th_doc *d, int n)
{
	(void)n;
	fputc(' ', d->out);
}

static void md_cell_span_end(struct th_doc *d, int n)
{
	for (int i = 0; i < n; i++)
		fputs(" |", d->out);
}

static void md_row_end(struct th_doc *d)
{
	fputc('\n', d->out);
}

static void md_table_end(struct th_doc *d)
{
	d->in_table = false;
	fputc('\n', d->out);
}

/* ---- outcomes ---- */

static void md_outcome(struct th_doc *d, enum th_outcome o)
{
	fputs(th_outcome_name(o) ? th_outcome_name(o) : "none", d->out);
}

/* "HIJACKED", "NO_EFFECT 3/5, CRASHED 2/5"; with verdict: "**HIJACKED**
 * (regression; expected BLOCKED_CFI)". */
static void md_cell_outcome(struct th_doc *d, const struct th_cell *c, bool with_verdict)
{
	FILE *out = d->out;
	enum th_verdict v = th_results_shown_verdict(c);
	bool bold = with_verdict && v == TH_VERDICT_REGRESSION;
	char exp[200];

	if (bold)
		fputs("**", out);
	if (th_report_kinds(c) > 1) {
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!c->counts[i])
				continue;
			fprintf(out, "%s%s %u/%u", first ? "" : ", ",
				th_outcome_name((enum th_outcome)i), c->counts[i], c->runs);
			first = 0;
		}
	} else {
		fputs(th_outcome_name(th_cell_observed(c)), out);
	}
	if (bold)
		fputs("**", out);
	if (with_verdict && (v == TH_VERDICT_REGRESSION || v == TH_VERDICT_IMPROVEMENT))
		fprintf(out, " (%s; expected %s)", th_verdict_name(v),
			th_cell_expected_text(c, exp, sizeof(exp)));
}

/* ---- lists, folds, findings ---- */

static void md_item_begin(struct th_doc *d)
{
	d->item_block = false;
	fputs("- ", d->out);
}

static void md_item_end(struct th_doc *d)
{
	fputc('\n', d->out);
}

/* The fence after a blank line; its end ends the item. */
static void md_item_end_block(struct th_doc *d, const char *s)
{
	fputs("\n\n", d->out);
	md_pre(d, s);
	d->item_block = true;
}

/* A blank line after the list, unless its last item's fence left one. */
static void md_list_end(struct th_doc *d)
{
	if (!d->item_block)
		fputc('\n', d->out);
	d->item_block = false;
}

/* Nothing folds: the block under its title. */
static void md_fold_begin(struct th_doc *d, const char *summary, bool open, int level,
			  const char *title)
{
	(void)summary;
	(void)open;
	if (level)
		th_doc_heading(d, level, NULL, title);
	else
		fprintf(d->out, "%s:\n\n", title);
}


/* The question as a heading, its cells, then the answer. */
static void md_finding_begin(struct th_doc *d, const struct th_doc_finding *f)
{
	th_doc_heading(d, 3, NULL, f->title);
	th_doc_finding_about(d, f);
	if (f->answer) {
		th_doc_para(d);
		f->answer(d, f->x);
		th_doc_end_para(d);
	}
}

static void md_link(struct th_doc *d, const char *id, const char *text)
{
	fprintf(d->out, "[%s](#%s)", text, id);
}

/* The links of a nav as a paragraph. */
static void md_nav_end(struct th_doc *d)
{
	fputs("\n\n", d->out);
}

const struct th_doc_ops th_doc_markdown = {
	.format = TH_DOC_MARKDOWN,
	.text = md_text,
	.code = md_code,
	.prose = md_plain,
	.muted = md_plain,
	.alert = md_plain,
	.good = md_plain,
	.bad = md_bold,
	.heading_begin = md_heading_begin,
	.heading_end = md_heading_end,
	.para = md_para,
	.end_para = md_end_para,
	.line_begin = md_nothing,
	.line_end = md_end_para,
	.banner = md_banner,
	.caption = md_none,
	.fold_hint = md_none,
	.strong_begin = md_strong,
	.strong_end = md_strong,
	.table_head = md_table_head,
	.row_begin = md_row_begin,
	.cell_begin = md_cell_begin,
	.cell_end = md_cell_end,
	.cell_span_begin = md_cell_span_begin,
	.cell_span_end = md_cell_span_end,
	.row_end = md_row_end,
	.table_end = md_table_end,
	.outcome = md_outcome,
	.cell_outcome = md_cell_outcome,
	.list_begin = md_nothing,
	.item_begin = md_item_begin,
	.item_end = md_item_end,
	.item_end_block = md_item_end_block,
	.list_end = md_list_end,
	.pre = md_pre,
	.fold_begin = md_fold_begin,
	.fold_end = md_nothing,
	.finding_begin = md_finding_begin,
	.finding_end = md_nothing,
	.nav_begin = md_nothing,
	.link = md_link,
	.nav_end = md_nav_end,
};
