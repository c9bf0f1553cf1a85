/* SPDX-License-Identifier: MIT */
/*
 * The configs (sections.h): each config's flags and description, and
 * whether a behaviour probe showed it at work on each toolchain; one walk
 * for report.md and report.html. report.md has it after the run,
 * report.html near its end: two rows of sections.c, one function.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>

/* "yes", "no: reason", "not probed". */
static void support(struct th_doc *d, const struct th_config *cfg, const char *tc)
{
	const struct th_support *s = th_config_support(cfg, tc);

	if (!s) {
		th_doc_muted(d, "not probed");
		return;
	}
	if (s->supported)
		th_doc_good(d, "yes");
	else
		th_doc_bad(d, "no");
	if (*s->reason) {
		th_doc_raw(d, ": ");
		th_doc_text(d, s->reason);
	}
}

int th_section_configs(struct th_doc *d, const struct th_section_ctx *c)
{
	const char **heads = calloc(3 + c->ntc, sizeof(*heads));
	size_t n = 0;

	if (!heads)
		return -1;
	heads[n++] = "config";
	heads[n++] = "flags";
	heads[n++] = "description";
	for (size_t t = 0; t < c->ntc; t++)
		heads[n++] = c->tcs[t]->name;
	th_doc_heading(d, 2, "configs", "Configs");
	th_doc_caption(d, "Each config's flags, and whether a behaviour probe showed it at work "
		       "on each toolchain.");
	th_doc_table_head_text(d, heads, n);
	free(heads);
	for (size_t i = 0; i < c->res->nconfigs; i++) {
		const struct th_config *cfg = &c->res->configs[i];

		th_doc_row_begin(d);
		th_doc_cell_begin(d);
		th_doc_code(d, cfg->name);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		if (*cfg->flags)
			th_doc_code(d, cfg->flags);
		th_doc_cell_end(d);
		th_doc_cell_begin(d);
		th_doc_text(d, cfg->description);
		th_doc_cell_end(d);
		for (size_t t = 0; t < c->ntc; t++) {
			th_doc_cell_begin(d);
			support(d, cfg, c->tcs[t]->name);
			th_doc_cell_end(d);
		}
		th_doc_row_end(d);
	}
	th_doc_table_end(d);
	return 0;
}
