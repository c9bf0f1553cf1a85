/* SPDX-License-Identifier: MIT */
/*
 * The run (sections.h): where and when it was made, with what; how many
 * cells gave each outcome, per toolchain; the metrics. report.md says the
 * run near its top and the counts under "Summary"; report.html says both
 * at its end, each outcome with its meaning. The counts table and the
 * metrics table are one function each, in both documents.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_internal.h"
#include "sections.h"

#include <stdlib.h>

/* "Toolchains: clang-14 (14.0.6, `/usr/bin/clang-14`), ...", as a list's item. */
static void toolchains(struct th_doc *d, const struct th_section_ctx *c)
{
	th_doc_item_begin(d);
	th_doc_raw(d, "Toolchains:");
	for (size_t t = 0; t < c->ntc; t++) {
		th_doc_raw(d, t ? ", " : " ");
		th_doc_text(d, c->tcs[t]->name);
		th_doc_raw(d, " (");
		th_doc_text(d, *c->tcs[t]->version ? c->tcs[t]->version : "version unknown");
		if (*c->tcs[t]->path) {
			th_doc_raw(d, ", ");
			th_doc_code(d, c->tcs[t]->path);
		}
		th_doc_raw(d, ")");
	}
	th_doc_raw(d, c->ntc ? "" : " none");
	th_doc_item_end(d);
}

static void version_item(struct th_doc *d, const struct th_results *res)
{
	th_doc_item_begin(d);
	th_doc_raw(d, "timerharness ");
	th_doc_text(d, res->version ? res->version : "?");
	th_doc_raw(d, ", results schema ");
	th_doc_code(d, TH_RESULTS_SCHEMA);
	th_doc_item_end(d);
}

/* report.md's: created, host, version, toolchains. */
int th_section_run(struct th_doc *d, const struct th_section_ctx *c)
{
	const struct th_results *res = c->res;

	th_doc_heading(d, 2, "run", "The run");
	th_doc_list_begin(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "Created: ");
	th_doc_text(d, res->created ? res->created : "?");
	th_doc_raw(d, " (UTC)");
	th_doc_item_end(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "Host: ");
	th_doc_text(d, res->host.hostname ? res->host.hostname : "?");
	th_doc_raw(d, ", kernel ");
	th_doc_text(d, res->host.kernel ? res->host.kernel : "?");
	th_doc_rawf(d, ", %d CPUs", res->host.cpus);
	th_doc_item_end(d);
	version_item(d, res);
	toolchains(d, c);
	th_doc_list_end(d);
	return 0;
}

/* The outcome counts per toolchain and in all (meaning: each outcome's
 * meaning in a column), then the verdicts as stored. */
static int counts(struct th_doc *d, const struct th_section_ctx *c, bool meaning)
{
	const struct th_results *res = c->res;
	unsigned all[TH_OUTCOME_COUNT], (*per)[TH_OUTCOME_COUNT] = calloc(c->ntc ? c->ntc : 1, sizeof(*per));
	unsigned v[TH_VERDICT_COUNT] = { 0 };
	const char **heads = calloc(c->ntc + 3, sizeof(*heads));
	char *align = calloc(c->ntc + 4, 1), n[32];
	size_t nh = 0;

	if (!per || !heads || !align) {
		free(per);
		free(heads);
		free(align);
		return -1;
	}
	th_results_count(res, NULL, all);
	for (size_t t = 0; t < c->ntc; t++)
		th_results_count(res, c->tcs[t]->name, per[t]);
	align[nh] = 'l';
	heads[nh++] = "outcome";
	for (size_t t = 0; t < c->ntc; t++) {
		align[nh] = 'r';
		heads[nh++] = c->tcs[t]->name;
	}
	align[nh] = 'r';
	heads[nh++] = "all";
	if (meaning) {
		align[nh] = 'l';
		heads[nh++] = "meaning";
	}
	th_doc_table_head_align(d, heads, nh, align);
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		th_doc_row_begin(d);
		th_doc_cell_begin(d);
		th_doc_outcome(d, (enum th_outcome)i);
		th_doc_cell_end(d);
		for (size_t t = 0; t < c->ntc; t++) {
			snprintf(n, sizeof(n), "%u", per[t][i]);
			th_doc_cell_num(d, n);
		}
		snprintf(n, sizeof(n), "%u", all[i]);
		th_doc_cell_num(d, n);
		if (meaning) {
			th_doc_cell_begin(d);
			th_doc_text(d, th_outcome_meaning((enum th_outcome)i));
			th_doc_cell_end(d);
		}
		th_doc_row_end(d);
	}
	th_doc_table_end(d);
	free(per);
	free(heads);
	free(align);
	for (size_t i = 0; i < res->ncells; i++)
		v[th_results_shown_verdict(res->cells[i])]++;
	th_doc_para(d);
	th_doc_rawf(d, "%zu cells. Verdicts: %u pass, ", res->ncells, v[TH_VERDICT_PASS]);
	snprintf(n, sizeof(n), "%u regression", v[TH_VERDICT_REGRESSION]);
	if (v[TH_VERDICT_REGRESSION])
		th_doc_alert(d, n);
	else
		th_doc_raw(d, n);
	th_doc_rawf(d, ", %u improvement, %u new (as stored; a regression the outcome shows is "
		    "counted even if not stored; ", v[TH_VERDICT_IMPROVEMENT], v[TH_VERDICT_NEW]);
	th_doc_code(d, "timerharness check");
	th_doc_raw(d, " recomputes them, with a baseline if given).");
	th_doc_end_para(d);
	return 0;
}

