/* SPDX-License-Identifier: MIT */
/* The campaigns' gate (check_fuzz.h): reads fuzz.json, trusts its counts and
 * findings only as the replays confirmed them, judges by the declaration. */
#define _POSIX_C_SOURCE 200809L
#include "check_fuzz.h"
#include "check.h"
#include "fuzz_expect.h"
#include "fuzz_summary.h"

#include <string.h>

static void campaign_name(FILE *out, const struct th_fz_campaign *c)
{
	fprintf(out, "%s %s/%s/%s%s%s", c->target, th_variant_name(c->variant), c->config, c->toolchain,
		strcmp(c->engine, "libfuzzer") ? "/" : "", strcmp(c->engine, "libfuzzer") ? c->engine : "");
}

static bool satisfies(const struct th_fz_campaign *c, const struct th_fz_rule *r)
{
	for (size_t k = 0; k < c->nfindings; k++) {
		const struct th_fz_finding *f = &c->findings[k];

		if (th_fz_expect_satisfies(r, f->chain_id, f->outcome))
			return true;
	}
	return false;
}

int th_check_fuzz_main(const struct th_check_fuzz_opts *o, FILE *out, FILE *err)
{
	struct th_fz_summary *s = NULL;
	struct th_fz_expect *e = NULL;
	char msg[1024];
	unsigned ran = 0, ok = 0, regress = 0, harness = 0, findings = 0;
	int rc;

	if (th_fz_summary_load(o->fuzz, &s, msg, sizeof(msg)) ||
	    th_fz_expect_load(o->expect, &e, msg, sizeof(msg))) {
		fprintf(err, "check: %s\n", msg);
		th_fz_summary_free(s);
		return TH_CHECK_BAD_INPUT;
	}
	for (size_t i = 0; i < s->ncampaigns; i++)
		ran += !strcmp(s->campaigns[i].status, "ran");
	if (!ran) {
		fprintf(err, "check: %s: no campaign ran: nothing to judge\n", o->fuzz);
		rc = TH_CHECK_BAD_INPUT;
		goto out;
	}
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];
		bool bad = false;

		if (!strcmp(c->status, "unsupported")) {
			fputs("unsupported: ", out);
			campaign_name(out, c);
			fprintf(out, ": %s\n", c->reason);
			continue;
		}
		if (!strcmp(c->status, "failed") || c->outcomes[TH_HARNESS_ERROR]) {
			fputs("harness error: ", out);
			campaign_name(out, c);
			if (!strcmp(c->status, "failed"))
				fprintf(out, ": the campaign failed: %s\n", c->reason);
			else
				fprintf(out, ": %lld runs the harness could not judge\n",
					c->outcomes[TH_HARNESS_ERROR]);
			harness++;
			continue;
		}
		for (size_t k = 0; k < c->nfindings; k++) {
			const struct th_fz_finding *f = &c->findings[k];
			const struct th_fz_rule *r = th_fz_expect_match(e, TH_FZ_RULE_FINDING, f->chain_id,
									th_variant_name(c->variant),
									c->config, c->toolchain);

			findings++;
			if (!r || th_outcome_more_severe(f->outcome, r->outcome)) {
				fputs("regression: ", out);
				campaign_name(out, c);
				fprintf(out, ": found %s", f->sig);
				if (r)
					fprintf(out, ", declared at most %s (%s)", th_outcome_name(r->outcome), r->where);
				else
					fprintf(out, ", a chain %s does not declare", o->expect);
				fprintf(out, "; reproducer %s; chain: %s\n", f->reproducer, f->chain);
				bad = true;
			} else if (o->verbose) {
				fputs("expected: ", out);
				campaign_name(out, c);
				fprintf(out, ": found %s after %.3f s (%s)\n", f->sig, f->first_seconds, r->where);
			}
		}
		for (size_t k = 0; k < e->nrules; k++) {
			const struct th_fz_rule *r = &e->rules[k];

			if (r->kind != TH_FZ_RULE_REQUIRE || !th_fz_glob_match(r->variant, th_variant_name(c->variant)) ||
			    !th_fz_glob_match(r->config, c->config) || !th_fz_glob_match(r->toolchain, c->toolchain))
				continue;
			if (satisfies(c, r))
				continue;
			fputs("regression: ", out);
			campaign_name(out, c);
			fprintf(out, ": no %s finding matching %s in %lld executions (%.0f s), required by %s: %s\n",
				th_outcome_name(r->outcome), r->chain, c->executions, c->seconds, r->where, r->reason);
			bad = true;
		}
		if (c->disagreements) {
			fputs("note: ", out);
			campaign_name(out, c);
			fprintf(out, ": %lld of %lld artifacts replayed to another signature than the run "
				"reported (only the replay's findings count)\n", c->disagreements, c->rechecked);
		}
		regress += bad;
		ok += !bad;
	}
	/* A required campaign that is not in the summary: coverage lost. Each
	 * named variant and config of the rule needs one (a glob, any match). */
	for (size_t k = 0; k < e->nrules && !o->allow_slice; k++) {
		const struct th_fz_rule *r = &e->rules[k];
		char vs[256], cs[256], *vsave = NULL, *csave = NULL;

		if (r->kind != TH_FZ_RULE_REQUIRE)
			continue;
		snprintf(vs, sizeof(vs), "%s", r->variant);
		for (char *v = strtok_r(vs, ",", &vsave); v; v = strtok_r(NULL, ",", &vsave)) {
			snprintf(cs, sizeof(cs), "%s", r->config);
			csave = NULL;
			for (char *cf = strtok_r(cs, ",", &csave); cf; cf = strtok_r(NULL, ",", &csave)) {
				bool found = false;

				for (size_t i = 0; i < s->ncampaigns && !found; i++) {
					const struct th_fz_campaign *c = &s->campaigns[i];

					found = th_fz_glob_match(v, th_variant_name(c->variant)) &&
						th_fz_glob_match(cf, c->config) &&
						th_fz_glob_match(r->toolchain, c->toolchain);
				}
				if (!found) {
					fprintf(out, "regression: no campaign of %s/%s/%s, required by %s (run it, "
						"or --allow-slice for a slice)\n", v, cf, r->toolchain, r->where);
					regress++;
				}
			}
		}
	}
	if (s->partial && !o->allow_partial) {
		fprintf(out, "regression: the campaigns were interrupted (%s): a partial summary is not "
			"a result (--allow-partial to judge it anyway)\n", s->interrupted);
		regress++;
	}
	/* Beside the results, the answer line names both files: the counts in
	 * one line. */
	if (o->beside && !harness && !o->verbose)
		fprintf(out, "check fuzz: %u campaigns ran: %u as declared, %u regressed; %u findings%s\n",
			ran, ok, regress, findings, findings ? " (--verbose)" : "");
	else
		fprintf(out, "check fuzz: %zu campaigns (%u ran): %u as declared, %u regressed, %u "
			"harness errors; %u findings%s (summary: %s, expectations: %s)\n", s->ncampaigns,
			ran, ok, regress, harness, findings,
			o->verbose || !findings ? "" : ", as declared unless listed (see --verbose)",
			o->fuzz, o->expect);
	for (int v = 0; v < TH_VARIANT_COUNT && (o->verbose || !o->beside); v++) {
		char verdict[4096];

		if (th_fz_verdict(s, (enum th_variant)v, verdict, sizeof(verdict)))
			fprintf(out, "fuzz %s\n", verdict);
	}
	rc = regress ? TH_CHECK_REGRESSION : harness ? TH_CHECK_HARNESS_ERROR : TH_CHECK_OK;
out:
	th_fz_summary_free(s);
	th_fz_expect_free(e);
	return rc;
}
