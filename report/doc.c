/* SPDX-License-Identifier: MIT */
/* The document writer (doc.h): Markdown or HTML from one walk. */
#define _POSIX_C_SOURCE 200809L
#include "doc.h"
#include "html.h"
#include "report_internal.h"

#include <stdarg.h>

void th_doc_text(struct th_doc *d, const char *s)
{
	if (d->html)
		th_html_text(d->out, s);
	else
		th_report_md_text(d->out, s);
}

void th_doc_code(struct th_doc *d, const char *s)
{
	if (d->html) {
		fputs("<code>", d->out);
		th_html_text(d->out, s);
		fputs("</code>", d->out);
	} else {
		th_report_md_code(d->out, s, d->in_table);
	}
}

void th_doc_textf(struct th_doc *d, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	th_doc_text(d, buf);
}

void th_doc_raw(struct th_doc *d, const char *s)
{
	fputs(s, d->out);
}

void th_doc_prose(struct th_doc *d, const char *s)
{
	bool in_code = false;

	if (!d->html) {
		fputs(s, d->out);
		return;
	}
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

void th_doc_muted(struct th_doc *d, const char *s)
{
	fprintf(d->out, d->html ? "<span class=\"muted\">%s</span>" : "%s", s);
}

/* A heading: the level's marks, the text (escaped when it is a file's), the end. */
static void heading(struct th_doc *d, int level, const char *id, const char *text, bool escape)
{
	if (!d->html)
		fprintf(d->out, "%.*s ", level, "######");
	else if (id)
		fprintf(d->out, "<h%d id=\"%s\">", level, id);
	else
		fprintf(d->out, "<h%d>", level);
	if (escape)
		th_doc_text(d, text);
	else
		fputs(text, d->out);
	if (d->html)
		fprintf(d->out, "</h%d>\n", level);
	else
		fputs("\n\n", d->out);
}

void th_doc_heading(struct th_doc *d, int level, const char *id, const char *text)
{
	heading(d, level, id, text, false);
}

void th_doc_heading_text(struct th_doc *d, int level, const char *id, const char *text)
{
	heading(d, level, id, text, true);
}

void th_doc_para(struct th_doc *d)
{
	fputs(d->html ? "<p>" : "", d->out);
}

void th_doc_end_para(struct th_doc *d)
{
	fputs(d->html ? "</p>\n" : "\n\n", d->out);
}

void th_doc_strong(struct th_doc *d, const char *s)
{
	fprintf(d->out, d->html ? "<strong>%s</strong>" : "**%s**", s);
}

void th_doc_strong_begin(struct th_doc *d)
{
	fputs(d->html ? "<strong>" : "**", d->out);
}

void th_doc_strong_end(struct th_doc *d)
{
	fputs(d->html ? "</strong>" : "**", d->out);
}

/* In its own scroll box: a phone scrolls the table, not the page. */
static void table_head(struct th_doc *d, const char *const *heads, size_t n, bool escape)
{
	d->in_table = true;
	fputs(d->html ? "<div class=\"scroll\"><table>\n<thead><tr>" : "|", d->out);
	for (size_t i = 0; i < n; i++) {
		fputs(d->html ? "<th scope=\"col\">" : " ", d->out);
		if (escape)
			th_doc_text(d, heads[i]);
		else
			fputs(heads[i], d->out);
		fputs(d->html ? "</th>" : " |", d->out);
	}
	if (d->html) {
		fputs(d->tbody ? "</tr></thead>\n<tbody>\n" : "</tr></thead>\n", d->out);
		return;
	}
	fputs("\n|", d->out);
	for (size_t i = 0; i < n; i++)
		fputs("---|", d->out);
	fputc('\n', d->out);
}

void th_doc_table_head(struct th_doc *d, const char *const *heads, size_t n)
{
	table_head(d, heads, n, false);
}

void th_doc_table_head_text(struct th_doc *d, const char *const *heads, size_t n)
{
	table_head(d, heads, n, true);
}

void th_doc_row_begin(struct th_doc *d)
{
	fputs(d->html ? "<tr>" : "|", d->out);
}

void th_doc_row_begin_mark(struct th_doc *d, const char *cls)
{
	if (d->html)
		fprintf(d->out, "<tr class=\"%s\">", cls);
	else
		fputc('|', d->out);
}

void th_doc_cell_begin(struct th_doc *d)
{
	fputs(d->html ? "<td>" : " ", d->out);
}

void th_doc_cell_end(struct th_doc *d)
{
	fputs(d->html ? "</td>" : " |", d->out);
}

void th_doc_cell(struct th_doc *d, const char *s)
{
	th_doc_cell_begin(d);
	fputs(s, d->out);
	th_doc_cell_end(d);
}

void th_doc_cell_span_begin(struct th_doc *d, int n)
{
	if (d->html)
		fprintf(d->out, "<td colspan=\"%d\">", n);
	else
		fputc(' ', d->out);
}

void th_doc_cell_span_end(struct th_doc *d, int n)
{
	th_doc_cell_end(d);
	for (int i = 1; !d->html && i < n; i++)
		fputs(" |", d->out);
}

void th_doc_row_end(struct th_doc *d)
{
	fputs(d->html ? "</tr>\n" : "\n", d->out);
}

void th_doc_table_end(struct th_doc *d)
{
	d->in_table = false;
	if (d->html && d->tbody)
		fputs("</tbody>\n", d->out);
	fputs(d->html ? "</table></div>\n" : "\n", d->out);
}

void th_doc_outcome(struct th_doc *d, enum th_outcome o)
{
	if (!th_outcome_name(o))
		fputs(d->html ? "<span class=\"muted\">none</span>" : "none", d->out);
	else if (d->html)
		th_html_badge(d->out, o, false, NULL);
	else
		fputs(th_outcome_name(o), d->out);
}

void th_doc_cell_outcome(struct th_doc *d, const struct th_cell *c, bool with_verdict)
{
	if (d->html)
		th_html_cell_badges(d->out, c, with_verdict);
	else
		th_report_md_cell(d->out, c, with_verdict);
}

void th_doc_list_begin(struct th_doc *d)
{
	fputs(d->html ? "<ul>\n" : "", d->out);
}

void th_doc_item_begin(struct th_doc *d)
{
	fputs(d->html ? "<li>" : "- ", d->out);
}

void th_doc_item_end(struct th_doc *d)
{
	fputs(d->html ? "</li>\n" : "\n", d->out);
}

void th_doc_list_end(struct th_doc *d)
{
	fputs(d->html ? "</ul>\n" : "\n", d->out);
}

void th_doc_pre(struct th_doc *d, const char *s)
{
	if (!d->html) {
		th_report_md_fence(d->out, s);
		return;
	}
	fputs("<pre>", d->out);
	th_html_text(d->out, s);
	fputs("</pre>\n", d->out);
}
