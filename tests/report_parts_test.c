/* SPDX-License-Identifier: MIT */
/*
 * report/ tests of the parts that join and present results: shards
 * (th_shard_of, th_shard_parse), merge, the verdict card, the verdict
 * screen, report.html's order. Fixtures: tests/data/report.
 *
 * Run one case: report_parts_test <case>; no argument runs them all.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "card.h"
#include "check.h"
#include "expect.h"
#include "merge.h"
#include "reach.h"
#include "render.h"
#include "render_fuzz.h"
#include "results.h"

#define DATA(f) TH_REPORT_TEST_DATA "/" f

#define assert_contains(hay, needle)                                           \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (!h_ || !strstr(h_, n_))                                    \
			fail_msg("expected to find\n  %s\nin\n%s", n_,         \
				 h_ ? h_ : "(null)");                          \
	} while (0)

static struct th_results *load_ok(const char *path)
{
	struct th_results *res;
	char err[1024];

	if (th_results_load(path, &res, err, sizeof(err)))
		fail_msg("%s", err);
	return res;
}

/* ---- shards ---- */

/* The split is part of the results contract (docs/results.md): machines
 * of one CI job matrix, and results kept from before, must agree on it. */
static void shard_of_is_stable(void **state)
{
	(void)state;
	/* FNV-1a 64 of "MEMCPY_INTRA_BEFORE_ARM_NONE/legacy/none/clang-14". */
	assert_int_equal(th_shard_of("MEMCPY_INTRA_BEFORE_ARM_NONE", "legacy", "none", "clang-14", 1), 1);
	unsigned a = th_shard_of("MEMCPY_INTRA_BEFORE_ARM_NONE", "legacy", "none", "clang-14", 1024);
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = "MEMCPY_INTRA_BEFORE_ARM_NONE/legacy/none/clang-14"; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	assert_int_equal(a, (unsigned)(h % 1024) + 1);
	/* Every part of the cell counts, and the separators too. */
	assert_true(th_shard_of("A", "legacy", "none", "clang-14", 1024) !=
		    th_shard_of("A", "legacy", "none", "clang-22", 1024) ||
		    th_shard_of("A", "modern", "none", "clang-14", 1024) !=
		    th_shard_of("A", "legacy", "none", "clang-14", 1024));
}

/* A real plan splits evenly enough that no machine idles. */
static void shard_of_balances(void **state)
{
	(void)state;
	struct th_results *r = load_ok(DATA("gate.json"));
	unsigned n[4] = { 0 };

	for (size_t i = 0; i < r->ncells; i++) {
		const struct th_cell *c = r->cells[i];

		n[th_shard_of(c->attack, th_variant_name(c->variant), c->config, c->toolchain, 3)]++;
	}
	assert_int_equal(n[0], 0);
	for (int k = 1; k <= 3; k++)
		assert_true(n[k] >= r->ncells / 6);	/* at least half a fair share */
	th_results_free(r);
}

static void shard_parse(void **state)
{
	(void)state;
	unsigned i = 9, n = 9;
	char err[256];
	static const char *const bad[] = { "", "0/3", "4/3", "1/0", "1/", "/3", "a/3", "1/3x",
					   "-1/3", "1/1025", "1 /3" };

	assert_int_equal(th_shard_parse("2/3", &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 2);
	assert_int_equal(n, 3);
	assert_int_equal(th_shard_parse("1/1", &i, &n, err, sizeof(err)), 0);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		assert_int_equal(th_shard_parse(bad[k], &i, &n, err, sizeof(err)), -1);
		assert_contains(err, "is not a shard I/N");
	}
}

/* ---- merge ---- */

/* gate.json's cells of shard k of n, recorded as that shard. */
static struct th_results *shard_of_gate(unsigned k, unsigned n)
{
	struct th_results *out = load_ok(DATA("gate.json")), *r = th_results_create(out->version);
	char err[512];

