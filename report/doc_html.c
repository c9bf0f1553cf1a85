/* SPDX-License-Identifier: MIT */
/*
 * The HTML back end of the document writer (doc.h): report.html's escaping,
 * its badges and outcome colours (html.h), and its markup. Tables in a
 * scroll box of their own (a phone scrolls the table, not the page); what
 * Markdown shows under a title, folded (<details>); marks as classes the
 * page's style colours (render_html.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "doc.h"
#include "html.h"
#include "report_internal.h"

#include <stdbool.h>

/* ---- escaping ---- */

/* One code point of text: markup escaped; a CR dropped (a line break is a
 * LF). */
static void text_cp(FILE *out, const char *b, size_t n)
{
	switch (n == 1 ? *b : 0) {
	case '&': fputs("&amp;", out); break;
	case '<': fputs("&lt;", out); break;
	case '>': fputs("&gt;", out); break;
	case '"': fputs("&quot;", out); break;
	case '\'': fputs("&#39;", out); break;
	case '\r': break;
	default: fwrite(b, 1, n, out);
	}
}

/* In an attribute a newline is kept as a character reference, which a
 * tooltip shows as a line break. */
static void attr_cp(FILE *out, const char *b, size_t n)
{
	if (n == 1 && *b == '\n')
		fputs("&#10;", out);
	else
		text_cp(out, b, n);
}

/* Text or attribute value: markup escaped, every character HTML forbids
 * (controls, noncharacters) and every other unsafe one as a visible
 * escape (report_internal.h). */
void th_html_text(FILE *out, const char *s)
{
	th_report_put_visible(out, s, text_cp);
}

void th_html_attr(FILE *out, const char *s)
{
	th_report_put_visible(out, s, attr_cp);
}

void th_html_code(FILE *out, const char *s)
{
	fputs("<code>", out);
	th_html_text(out, s);
	fputs("</code>", out);
}

/* ---- outcomes ---- */

/* Text on each outcome's colour at WCAG AA (4.5:1 or more; tests/html_check.py
 * measures every pair in the page). */
const struct th_html_color th_html_palette[TH_OUTCOME_COUNT] = {
	[TH_HIJACKED] = { "#a50f15", "#fff" },
	[TH_PRIVILEGED_WRITE] = { "#cb181d", "#fff" },
	[TH_REDIRECTED] = { "#ef6548", "#222" },
	[TH_CRASHED] = { "#7a3c9a", "#fff" },
	[TH_HANG] = { "#8c510a", "#fff" },
	[TH_TIMER_LOST] = { "#bf812d", "#222" },
	[TH_FALSE_POSITIVE] = { "#fdae3b", "#222" },
	[TH_BLOCKED_CFI] = { "#1b7837", "#fff" },
	[TH_DETECTED] = { "#5aae61", "#222" },
	[TH_NO_EFFECT] = { "#d9d9d9", "#222" },
	[TH_UNSUPPORTED] = { "repeating-linear-gradient(135deg,#eee 0 3px,#d4d4d4 3px 6px)", "#555" },
	[TH_NOT_APPLICABLE] = { "#fff", "#666" },
	[TH_HARNESS_ERROR] = { "#000", "#ff0" },
};

void th_html_badge(FILE *out, enum th_outcome o, bool reg, const char *suffix)
{
	fprintf(out, "<span class=\"o o-%s%s\">%s%s</span>", th_outcome_name(o), reg ? " reg" : "",
		th_outcome_name(o), suffix ? suffix : "");
}

/* The observed outcome as a badge, or one badge per outcome with its count
 * when the runs disagreed; with_verdict adds "(regression; expected X)". */
void th_html_cell_badges(FILE *out, const struct th_cell *c, bool with_verdict)
{
	enum th_verdict v = th_results_shown_verdict(c);
	bool reg = with_verdict && v == TH_VERDICT_REGRESSION;
	char n[48], exp[200];

	if (th_report_kinds(c) > 1) {
		for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
			if (!c->counts[i])
				continue;
			snprintf(n, sizeof(n), " %u/%u", c->counts[i], c->runs);
			if (!first)
				fputc(' ', out);
			th_html_badge(out, (enum th_outcome)i, reg && (enum th_outcome)i == th_cell_observed(c), n);
			first = 0;
		}
	} else {
		th_html_badge(out, th_cell_observed(c), reg, NULL);
	}
	if (with_verdict && (v == TH_VERDICT_REGRESSION || v == TH_VERDICT_IMPROVEMENT))
		fprintf(out, " (%s; expected %s)", th_verdict_name(v),
			th_cell_expected_text(c, exp, sizeof(exp)));
}

