/* SPDX-License-Identifier: MIT */
/*
 * The head of each document (sections.h): report.md's title and the
 * verdict screen as text (report.html has the verdict card in its place,
 * section_card.c); report.html's header, what was run in one line. A
 * partial run or a slice is said before anything else.
 */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>

int th_section_title(struct th_doc *d, const struct th_section_ctx *c)
{
	th_doc_heading(d, 1, NULL, "timerharness results");
	if (c->res->partial) {
		th_doc_banner(d);
		th_doc_strong(d, "Partial run");
		th_doc_raw(d, ": interrupted (");
		th_doc_text(d, c->res->interrupted ? c->res->interrupted : "?");
		th_doc_raw(d, "). Cells not listed were not run.");
		th_doc_end_para(d);
	}
	return 0;
}

/* The answer first: the verdict screen matrix ends with, on every
 * platform's cells. */
int th_section_verdict_screen(struct th_doc *d, const struct th_section_ctx *c)
{
	char *v = NULL;
	size_t vlen = 0;
	FILE *vf = open_memstream(&v, &vlen);
	int vr;

	if (!vf)
		return -1;
	vr = th_render_verdict(vf, c->full, 0);
	if (fclose(vf) || vr) {
		free(v);
		return -1;
	}
	th_doc_heading(d, 2, "verdict", "Verdict");
	th_doc_pre(d, v);
	free(v);
	return 0;
}

int th_section_header(struct th_doc *d, const struct th_section_ctx *c)
{
	const struct th_results *res = c->res;

	th_doc_heading(d, 1, NULL, "timerharness: what type-based CFI stops in the kernel's timer");
	th_doc_para_mark(d, "facts");
	th_doc_rawf(d, "%zu cells on", res->ncells);
	for (size_t t = 0; t < c->ntc; t++) {
		th_doc_raw(d, t ? ", " : " ");
		th_doc_text(d, c->tcs[t]->name);
		if (*c->tcs[t]->version) {
			th_doc_raw(d, " ");
			th_doc_text(d, c->tcs[t]->version);
		}
	}
	th_doc_raw(d, c->ntc ? "" : " no toolchain");
	th_doc_raw(d, "; ");
	th_doc_text(d, res->host.hostname ? res->host.hostname : "?");
	th_doc_raw(d, ", ");
	th_doc_text(d, res->created ? res->created : "?");
	th_doc_raw(d, " (UTC); timerharness ");
	th_doc_text(d, res->version ? res->version : "?");
	th_doc_end_para(d);
	if (res->partial) {
		th_doc_banner(d);
		th_doc_strong(d, "Partial run");
		th_doc_raw(d, ": interrupted (");
		th_doc_text(d, res->interrupted ? res->interrupted : "?");
		th_doc_raw(d, "). Cells not shown were not run.");
		th_doc_end_para(d);
	}
	if (th_results_is_slice(res)) {
		th_doc_banner(d);
		th_doc_strong(d, "A slice of the plan");
		th_doc_raw(d, ": the run was asked for part of the cells only (see ");
		th_doc_link(d, "run", "the run");
		th_doc_raw(d, "); answers below cover what it ran.");
		th_doc_end_para(d);
	}
	return 0;
}
