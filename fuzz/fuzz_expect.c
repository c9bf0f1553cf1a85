/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_expect.h"
#include "fuzz_summary.h"
#include "results_write.h"
#include "lib/tsv.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFIELDS 7

int th_fz_glob_match(const char *pattern, const char *value)
{
	const char *p = pattern;

	while (*p) {
		size_t len = strcspn(p, ",");
		char alt[256];

		if (len < sizeof(alt)) {
			memcpy(alt, p, len);
			alt[len] = 0;
			if (!fnmatch(alt, value, 0))
				return 1;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

void th_fz_expect_free(struct th_fz_expect *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nrules; i++) {
		struct th_fz_rule *r = &e->rules[i];

		free(r->chain);
		free(r->variant);
		free(r->config);
		free(r->toolchain);
		free(r->sig);
		free(r->reason);
	}
	free(e->rules);
	free(e->path);
	free(e);
}

static int bad_glob(const char *g)
{
	return !*g || strpbrk(g, " \t");
}

static int parse_line(struct th_fz_expect *e, struct th_tsv *t, char *err, size_t n)
{
	const char *path = t->path;
	unsigned long lineno = t->line;
	char *f[NFIELDS];
	struct th_fz_rule r;

	memset(&r, 0, sizeof(r));
	if (th_tsv_fields(t, f, NFIELDS, "kind chain variant config toolchain outcome reason", err, n))
		return -1;
	if (!strcmp(f[0], "finding"))
		r.kind = TH_FZ_RULE_FINDING;
	else if (!strcmp(f[0], "require"))
		r.kind = TH_FZ_RULE_REQUIRE;
	else if (!strcmp(f[0], "replay"))
		r.kind = TH_FZ_RULE_REPLAY;
	else {
		snprintf(err, n, "%s:%lu: unknown kind '%s' (finding, require, replay)", path, lineno, f[0]);
		return -1;
	}
	for (int i = 1; i <= 4; i++)
		if (bad_glob(f[i])) {
			snprintf(err, n, "%s:%lu: field %d is empty or has a blank", path, lineno, i + 1);
			return -1;
		}
	if (r.kind == TH_FZ_RULE_REPLAY) {
		char *colon = strchr(f[5], ':');

		if (colon)
			*colon = 0;
		r.outcome = th_outcome_parse(f[5]);
		if (colon)
			*colon = ':';
		if (r.outcome == TH_OUTCOME_INVALID || !colon || !colon[1]) {
			snprintf(err, n, "%s:%lu: replay expects OUTCOME:CHAIN_ID (or OUTCOME:-), not '%s'",
				 path, lineno, f[5]);
			return -1;
		}
	} else {
		r.outcome = th_outcome_parse(f[5]);
		if (r.outcome != TH_HIJACKED && r.outcome != TH_PRIVILEGED_WRITE &&
		    (r.kind != TH_FZ_RULE_FINDING || r.outcome != TH_REDIRECTED)) {
			snprintf(err, n, "%s:%lu: %s rules name HIJACKED%s or PRIVILEGED_WRITE, not '%s'", path,
				 lineno, f[0], r.kind == TH_FZ_RULE_FINDING ? ", REDIRECTED" : "", f[5]);
			return -1;
		}
	}
	if (!*f[6]) {
		snprintf(err, n, "%s:%lu: a rule needs its reason", path, lineno);
		return -1;
	}
	r.chain = th_results_strdup(f[1]);
	r.variant = th_results_strdup(f[2]);
	r.config = th_results_strdup(f[3]);
	r.toolchain = th_results_strdup(f[4]);
	r.sig = th_results_strdup(f[5]);
	r.reason = th_results_strdup(f[6]);
	snprintf(r.where, sizeof(r.where), "%s:%lu", path, lineno);
	e->rules = realloc(e->rules, (e->nrules + 1) * sizeof(*e->rules));
	if (!r.chain || !r.variant || !r.config || !r.toolchain || !r.sig || !r.reason || !e->rules) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	e->rules[e->nrules++] = r;
	return 0;
}

int th_fz_expect_load(const char *path, struct th_fz_expect **out, char *err, size_t n)
{
	struct th_tsv t;
	struct th_fz_expect *e;
	int r;

	*out = NULL;
	if (th_tsv_open(&t, path, err, n))
		return -1;
	e = calloc(1, sizeof(*e));
	if (!e || !(e->path = th_results_strdup(path))) {
		th_tsv_close(&t);
		th_fz_expect_free(e);
		snprintf(err, n, "out of memory");
		return -1;
	}
	while ((r = th_tsv_next(&t, err, n)) > 0)
		if (parse_line(e, &t, err, n))
			goto fail;
	if (r < 0)
		goto fail;
	th_tsv_close(&t);
	if (!e->nrules) {
		snprintf(err, n, "%s: no rules", path);
		th_fz_expect_free(e);
		return -1;
	}
	*out = e;
	return 0;
fail:
	th_tsv_close(&t);
	th_fz_expect_free(e);
	return -1;
}

static const struct th_fz_rule *match_one(const struct th_fz_expect *e, enum th_fz_rule_kind kind,
					  const char *chain, const char *variant, const char *config,
					  const char *toolchain)
{
	for (size_t i = 0; e && i < e->nrules; i++) {
		const struct th_fz_rule *r = &e->rules[i];

		if (r->kind == kind && th_fz_glob_match(r->chain, chain) &&
		    th_fz_glob_match(r->variant, variant) && th_fz_glob_match(r->config, config) &&
		    th_fz_glob_match(r->toolchain, toolchain))
			return r;
	}
	return NULL;
}

const struct th_fz_rule *th_fz_expect_match(const struct th_fz_expect *e, enum th_fz_rule_kind kind,
					    const char *chain, const char *variant,
					    const char *config, const char *toolchain)
{
	struct th_fz_step st[TH_FZ_STEPS_MAX];
	const struct th_fz_rule *worst = NULL;
	enum th_outcome worst_o = TH_OUTCOME_INVALID;
	size_t n;

	if (kind != TH_FZ_RULE_FINDING || !strstr(chain, "_THEN_"))
		return match_one(e, kind, chain, variant, config, toolchain);
	/* Several steps: each judged by itself, by the first rule that matches
	 * it, at its own outcome. */
	n = th_fz_chain_steps(chain, TH_HIJACKED, st, TH_FZ_STEPS_MAX);
	if (!n)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct th_fz_rule *r = match_one(e, kind, st[i].id, variant, config, toolchain);

		if (!r)
			return NULL;
		if (th_outcome_more_severe(st[i].outcome, r->outcome))
			return r;
		if (!worst || th_outcome_more_severe(st[i].outcome, worst_o)) {
			worst = r;
			worst_o = st[i].outcome;
		}
	}
	return worst;
}

int th_fz_expect_satisfies(const struct th_fz_rule *r, const char *chain_id, enum th_outcome o)
{
	struct th_fz_step st[TH_FZ_STEPS_MAX];
	size_t n = th_fz_chain_steps(chain_id, o, st, TH_FZ_STEPS_MAX);

	for (size_t i = 0; i < n; i++)
		if (th_fz_glob_match(r->chain, st[i].id) && !th_outcome_more_severe(r->outcome, st[i].outcome))
			return 1;
	return 0;
}
