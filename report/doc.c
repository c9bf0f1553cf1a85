/* SPDX-License-Identifier: MIT */
/* The document writer (doc.h): each call through the back end the document
 * was opened with; what is made of other calls, made of them here once. */
#define _POSIX_C_SOURCE 200809L
#include "doc.h"

#include <stdarg.h>

void th_doc_text(struct th_doc *d, const char *s)
{
	d->ops->text(d, s);
}

void th_doc_code(struct th_doc *d, const char *s)
{
	d->ops->code(d, s);
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

void th_doc_rawf(struct th_doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
}

void th_doc_prose(struct th_doc *d, const char *s)
{
	d->ops->prose(d, s);
}

void th_doc_muted(struct th_doc *d, const char *s)
{
	d->ops->muted(d, s);
}

void th_doc_alert(struct th_doc *d, const char *s)
{
	d->ops->alert(d, s);
}

void th_doc_good(struct th_doc *d, const char *s)
{
	d->ops->good(d, s);
}

void th_doc_bad(struct th_doc *d, const char *s)
{
	d->ops->bad(d, s);
}

void th_doc_heading_begin(struct th_doc *d, int level, const char *id)
{
	d->ops->heading_begin(d, level, id);
}

void th_doc_heading_end(struct th_doc *d, int level)
{
	d->ops->heading_end(d, level);
}

void th_doc_heading(struct th_doc *d, int level, const char *id, const char *text)
{
	th_doc_heading_begin(d, level, id);
	th_doc_raw(d, text);
	th_doc_heading_end(d, level);
}

void th_doc_heading_text(struct th_doc *d, int level, const char *id, const char *text)
{
	th_doc_heading_begin(d, level, id);
	th_doc_text(d, text);
	th_doc_heading_end(d, level);
}

void th_doc_para(struct th_doc *d)
{
	d->ops->para(d, NULL);
}

void th_doc_para_mark(struct th_doc *d, const char *cls)
{
	d->ops->para(d, cls);
}

void th_doc_end_para(struct th_doc *d)
{
	d->ops->end_para(d);
}

void th_doc_line_begin(struct th_doc *d)
{
	d->ops->line_begin(d);
}

void th_doc_line_end(struct th_doc *d)
{
	d->ops->line_end(d);
}

void th_doc_banner(struct th_doc *d)
{
	d->ops->banner(d);
}

void th_doc_caption(struct th_doc *d, const char *s)
{
	d->ops->caption(d, s);
}

void th_doc_fold_hint(struct th_doc *d, const char *s)
{
	d->ops->fold_hint(d, s);
}

void th_doc_strong(struct th_doc *d, const char *s)
{
	th_doc_strong_begin(d);
	th_doc_raw(d, s);
	th_doc_strong_end(d);
}

void th_doc_strong_begin(struct th_doc *d)
{
	d->ops->strong_begin(d);
}

void th_doc_strong_end(struct th_doc *d)
{
	d->ops->strong_end(d);
}

void th_doc_table_head(struct th_doc *d, const char *const *heads, size_t n)
{
	d->ops->table_head(d, heads, n, NULL, false);
}

void th_doc_table_head_text(struct th_doc *d, const char *const *heads, size_t n)
{
	d->ops->table_head(d, heads, n, NULL, true);
}

void th_doc_table_head_align(struct th_doc *d, const char *const *heads, size_t n,
			     const char *align)
{
	d->ops->table_head(d, heads, n, align, true);
}

void th_doc_row_begin(struct th_doc *d)
{
	d->ops->row_begin(d, NULL);
}

void th_doc_row_begin_mark(struct th_doc *d, const char *cls)
{
	d->ops->row_begin(d, cls);
}

void th_doc_cell_begin(struct th_doc *d)
{
	d->ops->cell_begin(d, false);
}

void th_doc_cell_begin_num(struct th_doc *d)
{
	d->ops->cell_begin(d, true);
}

void th_doc_cell_end(struct th_doc *d)
{
	d->ops->cell_end(d);
}

void th_doc_cell(struct th_doc *d, const char *s)
{
	th_doc_cell_begin(d);
	th_doc_raw(d, s);
	th_doc_cell_end(d);
}

void th_doc_cell_num(struct th_doc *d, const char *s)
{
	th_doc_cell_begin_num(d);
	th_doc_raw(d, s);
	th_doc_cell_end(d);
}

void th_doc_cell_span_begin(struct th_doc *d, int n)
{
	d->ops->cell_span_begin(d, n);
}

void th_doc_cell_span_end(struct th_doc *d, int n)
{
	d->ops->cell_span_end(d, n);
}

void th_doc_row_end(struct th_doc *d)
{
	d->ops->row_end(d);
}

void th_doc_table_end(struct th_doc *d)
{
	d->ops->table_end(d);
}

void th_doc_outcome(struct th_doc *d, enum th_outcome o)
{
	d->ops->outcome(d, o);
}

void th_doc_cell_outcome(struct th_doc *d, const struct th_cell *c, bool with_verdict)
{
	d->ops->cell_outcome(d, c, with_verdict);
}

void th_doc_list_begin(struct th_doc *d)
{
	d->ops->list_begin(d);
}

void th_doc_item_begin(struct th_doc *d)
{
	d->ops->item_begin(d);
}

void th_doc_item_end(struct th_doc *d)
{
	d->ops->item_end(d);
}

void th_doc_item_end_block(struct th_doc *d, const char *s)
{
	d->ops->item_end_block(d, s);
}

void th_doc_list_end(struct th_doc *d)
{
	d->ops->list_end(d);
}

void th_doc_pre(struct th_doc *d, const char *s)
{
	d->ops->pre(d, s);
}

void th_doc_fold_begin(struct th_doc *d, const char *summary, bool open, int level,
		       const char *title)
{
	d->ops->fold_begin(d, summary, open, level, title);
}

void th_doc_fold_end(struct th_doc *d)
{
	d->ops->fold_end(d);
}

void th_doc_finding_begin(struct th_doc *d, const struct th_doc_finding *f)
{
	d->ops->finding_begin(d, f);
}

void th_doc_finding_end(struct th_doc *d)
{
	d->ops->finding_end(d);
}

void th_doc_finding_about(struct th_doc *d, const struct th_doc_finding *f)
{
	th_doc_para(d);
	th_doc_raw(d, "Cells: ");
	th_doc_prose(d, f->about);
	th_doc_end_para(d);
	if (f->note) {
		th_doc_para_mark(d, "banner");
		th_doc_prose(d, f->note);
		th_doc_end_para(d);
	}
}

void th_doc_nav_begin(struct th_doc *d)
{
	d->ops->nav_begin(d);
}

void th_doc_link(struct th_doc *d, const char *id, const char *text)
{
	d->ops->link(d, id, text);
}

void th_doc_nav_end(struct th_doc *d)
{
	d->ops->nav_end(d);
}