/* ---- the back end ---- */

static void html_text(struct th_doc *d, const char *s)
{
	th_html_text(d->out, s);
}

static void html_code(struct th_doc *d, const char *s)
{
	th_html_code(d->out, s);
}

/* Markdown's `code spans` of a text of ours as <code>. */
static void html_prose(struct th_doc *d, const char *s)
{
	bool in_code = false;

	for (const char *p = s; *p; p++) {
		char one[2] = { *p, 0 };

		if (*p == '`') {
			fputs(in_code ? "</code>" : "<code>", d->out);
			in_code = !in_code;
			continue;
		}
		th_html_text(d->out, one);
	}
	if (in_code)
		fputs("</code>", d->out);
}

static void html_muted(struct th_doc *d, const char *s)
{
	fprintf(d->out, "<span class=\"muted\">%s</span>", s);
}

static void html_alert(struct th_doc *d, const char *s)
{
	fprintf(d->out, "<strong>%s</strong>", s);
}

static void html_good(struct th_doc *d, const char *s)
{
	fprintf(d->out, "<span class=\"yes\">%s</span>", s);
}

static void html_bad(struct th_doc *d, const char *s)
{
	fprintf(d->out, "<span class=\"no\">%s</span>", s);
}

static void html_heading_begin(struct th_doc *d, int level, const char *id)
{
	if (id)
		fprintf(d->out, "<h%d id=\"%s\">", level, id);
	else
		fprintf(d->out, "<h%d>", level);
}

static void html_heading_end(struct th_doc *d, int level)
{
	fprintf(d->out, "</h%d>\n", level);
}

static void html_para(struct th_doc *d, const char *cls)
{
	if (cls)
		fprintf(d->out, "<p class=\"%s\">", cls);
	else
		fputs("<p>", d->out);
}

static void html_end_para(struct th_doc *d)
{
	fputs("</p>\n", d->out);
}

static void html_line_begin(struct th_doc *d)
{
	fputs("<div>", d->out);
}

static void html_line_end(struct th_doc *d)
{
	fputs("</div>\n", d->out);
}

static void html_banner(struct th_doc *d)
{
	html_para(d, "banner");
}

static void html_caption(struct th_doc *d, const char *s)
{
	fprintf(d->out, "<p>%s</p>\n", s);
}

static void html_fold_hint(struct th_doc *d, const char *s)
{
	fputs(s, d->out);
}

static void html_strong_begin(struct th_doc *d)
{
	fputs("<strong>", d->out);
}

static void html_strong_end(struct th_doc *d)
{
	fputs("</strong>", d->out);
}

/* In its own scroll box: a phone scrolls the table, not the page. A
 * figure's column is aligned by its cells (td class "n"). */
static void html_table_head(struct th_doc *d, const char *const *heads, size_t n,
			    const char *align, bool escape)
{
	(void)align;
	d->in_table = true;
	fputs("<div class=\"scroll\"><table>\n<thead><tr>", d->out);
	for (size_t i = 0; i < n; i++) {
		fputs("<th scope=\"col\">", d->out);
		if (escape)
			th_html_text(d->out, heads[i]);
		else
			fputs(heads[i], d->out);
		fputs("</th>", d->out);
	}
	fputs(d->tbody ? "</tr></thead>\n<tbody>\n" : "</tr></thead>\n", d->out);
}

static void html_row_begin(struct th_doc *d, const char *cls)
{
	if (cls)
		fprintf(d->out, "<tr class=\"%s\">", cls);
	else
		fputs("<tr>", d->out);
}

static void html_cell_begin(struct th_doc *d, bool num)
{
	fputs(num ? "<td class=\"n\">" : "<td>", d->out);
}

static void html_cell_end(struct th_doc *d)
{
	fputs("</td>", d->out);
}

static void html_cell_span_begin(struct th_doc *d, int n)
{
	fprintf(d->out, "<td colspan=\"%d\">", n);
}

static void html_cell_span_end(struct th_doc *d, int n)
{
	(void)n;
	html_cell_end(d);
}