	assert_non_null(r);
	assert_int_equal(th_results_set_created(r, out->created, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_host(r, "ci-1", "6.1", 2, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_expectations(r, out->expect_path, out->expect_sha256, err,
						     sizeof(err)), 0);
	assert_int_equal(th_results_set_selection(r, &out->selection, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_shard(r, n, &k, 1, err, sizeof(err)), 0);
	for (size_t t = 0; t < out->ntoolchains; t++)
		assert_int_equal(th_results_add_toolchain(r, out->toolchains[t].name,
							  out->toolchains[t].version,
							  out->toolchains[t].path, err, sizeof(err)), 0);
	for (size_t c = 0; c < out->nconfigs; c++) {
		const struct th_config *cfg = &out->configs[c];

		assert_int_equal(th_results_add_config(r, cfg->name, cfg->flags, cfg->description, err,
						       sizeof(err)), 0);
		for (size_t s2 = 0; s2 < cfg->nsupport; s2++)
			assert_int_equal(th_results_set_support(r, cfg->name, cfg->support[s2].toolchain,
								cfg->support[s2].supported,
								cfg->support[s2].reason, err, sizeof(err)), 0);
	}
	for (size_t i = 0; i < out->ncells; i++) {
		const struct th_cell *c = out->cells[i];

		if (th_shard_of(c->attack, th_variant_name(c->variant), c->config, c->toolchain, n) != k)
			continue;
		/* A cell that never ran (UNSUPPORTED...) has its outcome, no counts. */
		struct th_cell_in in = { c->attack, c->technique, c->timing, c->payload, c->variant,
					 c->config, c->toolchain, c->runs ? TH_OUTCOME_INVALID : c->outcome,
					 0, c->runs ? c->counts : NULL, c->evidence, c->expected, 0.5,
					 "rerun", c->expected_line, c->platform, c->expected_set, c->api };
		if (!th_results_add_cell(r, &in, err, sizeof(err)))
			fail_msg("%s", err);
	}
	assert_int_equal(th_results_set_metric_real(r, "run_seconds", 1.5, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_metric_int(r, "jobs", (long long)k, err, sizeof(err)), 0);
	th_results_free(out);
	return r;
}

struct gate_run {
	int rc;
	char *out;
};

/* th_gate_attacks[], th_gate_configs[]: gate.json's (tests/report_fixtures.cmake) */
#include "report_fixtures.inc"

static const char *gate_expect(const char *platform, const char *attack, const char *variant,
			       const char *config, const char *toolchain)
{
	return th_expect_lookup_on(platform, attack, variant, config, toolchain, NULL);
}

/* check on a model (written to a file first), by the gate fixtures'
 * declaration (tests/data/report/README.md). */
static struct gate_run check_model(const struct th_results *m, bool allow_slice)
{
	char path[] = "/tmp/th_parts_XXXXXX", err[512];
	int fd = mkstemp(path);
	struct gate_run g = { 0 };
	size_t len;
	FILE *out = open_memstream(&g.out, &len), *devnull = fopen("/dev/null", "w");

	assert_true(fd >= 0);
	if (th_results_write(m, path, err, sizeof(err)))
		fail_msg("%s", err);
	if (th_expect_load(DATA("gate-expected.tsv"), err, sizeof(err)))
		fail_msg("%s", err);
	struct th_check_decl d = {
		.expect_path = th_expect_path(), .expect_sha256 = th_expect_sha256(),
		.expect = gate_expect, .where = th_expect_where_on,
		.attacks = th_gate_attacks, .nattacks = TH_GATE_NATTACKS,
		.configs = th_gate_configs, .nconfigs = TH_GATE_NCONFIGS,
	};
	struct th_check_opts o = { .results = path, .allow_slice = allow_slice };

	g.rc = th_check_main(&o, &d, out, devnull);
	fclose(out);
	fclose(devnull);
	th_expect_free();
	unlink(path);
	close(fd);
	return g;
}

/* Every shard merged is the whole plan again: check passes it without
 * --allow-slice. Two of three are a slice: refused without it, and with it
 * judged as shards 1 and 2 only. */
static void merge_shards_make_the_plan(void **state)
{
	(void)state;
	struct th_results *p[3] = { shard_of_gate(1, 3), shard_of_gate(2, 3), shard_of_gate(3, 3) };
	const char *names[3] = { "s1.json", "s2.json", "s3.json" };
	struct th_results *m;
	char err[512];
	struct gate_run g;

	for (int i = 0; i < 3; i++) {
		g = check_model(p[i], false);
		assert_int_equal(g.rc, TH_CHECK_REGRESSION);
		assert_contains(g.out, "slice: the run was asked for part of the plan only");
		free(g.out);
	}
	assert_int_equal(th_results_merge(p, names, 3, &m, err, sizeof(err)), 0);
	assert_int_equal(m->ncells, 54);
	assert_int_equal(m->shard.count, 0);
	assert_false(th_results_is_slice(m));
	g = check_model(m, false);
	assert_int_equal(g.rc, TH_CHECK_OK);
	assert_contains(g.out, "check: 54 cells: 54 pass, 0 regression\n");
	free(g.out);
	/* Summed run time; the largest jobs; recounted cells; one host each. */
	for (size_t i = 0; i < m->nmetrics; i++) {
		if (!strcmp(m->metrics[i].name, "run_seconds"))
			assert_true(m->metrics[i].d == 4.5);
		if (!strcmp(m->metrics[i].name, "jobs"))
			assert_int_equal(m->metrics[i].i, 3);
		if (!strcmp(m->metrics[i].name, "cells_total"))
			assert_int_equal(m->metrics[i].i, 54);
	}
	assert_string_equal(m->host.hostname, "ci-1");
	th_results_free(m);

	assert_int_equal(th_results_merge(p, names, 2, &m, err, sizeof(err)), 0);
	assert_int_equal(m->shard.count, 3);
	assert_int_equal(m->shard.nindexes, 2);
	g = check_model(m, false);
	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "shards 1,2 of 3)");
	assert_contains(g.out, "missing: ");
	free(g.out);
	g = check_model(m, true);
	assert_int_equal(g.rc, TH_CHECK_OK);
	free(g.out);
	th_results_free(m);
	for (int i = 0; i < 3; i++)
		th_results_free(p[i]);
}

static void merge_refuses(const char *want, struct th_results *a, struct th_results *b)
{
	struct th_results *in[2] = { a, b }, *m = (struct th_results *)1;
	const char *names[2] = { "a.json", "b.json" };
	char err[512] = "";

	assert_int_equal(th_results_merge(in, names, 2, &m, err, sizeof(err)), -1);
	assert_null(m);
	assert_contains(err, want);
}

static void merge_refusals(void **state)
{
	(void)state;
	struct th_results *a = shard_of_gate(1, 3), *b = shard_of_gate(2, 3), *c;
	char err[256];
	unsigned two = 2;

	merge_refuses("shard 1/3 is in a.json and in b.json: their cells overlap", a, a);
	c = shard_of_gate(1, 4);
	merge_refuses("b.json is a shard of 4, a.json of 3: not one split", a, c);
	th_results_free(c);
	c = load_ok(DATA("gate.json"));
	merge_refuses("a.json is a shard, b.json is whole: merge shards with shards", a, c);
	th_results_free(c);
	/* Another compiler version, other flags, other support. */
	free(b->toolchains[0].version);
	b->toolchains[0].version = strdup("0.0.1");
	merge_refuses("is 0.0.1 in b.json and ", a, b);
	th_results_free(b);
	b = shard_of_gate(2, 3);
	free(b->configs[1].flags);
	b->configs[1].flags = strdup("-O0");
	merge_refuses("config cfi-icall: its flags differ between a.json and b.json", a, b);
	th_results_free(b);
	b = shard_of_gate(2, 3);
	b->configs[2].support[0].supported = !b->configs[2].support[0].supported;
	merge_refuses("config kcfi on ", a, b);
	th_results_free(b);
	/* Other expectations, another version of timerharness, another plan. */
	b = shard_of_gate(2, 3);
	assert_int_equal(th_results_set_expectations(b, "x.tsv", "0000000000000000000000000000000000000000000000000000000000000000", err, sizeof(err)), 0);
	merge_refuses("b.json judged its cells by other expectations than a.json", a, b);
	th_results_free(b);
	b = shard_of_gate(2, 3);
	free(b->version);
	b->version = strdup("9.9.9");
	merge_refuses("b.json was made by timerharness 9.9.9", a, b);
	th_results_free(b);
	b = shard_of_gate(2, 3);
	b->selection.selftests = true;
	merge_refuses("b.json was run with --selftests and a.json without", a, b);
	th_results_free(b);
	/* Another build's reach: the same entry, another set. */
	b = shard_of_gate(2, 3);
	struct th_reach_entry *ra = th_reach_add_entry(a, "clang-22", TH_VARIANT_MODERN, "kcfi", "x",
						       "call_timer_fn");
	struct th_reach_entry *rb = th_reach_add_entry(b, "clang-22", TH_VARIANT_MODERN, "kcfi", "y",
						       "call_timer_fn");

	assert_non_null(ra);
	assert_non_null(rb);
	ra->functions_total = rb->functions_total = 10;
	assert_int_equal(th_reach_add_member(ra, "f", NULL, false, false), 0);
	assert_int_equal(th_reach_add_member(rb, "f", NULL, false, false), 0);
	{
		struct th_results *two[2] = { a, b }, *m;
		const char *nm[2] = { "a.json", "b.json" };

		/* The same set (another path to the binary): one entry. */
		assert_int_equal(th_results_merge(two, nm, 2, &m, err, sizeof(err)), 0);
		assert_int_equal(m->reach->n, 1);
		th_results_free(m);
	}
	assert_int_equal(th_reach_add_member(rb, "write_cr4", NULL, true, false), 0);
	merge_refuses("reach of clang-22 modern kcfi differs between the files (b.json)", a, b);
	th_results_free(b);
	/* A real kernel's entry of the same toolchain, variant and config: its
	 * own key (the platform), kept beside the model's. */
	b = shard_of_gate(2, 3);
	{
		struct th_platform_in pin = { "linux-6.1.192", "src", "clang", "qemu", "max", 1.0 };
		struct th_results *two[2] = { a, b }, *m;
		const char *nm[2] = { "a.json", "b.json" };
		const struct th_reach_entry *k;

		rb = th_reach_add_entry(b, "clang-22", TH_VARIANT_MODERN, "kcfi", "y", "call_timer_fn");
		assert_non_null(rb);
		rb->functions_total = 10;
		assert_int_equal(th_reach_add_member(rb, "f", NULL, false, false), 0);
		if (th_results_add_platform(b, &pin, err, sizeof(err)) ||
		    th_results_add_platform_config(b, "linux-6.1.192", "kcfi", "CONFIG_CFI_CLANG=y", err,
						   sizeof(err)))
			fail_msg("%s", err);
		rb = th_reach_add_entry_on(b, "linux-6.1.192", "clang-22", TH_VARIANT_MODERN, "kcfi",
					   "vmlinux", "call_timer_fn");
		assert_non_null(rb);
		rb->functions_total = 60000;
		assert_int_equal(th_reach_add_member(rb, "commit_creds", NULL, true, false), 0);
		if (th_results_merge(two, nm, 2, &m, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(m->reach->n, 2);
		k = th_reach_find_on(m, "linux-6.1.192", "clang-22", TH_VARIANT_MODERN, "kcfi");
		assert_non_null(k);
		assert_int_equal(k->functions_total, 60000);
		assert_int_equal(th_reach_find(m, "clang-22", TH_VARIANT_MODERN, "kcfi")->functions_total, 10);
		th_results_free(m);
	}
	th_results_free(b);
	/* A cell outside the shard its file says it holds. */
	b = shard_of_gate(3, 3);
	assert_int_equal(th_results_set_shard(b, 3, &two, 1, err, sizeof(err)), 0);
	merge_refuses("is not in the file's shard", a, b);
	th_results_free(b);
	th_results_free(a);
}

/* Runs per toolchain (the other CI split) join their one differing list. */
static void merge_per_toolchain(void **state)
{
	(void)state;
	struct th_results *whole = load_ok(DATA("gate.json")), *p[2], *m;
	const char *names[2] = { "c14.json", "c22.json" }, *tcs[2] = { "clang-14", "clang-22" };
	char err[512];

	for (int t = 0; t < 2; t++) {
		struct th_selection sel = { .toolchains = (char *)tcs[t] };

		p[t] = load_ok(DATA("gate.json"));
		/* Keep the toolchain's cells only: rebuild from whole. */
		th_results_free(p[t]);
		p[t] = th_results_create(whole->version);
		assert_int_equal(th_results_set_expectations(p[t], whole->expect_path, whole->expect_sha256,
							     err, sizeof(err)), 0);
		assert_int_equal(th_results_set_selection(p[t], &sel, err, sizeof(err)), 0);
		assert_int_equal(th_results_add_toolchain(p[t], tcs[t], "1", "", err, sizeof(err)), 0);
		for (size_t c = 0; c < whole->nconfigs; c++) {
			const struct th_support *s = th_config_support(&whole->configs[c], tcs[t]);

			assert_int_equal(th_results_add_config(p[t], whole->configs[c].name,
							       whole->configs[c].flags,
							       whole->configs[c].description, err,
							       sizeof(err)), 0);
			if (s)
				assert_int_equal(th_results_set_support(p[t], whole->configs[c].name, tcs[t],
									s->supported, s->reason, err,
									sizeof(err)), 0);
		}
		for (size_t i = 0; i < whole->ncells; i++) {
			const struct th_cell *c = whole->cells[i];

			if (strcmp(c->toolchain, tcs[t]))
				continue;
			struct th_cell_in in = { c->attack, c->technique, c->timing, c->payload,
						 c->variant, c->config, c->toolchain,
						 c->runs ? TH_OUTCOME_INVALID : c->outcome, 0,
						 c->runs ? c->counts : NULL, c->evidence, c->expected, 0,
						 NULL, 0, NULL, 0, c->api };
			assert_non_null(th_results_add_cell(p[t], &in, err, sizeof(err)));
		}
	}
	assert_int_equal(th_results_merge(p, names, 2, &m, err, sizeof(err)), 0);
	assert_string_equal(m->selection.toolchains, "clang-14,clang-22");
	assert_int_equal(m->ncells, whole->ncells);
	th_results_free(m);
	/* Two lists differing: no single selection says what the merge is. */
	assert_int_equal(th_results_set_selection(p[1], &(struct th_selection){ .toolchains = "clang-22",
										    .configs = "none" },
						  err, sizeof(err)), 0);
	merge_refuses("b.json differs from a.json in its selection's toolchains and configs", p[0], p[1]);
	for (int t = 0; t < 2; t++)
		th_results_free(p[t]);
	th_results_free(whole);
}

/* ---- the verdict card and screen ---- */

/* A model with the exploit's cells on each generation, under cfi-icall and
 * kcfi, on two toolchains (kcfi unsupported on the older). */
static struct th_results *card_model(void)
{
	char err[256];
	struct th_results *r = th_results_create("0.1.0-test");
	static const char *const tcs[] = { "clang-14", "clang-22" };
	static const char *const cfgs[] = { "none", "cfi-icall", "kcfi" };

	assert_int_equal(th_results_add_toolchain(r, "clang-14", "14.0.6", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22.1.8", "", err, sizeof(err)), 0);
	for (int k = 0; k < 3; k++)
		assert_int_equal(th_results_add_config(r, cfgs[k], "", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_support(r, "kcfi", "clang-14", false, "clang 14 has no kcfi",
						err, sizeof(err)), 0);
	for (int t = 0; t < 2; t++) {
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			for (int k = 0; k < 3; k++) {
				bool unsup = t == 0 && k == 2;
				bool modern = v == TH_VARIANT_MODERN;
				/* The exploit's cell, and a same-type callback. */
				struct th_cell_in cve = {
					modern ? "RING_BLOCK_OVERFLOW_PENDING_FUNC_WRITE_CR4" :
						 "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4",
					"ring-block-overflow", "pending", th_card_cve_payload(v),
					(enum th_variant)v, cfgs[k], tcs[t],
					unsup ? TH_UNSUPPORTED : k == 0 ? TH_HIJACKED :
					modern ? TH_BLOCKED_CFI : TH_HIJACKED, unsup ? 0 : 1, NULL,
					"evidence", TH_OUTCOME_INVALID, 0, NULL, 0, NULL, 0, TH_API_TIMER };
				struct th_cell_in same = {
					"MEMCPY_INTRA_BEFORE_ARM_FUNC_SAME_CLASS", "memcpy-intra",
					"before-arm", "func:same-class", (enum th_variant)v, cfgs[k], tcs[t],
					unsup ? TH_UNSUPPORTED : TH_REDIRECTED, unsup ? 0 : 1, NULL,
					"ran the other callback", TH_OUTCOME_INVALID, 0, NULL, 0, NULL, 0, TH_API_TIMER };
				/* Another technique of the CVE payload: not the exploit. */
				struct th_cell_in other = cve;

				other.attack = modern ? "STRCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4" :
							"STRCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4";
				other.technique = "strcpy-intra";
				other.timing = "before-arm";
				other.outcome = unsup ? TH_UNSUPPORTED : TH_CRASHED;
				assert_non_null(th_results_add_cell(r, &cve, err, sizeof(err)));
				assert_non_null(th_results_add_cell(r, &same, err, sizeof(err)));
				assert_non_null(th_results_add_cell(r, &other, err, sizeof(err)));
			}
		}
	}
	return r;
}

static void card_answers_from_the_exploits_cells(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	int oom;
	const struct th_cell **all = (const struct th_cell **)th_results_sorted_cells(r, NULL, 0);
	struct th_card card;
	char counts[128];

	(void)oom;
	assert_int_equal(th_card_build(all, r->ncells, &card), 0);
	assert_int_equal(card.ncve, 3);
	assert_int_equal(card.cve[0].variant, TH_VARIANT_LEGACY);
	assert_int_equal(card.cve[0].worst, TH_HIJACKED);
	assert_string_equal(card.cve[0].configs, "cfi-icall/kcfi");
	/* 2 cfi-icall + 1 kcfi; the strcpy cells are not the exploit. */
	assert_int_equal(card.cve[0].ncells, 3);
	assert_int_equal(card.cve[0].n, 3);
	assert_string_equal(card.cve[0].not_run, "kcfi on clang-14 (UNSUPPORTED)");
	assert_int_equal(card.cve[2].variant, TH_VARIANT_MODERN);
	assert_int_equal(card.cve[2].worst, TH_BLOCKED_CFI);
	th_card_counts_text(&card.cve[2], counts, sizeof(counts));
	assert_string_equal(counts, "3 of 3 cells");
	/* What 4.15 + CFI does not stop: the same-type callback, with the
	 * crashed strcpy cells' payload left out (no target ran). */
	assert_int_equal(card.nstill, 1);
	assert_string_equal(card.still[0].payload, "func:same-class");
	assert_int_equal(card.still[0].worst, TH_REDIRECTED);
	th_card_free(&card);

	/* A generation answered differently per config gets a row each. */
	th_results_find_cell(r, NULL, "RING_BLOCK_OVERFLOW_PENDING_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "kcfi",
			     "clang-22")->outcome = TH_REDIRECTED;
	th_results_find_cell(r, NULL, "RING_BLOCK_OVERFLOW_PENDING_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "kcfi",
			     "clang-22")->counts[TH_REDIRECTED] = 1;
	th_results_find_cell(r, NULL, "RING_BLOCK_OVERFLOW_PENDING_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "kcfi",
			     "clang-22")->counts[TH_BLOCKED_CFI] = 0;
	assert_int_equal(th_card_build(all, r->ncells, &card), 0);
	assert_int_equal(card.ncve, 4);
	assert_string_equal(card.cve[2].configs, "cfi-icall");
	assert_int_equal(card.cve[2].worst, TH_BLOCKED_CFI);
	assert_string_equal(card.cve[3].configs, "kcfi");
	assert_int_equal(card.cve[3].worst, TH_REDIRECTED);
	th_card_free(&card);
	free(all);
	th_results_free(r);
}

/* Results without the exploit's cells say "not run", never an answer. */
static void card_not_run(void **state)
{
	(void)state;
	struct th_results *r = load_ok(DATA("gate.json"));
	const struct th_cell **all = (const struct th_cell **)th_results_sorted_cells(r, NULL, 0);
	struct th_card card;

	assert_int_equal(th_card_build(all, r->ncells, &card), 0);
	assert_int_equal(card.ncve, 3);
	for (size_t i = 0; i < card.ncve; i++) {
		assert_int_equal(card.cve[i].worst, TH_OUTCOME_INVALID);
		assert_int_equal(card.cve[i].ncells, 0);
	}
	th_card_free(&card);
	free(all);
	th_results_free(r);
}

static char *verdict_text(const struct th_results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(th_render_verdict(f, r, 0), 0);
	fclose(f);
	return buf;
}

/* The screen a run ends with: the answer first, within 80 columns. */
static void verdict_screen(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	char *v = verdict_text(r);
	int lines = 0;

	for (char *l = v, *e; *l; l = e + 1, lines++) {
		e = strchr(l, '\n');
		assert_non_null(e);
		if (e - l > TH_VERDICT_WIDTH)
			fail_msg("line of %d columns:\n%.*s", (int)(e - l), (int)(e - l), l);
	}
	assert_true(lines <= 16);
	assert_contains(v, "timerharness 0.1.0-test: 54 cells, on clang-14 and clang-22\n"
			   "Does type-based CFI stop CVE-2017-7308's overwrite of a timer?\n");
	assert_contains(v, "  4.14 legacy    cfi-icall/kcfi  HIJACKED    3 of 3 cells\n"
			   "  4.14-rc3 shim  cfi-icall/kcfi  HIJACKED    3 of 3 cells\n"
			   "  4.15 modern    cfi-icall/kcfi  BLOCKED_CFI 3 of 3 cells\n"
			   "    could not run: kcfi on clang-14 (UNSUPPORTED)\n");
	/* The same note is not said twice. */
	assert_contains(v, "What 4.15 + CFI does not stop (a target ran or privileged state changed):\n"
			   "  func:same-class  cfi-icall/kcfi  REDIRECTED 3 of 3 cells\n"
			   "What 4.15's call_timer_fn can still call: not run\n"
			   "Fuzzing campaigns: not run\n");
	assert_contains(v, "Outcomes: HIJACKED 12, REDIRECTED 15, CRASHED 15, BLOCKED_CFI 3, "
			   "UNSUPPORTED 9\n");
	free(v);
	th_results_free(r);
}

/* The call site's reach, from the results' reach section: 4.15's under each
 * card config, on the newest toolchain, with what one call further reaches. */
static void verdict_reach(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	struct th_reach_entry *e;
	char *v;

	for (int t = 0; t < 2; t++) {
		const char *tc = t ? "clang-22" : "clang-14";

		e = th_reach_add_entry(r, tc, TH_VARIANT_MODERN, "cfi-icall", "bin", "call_timer_fn");
		assert_non_null(e);
		e->functions_total = t ? 46 : 40;
		assert_int_equal(th_reach_add_member(e, "prb_retire_rx_blk_timer_expired", NULL, false,
						     false), 0);
		assert_int_equal(th_reach_add_member(e, "deferred_timer_fn", NULL, false, false), 0);
		if (t)
			assert_int_equal(th_reach_add_hop(e, "deferred_timer_fn", 0x1234, "cfi-icall",
							  "write_cr4", "*(arg0 - 16)"), 0);
	}
	e = th_reach_add_entry(r, "clang-22", TH_VARIANT_MODERN, "kcfi", "bin", "call_timer_fn");
	e->functions_total = 104;
	assert_int_equal(th_reach_add_member(e, "write_cr4_direct", NULL, true, false), 0);
	v = verdict_text(r);
	assert_contains(v, "What 4.15's call_timer_fn can still call (clang-22's binaries):\n"
			   "  cfi-icall 2 of 46 functions, kcfi 1 of 104; privileged under kcfi:\n"
			   "    write_cr4_direct\n"
			   "  one call further: deferred_timer_fn reaches write_cr4\n");
	free(v);
	/* A name from the file is shown, never obeyed by the terminal. */
	assert_int_equal(th_reach_add_member(e, "evil\x1b[2J", NULL, true, false), 0);
	v = verdict_text(r);
	assert_contains(v, "evil\\x1b[2J");
	assert_null(strchr(v, '\x1b'));
	free(v);
	th_results_free(r);
}

/* What the verdict's and the card's reach lines say, computed once
 * (results/reach.h, th_reach_call()): per config asked, the newest
 * toolchain's entry, a config without one left out; each privileged name
 * once across them; one call further said once (the last that says more);
 * a family's other call apart. And the campaigns' labels, each once
 * (th_fz_reach_labels()). */
static void reach_call_once(void **state)
{
	(void)state;
	static const char *const cfgs[] = { "none", "cfi-icall", "kcfi" };
	static const char *const back[] = { "kcfi", "cfi-icall" };
	struct th_results *r = card_model();
	struct th_reach_entry *e;
	struct th_reach_call c;

	for (int t = 0; t < 2; t++) {
		e = th_reach_add_entry(r, t ? "clang-22" : "clang-14", TH_VARIANT_MODERN, "cfi-icall", "bin",
				       "call_timer_fn");
		assert_non_null(e);
		e->functions_total = t ? 46 : 40;
		assert_int_equal(th_reach_add_member(e, "write_cr4", NULL, true, false), 0);
		/* Privileged, and no symbol: counted, not named. */
		assert_int_equal(th_reach_add_member(e, NULL, "anon.cfi", t == 1, false), 0);
		assert_int_equal(th_reach_add_member(e, "deferred_timer_fn", NULL, false, false), 0);
		assert_int_equal(th_reach_add_hop(e, "deferred_timer_fn", 0x1234, "cfi-icall",
						  t ? "write_cr4" : "commit_creds", "*(arg0 - 16)"), 0);
	}
	e = th_reach_add_entry(r, "clang-22", TH_VARIANT_MODERN, "kcfi", "bin", "call_timer_fn");
	assert_non_null(e);
	e->functions_total = 104;
	assert_int_equal(th_reach_add_member(e, "write_cr4_direct", NULL, true, false), 0);
	assert_int_equal(th_reach_add_member(e, "write_cr4", NULL, true, false), 0);
	assert_int_equal(th_reach_add_hop(e, "deferred_timer_fn", 0x1234, "kcfi",
					  "write_cr4, write_cr4_direct", "*(arg0 - 16)"), 0);
	e = th_reach_add_entry(r, "clang-22", TH_VARIANT_TRANSITIONAL, "cfi-icall", "bin",
			       "tasklet_action_common");
	assert_non_null(e);
	assert_int_equal(th_reach_set_site(e, TH_API_TASKLET, "func"), 0);
	e->functions_total = 80;
	assert_int_equal(th_reach_add_member(e, "native_write_cr4", NULL, true, false), 0);

	assert_int_equal(th_reach_call(r, TH_API_TIMER, NULL, TH_VARIANT_MODERN, cfgs, 3, &c), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.rows[0].config, "cfi-icall");
	assert_string_equal(c.rows[0].toolchain, "clang-22");
	assert_int_equal(c.rows[0].members, 3);
	assert_int_equal(c.rows[0].functions, 46);
	assert_int_equal(c.rows[0].privileged, 2);
	assert_string_equal(c.rows[0].names, "write_cr4");
	assert_string_equal(c.rows[0].hops, "deferred_timer_fn reaches write_cr4");
	assert_string_equal(c.rows[1].config, "kcfi");
	assert_string_equal(c.rows[1].names, "write_cr4_direct, write_cr4");
	assert_string_equal(c.names, "write_cr4, write_cr4_direct");
	assert_string_equal(c.hops, "deferred_timer_fn reaches write_cr4, write_cr4_direct");
	th_reach_call_free(&c);
	/* Asked the other way round: the hops that say more are still kept. */
	assert_int_equal(th_reach_call(r, TH_API_TIMER, NULL, TH_VARIANT_MODERN, back, 2, &c), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.names, "write_cr4_direct, write_cr4");
	assert_string_equal(c.hops, "deferred_timer_fn reaches write_cr4, write_cr4_direct");
	th_reach_call_free(&c);
	/* The tasklet's func(data) call, apart from the timer's. */
	assert_int_equal(th_reach_call(r, TH_API_TASKLET, "func", TH_VARIANT_TRANSITIONAL, cfgs, 3, &c), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.rows[0].functions, 80);
	assert_string_equal(c.names, "native_write_cr4");
	assert_string_equal(c.hops, "");
	th_reach_call_free(&c);
	/* No entry: no row, nothing said. */
	assert_int_equal(th_reach_call(r, TH_API_TIMER, NULL, TH_VARIANT_LEGACY, cfgs, 3, &c), 0);
	assert_int_equal(c.n, 0);
	assert_string_equal(c.names, "");
	th_reach_call_free(&c);
	th_results_free(r);

	/* Two chains ending in the same words: said once, in order. */
	struct th_fz_reach fr[4] = { { .label = "a redirected" }, { .label = "uid 0 via the list" },
				     { .label = "a redirected" }, { .label = "c HIJACKED" } };
	const char *said[4];

	assert_int_equal(th_fz_reach_labels(fr, 4, said, 4), 3);
	assert_string_equal(said[0], "a redirected");
	assert_string_equal(said[1], "uid 0 via the list");
	assert_string_equal(said[2], "c HIJACKED");
	assert_int_equal(th_fz_reach_labels(fr, 4, said, 1), 1);
}

/* report.html: the verdict before anything else, no script, no request. */
static void html_verdict_first(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	char *h = NULL, err[256];
	size_t len;
	FILE *f = open_memstream(&h, &len);

	assert_int_equal(th_render_html_to(f, r, err, sizeof(err)), 0);
	fclose(f);
	assert_contains(h, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			   "style-src 'unsafe-inline'\">");
	const char *card = strstr(h, "<section class=\"card\" id=\"verdict\">");
	const char *charts = strstr(h, "<h2 id=\"charts\">"), *findings = strstr(h, "<h2 id=\"findings\">");
	const char *grid = strstr(h, "<h2 id=\"matrix\">"), *configs = strstr(h, "<h2 id=\"configs\">");

	assert_non_null(card);
	assert_true(card < charts && charts < findings && findings < grid && grid < configs);
	/* Nothing but the page's head before the card. */
	assert_null(memmem(h, (size_t)(card - h), "<table", 6));
	assert_contains(card, "<span class=\"gen\">4.15 modern</span><span class=\"cfg\">cfi-icall/kcfi"
			      "</span><span class=\"big\"><span class=\"o o-BLOCKED_CFI\">BLOCKED_CFI</span>"
			      "</span><span class=\"cnt\">3 of 3 cells</span>");
	assert_contains(card, "<p class=\"cnt\">Could not run: kcfi on clang-14 (UNSUPPORTED)</p>");
	assert_contains(card, "The 9 cells that answer it");
	assert_contains(card, "<strong>Fuzzing campaigns:</strong> not run");
	assert_contains(charts, "<svg class=\"chart\" viewBox=\"0 0 400 ");
	assert_contains(charts, "<rect class=\"f-HIJACKED\"");
	assert_contains(charts, "cfi-icall against ring-block-overflow: stopped 2 of 6 attack cells "
				"(BLOCKED_CFI 2, DETECTED 0)");
	assert_contains(findings, "<details class=\"finding\"><summary><h3>a. Does type-based CFI");
	assert_contains(grid, "<div class=\"gridwrap\"><table class=\"grid\">\n<thead>\n<tr class=\"vh\">");
	assert_null(strstr(h, "<script"));
	assert_null(strstr(h, "src="));
	free(h);
	th_results_free(r);
}

/* A campaign of the fixture summary: API family a (its target), variant v
 * under config, with one finding of sig (NULL: none) found after first
 * seconds. */
static void fz_campaign_of(struct th_fz_summary *s, enum th_api a, enum th_variant v, const char *config,
			   long long runs, long long blocks, const char *sig, double first)
{
	char err[256];
	struct th_fz_campaign in = { .target = (char *)th_fz_api_target(a), .api = a, .config = (char *)config,
				     .toolchain = "clang-22", .engine = "libfuzzer", .status = "ran",
				     .reason = "", .options = "", .variant = v, .seconds = 10,
				     .cpu_seconds = 10, .executions = runs };
	struct th_fz_campaign *c;

	in.outcomes[TH_BLOCKED_CFI] = blocks;
	in.outcomes[TH_NO_EFFECT] = runs - blocks - (sig ? 1 : 0);
	if (sig)
		in.outcomes[TH_HIJACKED] = 1;
	c = th_fz_summary_add_campaign(s, &in, err, sizeof(err));
	assert_non_null(c);
	if (sig) {
		struct th_fz_finding f = { .sig = (char *)sig, .outcome = TH_HIJACKED,
					   .chain_id = strchr(sig, ':') + 1, .first_seconds = first,
					   .first_executions = 100, .reproducer = "r.bin",
					   .sha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
					   .replayed = TH_HIJACKED, .reproduced = true, .chain = "c" };

		assert_int_equal(th_fz_campaign_add_finding(c, &f, err, sizeof(err)), 0);
	}
}

/* The timer's (target overflow). */
static void fz_campaign(struct th_fz_summary *s, enum th_variant v, const char *config, long long runs,
			long long blocks, const char *sig, double first)
{
	fz_campaign_of(s, TH_API_TIMER, v, config, runs, blocks, sig, first);
}

/* Add to the campaign of variant v and config another finding: outcome o,
 * chain, narration. */
static void fz_finding(struct th_fz_summary *s, enum th_variant v, const char *config, enum th_outcome o,
		       const char *chain_id, const char *chain)
{
	char err[256], sig[256];

	snprintf(sig, sizeof(sig), "%s:%s", th_outcome_name(o), chain_id);
	for (size_t i = 0; i < s->ncampaigns; i++) {
		struct th_fz_campaign *c = &s->campaigns[i];
		struct th_fz_finding f = { .sig = sig, .outcome = o, .chain_id = (char *)chain_id,
					   .first_seconds = 1, .first_executions = 100,
					   .reproducer = "r.bin",
					   .sha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
					   .replayed = o, .reproduced = true, .chain = (char *)chain };

		if (c->variant != v || strcmp(c->config, config))
			continue;
		c->outcomes[o]++;
		c->outcomes[TH_NO_EFFECT]--;
		assert_int_equal(th_fz_campaign_add_finding(c, &f, err, sizeof(err)), 0);
		return;
	}
	fail_msg("no campaign %s", config);
}

/* The campaigns beside the results: a line per API generation, the timer's
 * own call apart from another subsystem's callback, within the screen; on
 * 4.15 "never hijacked" holds by construction, said beside it, with what
 * the campaigns under CFI reached (from their findings). */
static void verdict_fuzz(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	struct th_fz_summary *s = th_fz_summary_create("0.1.0-test", 10, "write_cr4(0x407f0)");
	char *v;
	int lines = 0;

	assert_non_null(s);
	fz_campaign(s, TH_VARIANT_LEGACY, "cfi-icall", 900000, 30000, "HIJACKED:WRITE_CR4_VIA_RING_TIMER", 0.45);
	fz_campaign(s, TH_VARIANT_LEGACY, "kcfi", 1000000, 2000, "HIJACKED:WRITE_CR4_VIA_RING_TIMER", 0.23);
	fz_campaign(s, TH_VARIANT_MODERN, "cfi-icall", 1033665, 49075,
		    "HIJACKED:PROCESS_TIMEOUT_VIA_RING_TIMER", 7.2);
	fz_campaign(s, TH_VARIANT_MODERN, "kcfi", 1107625, 6761, NULL, 0);
	th_results_set_fuzz(r, s);
	v = verdict_text(r);
	for (char *l = v, *e; *l; l = e + 1, lines++) {
		e = strchr(l, '\n');
		assert_non_null(e);
		if (e - l > TH_VERDICT_WIDTH)
			fail_msg("line of %d columns:\n%.*s", (int)(e - l), (int)(e - l), l);
	}
	assert_true(lines <= 24);
	assert_contains(v, "Fuzzing the overwrite (fuzz.json: 4 campaigns of 10 s, clang-22, 4.0M runs):\n"
			   "  (any write the campaigns found, not the exploit's alone)\n"
			   "  4.14 legacy    own call HIJACKED under 2 of 2 configs, first 0.23 s\n"
			   "  4.15 modern    own call never hijacked: 2.1M runs, 55.8k CFI blocks\n"
			   "                 (by construction: its call gets the timer, not attacker bytes)\n"
			   "                 under CFI: no privileged write or redirect found\n"
			   "                 via process_timeout: HIJACKED under 1 of 2 configs\n");
	assert_null(strstr(v, "Fuzzing campaigns: not run"));
	free(v);
	/* What it reached, from the findings (a step of a longer chain too). */
	fz_finding(s, TH_VARIANT_MODERN, "kcfi", TH_PRIVILEGED_WRITE, "CRED_VIA_LIST",
		   "modern: ... | privileged state changed: uid 1000 -> 0, gid 1000 -> 0 | CRED_VIA_LIST: ...");
	fz_finding(s, TH_VARIANT_MODERN, "cfi-icall", TH_REDIRECTED, "FORCE_CLOSE_VIA_RING_TIMER", "c");
	fz_finding(s, TH_VARIANT_MODERN, "kcfi", TH_PRIVILEGED_WRITE,
		   "FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE", "c");
	v = verdict_text(r);
	for (char *l = v, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		assert_non_null(e);
		if (e - l > TH_VERDICT_WIDTH)
			fail_msg("line of %d columns:\n%.*s", (int)(e - l), (int)(e - l), l);
	}
	assert_contains(v, "                 under CFI it still reached: ring_force_close redirected, uid 0,\n"
			   "                   gid 0 via the list's writes\n"
			   "                 via process_timeout: HIJACKED under 1 of 2 configs\n");
	free(v);
	/* An interrupted summary says so. */
	s->partial = true;
	v = verdict_text(r);
	assert_contains(v, "4.0M runs,\n  PARTIAL: interrupted):\n");
	free(v);
	s->partial = false;
	/* A model without campaigns: not run again (s taken back, freed below). */
	r->fuzz = NULL;
	v = verdict_text(r);
	assert_contains(v, "Fuzzing campaigns: not run\n");
	free(v);
	th_fz_summary_free(s);
	th_results_free(r);
}

/* The tasklet family's campaigns (target tasklet, issue 28) beside the
 * timer's: their own lines on the screen, labelled by the family, within
 * 80 columns; on 6.1 a hijack through the tasklet's own call is the
 * downgrade (use_callback cleared), said so in the sentence; modern's own
 * call never hijacked, by construction; the timer's lines as before. */
static void verdict_fuzz_tasklet(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	struct th_fz_summary *s = th_fz_summary_create("0.1.0-test", 10, "write_cr4(0x407f0)");
	char *v, line[2048];

	assert_non_null(s);
	fz_campaign(s, TH_VARIANT_LEGACY, "cfi-icall", 900000, 30000, "HIJACKED:WRITE_CR4_VIA_RING_TIMER", 0.45);
	fz_campaign_of(s, TH_API_TASKLET, TH_VARIANT_TRANSITIONAL, "cfi-icall", 70488, 1183,
		       "HIJACKED:WRITE_CR4_407F0_VIA_NEIGHBOUR_TASKLET", 5.33);
	fz_campaign_of(s, TH_API_TASKLET, TH_VARIANT_TRANSITIONAL, "kcfi", 762514, 8598,
		       "HIJACKED:WRITE_CR4_VIA_NEIGHBOUR_TASKLET", 2.74);
	fz_campaign_of(s, TH_API_TASKLET, TH_VARIANT_MODERN, "kcfi", 46786, 290, NULL, 0);
	th_results_set_fuzz(r, s);
	v = verdict_text(r);
	for (char *l = v, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		assert_non_null(e);
		if (e - l > TH_VERDICT_WIDTH)
			fail_msg("line of %d columns:\n%.*s", (int)(e - l), (int)(e - l), l);
	}
	assert_contains(v, "  4.14 legacy    own call HIJACKED under 1 of 1 configs, first 0.45 s\n"
			   "  tasklet 6.1    own call HIJACKED under 2 of 2 configs, first 2.74 s\n"
			   "  tasklet modern own call never hijacked: 46.8k runs, 290 CFI blocks\n"
			   "                 (by construction: its call gets the tasklet, no attacker bytes)\n");
	free(v);
	assert_true(th_fz_verdict(s, TH_API_TASKLET, TH_VARIANT_TRANSITIONAL, line, sizeof(line)) > 0);
	assert_string_equal(line, "tasklet transitional: hijacked through the tasklet's own call (use_callback "
				  "cleared: func(data) called, the site whose type admits write_cr4) on cfi-icall "
				  "(5.33 s), kcfi (2.74 s).");
	assert_true(th_fz_verdict(s, TH_API_TASKLET, TH_VARIANT_MODERN, line, sizeof(line)) > 0);
	assert_contains(line, "tasklet modern: no hijack through the tasklet's own call on kcfi (46786 "
			      "executions, 290 CFI blocks), as the oracle is built: the callback-only call passes "
			      "the tasklet itself");
	/* The timer's sentence knows nothing of the tasklet's campaigns. */
	assert_true(th_fz_verdict(s, TH_API_TIMER, TH_VARIANT_LEGACY, line, sizeof(line)) > 0);
	assert_string_equal(line, "legacy: hijacked through the timer's own call on cfi-icall (0.45 s).");
	assert_int_equal(th_fz_verdict(s, TH_API_TIMER, TH_VARIANT_TRANSITIONAL, line, sizeof(line)), 0);
	r->fuzz = NULL; /* taken back: freed here */
	th_fz_summary_free(s);
	th_results_free(r);
}

/* A slice says so on its first lines, before any verdict. */
static void verdict_slice(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	unsigned one = 1;
	char err[256], *v;

	v = verdict_text(r);
	assert_null(strstr(v, "SLICE"));
	free(v);
	assert_int_equal(th_results_set_shard(r, 3, &one, 1, err, sizeof(err)), 0);
	v = verdict_text(r);
	assert_contains(v, "\nA SLICE of the plan (a filter or a shard): the other cells were not run\n"
			   "Does type-based CFI");
	free(v);
	th_results_free(r);
}

/* Text from fuzz.json reaches report.md escaped like every other section:
 * no raw control character, bidi override or Markdown special. */
static void fuzz_section_escaped(void **state)
{
	(void)state;
	struct th_results *r = card_model();
	struct th_fz_summary *s = th_fz_summary_create("0.1.0-test", 10, "write_cr4(0x407f0)");
	struct th_fz_campaign in = { .target = "overflow", .config = "kcfi", .toolchain = "clang-14",
				     .engine = "libfuzzer", .status = "unsupported",
				     .reason = "evil\x1b[2J \xe2\x80\xae|`*", .options = "",
				     .variant = TH_VARIANT_MODERN };
	char err[256], *md = NULL;
	size_t len;
	FILE *f;

	assert_non_null(s);
	assert_non_null(th_fz_summary_add_campaign(s, &in, err, sizeof(err)));
	fz_campaign(s, TH_VARIANT_LEGACY, "cfi-icall", 1000, 10, "HIJACKED:WRITE_CR4_VIA_RING_TIMER", 0.5);
	th_results_set_fuzz(r, s);
	f = open_memstream(&md, &len);
	assert_int_equal(th_render_fuzz_markdown(f, r), 0);
	fclose(f);
	assert_contains(md, "evil\\x1b\\[2J \\u202e\\|\\`\\*");
	assert_null(strchr(md, '\x1b'));
	assert_null(strstr(md, "\xe2\x80\xae"));
	free(md);
	r->fuzz = NULL; /* taken back: freed below */
	th_fz_summary_free(s);
	th_results_free(r);
}

/* check --fuzz-only's verdict lines at 80 columns: a chain ID wider than a
 * line (outputs.widths met one of 87 columns in a one-second campaign)
 * breaks after its steps' separator, which stays with its step; a long
 * path, with no separator, stays whole. */
static void wrapped_chain_id(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	/* 83 columns, no blank, no separator: printed whole. */
	static const char path[] = "/a/very/long/build/directory/of/some/user/that/goes/on/and/on/and/on/fuzz/fuzz.json";

	assert_non_null(f);
	th_report_put_wrapped(f, "", "fuzz legacy: as declared: "
			      "FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_PROCESS_TIMEOUT_VIA_RING_TIMER_REDIRECTED.");
	th_report_put_wrapped(f, "", path);
	fclose(f);
	/* The first step fits after the words (69 columns), the second not. */
	assert_string_equal(buf, "fuzz legacy: as declared: FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_\n"
				 "  PROCESS_TIMEOUT_VIA_RING_TIMER_REDIRECTED.\n"
				 "/a/very/long/build/directory/of/some/user/that/goes/on/and/on/and/on/fuzz/fuzz.json\n");
	free(buf);
}

#define TH_CASE(name) cmocka_unit_test(name)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		TH_CASE(shard_of_is_stable),
		TH_CASE(verdict_fuzz_tasklet),
		TH_CASE(shard_of_balances),
		TH_CASE(shard_parse),
		TH_CASE(merge_shards_make_the_plan),
		TH_CASE(merge_refusals),
		TH_CASE(merge_per_toolchain),
		TH_CASE(card_answers_from_the_exploits_cells),
		TH_CASE(card_not_run),
		TH_CASE(verdict_screen),
		TH_CASE(verdict_reach),
		TH_CASE(reach_call_once),
		TH_CASE(verdict_fuzz),
		TH_CASE(verdict_slice),
		TH_CASE(fuzz_section_escaped),
		TH_CASE(html_verdict_first),
		TH_CASE(wrapped_chain_id),
	};

	if (argc < 2)
		return cmocka_run_group_tests_name("report_parts", tests, NULL, NULL);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(tests[i].name, argv[1]))
			return _cmocka_run_group_tests("report_parts", &tests[i], 1, NULL, NULL);
	fprintf(stderr, "report_parts_test: no case \"%s\"\n", argv[1]);
	return 2;
}
