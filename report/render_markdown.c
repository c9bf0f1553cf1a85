/* SPDX-License-Identifier: MIT */
/*
 * report.md: sections.c's table walked in order, through the Markdown back
 * end of the document writer (doc_markdown.c). Every section is in its own
 * file (section_*.c, render_reach.c, render_fuzz.c, render_bench.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"
#include "sections.h"

/* ---- the document ---- */

/* sections.c's table, walked in order. */
static int markdown_page(FILE *out, const struct th_section_ctx *c)
{
	struct th_doc d = { .out = out, .ops = &th_doc_markdown };

	return th_sections_write(&d, c);
}

/* The model's cells as ever; each real kernel's in its own section, below
 * them. */
int th_render_markdown_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	return th_sections_document(out, res, markdown_page, "Markdown", err, errlen);
}

int th_render_markdown(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_markdown_to, res, err, errlen);
}