static void html_row_end(struct th_doc *d)
{
	fputs("</tr>\n", d->out);
}

static void html_table_end(struct th_doc *d)
{
	d->in_table = false;
	if (d->tbody)
		fputs("</tbody>\n", d->out);
	fputs("</table></div>\n", d->out);
}

static void html_outcome(struct th_doc *d, enum th_outcome o)
{
	if (th_outcome_name(o))
		th_html_badge(d->out, o, false, NULL);
	else
		html_muted(d, "none");
}

static void html_cell_outcome(struct th_doc *d, const struct th_cell *c, bool with_verdict)
{
	th_html_cell_badges(d->out, c, with_verdict);
}

static void html_list_begin(struct th_doc *d)
{
	fputs("<ul>\n", d->out);
}

static void html_item_begin(struct th_doc *d)
{
	fputs("<li>", d->out);
}

static void html_item_end(struct th_doc *d)
{
	fputs("</li>\n", d->out);
}

static void html_pre(struct th_doc *d, const char *s);

static void html_item_end_block(struct th_doc *d, const char *s)
{
	html_pre(d, s);
	html_item_end(d);
}

static void html_list_end(struct th_doc *d)
{
	fputs("</ul>\n", d->out);
}

static void html_pre(struct th_doc *d, const char *s)
{
	fputs("<pre>", d->out);
	th_html_text(d->out, s);
	fputs("</pre>\n", d->out);
}

/* Folded: the summary is its line; Markdown's title is not shown. */
static void html_fold_begin(struct th_doc *d, const char *summary, bool open, int level,
			    const char *title)
{
	(void)level;
	(void)title;
	fprintf(d->out, "<details%s><summary>%s</summary>\n", open ? " open" : "", summary);
}

static void html_details_end(struct th_doc *d)
{
	fputs("</details>\n", d->out);
}

/* A <details> whose summary is the question and the answer. */
static void html_finding_begin(struct th_doc *d, const struct th_doc_finding *f)
{
	fprintf(d->out, "<details class=\"finding\"%s><summary><h3>", f->open ? " open" : "");
	html_prose(d, f->title);
	fputs("</h3>", d->out);
	if (f->answer) {
		fputs("<span class=\"ans\">", d->out);
		f->answer(d, f->x);
		fputs("</span>", d->out);
	}
	if (f->summary)
		fprintf(d->out, "<span class=\"ans\">%s</span>", f->summary);
	fputs("</summary>\n", d->out);
	th_doc_finding_about(d, f);
}

static void html_nav_begin(struct th_doc *d)
{
	fputs("<nav>", d->out);
}

static void html_link(struct th_doc *d, const char *id, const char *text)
{
	fprintf(d->out, "<a href=\"#%s\">%s</a>", id, text);
}

static void html_nav_end(struct th_doc *d)
{
	fputs("</nav>\n", d->out);
}

const struct th_doc_ops th_doc_html = {
	.format = TH_DOC_HTML,
	.text = html_text,
	.code = html_code,
	.prose = html_prose,
	.muted = html_muted,
	.alert = html_alert,
	.good = html_good,
	.bad = html_bad,
	.heading_begin = html_heading_begin,
	.heading_end = html_heading_end,
	.para = html_para,
	.end_para = html_end_para,
	.line_begin = html_line_begin,
	.line_end = html_line_end,
	.banner = html_banner,
	.caption = html_caption,
	.fold_hint = html_fold_hint,
	.strong_begin = html_strong_begin,
	.strong_end = html_strong_end,
	.table_head = html_table_head,
	.row_begin = html_row_begin,
	.cell_begin = html_cell_begin,
	.cell_end = html_cell_end,
	.cell_span_begin = html_cell_span_begin,
	.cell_span_end = html_cell_span_end,
	.row_end = html_row_end,
	.table_end = html_table_end,
	.outcome = html_outcome,
	.cell_outcome = html_cell_outcome,
	.list_begin = html_list_begin,
	.item_begin = html_item_begin,
	.item_end = html_item_end,
	.item_end_block = html_item_end_block,
	.list_end = html_list_end,
	.pre = html_pre,
	.fold_begin = html_fold_begin,
	.fold_end = html_details_end,
	.finding_begin = html_finding_begin,
	.finding_end = html_details_end,
	.nav_begin = html_nav_begin,
	.link = html_link,
	.nav_end = html_nav_end,
};
