/* SPDX-License-Identifier: MIT */
/*
 * The table of report.md's and report.html's sections (sections.h), in the
 * order both documents walk it. A row in both formats is written once, by
 * a section against doc.h; a row of one format is a part only that format
 * has, or one the two lay out too differently to share their bytes:
 *   - report.md opens with its title and the verdict screen as text, then
 *     the run, the configs and the outcome counts; report.html opens with
 *     its header, the verdict card, the <nav> and the charts (inline SVG),
 *     and ends with the configs and the run (its counts in it). The same
 *     facts, in each document's order: a row each (the configs and the
 *     metrics are one function each, in two places).
 *   - the matrix is in both, at the same place, written apart: HTML's is a
 *     colour grid per toolchain with the evidence a link away, Markdown's a
 *     table per toolchain and variant (section_matrix.c, a row each).
 * A new section: its file (a function of struct th_doc) and a row here.
 */
#define _POSIX_C_SOURCE 200809L
#include "reach.h"
#include "render_fuzz.h"
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>

/* ---- whether the model has a section ---- */

static bool has_reach(const struct th_section_ctx *c)
{
	return c->res->reach && c->res->reach->n;
}

static bool has_fuzz(const struct th_section_ctx *c)
{
	return th_render_fuzz_summary(c->res) != NULL;
}

static bool has_bench(const struct th_section_ctx *c)
{
	return c->full->bench != NULL;
}

static bool has_kernel(const struct th_section_ctx *c)
{
	return c->full->nplatforms != 0;
}

/* ---- the rows ---- */

#define MD	TH_DOC_MARKDOWN
#define HTML	TH_DOC_HTML
#define BOTH	(TH_DOC_MARKDOWN | TH_DOC_HTML)

/* id, title (the nav's link text), formats, in the nav, <tbody>, has it, writer */
const struct th_section th_sections[] = {
	{ "title",	 "timerharness results",	MD,   false, false, NULL,	 th_section_title },
	{ "verdict",	 "Verdict",			MD,   false, false, NULL,	 th_section_verdict_screen },
	{ "header",	 "timerharness",		HTML, false, false, NULL,	 th_section_header },
	{ "verdict",	 "Verdict",			HTML, false, false, NULL,	 th_html_card },
	{ "nav",	 NULL,				HTML, false, false, NULL,	 th_section_nav },
	{ "run",	 "The run",			MD,   false, false, NULL,	 th_section_run },
	{ "configs",	 "Configs",			MD,   false, true,  NULL,	 th_section_configs },
	{ "summary",	 "Summary",			MD,   false, false, NULL,	 th_section_summary },
	{ "metrics",	 NULL,				MD,   false, true,  NULL,	 th_section_metrics },
	{ "charts",	 "At a glance",			HTML, true,  false, NULL,	 th_section_charts },
	{ "findings",	 "Headline findings",		BOTH, true,  true,  NULL,	 th_section_findings },
	{ "differences", "Differences",			BOTH, false, true,  NULL,	 th_section_differences },
	{ "reach",	 "What the timer dispatch can still call", BOTH, false, true,  has_reach, th_section_reach },
	{ "fuzzing",	 "Fuzzing campaigns",		BOTH, false, false, has_fuzz,	 th_section_fuzz },
	{ "cost",	 "What the wheel and the defences cost", BOTH, false, false, has_bench, th_section_bench },
	{ "matrix",	 "Matrix",			MD,   false, false, NULL,	 th_section_matrix_tables },
	{ "matrix",	 "Matrix",			HTML, true,  false, NULL,	 th_section_matrix_grid },
	{ "kernel",	 "Real kernel",			BOTH, true,  true,  has_kernel, th_section_kernel },
	{ "configs",	 "Configs",			HTML, true,  true,  NULL,	 th_section_configs },
	{ "run",	 "The run",			HTML, true,  true,  NULL,	 th_section_run_counts },
	{ "metrics",	 NULL,				HTML, false, true,  NULL,	 th_section_metrics },
};

const size_t th_nsections = sizeof(th_sections) / sizeof(th_sections[0]);

int th_sections_write(struct th_doc *d, const struct th_section_ctx *c)
{
	for (size_t i = 0; i < th_nsections; i++) {
		const struct th_section *s = &th_sections[i];

		if (!(s->formats & d->ops->format) || (s->has && !s->has(c)))
			continue;
		if (s->tbody) {
			struct th_doc t = *d;

			t.tbody = true;
			if (s->write(&t, c))
				return -1;
		} else if (s->write(d, c)) {
			return -1;
		}
	}
	return 0;
}

int th_section_nav(struct th_doc *d, const struct th_section_ctx *c)
{
	th_doc_nav_begin(d);
	for (size_t i = 0; i < th_nsections; i++) {
		const struct th_section *s = &th_sections[i];

		if (!s->nav || !(s->formats & d->ops->format) || (s->has && !s->has(c)))
			continue;
		th_doc_link(d, s->id, s->title);
	}
	th_doc_nav_end(d);
	return 0;
}

int th_sections_document(FILE *out, const struct th_results *res,
			 int (*page)(FILE *out, const struct th_section_ctx *c), const char *what,
			 char *err, size_t errlen)
{
	struct th_section_ctx c = { .full = th_results_origin(res) };
	struct th_results view;
	int oom, oom_cells, rc;

	if (th_results_view(res, TH_PLATFORM_MODEL, &view))
		return th_results_errf(err, errlen, "out of memory");
	c.res = &view;
	c.ntc = view.ntoolchains;
	c.tcs = th_results_sorted_toolchains(&view, &oom);
	c.all = th_report_display_cells(&view, &oom_cells);
	rc = oom || oom_cells || page(out, &c);
	free(c.tcs);
	free(c.all);
	th_results_view_free(&view);
	if (rc)
		return th_results_errf(err, errlen, "out of memory");
	if (ferror(out))
		return th_results_errf(err, errlen, "cannot write the %s report", what);
	return 0;
}