/* report.md's "Summary": the counts. */
int th_section_summary(struct th_doc *d, const struct th_section_ctx *c)
{
	th_doc_heading(d, 2, "summary", "Summary");
	return counts(d, c, false);
}

/* report.html's run: created and where, version, toolchains, the
 * expectations, the slice; then the counts, each outcome's meaning beside. */
int th_section_run_counts(struct th_doc *d, const struct th_section_ctx *c)
{
	const struct th_results *res = c->res;

	th_doc_heading(d, 2, "run", "The run");
	th_doc_list_begin(d);
	th_doc_item_begin(d);
	th_doc_raw(d, "Created: ");
	th_doc_text(d, res->created ? res->created : "?");
	th_doc_raw(d, " (UTC) on ");
	th_doc_text(d, res->host.hostname ? res->host.hostname : "?");
	th_doc_raw(d, ", kernel ");
	th_doc_text(d, res->host.kernel ? res->host.kernel : "?");
	th_doc_rawf(d, ", %d CPUs", res->host.cpus);
	th_doc_item_end(d);
	version_item(d, res);
	toolchains(d, c);
	if (res->expect_path) {
		th_doc_item_begin(d);
		th_doc_raw(d, "Expectations: ");
		th_doc_code(d, res->expect_path);
		th_doc_raw(d, " (SHA-256 ");
		th_doc_code(d, res->expect_sha256);
		th_doc_raw(d, ")");
		th_doc_item_end(d);
	}
	if (th_results_is_slice(res)) {
		const char *lists[] = { res->selection.toolchains, res->selection.configs,
					res->selection.variants, res->selection.attacks };
		static const char *const names[] = { "toolchains", "configs", "variants", "attacks" };

		th_doc_item_begin(d);
		th_doc_raw(d, "A slice of the plan:");
		for (int i = 0; i < 4; i++) {
			if (!lists[i])
				continue;
			th_doc_rawf(d, " %s ", names[i]);
			th_doc_code(d, lists[i]);
			th_doc_raw(d, ";");
		}
		if (res->shard.count) {
			th_doc_raw(d, " shards");
			for (size_t k = 0; k < res->shard.nindexes; k++)
				th_doc_rawf(d, "%s%u", k ? "," : " ", res->shard.indexes[k]);
			th_doc_rawf(d, " of %u", res->shard.count);
		}
		th_doc_item_end(d);
	}
	th_doc_list_end(d);
	return counts(d, c, true);
}

/* Every metric of the run, by name: figures right-aligned. */
int th_section_metrics(struct th_doc *d, const struct th_section_ctx *c)
{
	static const char *const heads[] = { "metric", "value" };
	const struct th_results *res = c->res;
	int oom;
	const struct th_metric **m = th_results_sorted_metrics(res, &oom);

	if (!m)
		return oom ? -1 : 0;
	th_doc_table_head_align(d, heads, 2, "lr");
	for (size_t i = 0; i < res->nmetrics; i++) {
		th_doc_row_begin(d);
		th_doc_cell_begin(d);
		th_doc_text(d, m[i]->name);
		th_doc_cell_end(d);
		th_doc_cell_begin_num(d);
		if (m[i]->type == TH_METRIC_INT)
			th_doc_rawf(d, "%lld", m[i]->i);
		else if (m[i]->type == TH_METRIC_REAL)
			th_doc_rawf(d, "%.6g", m[i]->d);
		else
			th_doc_text(d, m[i]->s);
		th_doc_cell_end(d);
		th_doc_row_end(d);
	}
	th_doc_table_end(d);
	free(m);
	return 0;
}
