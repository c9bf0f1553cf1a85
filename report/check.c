/* SPDX-License-Identifier: MIT */
/* The regression gate: reads only results files, trusts no stored verdict. */
#include "check.h"
#include "results.h"
#include "report_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Evidence on one line: control characters escaped, the rest verbatim. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\\')
			fputs("\\\\", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void put_cell_name(FILE *out, const struct th_cell *c)
{
	fprintf(out, "%s %s/%s/%s", c->attack, th_variant_name(c->variant), c->config, c->toolchain);
}

/* " (counts: NO_EFFECT 3/5, CRASHED 2/5)" when more than one outcome was
 * counted or the counts disagree with the outcome field. */
static void put_counts(FILE *out, const struct th_cell *c)
{
	int kinds = 0, worst = -1;

	for (int i = TH_OUTCOME_COUNT - 1; i >= 0; i--) {
		if (c->counts[i]) {
			kinds++;
			worst = i;
		}
	}
	bool disagree = worst >= 0 && worst != (int)c->outcome;

	if (kinds < 2 && !disagree)
		return;
	fputs(" (counts:", out);
	for (int i = 0, first = 1; i < TH_OUTCOME_COUNT; i++) {
		if (!c->counts[i])
			continue;
		fprintf(out, "%s %s %u/%u", first ? "" : ",", th_outcome_name((enum th_outcome)i),
			c->counts[i], c->runs);
		first = 0;
	}
	if (disagree)
		fprintf(out, ", which disagree with its outcome field, %s",
			th_outcome_name(c->outcome) ? th_outcome_name(c->outcome) : "?");
	fputc(')', out);
}

static const char *oname(enum th_outcome o)
{
	return o == TH_OUTCOME_INVALID ? "none" : th_outcome_name(o);
}

int th_check_main(const char *results_path, const char *baseline_path, FILE *out, FILE *err)
{
	struct th_results *res = NULL, *base = NULL;
	const struct th_cell **cells = NULL;
	unsigned n[TH_VERDICT_COUNT] = { 0 };
	size_t missing = 0;
	char e[1024];
	int rc = TH_CHECK_BAD_INPUT;

	if (!results_path)
		results_path = TH_CHECK_DEFAULT_RESULTS;
	if (th_results_load(results_path, &res, e, sizeof(e)) ||
	    (baseline_path && th_results_load(baseline_path, &base, e, sizeof(e)))) {
		fprintf(err, "check: %s\n", e);
		goto out;
	}
	cells = th_results_sorted_cells(res, e, sizeof(e));
	if (!cells && res->ncells) {
		fprintf(err, "check: %s\n", e);
		goto out;
	}
	th_results_apply_baseline(res, base);

	/* Informational lines first, failures last: they end next to the summary. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < res->ncells; i++) {
			const struct th_cell *c = cells[i];

			if (pass == 0)
				n[c->verdict]++;
			bool failing = c->verdict == TH_VERDICT_REGRESSION;

			if (c->verdict == TH_VERDICT_PASS || failing != (pass == 1))
				continue;
			const struct th_cell *b = base ? th_results_find_cell(base, c->attack, c->variant,
									      c->config, c->toolchain) : NULL;
			enum th_outcome obs = th_cell_observed(c);

			fprintf(out, "%s: ", th_verdict_name(c->verdict));
			put_cell_name(out, c);
			fprintf(out, ": expected %s", oname(c->expected));
			if (base)
				fprintf(out, ", baseline %s", b ? oname(th_cell_observed(b)) : "none");
			fprintf(out, ", observed %s", th_outcome_name(obs));
			put_counts(out, c);
			if (obs == TH_UNSUPPORTED || obs == TH_NOT_APPLICABLE) {
				const struct th_support *s = th_report_cell_support(res, c);

				if (c->verdict == TH_VERDICT_REGRESSION)
					fputs(" (coverage lost)", out);
				if (s && !s->supported && *s->reason) {
					fputs("; reason: ", out);
					put_escaped(out, s->reason);
				}
			}
			fputs("; evidence: ", out);
			put_escaped(out, c->evidence);
			fputc('\n', out);
		}
		if (pass == 1 && base) {
			const struct th_cell **bc = th_results_sorted_cells(base, e, sizeof(e));

			if (!bc && base->ncells) {
				fprintf(err, "check: %s\n", e);
				goto out;
			}
			for (size_t i = 0; i < base->ncells; i++) {
				const struct th_cell *c = bc[i];

				if (th_results_find_cell(res, c->attack, c->variant, c->config, c->toolchain))
					continue;
				missing++;
				fputs("missing: ", out);
				put_cell_name(out, c);
				fprintf(out, ": baseline %s, not in the results%s\n",
					th_outcome_name(th_cell_observed(c)),
					res->partial ? " (partial run)" : " (coverage lost)");
			}
			free(bc);
		}
	}

	fprintf(out, "check: %zu cells", res->ncells);
	if (res->partial) {
		fputs(" (PARTIAL run, interrupted: ", out);
		put_escaped(out, res->interrupted ? res->interrupted : "?");
		fputc(')', out);
	}
	fprintf(out, ": %u pass, %u regression, %u improvement, %u new", n[TH_VERDICT_PASS],
		n[TH_VERDICT_REGRESSION], n[TH_VERDICT_IMPROVEMENT], n[TH_VERDICT_NEW]);
	if (base)
		fprintf(out, ", %zu missing", missing);
	fprintf(out, " (results: %s", results_path);
	if (base)
		fprintf(out, ", baseline: %s", baseline_path);
	fputs(")\n", out);
	rc = n[TH_VERDICT_REGRESSION] || (missing && !res->partial) ? TH_CHECK_REGRESSION : TH_CHECK_OK;
out:
	free(cells);
	th_results_free(res);
	th_results_free(base);
	return rc;
}
