/* SPDX-License-Identifier: MIT */
/* The document writer (doc.h): Markdown or HTML from one walk. */
#define _POSIX_C_SOURCE 200809L
#include "doc.h"
#include "html.h"
#include "report_internal.h"

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

void th_doc_raw(struct th_doc *d, const char *s)
{
	fputs(s, d->out);
}

void th_doc_heading(struct th_doc *d, int level, const char *id, const char *text)
{
	if (!d->html) {
		fprintf(d->out, "%.*s %s\n\n", level, "######", text);
		return;
	}
	if (id)
		fprintf(d->out, "<h%d id=\"%s\">%s</h%d>\n", level, id, text, level);
	else
		fprintf(d->out, "<h%d>%s</h%d>\n", level, text, level);
}

void th_doc_heading_text(struct th_doc *d, int level, const char *text)
{
	if (d->html)
		fprintf(d->out, "<h%d>", level);
	else
		fprintf(d->out, "%.*s ", level, "######");
	th_doc_text(d, text);
	if (d->html)
		fprintf(d->out, "</h%d>\n", level);
	else
		fputs("\n\n", d->out);
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

void th_doc_table_head(struct th_doc *d, const char *const *heads, size_t n)
{
	d->in_table = true;
	if (d->html) {
		fputs("<div class=\"scroll\"><table>\n<thead><tr>", d->out);
		for (size_t i = 0; i < n; i++)
			fprintf(d->out, "<th scope=\"col\">%s</th>", heads[i]);
		fputs("</tr></thead>\n", d->out);
		return;
	}
	fputc('|', d->out);
	for (size_t i = 0; i < n; i++)
		fprintf(d->out, " %s |", heads[i]);
	fputs("\n|", d->out);
	for (size_t i = 0; i < n; i++)
		fputs("---|", d->out);
	fputc('\n', d->out);
}

void th_doc_row_begin(struct th_doc *d)
{
	fputs(d->html ? "<tr>" : "|", d->out);
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

void th_doc_row_end(struct th_doc *d)
{
	fputs(d->html ? "</tr>\n" : "\n", d->out);
}

void th_doc_table_end(struct th_doc *d)
{
	d->in_table = false;
	fputs(d->html ? "</table></div>\n" : "\n", d->out);
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
