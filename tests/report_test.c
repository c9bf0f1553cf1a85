/* SPDX-License-Identifier: MIT */
/*
 * report/ tests: the results model, results.json (round trip, atomicity,
 * strict loading), verdicts, `check` exit statuses and the renderers
 * (Markdown, terminal matrix, JUnit, HTML, SARIF, KTAP).
 * Fixtures: tests/data/report (README.md says what each one changes).
 *
 * Run one case: report_test <case>; no argument runs them all.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cfi/config_table.h"
#include "cfi/evidence.h"
#include "check.h"
#include "check_json.h"
#include "expect.h"
#include "render.h"
#include "results.h"

#define DATA(f) TH_REPORT_TEST_DATA "/" f

/* ---- helpers ---- */

struct tmp {
	char dir[64];
	char path[256];
};

static int tmp_setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/th_report_test.XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static void rm_rf(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR)
			rm_rf(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static int tmp_teardown(void **state)
{
	struct tmp *t = *state;

	rm_rf(t->dir);
	free(t);
	return 0;
}

static const char *tmp_file(struct tmp *t, const char *name)
{
	snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, name);
	return t->path;
}

/* Number of entries in dir (without . and ..). */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	FILE *m = open_memstream(&buf, &len);
	int c;

	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#define assert_contains(hay, needle)                                           \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (!h_ || !strstr(h_, n_))                                    \
			fail_msg("expected to find\n  %s\nin\n%s", n_,         \
				 h_ ? h_ : "(null)");                          \
	} while (0)

#define assert_not_contains(hay, needle)                                       \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (h_ && strstr(h_, n_))                                      \
			fail_msg("did not expect\n  %s\nin\n%s", n_, h_);      \
	} while (0)

/* The text between a "### <prefix>" heading and the next heading. */
static char *section(const char *doc, const char *prefix)
{
	char head[256];
	const char *s, *e;

	snprintf(head, sizeof(head), "\n### %s", prefix);
	s = strstr(doc, head);
	if (!s)
		return NULL;
	e = strstr(s + 1, "\n### ");
	if (!e)
		e = strstr(s + 1, "\n## ");
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

struct run {
	int rc;
	char *out, *err;
};

/* The declaration the gate fixtures (tests/data/report/gate*.json) are
 * judged by: gate.json's attacks and configs, the configs' flags as
 * cfi/configs.tsv has them (th_gate_*, tests/report_fixtures.cmake), and
 * gate-expected.tsv. */
#include "report_fixtures.inc"
static const char *const gate_selftests[] = { "SELFTEST_HANG" };

static const char *gate_expect(const char *platform, const char *attack, const char *variant,
			       const char *config, const char *toolchain)
{
	return th_expect_lookup_on(platform, attack, variant, config, toolchain, NULL);
}

static struct th_check_decl gate_decl(void)
{
	char err[512];

	if (th_expect_load(DATA("gate-expected.tsv"), err, sizeof(err)))
		fail_msg("%s", err);
	return (struct th_check_decl){
		.expect_path = th_expect_path(), .expect_sha256 = th_expect_sha256(),
		.expect = gate_expect, .where = th_expect_where_on,
		.attacks = th_gate_attacks, .nattacks = TH_GATE_NATTACKS,
		.attack_apis = th_gate_attack_apis, .configs = th_gate_configs,
		.nconfigs = TH_GATE_NCONFIGS, .config_cflags = th_gate_config_cflags,
		.selftests = gate_selftests, .nselftests = 1,
	};
}

enum { ALLOW_SLICE = 1, ALLOW_PARTIAL = 2, VERBOSE = 4 };

static struct run run_check_to(FILE *out, const char *results, const char *baseline, int allow)
{
	struct run r = { 0 };
	size_t le;
	FILE *err = open_memstream(&r.err, &le);
	struct th_check_opts o = { .results = results, .baseline = baseline,
				   .allow_slice = allow & ALLOW_SLICE, .allow_partial = allow & ALLOW_PARTIAL,
				   .verbose = allow & VERBOSE };
	struct th_check_decl d = gate_decl();

	assert_non_null(err);
	r.rc = th_check_main(&o, &d, out, err);
	fclose(err);
	th_expect_free();
	return r;
}

/* Lines check wrapped at 80 columns (the continuation indented two
 * spaces) read as one; each line first held to the width, unless it is one
 * word (a path) or a finding (a regression with its evidence verbatim). */
static void unwrap(char *text)
{
	char *o = text;

	for (const char *l = text; *l;) {
		size_t w = strcspn(l, "\n");

		if (w > TH_VERDICT_WIDTH && !strncmp(l, "check", 5) && memchr(l, ' ', w))
			fail_msg("a summary line of %zu columns: %.*s", w, (int)w, l);
		l += w;
		l += *l == '\n';
	}
	for (const char *p = text; *p; p++) {
		if (p[0] == '\n' && p[1] == ' ' && p[2] == ' ') {
			*o++ = ' ';
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

static struct run run_check_allow(const char *results, const char *baseline, int allow)
{
	size_t lo;
	char *text = NULL;
	FILE *out = open_memstream(&text, &lo);

	assert_non_null(out);
	struct run r = run_check_to(out, results, baseline, allow);
	fclose(out);
	unwrap(text);
	r.out = text;
	return r;
}

static struct run run_check(const char *results, const char *baseline)
{
	return run_check_allow(results, baseline, 0);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static struct th_results *load_ok(const char *path)
{
	struct th_results *res;
	char err[1024];

	if (th_results_load(path, &res, err, sizeof(err)))
		fail_msg("%s", err);
	return res;
}

static void expect_load_error(const char *path, const char *message)
{
	struct th_results *res = (struct th_results *)1;
	char err[1024] = "";

	assert_int_equal(th_results_load(path, &res, err, sizeof(err)), -1);
	assert_null(res);
	assert_contains(err, message);
}

/* A model exercising every field. */
static struct th_results *build_model(int reverse)
{
	char err[256];
	struct th_results *r = th_results_create("0.1.0-test");
	static const unsigned seeds[TH_OUTCOME_COUNT] = { [TH_CRASHED] = 2, [TH_NO_EFFECT] = 3 };
	struct th_cell_in cells[] = {
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4", "memcpy-intra", "before-arm",
		  "func+data:write_cr4", TH_VARIANT_LEGACY, "cfi-icall", "clang-14", TH_HIJACKED, 1,
		  NULL, "write_cr4(0x407f0) ran\nline two | `tick`", TH_HIJACKED, 0, NULL, 0, NULL, 0, TH_API_TIMER },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "memcpy-intra", "before-arm",
		  "func:write_cr4", TH_VARIANT_MODERN, "cfi-icall", "clang-9", TH_BLOCKED_CFI, 1,
		  NULL, "trap", TH_BLOCKED_CFI, 0, NULL, 0, NULL, 0, TH_API_TIMER },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "memcpy-intra", "before-arm",
		  "func:write_cr4", TH_VARIANT_MODERN, "randstruct", "clang-14", TH_OUTCOME_INVALID, 0,
		  seeds, "seeds 1-5", TH_CRASHED, 0, NULL, 0, NULL, 0, TH_API_TIMER },
		{ "UAF_REALLOC_PENDING_FUNC_SAME_CLASS", "uaf-realloc", "pending", "func:same-class",
		  TH_VARIANT_TRANSITIONAL, "none", "clang-14", TH_REDIRECTED, 1, NULL,
		  "bad byte \xff here", TH_OUTCOME_INVALID, 0, NULL, 0, NULL, 0, TH_API_TIMER },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "memcpy-intra", "before-arm",
		  "func:write_cr4", TH_VARIANT_MODERN, "randstruct", "clang-9", TH_UNSUPPORTED, 0,
		  NULL, "no randstruct", TH_CRASHED, 0, NULL, 0, NULL, 0, TH_API_TIMER },
	};
	size_t n = sizeof(cells) / sizeof(cells[0]);

	assert_non_null(r);
	assert_int_equal(th_results_set_created(r, "2024-05-01T12:00:00Z", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_host(r, "box", "6.1.0", 4, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_partial(r, true, "SIGTERM", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_toolchain(r, "clang-14", "14.0.6", "/usr/bin/clang-14", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_toolchain(r, "clang-9", "9.0.1", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "none", "-O2", "baseline", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "cfi-icall", "-flto -fsanitize=cfi-icall", "CFI", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "randstruct", "-frandomize-layout-seed=S", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_support(r, "randstruct", "clang-9", false, "needs clang >= 15", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_support(r, "randstruct", "clang-14", true, "", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_support(r, "none", "clang-14", true, NULL, err, sizeof(err)), 0);
	for (size_t i = 0; i < n; i++)
		if (!th_results_add_cell(r, &cells[reverse ? n - 1 - i : i], err, sizeof(err)))
			fail_msg("cell %zu: %s", i, err);
	assert_int_equal(th_results_set_metric_real(r, "run_seconds", 0.1, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_metric_string(r, "note", "é ok", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_count_metrics(r, err, sizeof(err)), 0);
	return r;
}

static void assert_same_model(const struct th_results *a, const struct th_results *b)
{
	assert_string_equal(a->version, b->version);
	assert_string_equal(a->created, b->created);
	assert_int_equal(a->partial, b->partial);
	assert_string_equal(a->interrupted ? a->interrupted : "-", b->interrupted ? b->interrupted : "-");
	assert_string_equal(a->host.hostname, b->host.hostname);
	assert_string_equal(a->host.kernel, b->host.kernel);
	assert_int_equal(a->host.cpus, b->host.cpus);
	assert_int_equal(a->ntoolchains, b->ntoolchains);
	for (size_t i = 0; i < a->ntoolchains; i++) {
		const struct th_toolchain *t = th_results_find_toolchain(b, a->toolchains[i].name);

		assert_non_null(t);
		assert_string_equal(t->version, a->toolchains[i].version);
		assert_string_equal(t->path, a->toolchains[i].path);
	}
	assert_int_equal(a->nconfigs, b->nconfigs);
	for (size_t i = 0; i < a->nconfigs; i++) {
		const struct th_config *x = &a->configs[i], *y = &b->configs[i];

		assert_string_equal(x->name, y->name);	/* order kept */
		assert_string_equal(x->flags, y->flags);
		assert_string_equal(x->description, y->description);
		assert_int_equal(x->nsupport, y->nsupport);
		for (size_t j = 0; j < x->nsupport; j++) {
			const struct th_support *s = th_config_support(y, x->support[j].toolchain);

			assert_non_null(s);
			assert_int_equal(s->supported, x->support[j].supported);
			assert_string_equal(s->reason, x->support[j].reason);
		}
	}
	assert_int_equal(a->ncells, b->ncells);
	for (size_t i = 0; i < a->ncells; i++) {
		const struct th_cell *x = a->cells[i];
		const struct th_cell *y = th_results_find_cell(b, x->platform, x->attack, x->variant, x->config, x->toolchain);

		assert_non_null(y);
		assert_string_equal(x->technique, y->technique);
		assert_string_equal(x->timing, y->timing);
		assert_string_equal(x->payload, y->payload);
		assert_int_equal(x->outcome, y->outcome);
		assert_int_equal(x->runs, y->runs);
		assert_memory_equal(x->counts, y->counts, sizeof(x->counts));
		assert_string_equal(x->evidence, y->evidence);
		assert_int_equal(x->expected, y->expected);
		assert_int_equal(x->verdict, y->verdict);
	}
	assert_int_equal(a->nmetrics, b->nmetrics);
	for (size_t i = 0; i < a->nmetrics; i++) {
		const struct th_metric *m = &a->metrics[i], *o = NULL;

		for (size_t j = 0; j < b->nmetrics; j++)
			if (!strcmp(b->metrics[j].name, m->name))
				o = &b->metrics[j];
		assert_non_null(o);
		assert_int_equal(m->type, o->type);
		if (m->type == TH_METRIC_INT)
			assert_true(m->i == o->i);
		else if (m->type == TH_METRIC_REAL)
			assert_true(m->d == o->d);
		else
			assert_string_equal(m->s, o->s);
	}
}

/* ---- model and results.json ---- */

static void round_trip_equal(void **state)
{
	struct tmp *t = *state;
	char err[1024], a[256], b[256];
	struct th_results *m = build_model(0), *l;

	snprintf(a, sizeof(a), "%s", tmp_file(t, "a.json"));
	snprintf(b, sizeof(b), "%s", tmp_file(t, "b.json"));
	if (th_results_write(m, a, err, sizeof(err)))
		fail_msg("%s", err);
	l = load_ok(a);
	assert_same_model(m, l);
	/* The invalid byte was replaced when it entered the model. */
	assert_non_null(strstr(th_results_find_cell(l, NULL, "UAF_REALLOC_PENDING_FUNC_SAME_CLASS",
						    TH_VARIANT_TRANSITIONAL, "none", "clang-14")->evidence,
				"bad byte ? here"));
	if (th_results_write(l, b, err, sizeof(err)))
		fail_msg("%s", err);
	char *x = slurp(a), *y = slurp(b);
	assert_string_equal(x, y);
	assert_int_equal(count_entries(t->dir), 2);	/* no temporary left */
	free(x);
	free(y);
	th_results_free(l);
	th_results_free(m);
}

static void write_is_deterministic(void **state)
{
	struct tmp *t = *state;
	char err[1024], a[256], b[256];
	struct th_results *m1 = build_model(0), *m2 = build_model(1);

	snprintf(a, sizeof(a), "%s", tmp_file(t, "a.json"));
	snprintf(b, sizeof(b), "%s", tmp_file(t, "b.json"));
	assert_int_equal(th_results_write(m1, a, err, sizeof(err)), 0);
	assert_int_equal(th_results_write(m2, b, err, sizeof(err)), 0);
	char *x = slurp(a), *y = slurp(b);
	assert_string_equal(x, y);
	/* clang-9 sorts before clang-14; cells by toolchain first. */
	assert_true(strstr(x, "\"name\": \"clang-9\"") < strstr(x, "\"name\": \"clang-14\""));
	assert_true(strstr(x, "\"toolchain\": \"clang-9\"") < strstr(x, "\"toolchain\": \"clang-14\""));
	free(x);
	free(y);
	th_results_free(m1);
	th_results_free(m2);
}

static void write_missing_dir_creates_nothing(void **state)
{
	struct tmp *t = *state;
	char err[1024] = "", path[300];
	struct th_results *m = build_model(0);

	snprintf(path, sizeof(path), "%s/no/such/dir/results.json", t->dir);
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), -1);
	assert_contains(err, path);
	assert_contains(err, "No such file or directory");
	assert_int_equal(count_entries(t->dir), 0);
	th_results_free(m);
}

static void write_failure_keeps_destination(void **state)
{
	struct tmp *t = *state;
	char err[1024] = "", path[256];
	struct th_results *m = build_model(0);

	snprintf(path, sizeof(path), "%s", tmp_file(t, "results.json"));
	spit(path, "old contents\n");
	/* A model broken behind the API's back must not be written. */
	m->cells[0]->outcome = (enum th_outcome)42;
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), -1);
	assert_contains(err, "not written");
	char *s = slurp(path);
	assert_string_equal(s, "old contents\n");
	free(s);
	assert_int_equal(count_entries(t->dir), 1);

	/* The destination is a directory: rename fails, the temporary goes. */
	m->cells[0]->outcome = TH_HIJACKED;
	snprintf(path, sizeof(path), "%s", tmp_file(t, "adir"));
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), -1);
	assert_contains(err, "cannot replace");
	assert_int_equal(count_entries(t->dir), 2);
	assert_int_equal(count_entries(path), 0);
	th_results_free(m);
}

static void load_small(void **state)
{
	(void)state;
	struct th_results *r = load_ok(DATA("small.json"));
	const struct th_cell *c;

	assert_int_equal(r->ncells, 15);
	assert_int_equal(r->ntoolchains, 2);
	assert_int_equal(r->nconfigs, 5);
	assert_false(r->partial);
	c = th_results_find_cell(r, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", TH_VARIANT_MODERN,
				 "randstruct", "clang-22");
	assert_non_null(c);
	assert_int_equal(c->outcome, TH_CRASHED);
	assert_int_equal(c->runs, 5);
	assert_int_equal(c->counts[TH_NO_EFFECT], 3);
	c = th_results_find_cell(r, NULL, "INDEX_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO", TH_VARIANT_MODERN,
				 "cfi-icall", "clang-22");
	assert_non_null(c);
	assert_int_equal(c->expected, TH_OUTCOME_INVALID);
	assert_int_equal(c->verdict, TH_VERDICT_NEW);
	assert_false(th_config_support(th_results_find_config(r, "kcfi"), "clang-14")->supported);
	th_results_free(r);
}

static void load_missing_file(void **state)
{
	(void)state;
	expect_load_error(DATA("does-not-exist.json"), "does-not-exist.json: cannot open: No such file or directory");
}

static void load_not_a_file(void **state)
{
	struct tmp *t = *state;
	const char *path = tmp_file(t, "empty.json");

	expect_load_error(t->dir, ": is a directory, not a results file");
	spit(path, "");
	expect_load_error(path, "empty.json: empty file, not a results file");
}

static void load_not_json(void **state)
{
	(void)state;
	expect_load_error(DATA("not_json.json"), "not_json.json: not JSON: line 3 column");
}

static void load_wrong_schema(void **state)
{
	(void)state;
	expect_load_error(DATA("wrong_schema.json"),
			  "wrong_schema.json: schema is \"timerharness/results/v0\", expected timerharness/results/v1");
}

static void load_unknown_outcome(void **state)
{
	(void)state;
	expect_load_error(DATA("unknown_outcome.json"),
			  "unknown_outcome.json: cells[3].outcome: unknown outcome \"FOO\"");
}

static void load_unknown_config(void **state)
{
	(void)state;
	expect_load_error(DATA("unknown_config.json"),
			  "cells[4].config: unknown config \"cfi-icall-typo\" (configs: none, cfi-icall, kcfi, asan, randstruct)");
}

static void load_unknown_toolchain(void **state)
{
	(void)state;
	expect_load_error(DATA("unknown_toolchain.json"),
			  "cells[2].toolchain: unknown toolchain \"clang-99\" (toolchains: clang-14, clang-22)");
}

static void load_unknown_variant(void **state)
{
	(void)state;
	expect_load_error(DATA("unknown_variant.json"),
			  "cells[1].variant: unknown variant \"ancient\" (legacy, transitional or modern)");
}

static void load_unknown_api(void **state)
{
	(void)state;
	expect_load_error(DATA("unknown_api.json"),
			  "cells[1].api: unknown api \"workqueue\" (timer, tasklet)");
}

/* A file from before the API families (no "api") reads as the timer's; a
 * cell's family is written and read back. */
static void api_round_trip(void **state)
{
	struct tmp *t = *state;
	char err[1024], a[256];
	struct th_results *r = load_ok(DATA("small.json")), *l;
	struct th_cell *c;
	char *x;

	for (size_t i = 0; i < r->ncells; i++)
		assert_int_equal(r->cells[i]->api, TH_API_TIMER);
	c = r->cells[0];
	c->api = TH_API_TASKLET;
	snprintf(a, sizeof(a), "%s", tmp_file(t, "a.json"));
	if (th_results_write(r, a, err, sizeof(err)))
		fail_msg("%s", err);
	x = slurp(a);
	assert_non_null(strstr(x, "\"api\": \"tasklet\""));
	assert_non_null(strstr(x, "\"api\": \"timer\""));
	l = load_ok(a);
	assert_int_equal(th_results_find_cell(l, c->platform, c->attack, c->variant, c->config,
					      c->toolchain)->api, TH_API_TASKLET);
	assert_string_equal(th_api_dispatch(TH_API_TASKLET), "tasklet_action_common");
	assert_string_equal(th_api_dispatch(TH_API_TIMER), "call_timer_fn");
	free(x);
	th_results_free(l);
	th_results_free(r);
}

static void load_unknown_verdict(void **state)
{
	(void)state;
	expect_load_error(DATA("unknown_verdict.json"), "cells[0].verdict: unknown verdict \"fine\"");
}

static void load_missing_field(void **state)
{
	(void)state;
	expect_load_error(DATA("missing_field.json"), "missing_field.json: cells[5]: missing field \"evidence\"");
}

static void load_wrong_type(void **state)
{
	(void)state;
	expect_load_error(DATA("wrong_type.json"), "cells[6].runs: expected an integer, got a string");
}

static void load_duplicate_cell(void **state)
{
	(void)state;
	expect_load_error(DATA("duplicate_cell.json"),
			  "cells[15]: duplicate cell MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4 legacy/none/clang-14 (first at cells[0])");
}

static void load_strict_fields(void **state)
{
	struct tmp *t = *state;
	char *doc = slurp(DATA("small.json")), *p;
	const char *path = tmp_file(t, "x.json");

	assert_non_null(doc);
	/* An unknown field (a typo) is an error, not ignored. */
	p = strstr(doc, "\"evidence\"");
	memcpy(p, "\"evidencX\"", 10);
	spit(path, doc);
	expect_load_error(path, "cells[0]: unknown field \"evidencX\"");
	free(doc);
}

/* ---- model API ---- */

static void add_cell_validates(void **state)
{
	(void)state;
	char err[512];
	struct th_results *r = th_results_create("1");
	struct th_cell_in in = { "X_ATTACK", "memcpy-intra", "before-arm", "none",
				 TH_VARIANT_LEGACY, "none", "clang-14", TH_NO_EFFECT, 1, NULL, "",
				 TH_NO_EFFECT, 0, NULL, 0, NULL, 0, TH_API_TIMER };

	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "unknown config \"none\"");
	assert_int_equal(th_results_add_config(r, "none", "-O2", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "none", "-O2", "", err, sizeof(err)), -1);
	assert_contains(err, "config \"none\" added twice");
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "unknown toolchain \"clang-14\"");
	assert_int_equal(th_results_add_toolchain(r, "clang-14", "14", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_support(r, "none", "clang-99", true, "", err, sizeof(err)), -1);
	assert_contains(err, "unknown toolchain \"clang-99\"");
	assert_non_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "cell added twice");
	in.attack = "lower_case";
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "not an upper-case ID");
	in.attack = "Y_ATTACK";
	in.timing = "later";
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "unknown timing \"later\"");
	in.timing = NULL;	/* "-" */
	unsigned counts[TH_OUTCOME_COUNT] = { [TH_HIJACKED] = 1, [TH_NO_EFFECT] = 1 };
	in.counts = counts;
	in.runs = 0;
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "outcome NO_EFFECT is not the most severe of its counts (HIJACKED)");
	in.outcome = TH_OUTCOME_INVALID;
	struct th_cell *c = th_results_add_cell(r, &in, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->outcome, TH_HIJACKED);
	assert_int_equal(c->runs, 2);
	assert_string_equal(c->timing, "-");
	assert_int_equal(c->verdict, TH_VERDICT_REGRESSION);
	assert_int_equal(th_results_set_created(r, "yesterday", err, sizeof(err)), -1);
	assert_int_equal(th_results_set_partial(r, true, "", err, sizeof(err)), -1);
	th_results_free(r);
}

static void record_runs_and_metrics(void **state)
{
	(void)state;
	char err[512];
	struct th_results *r = th_results_create("1");
	struct th_cell_in in = { "RANDSTRUCT_A", "memcpy-intra", "before-arm", "func:write_cr4",
				 TH_VARIANT_MODERN, "randstruct", "clang-22", TH_NO_EFFECT, 1, NULL,
				 "seed 1", TH_CRASHED, 0, NULL, 0, NULL, 0, TH_API_TIMER };

	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22", "", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "randstruct", "", "", err, sizeof(err)), 0);
	struct th_cell *c = th_results_add_cell(r, &in, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->verdict, TH_VERDICT_IMPROVEMENT);
	assert_int_equal(th_cell_record_run(c, TH_CRASHED, err, sizeof(err)), 0);
	assert_int_equal(th_cell_record_run(c, TH_NO_EFFECT, err, sizeof(err)), 0);
	assert_int_equal(c->runs, 3);
	assert_int_equal(c->outcome, TH_CRASHED);
	assert_int_equal(c->counts[TH_NO_EFFECT], 2);
	assert_int_equal(c->verdict, TH_VERDICT_PASS);
	assert_int_equal(th_cell_set_evidence(c, "seeds 1-3", err, sizeof(err)), 0);
	assert_int_equal(th_results_set_count_metrics(r, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_metric_int(r, "cells_total", 7, err, sizeof(err)), 0);
	assert_int_equal(th_results_set_count_metrics(r, err, sizeof(err)), 0);	/* replaces */
	assert_int_equal(r->nmetrics, 1 + TH_OUTCOME_COUNT);
	for (size_t i = 0; i < r->nmetrics; i++) {
		if (!strcmp(r->metrics[i].name, "cells_total"))
			assert_true(r->metrics[i].i == 1);
		if (!strcmp(r->metrics[i].name, "cells_CRASHED"))
			assert_true(r->metrics[i].i == 1);
	}
	assert_int_equal(th_results_set_metric_real(r, "x", 0.0 / 0.0, err, sizeof(err)), -1);
	th_results_free(r);
}

/* ---- verdicts ---- */

static const char *oname(enum th_outcome o)
{
	return th_outcome_name(o) ? th_outcome_name(o) : "none";
}

static void verdict_table(void **state)
{
	(void)state;
	static const struct {
		enum th_outcome obs, exp, base;
		enum th_verdict want;
	} rows[] = {
		/* no expectation */
		{ TH_HIJACKED, TH_OUTCOME_INVALID, TH_OUTCOME_INVALID, TH_VERDICT_NEW },
		{ TH_BLOCKED_CFI, TH_OUTCOME_INVALID, TH_OUTCOME_INVALID, TH_VERDICT_NEW },
		/* against the expectation */
		{ TH_HIJACKED, TH_BLOCKED_CFI, TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_BLOCKED_CFI, TH_HIJACKED, TH_OUTCOME_INVALID, TH_VERDICT_IMPROVEMENT },
		{ TH_BLOCKED_CFI, TH_BLOCKED_CFI, TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		{ TH_DETECTED, TH_BLOCKED_CFI, TH_OUTCOME_INVALID, TH_VERDICT_IMPROVEMENT },
		{ TH_FALSE_POSITIVE, TH_NO_EFFECT, TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_FALSE_POSITIVE, TH_FALSE_POSITIVE, TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		/* against a baseline */
		{ TH_HIJACKED, TH_HIJACKED, TH_BLOCKED_CFI, TH_VERDICT_REGRESSION },
		{ TH_CRASHED, TH_OUTCOME_INVALID, TH_BLOCKED_CFI, TH_VERDICT_REGRESSION },
		{ TH_BLOCKED_CFI, TH_BLOCKED_CFI, TH_HIJACKED, TH_VERDICT_PASS },
		{ TH_FALSE_POSITIVE, TH_FALSE_POSITIVE, TH_CRASHED, TH_VERDICT_REGRESSION },
		{ TH_FALSE_POSITIVE, TH_FALSE_POSITIVE, TH_FALSE_POSITIVE, TH_VERDICT_PASS },
		{ TH_BLOCKED_CFI, TH_OUTCOME_INVALID, TH_BLOCKED_CFI, TH_VERDICT_NEW },
		/* could not run: a real outcome was declared, so a defence was lost */
		{ TH_UNSUPPORTED, TH_BLOCKED_CFI, TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_NOT_APPLICABLE, TH_HIJACKED, TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		/* ... or nothing was declared, or "could not run" was */
		{ TH_UNSUPPORTED, TH_UNSUPPORTED, TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		{ TH_UNSUPPORTED, TH_OUTCOME_INVALID, TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		{ TH_UNSUPPORTED, TH_UNSUPPORTED, TH_UNSUPPORTED, TH_VERDICT_PASS },
		{ TH_NOT_APPLICABLE, TH_UNSUPPORTED, TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		/* the harness failed: never green */
		{ TH_HARNESS_ERROR, TH_HARNESS_ERROR, TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_HARNESS_ERROR, TH_OUTCOME_INVALID, TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_NOT_APPLICABLE, TH_NOT_APPLICABLE, TH_NOT_APPLICABLE, TH_VERDICT_PASS },
		{ TH_UNSUPPORTED, TH_BLOCKED_CFI, TH_BLOCKED_CFI, TH_VERDICT_REGRESSION },
		{ TH_UNSUPPORTED, TH_UNSUPPORTED, TH_HIJACKED, TH_VERDICT_REGRESSION },
		{ TH_NOT_APPLICABLE, TH_NOT_APPLICABLE, TH_NO_EFFECT, TH_VERDICT_REGRESSION },
		/* runs where it was expected not to */
		{ TH_BLOCKED_CFI, TH_UNSUPPORTED, TH_OUTCOME_INVALID, TH_VERDICT_NEW },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum th_verdict got = th_verdict(rows[i].obs, rows[i].exp, rows[i].base);

		if (got != rows[i].want)
			fail_msg("row %zu: observed %s, expected %s, baseline %s: got %s, want %s", i,
				 th_outcome_name(rows[i].obs), oname(rows[i].exp), oname(rows[i].base), th_verdict_name(got),
				 th_verdict_name(rows[i].want));
	}
	assert_string_equal(th_verdict_name(TH_VERDICT_REGRESSION), "regression");
	assert_int_equal(th_verdict_parse("improvement"), TH_VERDICT_IMPROVEMENT);
	assert_int_equal(th_verdict_parse("Pass"), TH_VERDICT_INVALID);
}

/* A probabilistic cell's declared set (expected.tsv's "A|B|C"): one of it
 * passes, better than all of it improves, worse than all of it or a run
 * the set does not name inside its span regresses. */
static void verdict_sets(void **state)
{
#define B(o) TH_OUTCOME_BIT(TH_##o)
	(void)state;
	static const struct {
		enum th_outcome obs;
		th_outcome_set seen, exp;
		enum th_outcome base;
		enum th_verdict want;
	} rows[] = {
		/* HIJACKED|CRASHED|TIMER_LOST: the 4.14 randstruct cells */
		{ TH_HIJACKED, B(HIJACKED) | B(CRASHED), B(HIJACKED) | B(CRASHED) | B(TIMER_LOST),
		  TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		{ TH_CRASHED, B(CRASHED), B(HIJACKED) | B(CRASHED) | B(TIMER_LOST), TH_OUTCOME_INVALID,
		  TH_VERDICT_PASS },
		{ TH_TIMER_LOST, B(TIMER_LOST), B(HIJACKED) | B(CRASHED) | B(TIMER_LOST),
		  TH_OUTCOME_INVALID, TH_VERDICT_PASS },
		/* better than every member: the one improvement that stands out */
		{ TH_BLOCKED_CFI, B(BLOCKED_CFI), B(HIJACKED) | B(CRASHED) | B(TIMER_LOST),
		  TH_OUTCOME_INVALID, TH_VERDICT_IMPROVEMENT },
		/* a run below the set beside runs in it: the cell is in it */
		{ TH_CRASHED, B(CRASHED) | B(NO_EFFECT), B(REDIRECTED) | B(CRASHED), TH_OUTCOME_INVALID,
		  TH_VERDICT_PASS },
		/* worse than every member */
		{ TH_HIJACKED, B(HIJACKED) | B(CRASHED), B(REDIRECTED) | B(CRASHED), TH_OUTCOME_INVALID,
		  TH_VERDICT_REGRESSION },
		/* inside the span, not named: the cell's outcome, or any run's */
		{ TH_HANG, B(HANG), B(HIJACKED) | B(CRASHED) | B(TIMER_LOST), TH_OUTCOME_INVALID,
		  TH_VERDICT_REGRESSION },
		{ TH_HIJACKED, B(HIJACKED) | B(HANG), B(HIJACKED) | B(CRASHED) | B(TIMER_LOST),
		  TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_REDIRECTED, B(REDIRECTED), B(HIJACKED) | B(CRASHED), TH_OUTCOME_INVALID,
		  TH_VERDICT_REGRESSION },
		/* a set of one is th_verdict() */
		{ TH_CRASHED, B(CRASHED) | B(NO_EFFECT), B(HIJACKED), TH_OUTCOME_INVALID,
		  TH_VERDICT_IMPROVEMENT },
		{ TH_HIJACKED, B(HIJACKED), B(CRASHED), TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		/* could not run, none declared, the baseline: as ever */
		{ TH_UNSUPPORTED, 0, B(HIJACKED) | B(CRASHED), TH_OUTCOME_INVALID, TH_VERDICT_REGRESSION },
		{ TH_CRASHED, B(CRASHED), 0, TH_OUTCOME_INVALID, TH_VERDICT_NEW },
		{ TH_HIJACKED, B(HIJACKED), B(HIJACKED) | B(CRASHED), TH_CRASHED, TH_VERDICT_REGRESSION },
		{ TH_HARNESS_ERROR, B(HARNESS_ERROR), B(HIJACKED) | B(CRASHED), TH_OUTCOME_INVALID,
		  TH_VERDICT_REGRESSION },
	};
	char a[200], b[200];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum th_verdict got = th_verdict_set(rows[i].obs, rows[i].seen, rows[i].exp, rows[i].base);

		if (got != rows[i].want)
			fail_msg("row %zu: observed %s (runs %s), expected %s: got %s, want %s", i,
				 th_outcome_name(rows[i].obs), th_outcome_set_format(rows[i].seen, a, sizeof(a)),
				 th_outcome_set_format(rows[i].exp, b, sizeof(b)), th_verdict_name(got),
				 th_verdict_name(rows[i].want));
	}
#undef B
}

/* The set syntax: every error says what is wrong; the format reads back. */
static void outcome_set_parse(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "HIJACKED||CRASHED", "an empty outcome" },
		{ "|CRASHED", "an empty outcome" },
		{ "HIJACKED|", "an empty outcome" },
		{ "HIJACKED|PWNED", "unknown outcome 'PWNED'" },
		{ "CRASHED|HIJACKED", "most severe first (HIJACKED|CRASHED)" },
		{ "CRASHED|CRASHED", "CRASHED twice" },
		{ "HIJACKED|UNSUPPORTED", "UNSUPPORTED in the set" },
		{ "NOT_APPLICABLE|CRASHED", "most severe first" },
		{ "CRASHED|NOT_APPLICABLE", "NOT_APPLICABLE in the set" },
		{ "HARNESS_ERROR", "unknown outcome 'HARNESS_ERROR'" },
		{ "hijacked", "unknown outcome" },
	};
	th_outcome_set set = 0;
	char why[300], text[200];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!th_outcome_set_parse(bad[i].text, &set, why, sizeof(why)))
			fail_msg("'%s' accepted", bad[i].text);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': got '%s', want '...%s...'", bad[i].text, why, bad[i].why);
	}
	assert_int_equal(th_outcome_set_parse("HIJACKED|CRASHED|TIMER_LOST", &set, why, sizeof(why)), 0);
	assert_int_equal(set, TH_OUTCOME_BIT(TH_HIJACKED) | TH_OUTCOME_BIT(TH_CRASHED) |
			      TH_OUTCOME_BIT(TH_TIMER_LOST));
	assert_int_equal(th_outcome_set_worst(set), TH_HIJACKED);
	assert_int_equal(th_outcome_set_best(set), TH_TIMER_LOST);
	assert_int_equal(th_outcome_set_size(set), 3);
	assert_string_equal(th_outcome_set_format(set, text, sizeof(text)), "HIJACKED|CRASHED|TIMER_LOST");
	assert_int_equal(th_outcome_set_parse("UNSUPPORTED", &set, why, sizeof(why)), 0);
	assert_int_equal(set, TH_OUTCOME_BIT(TH_UNSUPPORTED));
	assert_string_equal(th_outcome_set_format(0, text, sizeof(text)), "none");
}

/* ---- check ---- */

#define GATE_MOD_CFI "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/cfi-icall/clang-22"
#define GATE_REGRESSED "regression: " GATE_MOD_CFI ": expected BLOCKED_CFI, observed HIJACKED; " \
		       "evidence: target ran: name=write_cr4 chosen=1 val=0x407f0\n"

static void check_pass(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_OK);
	assert_string_equal(r.out, "check: 54 cells: 54 pass, 0 regression\n"
			    "check: PASS (exit 0): " DATA("gate.json") " judged by "
			    DATA("gate-expected.tsv") "\n");
	assert_string_equal(r.err, "");
	run_free(&r);
}

/* An outcome edited behind the counts is still judged by its worst, and
 * refused: no run observed it (bad input, over the regression). */
static void check_doctored_regression(void **state)
{
	struct tmp *t = *state;
	char err[1024];
	struct th_results *m = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "doctored.json");

	th_results_find_cell(m, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "cfi-icall",
			     "clang-22")->outcome = TH_HIJACKED;
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
	th_results_free(m);
	struct run r = run_check(path, NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.out, ": expected BLOCKED_CFI, observed HIJACKED (counts: BLOCKED_CFI 1/1, which "
			       "disagree with its outcome field, HIJACKED); evidence: SIGILL ud1 at 0x1f2a "
			       "guarding call_timer_fn's call at 0x1f20 (cfi-icall), call target write_cr4; "
			       "observed BLOCKED_CFI");
	assert_contains(r.out, "doctored: " GATE_MOD_CFI ": outcome HIJACKED is not among its counts "
			       "(no run observed it)\n");
	assert_contains(r.out, ": 53 pass, 1 regression, 1 doctored");
	run_free(&r);
}

/* A cell whose family is not its attack's was edited: refused (the verdict
 * card reads the family, so a timer cell moved out of it is not hidden). */
static void check_doctored_api(void **state)
{
	struct tmp *t = *state;
	char err[1024];
	struct th_results *m = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "doctored.json");

	th_results_find_cell(m, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "cfi-icall",
			     "clang-22")->api = TH_API_TASKLET;
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
	th_results_free(m);
	struct run r = run_check(path, NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.out, "doctored: " GATE_MOD_CFI ": api is tasklet, but its attack writes "
			       "into a timer\n");
	run_free(&r);
}

/* Every way a cell's outcome can be written without a run behind it is
 * refused, naming the cell and the field; a cell made consistent (a run,
 * its count, evidence) is judged as observed (a regression, not doctored). */
static void check_unbacked(void **state)
{
	static const struct {
		const char *attack, *config;
		enum th_outcome outcome;
		unsigned runs, count;
		const char *evidence, *line;
	} cases[] = {
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "cfi-icall", TH_BLOCKED_CFI, 0, 0,
		  "observed BLOCKED_CFI", "runs is 0: BLOCKED_CFI is backed by no run (only "
		  "UNSUPPORTED and NOT_APPLICABLE stand without one)" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "kcfi", TH_BLOCKED_CFI, 0, 0, "",
		  "runs is 0: BLOCKED_CFI is backed by no run" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "none", TH_HIJACKED, 1, 1, " \n",
		  "evidence is empty: HIJACKED is shown by nothing the run observed" },
		{ "MEMCPY_INTRA_BEFORE_ARM_NONE", "none", TH_NO_EFFECT, 0, 0, "",
		  "runs is 0: NO_EFFECT is backed by no run" },
	};
	struct tmp *t = *state;
	char err[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th_results *m = load_ok(DATA("gate.json"));
		struct th_cell *c = th_results_find_cell(m, NULL, cases[i].attack, TH_VARIANT_MODERN,
							 cases[i].config, "clang-22");
		const char *path = tmp_file(t, "unbacked.json");
		char want[512];

		assert_non_null(c);
		memset(c->counts, 0, sizeof(c->counts));
		c->outcome = cases[i].outcome;
		c->runs = cases[i].runs;
		c->counts[c->outcome] = cases[i].count;
		assert_int_equal(th_cell_set_evidence(c, cases[i].evidence, err, sizeof(err)), 0);
		assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
		th_results_free(m);
		struct run r = run_check(path, NULL);

		assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
		snprintf(want, sizeof(want), "doctored: %s modern/%s/clang-22: %s", cases[i].attack,
			 cases[i].config, cases[i].line);
		assert_contains(r.out, want);
		assert_contains(r.out, ", 1 doctored");
		assert_contains(r.out, "check: BAD INPUT (exit 2)");
		run_free(&r);
	}
	/* Counts that do not sum to the runs: the loader refuses the file. */
	struct th_results *m = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "unbacked-sum.json");

	th_results_find_cell(m, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", TH_VARIANT_MODERN,
			     "cfi-icall", "clang-22")->runs = 3;
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), -1);
	th_results_free(m);
}

/* The check outside the project: every cell's runs zeroed, its counts and
 * evidence emptied, whatever outcome it claims. Nothing passes: every cell
 * but the UNSUPPORTED and NOT_APPLICABLE ones is named. */
static void check_every_cell_unbacked(void **state)
{
	struct tmp *t = *state;
	char err[1024], want[64];
	struct th_results *m = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "zeroed.json");
	size_t named = 0;

	for (size_t i = 0; i < m->ncells; i++) {
		struct th_cell *c = m->cells[i];

		named += c->outcome != TH_UNSUPPORTED && c->outcome != TH_NOT_APPLICABLE;
		memset(c->counts, 0, sizeof(c->counts));
		c->runs = 0;
		assert_int_equal(th_cell_set_evidence(c, "", err, sizeof(err)), 0);
	}
	assert_int_equal(named, 40);	/* of 54: 8 UNSUPPORTED, 6 NOT_APPLICABLE */
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
	th_results_free(m);
	struct run r = run_check(path, NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	snprintf(want, sizeof(want), ", %zu doctored", named);
	assert_contains(r.out, want);
	assert_contains(r.out, "check: BAD INPUT (exit 2)");
	run_free(&r);
}

/* A cell's evidence must be its outcome's proof in the classifier's words
 * (cfi/evidence.h): an outcome relabelled with its counts made consistent,
 * whatever the evidence says then, is refused with the cell and the field
 * named. */
static void check_evidence_unproven(void **state)
{
	static const struct {
		enum th_outcome outcome;
		const char *evidence, *forms;	/* NULL: kept as the cell had it */
	} cases[] = {
		/* A block relabelled a hijack: the trap's words stay. */
		{ TH_HIJACKED, NULL, "(target ran: name=<...> chosen=1): SIGILL ud1 at 0x1f2a guarding" },
		{ TH_HIJACKED, "observed HIJACKED", "(target ran: name=<...> chosen=1): observed HIJACKED" },
		/* The target ran, but not with the attacker's argument. */
		{ TH_HIJACKED, "target ran: name=ring_force_close chosen=0 data=0x4000",
		  "(target ran: name=<...> chosen=1): target ran: name=ring_force_close chosen=0" },
		{ TH_DETECTED, "", NULL },	/* empty: said as such (check_unbacked) */
		{ TH_PRIVILEGED_WRITE, "privileged state changed",
		  "(privileged state changed at exit: <...>.<...> 0x<...> -> 0x<...>): privileged state changed" },
		{ TH_HANG, "hung", "(soft lockup: spinning in <...> (<...>) after <...> s: , or 1 other form of "
				  "cfi/evidence.c): hung" },
	};
	struct tmp *t = *state;
	char err[1024], want[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th_results *m = load_ok(DATA("gate.json"));
		struct th_cell *c = th_results_find_cell(m, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4",
							 TH_VARIANT_MODERN, "cfi-icall", "clang-22");
		const char *path = tmp_file(t, "unproven.json");

		assert_non_null(c);
		memset(c->counts, 0, sizeof(c->counts));
		c->outcome = cases[i].outcome;
		c->counts[c->outcome] = c->runs;
		if (cases[i].evidence)
			assert_int_equal(th_cell_set_evidence(c, cases[i].evidence, err, sizeof(err)), 0);
		assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
		th_results_free(m);
		struct run r = run_check(path, NULL);

		assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
		if (cases[i].forms) {
			snprintf(want, sizeof(want), "doctored: " GATE_MOD_CFI ": evidence is not %s's proof in "
				 "the classifier's words %s", th_outcome_name(cases[i].outcome), cases[i].forms);
			assert_contains(r.out, want);
		} else {
			assert_contains(r.out, "doctored: " GATE_MOD_CFI ": evidence is empty");
		}
		assert_contains(r.out, ", 1 doctored");
		run_free(&r);
	}
}

/* A proof in the right words, copied from a cell of another config: the
 * defence it names is not one its config builds (a kcfi trap under none,
 * ASan's report under cfi-icall). */
static void check_evidence_defence_unbuilt(void **state)
{
	static const struct {
		const char *config;
		enum th_outcome outcome;
		const char *evidence, *line;
	} cases[] = {
		{ "none", TH_BLOCKED_CFI, "SIGILL ud2 at 0x1f2a guarding call_timer_fn's call at 0x1f20 (kcfi, "
					  "listed in .kcfi_traps), call target write_cr4",
		  "doctored: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/none/clang-22: evidence names a "
		  "defence none does not build (-fsanitize=kcfi, not in its flags: -O2 -g): SIGILL ud2" },
		{ "kcfi", TH_BLOCKED_CFI, "SIGILL ud1 at 0x1f2a guarding call_timer_fn's call at 0x1f20 "
					  "(cfi-icall), call target write_cr4",
		  "defence kcfi does not build (-fsanitize=cfi-icall, not in its flags: -O2 -g -fsanitize=kcfi)" },
		{ "cfi-icall", TH_DETECTED, "AddressSanitizer: use-after-poison on address 0x6020",
		  "defence cfi-icall does not build (-fsanitize=address, not in its flags: " },
		{ "cfi-icall", TH_FALSE_POSITIVE, "control run stopped by a memory-safety check: victim.c:97:3: "
						  "runtime error: index 16 out of bounds for type 'char[16]'",
		  "(-fsanitize=array-bounds, not in its flags: " },
	};
	struct tmp *t = *state;
	char err[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct th_results *m = load_ok(DATA("gate.json"));
		struct th_cell *c = th_results_find_cell(m, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4",
							 TH_VARIANT_MODERN, cases[i].config, "clang-22");
		const char *path = tmp_file(t, "unbuilt.json");

		assert_non_null(c);
		memset(c->counts, 0, sizeof(c->counts));
		c->outcome = cases[i].outcome;
		c->counts[c->outcome] = c->runs = 1;
		assert_int_equal(th_cell_set_evidence(c, cases[i].evidence, err, sizeof(err)), 0);
		assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
		th_results_free(m);
		struct run r = run_check(path, NULL);

		assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
		assert_contains(r.out, cases[i].line);
		assert_contains(r.out, ", 1 doctored");
		run_free(&r);
	}
}

/* Every cell's evidence replaced by a word, its runs and counts kept: each
 * cell whose outcome is a proof (a block, a hijack, a write, a detection, a
 * hang, a lost timer, a false positive) is refused, the others are not held
 * to a form. */
static void check_every_cell_unproven(void **state)
{
	struct tmp *t = *state;
	char err[1024], want[64];
	struct th_results *m = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "every-unproven.json");
	size_t held = 0;

	for (size_t i = 0; i < m->ncells; i++) {
		held += th_evidence_held(m->cells[i]->outcome);
		assert_int_equal(th_cell_set_evidence(m->cells[i], "observed", err, sizeof(err)), 0);
	}
	assert_true(held >= 20);
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
	th_results_free(m);
	struct run r = run_check(path, NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	snprintf(want, sizeof(want), ", %zu doctored", held);
	assert_contains(r.out, want);
	run_free(&r);
}

/* The forms (cfi/evidence.c): what each classifier says of each outcome it
 * proves passes, in the model's words or a real kernel console's, the
 * tasklet family's dispatch too; anything else does not. */
static void evidence_forms(void **state)
{
	static const struct {
		enum th_outcome o;
		enum th_evidence_source src;
		unsigned runs;
		bool ok;
		const char *text;
	} cases[] = {
#define M TH_EVIDENCE_MODEL
#define K TH_EVIDENCE_KERNEL
		{ TH_HIJACKED, M, 1, true, "target ran: name=write_cr4 chosen=1 val=0x407f0; landed: yes function ok" },
		{ TH_HIJACKED, M, 1, false, "target ran: name=ring_force_close chosen=0 data=0x1" },
		{ TH_HIJACKED, M, 1, false, "write_cr4(0x407f0) ran" },
		{ TH_HIJACKED, M, 5, true, "seed 3: target ran: name=write_cr4 chosen=1 val=0x407f0" },
		{ TH_HIJACKED, M, 1, false, "seed 3: target ran: name=write_cr4 chosen=1 val=0x407f0" },
		{ TH_HIJACKED, M, 5, false, "seed 3: 4: target ran: name=write_cr4 chosen=1" },
		{ TH_REDIRECTED, M, 1, true, "target ran: name=ring_force_close chosen=0 data=0x1 (a live ring)" },
		{ TH_PRIVILEGED_WRITE, M, 1, true, "privileged state changed at exit: current_cred.uid 0x3e8 -> "
						   "0x0, current_cred.euid 0x3e8 -> 0x0" },
		{ TH_PRIVILEGED_WRITE, M, 1, false, "privileged state changed at exit: CR4 went up" },
		{ TH_BLOCKED_CFI, M, 1, true, "SIGILL ud1 at 0xec79 guarding call_timer_fn's call at 0xec70 "
					      "(cfi-icall), call target write_cr4" },
		{ TH_BLOCKED_CFI, M, 1, true, "SIGILL ud2 at 0x2a10 guarding tasklet_action_common's call at "
					      "0x2a08 (kcfi, listed in .kcfi_traps), call target write_cr4" },
		{ TH_BLOCKED_CFI, M, 1, true, "legacy.c:22:2: runtime error: control flow integrity check for "
					      "type 'void (unsigned long)' failed during indirect function call "
					      "(call_timer_fn's check at 0x1c2f, call target write_cr4)" },
		{ TH_BLOCKED_CFI, M, 1, true, "modern.c:18:2: runtime error: call to function (unknown) through "
					      "pointer to incorrect function type 'void (*)(struct timer_list *)' "
					      "(call_timer_fn's check at 0x1c2f, call target write_cr4)" },
		{ TH_BLOCKED_CFI, M, 1, false, "observed BLOCKED_CFI" },
		{ TH_BLOCKED_CFI, M, 1, false, "SIGILL at 0x1 in foo: not a check guarding call_timer_fn's "
					       "indirect call" },
		{ TH_BLOCKED_CFI, M, 1, false, "CFI failure at call_timer_fn+0x47/0xd3 (target: x+0x0/0x7c)" },
		{ TH_FALSE_POSITIVE, M, 1, true, "CFI stopped the legitimate callback: SIGILL ud1 at 0xec79 "
						 "guarding call_timer_fn's call at 0xec70 (cfi-icall), call target "
						 "prb_retire_rx_blk_timer_expired" },
		{ TH_FALSE_POSITIVE, M, 1, true, "control run stopped by a memory-safety check: AddressSanitizer: "
						 "use-after-poison on address 0x602000000010" },
		{ TH_FALSE_POSITIVE, M, 1, false, "control run stopped by CFI: it was" },
		{ TH_DETECTED, M, 1, true, "AddressSanitizer: use-after-poison on address 0x6020 (WRITE of size 8)" },
		{ TH_DETECTED, M, 1, true, "victim.c:97:3: runtime error: index 16 out of bounds for type 'char[16]'" },
		{ TH_DETECTED, M, 1, true, "fortify: detected field-spanning write (size 48) of single field" },
		{ TH_DETECTED, M, 1, true, "*** buffer overflow detected ***: terminated" },
		{ TH_DETECTED, M, 1, false, "detected" },
		{ TH_HANG, M, 1, true, "soft lockup: spinning in lock_timer_base+0x50 (jmp 0x50df) after 0.0 s: a "
				       "turn of its loop" },
		{ TH_HANG, M, 1, true, "no exit after 10.0 s; last: (no protocol line)" },
		{ TH_HANG, M, 1, false, "hung" },
		{ TH_TIMER_LOST, M, 1, true, "finished, and tasklet_action_common was never entered: the timer "
					     "never fired (fired=0)" },
		{ TH_TIMER_LOST, M, 1, false, "the timer was lost" },
		/* Not held to a form: free text. */
		{ TH_CRASHED, M, 1, true, "anything" },
		{ TH_NO_EFFECT, M, 1, true, "" },
		/* A real kernel's console. */
		{ TH_BLOCKED_CFI, K, 1, true, "CFI failure at call_timer_fn+0x47/0xd3 (target: native_write_cr4+"
					      "0x0/0x7c; expected type: 0x91b4a83a); console: out/kernel/6.1/kcfi/"
					      "X.log" },
		{ TH_BLOCKED_CFI, K, 1, false, "SIGILL ud1 at 0xec79 guarding call_timer_fn's call at 0xec70 "
					       "(cfi-icall), call target write_cr4" },
		{ TH_FALSE_POSITIVE, K, 1, true, "kCFI stopped the legitimate call: CFI failure at call_timer_fn+"
						 "0x47/0xd3 (target: th_neighbour_tick+0x0/0x4; expected type: 0x1)" },
		{ TH_HIJACKED, K, 1, true, "call_timer_fn called process_timeout+0x0/0x9, which woke the task "
					   "the attacker wrote after the timer: EFFECT th-sleeper woken" },
		{ TH_HIJACKED, K, 1, true, "tasklet_action_common called native_write_cr4+0x0/0x7c with the "
					   "attacker's argument 0x407f0 (func(data): use_callback 0); CR4 0x3506f0" },
		{ TH_HIJACKED, K, 1, false, "target ran: name=write_cr4 chosen=1 val=0x407f0" },
		{ TH_REDIRECTED, K, 1, true, "tasklet_action_common called th_tasklet_force_close+0x0/0x4 with the "
					     "tasklet (callback(t)), and it returned" },
		{ TH_HANG, K, 1, true, "call_timer_fn called native_write_cr4+0x0/0x7c, which never returned: no "
				       "line, oops or panic from the kernel after it (10 s of silence)" },
		{ TH_DETECTED, K, 1, false, "AddressSanitizer: use-after-poison on address 0x6020" },
#undef M
#undef K
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (th_evidence_form_ok(cases[i].o, cases[i].src, cases[i].runs, cases[i].text) != cases[i].ok)
			fail_msg("%s %s (%u runs) should %sbe its proof: %s", th_outcome_name(cases[i].o),
				 cases[i].src == TH_EVIDENCE_MODEL ? "model" : "kernel", cases[i].runs,
				 cases[i].ok ? "" : "not ", cases[i].text);
	/* The defence each names, as the flag that builds it. */
	assert_string_equal(th_evidence_defence("seed 2: CFI stopped the legitimate callback: SIGILL ud2 at "
						"0x1 guarding call_timer_fn's call at 0x2 (kcfi, listed in "
						".kcfi_traps), call target x", text, sizeof(text)),
			    "-fsanitize=kcfi");
	assert_string_equal(th_evidence_defence("legacy.c:22:2: runtime error: control flow integrity check "
						"for type 'x' (call_timer_fn's check at 0x1, call target y)",
						text, sizeof(text)), "-fsanitize=cfi-icall");
	assert_string_equal(th_evidence_defence("fortify: detected field-spanning write (size 48)", text,
						sizeof(text)), "-DTH_FORTIFY_FIELD");
	assert_null(th_evidence_defence("target ran: name=write_cr4 chosen=1", text, sizeof(text)));
	th_evidence_forms_text(TH_HIJACKED, TH_EVIDENCE_MODEL, text, sizeof(text));
	assert_string_equal(text, "target ran: name=<...> chosen=1");
	th_evidence_forms_text(TH_DETECTED, TH_EVIDENCE_KERNEL, text, sizeof(text));
	assert_string_equal(text, "none: no console of this platform proves DETECTED");

	/* A hostile string: the matcher tries each length of each %s within a
	 * budget, never for long. */
	size_t n = 200000;
	char *big = malloc(n + 1);
	struct timespec a, b;

	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = " called a"[i % 9];
	big[n] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_false(th_evidence_form_ok(TH_HIJACKED, TH_EVIDENCE_KERNEL, 1, big));
	assert_false(th_evidence_form_ok(TH_BLOCKED_CFI, TH_EVIDENCE_MODEL, 1, big));
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 2.0);
	free(big);
}

/* The console classifier's goldens (tests/data/kernel/console/NAME.want,
 * "OUTCOME<TAB>evidence", held to what kernel/console.c says by
 * tests/kernel_console.py) are each in a form of their outcome: a new
 * sentence in kernel/console.c without its form in cfi/evidence.c fails
 * here, not in the gate. */
static void evidence_forms_kernel_goldens(void **state)
{
	const char *dir = TH_TEST_SOURCE_DIR "/tests/data/kernel/console";
	DIR *dp = opendir(dir);
	struct dirent *d;
	size_t held = 0;

	(void)state;
	assert_non_null(dp);
	while ((d = readdir(dp))) {
		size_t len = strlen(d->d_name);
		char path[4096], line[8192], *tab;
		enum th_outcome o;
		FILE *f;

		if (len < 6 || strcmp(d->d_name + len - 5, ".want"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		line[strcspn(line, "\n")] = '\0';
		tab = strchr(line, '\t');
		assert_non_null(tab);
		*tab = '\0';
		o = th_outcome_parse(line);
		if (o == TH_OUTCOME_INVALID)
			fail_msg("%s: outcome '%s'", path, line);
		held += th_evidence_held(o);
		if (!th_evidence_form_ok(o, TH_EVIDENCE_KERNEL, 1, tab + 1))
			fail_msg("%s: %s's evidence is in no form of cfi/evidence.c: %s", path, line, tab + 1);
	}
	closedir(dp);
	assert_true(held >= 10);
}

/* check --json: the same judgement as data (docs/schema/check.schema.json):
 * the answer, the counts, and the regression with its cell and rule. */
static void check_json_regression(void **state)
{
	struct tmp *t = *state;
	char err[1024], *text = NULL, *lines = NULL, *errs = NULL;
	size_t len = 0, llen = 0, elen = 0;
	struct th_results *m = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "doctored-json.json");
	json_error_t je;

	struct th_cell *c = th_results_find_cell(m, NULL, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4",
						 TH_VARIANT_MODERN, "cfi-icall", "clang-22");

	/* Doctored consistently (a run, its count, evidence): a regression. */
	c->outcome = TH_HIJACKED;
	c->counts[TH_BLOCKED_CFI] = 0;
	c->counts[TH_HIJACKED] = 1;
	assert_int_equal(th_cell_set_evidence(c, "target ran: name=write_cr4 chosen=1 val=0x407f0", err,
					      sizeof(err)), 0);
	assert_int_equal(th_results_write(m, path, err, sizeof(err)), 0);
	th_results_free(m);

	struct th_check_decl d = gate_decl();
	struct th_check_json *cj = th_check_json_create();
	FILE *out = open_memstream(&lines, &llen), *ef = open_memstream(&errs, &elen);
	struct th_check_opts o = { .results = path };

	assert_non_null(cj);
	o.json = th_check_json_results(cj, path, d.expect_path, d.expect_sha256, NULL);
	assert_non_null(o.json);
	int rc = th_check_main(&o, &d, out, ef);
	th_check_json_results_exit(cj, rc);
	fclose(out);
	fclose(ef);
	th_check_json_errors(cj, errs);
	assert_int_equal(rc, TH_CHECK_REGRESSION);
	/* The findings are data, not lines. */
	assert_not_contains(lines, "regression: ");
	FILE *jf = open_memstream(&text, &len);
	assert_int_equal(th_check_json_write(cj, rc, jf), 0);
	fclose(jf);
	json_t *doc = json_loads(text, 0, &je);
	if (!doc)
		fail_msg("not JSON: %s: %s", je.text, text);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "timerharness/check/v1");
	assert_string_equal(json_string_value(json_object_get(doc, "status")), "FAIL");
	assert_int_equal(json_integer_value(json_object_get(doc, "exit")), 1);
	assert_true(json_is_null(json_object_get(doc, "fuzz")));
	json_t *res = json_object_get(doc, "results"), *k = json_object_get(res, "counts");
	assert_int_equal(json_integer_value(json_object_get(res, "exit")), 1);
	assert_int_equal(json_integer_value(json_object_get(k, "cells")), 54);
	assert_int_equal(json_integer_value(json_object_get(k, "pass")), 53);
	assert_int_equal(json_integer_value(json_object_get(k, "regression")), 1);
	json_t *fl = json_object_get(doc, "findings"), *f = json_array_get(fl, 0);
	assert_int_equal(json_array_size(fl), 1);
	assert_string_equal(json_string_value(json_object_get(f, "gate")), "results");
	assert_string_equal(json_string_value(json_object_get(f, "kind")), "regression");
	assert_string_equal(json_string_value(json_object_get(json_object_get(f, "cell"), "attack")),
			    "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4");
	assert_string_equal(json_string_value(json_object_get(json_object_get(f, "cell"), "config")),
			    "cfi-icall");
	assert_string_equal(json_string_value(json_object_get(f, "expected")), "BLOCKED_CFI");
	assert_string_equal(json_string_value(json_object_get(f, "observed")), "HIJACKED");
	assert_contains(json_string_value(json_object_get(f, "rule")), "gate-expected.tsv:");
	assert_contains(json_string_value(json_object_get(f, "message")),
			GATE_MOD_CFI ": expected BLOCKED_CFI, observed HIJACKED");
	assert_int_equal(json_array_size(json_object_get(doc, "errors")), 0);
	json_decref(doc);
	th_expect_free();
	free(text);
	free(lines);
	free(errs);
}

static void check_stored_verdict_ignored(void **state)
{
	struct tmp *t = *state;
	char err[1024];
	struct th_results *r = load_ok(DATA("gate.json"));
	const char *path = tmp_file(t, "stored.json");

	/* Stored verdicts are wrong both ways; check must not care. */
	for (size_t i = 0; i < r->ncells; i++)
		r->cells[i]->verdict = TH_VERDICT_REGRESSION;
	assert_int_equal(th_results_write(r, path, err, sizeof(err)), 0);
	struct run c = run_check(path, NULL);
	assert_int_equal(c.rc, TH_CHECK_OK);
	run_free(&c);
	th_results_free(r);
}

/* A real regression whose stored expectation was edited to hide it. */
static void hidden(const char *fixture, const char *stored)
{
	char want[512];
	struct run r = run_check(fixture, NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	snprintf(want, sizeof(want), "doctored: " GATE_MOD_CFI ": stored expected %s, declared "
		 "BLOCKED_CFI (" DATA("gate-expected.tsv") ":8)\n", stored);
	assert_contains(r.out, want);
	assert_contains(r.out, GATE_REGRESSED);
	assert_contains(r.out, ": 53 pass, 1 regression, 1 doctored\ncheck: BAD INPUT (exit 2): ");
	run_free(&r);
}

static void check_hidden_by_null_expectation(void **state)
{
	(void)state;
	hidden(DATA("gate_hide_null.json"), "none");
}

static void check_hidden_by_hijacked_expectation(void **state)
{
	(void)state;
	hidden(DATA("gate_hide_hijacked.json"), "HIJACKED");
}

static void check_hidden_by_unsupported_expectation(void **state)
{
	(void)state;
	hidden(DATA("gate_hide_unsupported.json"), "UNSUPPORTED");
}

static void check_hidden_by_not_applicable_expectation(void **state)
{
	(void)state;
	hidden(DATA("gate_hide_not_applicable.json"), "NOT_APPLICABLE");
}

/* matrix --expect lenient.tsv: the run recorded another file. */
static void check_other_expectations(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_lenient.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.out, GATE_REGRESSED);
	assert_contains(r.out, "expectations: the run judged its cells by lenient-expected.tsv (sha256 ");
	assert_contains(r.out, "), check by " DATA("gate-expected.tsv") " (sha256 ");
	assert_contains(r.out, "): 44 stored expectations differ; rerun the matrix, or name the file "
			       "it ran with in --expect\n");
	assert_not_contains(r.out, "doctored:");
	run_free(&r);
}

/* The kcfi probe moved away: coverage lost with no baseline, named. */
static void check_lost_defence(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_lost_kcfi.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "regression: " "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/kcfi/clang-22: "
			       "expected BLOCKED_CFI, observed UNSUPPORTED (coverage lost: kcfi did not run "
			       "on clang-22); reason: probe kcfi: th-probe-kcfi not built; evidence: ");
	assert_contains(r.out, "lost defence: kcfi on clang-22: probed unsupported (probe kcfi: "
			       "th-probe-kcfi not built); 8 cells declare a real outcome (first: "
			       DATA("gate-expected.tsv") ":7)\n");
	assert_contains(r.out, ": 46 pass, 8 regression, 1 lost defence\ncheck: FAIL (exit 1): ");
	run_free(&r);
}

static void check_could_not_run(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_could_not_run.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "regression: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/kcfi/clang-22: "
			       "expected BLOCKED_CFI, observed UNSUPPORTED (coverage lost: kcfi did not run "
			       "on clang-22); evidence: no binary\n");
	assert_contains(r.out, "regression: MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4 legacy/cfi-icall/"
			       "clang-14: expected HIJACKED, observed NOT_APPLICABLE (coverage lost: "
			       "cfi-icall did not run on clang-14); evidence: said not applicable\n");
	assert_contains(r.out, "2 regression");
	run_free(&r);
}

static void check_support_flip(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_support_flip.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "lost defence: cfi-icall on clang-14: probed unsupported (probe cfi: no "
			       "trap); 8 cells declare a real outcome (first: " DATA("gate-expected.tsv") ":7)\n");
	run_free(&r);
	/* Against a baseline that had it, the flip itself is named. */
	r = run_check(DATA("gate_support_flip.json"), DATA("gate.json"));
	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "lost defence: cfi-icall on clang-14: probed unsupported (probe cfi: no "
			       "trap), supported in the baseline; 8 cells");
	run_free(&r);
}

static void check_empty(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_empty.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.err, "gate_empty.json: no cells: an empty run is no result");
	assert_string_equal(r.out, "");
	run_free(&r);
}

static void check_shrunk(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_shrunk.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "missing: " GATE_MOD_CFI ": declared BLOCKED_CFI, not in the results "
			       "(coverage lost)\n");
	assert_contains(r.out, "check: 53 cells: 53 pass, 0 regression, 1 missing\n");
	run_free(&r);
	/* With a baseline that had it, the baseline's outcome is named too. */
	r = run_check(DATA("gate_shrunk.json"), DATA("gate.json"));
	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "missing: " GATE_MOD_CFI ": declared BLOCKED_CFI, baseline BLOCKED_CFI, not "
			       "in the results (coverage lost)\n");
	assert_contains(r.out, ", 1 missing\n");
	run_free(&r);
}

static void check_slice(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_slice.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "missing: " GATE_MOD_CFI ": declared BLOCKED_CFI, not in the results");
	assert_contains(r.out, "slice: the run was asked for part of the plan only; a slice passes only "
			       "with --allow-slice\n");
	assert_contains(r.out, "check: 18 cells (SLICE: configs none): 18 pass, 0 regression, 36 "
			       "missing\n");
	run_free(&r);
	r = run_check_allow(DATA("gate_slice.json"), NULL, ALLOW_SLICE);
	assert_int_equal(r.rc, TH_CHECK_OK);
	assert_contains(r.out, "check: 18 cells (SLICE: configs none): 18 pass, 0 regression\n");
	assert_not_contains(r.out, "missing:");
	run_free(&r);
}

static void check_slice_short(void **state)
{
	(void)state;
	struct run r = run_check_allow(DATA("gate_slice_short.json"), NULL, ALLOW_SLICE);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "missing: MEMCPY_INTRA_BEFORE_ARM_NONE legacy/none/clang-22: declared "
			       "NO_EFFECT, not in the results (coverage lost)\n");
	assert_contains(r.out, ", 1 missing\n");
	run_free(&r);
}

static void check_partial(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_partial.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "missing: MEMCPY_INTRA_BEFORE_ARM_NONE modern/kcfi/clang-22: declared "
			       "NO_EFFECT, not in the results (partial run)\n");
	assert_contains(r.out, "partial: the run was interrupted; partial results pass only with "
			       "--allow-partial\n");
	assert_contains(r.out, "check: 51 cells (PARTIAL run, interrupted: interrupted by SIGINT): "
			       "51 pass, 0 regression, 3 missing\n");
	run_free(&r);
	/* Allowed, it passes, and still lists every cell it lacks. */
	r = run_check_allow(DATA("gate_partial.json"), NULL, ALLOW_PARTIAL);
	assert_int_equal(r.rc, TH_CHECK_OK);
	assert_contains(r.out, "missing: MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4 modern/kcfi/clang-22: "
			       "declared NOT_APPLICABLE, not in the results (partial run)\n");
	assert_contains(r.out, ", 3 missing\n");
	run_free(&r);
}

/* "partial": true set by hand does not switch off the baseline's cells. */
static void check_partial_against_baseline(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_partial.json"), DATA("gate.json"));

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "missing: MEMCPY_INTRA_BEFORE_ARM_NONE modern/kcfi/clang-22: declared "
			       "NO_EFFECT, baseline NO_EFFECT, not in the results (partial run)\n");
	run_free(&r);
}

static void check_harness_error(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_harness.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_HARNESS_ERROR);
	assert_contains(r.out, "harness error: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 legacy/none/clang-14: "
			       "the harness could not run or observe it; evidence: attack binary ");
	assert_contains(r.out, ": 53 pass, 0 regression, 1 harness error\n");
	run_free(&r);
	/* Not judged against a baseline either: nothing was observed. */
	r = run_check(DATA("gate_harness.json"), DATA("gate_better.json"));
	assert_int_equal(r.rc, TH_CHECK_HARNESS_ERROR);
	run_free(&r);
}

/* One harness-error run among the counts makes the cell one. */
static void check_harness_error_counted(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_harness_counted.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_HARNESS_ERROR);
	assert_contains(r.out, "harness error: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 legacy/none/clang-14");
	run_free(&r);
}

static void check_unplanned(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_unplanned.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.out, "unplanned: MEMCPY_INTRA_BEFORE_ARM_FUNC_SAME_CLASS legacy/none/clang-14: "
			       "not an attack of the registry\n");
	run_free(&r);
	r = run_check(DATA("gate_selftest_unasked.json"), NULL);
	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.out, "unplanned: SELFTEST_HANG legacy/none/clang-14: not an attack of the registry\n");
	run_free(&r);
	r = run_check(DATA("gate_selftests.json"), NULL);
	assert_int_equal(r.rc, TH_CHECK_OK);
	assert_contains(r.out, "check: 72 cells: 72 pass");
	run_free(&r);
}

static void check_no_provenance(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate_no_expectations.json"), NULL);

	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.err, "gate_no_expectations.json: records no expectations file");
	run_free(&r);
	r = run_check(DATA("gate_no_selection.json"), NULL);
	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.err, "gate_no_selection.json: records no selection");
	run_free(&r);
}

static void check_bad_input(void **state)
{
	(void)state;
	static const struct {
		const char *file, *msg;
	} cases[] = {
		{ DATA("nope.json"), "check: " DATA("nope.json") ": cannot open: No such file or directory" },
		{ DATA("not_json.json"), "not_json.json: not JSON: line 3" },
		{ DATA("wrong_schema.json"), "schema is \"timerharness/results/v0\", expected timerharness/results/v1" },
		{ DATA("unknown_config.json"), "cells[4].config: unknown config \"cfi-icall-typo\"" },
		{ DATA("unknown_outcome.json"), "cells[3].outcome: unknown outcome \"FOO\"" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r = run_check(cases[i].file, NULL);

		assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
		assert_contains(r.err, cases[i].msg);
		assert_string_equal(r.out, "");
		run_free(&r);
	}
	/* A bad baseline is bad input too. */
	struct run r = run_check(DATA("gate.json"), DATA("wrong_schema.json"));
	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.err, "wrong_schema.json: schema is");
	run_free(&r);
}

static void check_baseline_regression(void **state)
{
	(void)state;
	struct run r = run_check(DATA("gate.json"), DATA("gate_better.json"));

	assert_int_equal(r.rc, TH_CHECK_REGRESSION);
	assert_contains(r.out, "regression: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 legacy/none/clang-14: "
			       "expected REDIRECTED, baseline NO_EFFECT, observed REDIRECTED; evidence: ");
	assert_contains(r.out, " and the baseline " DATA("gate_better.json") "\n");
	run_free(&r);
	r = run_check(DATA("gate.json"), DATA("gate.json"));
	assert_int_equal(r.rc, TH_CHECK_OK);
	run_free(&r);
}

/* A verdict nobody can read is no verdict. */
static void check_stdout_unwritable(void **state)
{
	(void)state;
	FILE *full = fopen("/dev/full", "w");

	assert_non_null(full);
	struct run r = run_check_to(full, DATA("gate.json"), NULL, 0);
	fclose(full);
	assert_int_equal(r.rc, TH_CHECK_BAD_INPUT);
	assert_contains(r.err, "check: cannot write the verdicts: No space left on device");
	free(r.err);
}

/* Every code point of text is one that shows: no C0 control but LF (and
 * TAB where allowed), no DEL or C1, no bidi control, no line or paragraph
 * separator, no noncharacter; the whole of it valid UTF-8. */
static void assert_shows_only(const char *what, const char *text, bool tab)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p) {
		unsigned long cp = *p;
		size_t n = cp < 0x80 ? 1 : cp >= 0xf0 ? 4 : cp >= 0xe0 ? 3 : 2;

		for (size_t i = 1; i < n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				fail_msg("%s: not UTF-8 at byte %zu", what, (size_t)(p - (const unsigned char *)text));
			cp = (i == 1 ? cp & (0xff >> (n + 1)) : cp) << 6 | (p[i] & 0x3f);
		}
		if ((cp < 0x20 && cp != '\n' && !(tab && cp == '\t')) || (cp >= 0x7f && cp <= 0x9f) ||
		    cp == 0x61c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 ||
		    (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe)
			fail_msg("%s: U+%04lX at byte %zu:\n%.200s", what, cp,
				 (size_t)(p - (const unsigned char *)text),
				 (const char *)p - ((const char *)p - text > 80 ? 80 : (const char *)p - text));
		p += n;
	}
}

static void check_escapes(void **state)
{
	(void)state;
	struct run r = run_check_allow(DATA("gate_controls.json"), NULL, VERBOSE);

	assert_shows_only("check", r.out, false);
	assert_contains(r.out, "ran\\x1b[2J\\u009b31m \\u202egnp.exe\\u202c \\ufffe \\uffff end\\rover\\nnext"
			       "\\tcol \\x7f");
	assert_contains(r.out, "(PARTIAL run, interrupted: SIGINT\\x1b[2J)");
	run_free(&r);
}

/* ---- renderers ---- */

static char *render_md(struct tmp *t, const char *fixture)
{
	char err[1024];
	struct th_results *r = load_ok(fixture);
	const char *path = tmp_file(t, "report.md");

	if (th_render_markdown(r, path, err, sizeof(err)))
		fail_msg("%s", err);
	th_results_free(r);
	return slurp(path);
}

static void markdown_headlines(void **state)
{
	struct tmp *t = *state;
	char *md = render_md(t, DATA("small.json")), *s;

	assert_non_null(md);
	assert_contains(md, "# timerharness results");
	assert_contains(md, "| `kcfi` | `-O2 -fsanitize=kcfi` | kernel CFI | **no**: probe: clang 14 has no -fsanitize=kcfi | yes |");

	s = section(md, "a. ");
	assert_contains(s, "Observed: **clang-14**: HIJACKED in 2 cells; **clang-22**: HIJACKED in 1 cell.");
	assert_contains(s, "| `MEMCPY_INTRA_PENDING_FUNC_DATA_WRITE_CR4` | timer | legacy | cfi-icall | HIJACKED | not run |");
	/* Evidence verbatim, newline and backticks included. */
	assert_contains(s, "```text\noverwrite landed: .function=write_cr4 .data=0x407f0\n"
			   "write_cr4(0x407f0) ran | CR4 0x3407f0 -> 0x407f0 `SMEP|SMAP cleared`\n```\n");
	assert_not_contains(s, "legacy | none");	/* cfi-icall only */
	free(s);

	s = section(md, "b. ");
	assert_contains(s, "**clang-14**: BLOCKED_CFI in 1 cell, UNSUPPORTED in 1 cell; **clang-22**: BLOCKED_CFI in 2 cells.");
	free(s);
	s = section(md, "c. ");
	assert_contains(s, "**clang-14**: FALSE_POSITIVE in 1 cell; **clang-22**: not run.");
	free(s);
	s = section(md, "e. ");
	assert_contains(s, "Observed: not run");
	free(s);
	s = section(md, "f. ");
	assert_contains(s, "| `HEAP_NEIGHBOUR_BEFORE_ARM_FUNC_WRITE_CR4` | timer | modern | asan | DETECTED | not run |");
	assert_contains(s, "REDIRECTED");
	free(s);
	s = section(md, "g. ");
	assert_contains(s, "only warns; this harness's `fortify` config blocks");
	free(s);
	s = section(md, "i. ");
	assert_contains(s, "| `MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4` | timer | modern | none | REDIRECTED | "
			   "CRASHED (improvement; expected REDIRECTED) | differs between toolchains |");
	assert_contains(s, "`kcfi` on clang-14 (probe: clang 14 has no -fsanitize=kcfi)");
	free(s);
	s = section(md, "clang-22, modern");
	assert_contains(s, "CRASHED 2/5, NO_EFFECT 3/5");
	free(s);
	free(md);
}

static void markdown_regression_listed(void **state)
{
	struct tmp *t = *state;
	char *md = render_md(t, DATA("doctored_hijacked.json")), *s;

	s = section(md, "b. ");
	assert_contains(s, "**clang-14**: HIJACKED in 1 cell, UNSUPPORTED in 1 cell");
	free(s);
	s = section(md, "i. ");
	assert_contains(s, "| `MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4` | timer | modern | cfi-icall | "
			   "**HIJACKED** (regression; expected BLOCKED_CFI) | BLOCKED_CFI | "
			   "regression, differs between toolchains |");
	free(s);
	free(md);
}

static void markdown_write_fails_cleanly(void **state)
{
	struct tmp *t = *state;
	char err[1024] = "", path[300];
	struct th_results *r = load_ok(DATA("small.json"));

	snprintf(path, sizeof(path), "%s/missing/report.md", t->dir);
	assert_int_equal(th_render_markdown(r, path, err, sizeof(err)), -1);
	assert_contains(err, "No such file or directory");
	assert_int_equal(count_entries(t->dir), 0);
	th_results_free(r);
}

static char *render_matrix_text(const struct th_results *r, int color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(th_render_matrix(f, r, color), 0);
	fclose(f);
	return buf;
}

static void assert_width(const char *text, size_t max)
{
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);

		if (n > max)
			fail_msg("line of %zu columns (max %zu):\n%.*s", n, max, (int)n, l);
		l += n + (e != NULL);
	}
}

static void matrix_small(void **state)
{
	(void)state;
	struct th_results *r = load_ok(DATA("doctored_hijacked.json"));
	char *m = render_matrix_text(r, 0);

	assert_contains(m, "== clang-14 (14.0.6, /usr/bin/clang-14) ==");
	assert_contains(m, "memcpy-intra, before-arm\n");
	assert_contains(m, "memcpy-intra, pending\n");
	assert_contains(m, "H!");	/* the doctored regression */
	assert_contains(m, "C*");	/* randstruct: runs disagreed */
	assert_contains(m, "legend:\n  H HIJACKED");
	assert_contains(m, "clang-14: 9 cells: HIJACKED 4, REDIRECTED 2, FALSE_POSITIVE 1, DETECTED 1, UNSUPPORTED 1");
	assert_contains(m, "total: 15 cells:");
	assert_not_contains(m, "\033[");
	assert_width(m, TH_MATRIX_WIDTH);
	free(m);
	m = render_matrix_text(r, 1);
	assert_contains(m, "\033[1;31mH\033[0m");
	free(m);
	th_results_free(r);
}

/* Every config of the table (cfi/configs.tsv), more than the screen has
 * room for by name: the columns are keyed 1..9, a.. and the key said. */
static void matrix_wide_uses_keys(void **state)
{
	static const char keys[] = "123456789abcdefghijklmnopqrstuvwxyz";
	char err[512], id[128], want[512];
	struct th_results *r = th_results_create("1");
	size_t nk = th_config_count;

	(void)state;
	assert_true(nk >= 4 && nk <= sizeof(keys) - 1);
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22", "", err, sizeof(err)), 0);
	for (size_t k = 0; k < nk; k++)
		assert_int_equal(th_results_add_config(r, th_configs[k].name, "", "", err, sizeof(err)), 0);
	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		for (size_t k = 0; k < nk; k++) {
			for (int a = 0; a < 4; a++) {
				snprintf(id, sizeof(id), "UAF_REALLOC_PENDING_FUNC_DATA_WRITE_CR4_LONG_NAME_%d", a);
				struct th_cell_in in = { id, "uaf-realloc", "pending", "func:write_cr4",
							 (enum th_variant)v, th_configs[k].name, "clang-22",
							 (enum th_outcome)((a + k) % TH_OUTCOME_COUNT), 1, NULL, "",
							 TH_OUTCOME_INVALID, 0, NULL, 0, NULL, 0, TH_API_TIMER };
				assert_non_null(th_results_add_cell(r, &in, err, sizeof(err)));
			}
		}
	}
	char *m = render_matrix_text(r, 0);
	snprintf(want, sizeof(want), "columns: 1 %s 2 %s 3 %s 4 %s", th_configs[0].name,
		 th_configs[1].name, th_configs[2].name, th_configs[3].name);
	assert_contains(m, want);
	snprintf(want, sizeof(want), " %c %s", keys[nk - 1], th_configs[nk - 1].name);
	assert_contains(m, want);
	assert_contains(m, "| legacy");
	assert_contains(m, "| transitional");
	assert_width(m, TH_MATRIX_WIDTH);
	free(m);
	th_results_free(r);
}

static void junit_output(void **state)
{
	struct tmp *t = *state;
	char err[1024];
	struct th_results *r = load_ok(DATA("doctored_hijacked.json"));
	const char *path = tmp_file(t, "junit.xml");

	assert_int_equal(th_render_junit(r, path, err, sizeof(err)), 0);
	char *x = slurp(path);
	/* Ant's schema: a bare <testsuites>, a zone-less timestamp; every
	 * testcase timed. */
	assert_contains(x, "\n<testsuites>\n");
	assert_contains(x, "<testsuite name=\"clang-14\" package=\"timerharness\" id=\"0\" "
			   "timestamp=\"2024-05-01T12:00:00\" hostname=\"");
	assert_contains(x, "\" tests=\"9\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0.000\">");
	assert_contains(x, "<testcase classname=\"timerharness.clang-14.timer.modern.cfi-icall\" "
			   "name=\"MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4\" time=\"0.000\">\n"
			   "      <failure type=\"regression\" message=\"observed HIJACKED, expected BLOCKED_CFI; "
			   "severity: CFI_BLOCK_LOST, critical (GitLab critical)\">");
	assert_contains(x, "<skipped message=\"UNSUPPORTED: probe: clang 14 has no -fsanitize=kcfi\"/>");
	assert_contains(x, "\nMEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 timer/modern/kcfi: UNSUPPORTED");
	assert_contains(x, "`SMEP|SMAP cleared`");
	free(x);
	th_results_free(r);
}

/* Every line of text: no trailing blank (the terminal matrix pads columns). */
static void assert_no_trailing_space(const char *text)
{
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);

		if (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			fail_msg("trailing blank on line:\n%.*s|", (int)n, l);
		l += n + (e != NULL);
	}
}

static void matrix_no_trailing_spaces(void **state)
{
	(void)state;
	struct th_results *r = load_ok(DATA("doctored_hijacked.json"));

	for (int color = 0; color < 2; color++) {
		char *m = render_matrix_text(r, color);

		assert_no_trailing_space(m);
		/* Padding inside a line stays: the columns still line up. */
		assert_contains(m, "  MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4");
		free(m);
	}
	th_results_free(r);
}

/* Render fixture with one of the path renderers; the file's text. */
typedef int path_renderer(const struct th_results *res, const char *path, char *err, size_t errlen);

static char *render_to_text(struct tmp *t, path_renderer *fn, const char *fixture, const char *name)
{
	char err[1024];
	struct th_results *r = load_ok(fixture);
	const char *path = tmp_file(t, name);

	if (fn(r, path, err, sizeof(err)))
		fail_msg("%s", err);
	th_results_free(r);
	return slurp(path);
}

/* ---- HTML ---- */

/* What the renderers show as a regression: stored, or the outcome says so. */
static bool shown_regression(const struct th_cell *c)
{
	return c->verdict == TH_VERDICT_REGRESSION ||
	       th_verdict(th_cell_observed(c), c->expected, TH_OUTCOME_INVALID) == TH_VERDICT_REGRESSION;
}

/* A grid cell: its class and the start of its entry in its row's evidence
 * (the cell, its outcome). */
static void assert_html_cell(const char *html, const struct th_cell *c)
{
	char want[1024];
	enum th_outcome o = th_cell_observed(c);

	snprintf(want, sizeof(want), "<td class=\"c o-%s%s", th_outcome_name(o), shown_regression(c) ? " reg" : "");
	assert_contains(html, want);
	snprintf(want, sizeof(want), "\">%s %s/%s/%s on %s&#10;outcome: %s&#10;", c->attack,
		 th_api_name(c->api), th_variant_name(c->variant), c->config, c->toolchain,
		 th_outcome_name(o));
	assert_contains(html, want);
}

static void html_escapes_and_shows_every_cell(void **state)
{
	struct tmp *t = *state;
	char *h = render_to_text(t, th_render_html, DATA("markup.json"), "report.html");
	struct th_results *r = load_ok(DATA("markup.json"));

	assert_non_null(h);
	assert_true(!strncmp(h, "<!DOCTYPE html>\n", 16));
	assert_contains(h, "</html>\n");
	/* Self-contained: no script, no external asset. */
	assert_not_contains(h, "<script");
	assert_not_contains(h, "<link");
	assert_not_contains(h, "src=");
	assert_not_contains(h, "href=\"http");
	/* The evidence, escaped in the text (verbatim) and in the cell's entry. */
	assert_contains(h, "<pre>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;\n"
			   "line &lt;b&gt;2&lt;/b&gt; # not a directive</pre>");
	assert_contains(h, "evidence: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; "
			   "&#39;q&#39;&#10;line &lt;b&gt;2&lt;/b&gt; # not a directive</li>");
	/* A cell links to its entry, out of the tab order; the attack's name
	 * to its row's, shown as what its group's header does not say (the
	 * rest kept for a screen reader, the full name its title); no tooltip
	 * holds the evidence. */
	assert_contains(h, "tabindex=\"-1\">H</a></td>");
	assert_contains(h, "<th scope=\"row\" class=\"a\"><a href=\"#e1-1\" "
			   "title=\"MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4\"><span class=\"pfx\">"
			   "MEMCPY_INTRA_BEFORE_ARM_</span>FUNC_<wbr>DATA_<wbr>WRITE_<wbr>CR4</a></th>");
	assert_contains(h, "<div class=\"ev\" id=\"e1-1\">");
	assert_contains(h, "<li id=\"e1-1-1\">");
	assert_not_contains(h, "\" title=\"MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4 ");
	assert_not_contains(h, "<b>2");
	assert_contains(h, "<span class=\"no\">no</span>: probe: &lt;kcfi&gt; &amp; &quot;missing&quot;");
	assert_contains(h, "AddressSanitizer &lt;asan&gt; &amp; co");
	assert_contains(h, "<title>timerharness results: ci&lt;runner&gt;&amp;&quot;x&quot;, ");
	/* Every cell is in a grid with its outcome. */
	for (size_t i = 0; i < r->ncells; i++)
		assert_html_cell(h, r->cells[i]);
	/* The headline findings are the shared ones. */
	assert_contains(h, "<h3>e. Does generalize-pointers let a <code>struct cred *</code> function "
			   "through where plain cfi-icall does not?</h3>");
	assert_contains(h, "<p class=\"banner\">About the <code>fortify</code> config:");
	assert_contains(h, "<h3>i. Which cells regressed, and which differ between toolchains?</h3>");
	/* Grid heads: variant groups over configs, rows grouped. */
	assert_contains(h, "<th scope=\"colgroup\" class=\"v vs\" colspan=\"5\">modern</th>");
	assert_contains(h, "<tr class=\"g\"><th scope=\"rowgroup\" colspan=\"16\"><span>memcpy-intra, pending"
			   "</span></th></tr>");
	assert_contains(h, "<th scope=\"col\" class=\"cfg\" title=\"-O2 -fsanitize=kcfi\">kcfi</th>");
	assert_contains(h, "<td class=\"c o-CRASHED vs\"><a href=\"#e");	/* runs disagreed ... */
	assert_contains(h, "runs: 5 (CRASHED 2, NO_EFFECT 3)&#10;expected: CRASHED&#10;verdict: pass");
	assert_contains(h, "\">C*</a></td>");
	free(h);
	th_results_free(r);
}

static void html_regression_framed(void **state)
{
	struct tmp *t = *state;
	char *h = render_to_text(t, th_render_html, DATA("doctored_hijacked.json"), "report.html");
	struct th_results *r = load_ok(DATA("doctored_hijacked.json"));

	for (size_t i = 0; i < r->ncells; i++)
		assert_html_cell(h, r->cells[i]);
	assert_contains(h, "<td class=\"c o-HIJACKED reg\"><a href=\"#e");
	assert_contains(h, "\">MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 "
			   "timer/modern/cfi-icall on clang-14&#10;outcome: HIJACKED&#10;runs: 1 (BLOCKED_CFI 1)"
			   "&#10;expected: BLOCKED_CFI&#10;verdict: regression&#10;");
	assert_contains(h, "\">H!</a></td>");
	assert_contains(h, "<strong>1 regression</strong> (framed in black)");
	assert_contains(h, "<tr class=\"regrow\"><td><code>MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4</code></td>"
			   "<td>timer</td><td>modern</td><td>cfi-icall</td><td><span class=\"o o-HIJACKED reg\">HIJACKED"
			   "</span> (regression; expected BLOCKED_CFI)</td>");
	assert_contains(h, "<strong>1 regression</strong>, 1 improvement, 1 new");
	free(h);
	h = render_to_text(t, th_render_html, DATA("partial.json"), "report.html");
	assert_contains(h, "<strong>Partial run</strong>: interrupted (SIGINT)");
	free(h);
	th_results_free(r);
}

/* ---- SARIF ---- */

static json_t *sarif_parse(const char *s)
{
	json_error_t e;
	json_t *j = json_loads(s, 0, &e);

	if (!j)
		fail_msg("not JSON: line %d: %s", e.line, e.text);
	return j;
}

static json_t *sarif_load(struct tmp *t, const char *fixture)
{
	char *s = render_to_text(t, th_render_sarif, fixture, "results.sarif");
	json_t *j = sarif_parse(s);

	free(s);
	return j;
}

/* The SARIF of a model in memory. */
static json_t *sarif_of(struct tmp *t, const struct th_results *r)
{
	char err[1024], *s;
	const char *path = tmp_file(t, "model.sarif");
	json_t *j;

	if (th_render_sarif(r, path, err, sizeof(err)))
		fail_msg("%s", err);
	s = slurp(path);
	j = sarif_parse(s);
	free(s);
	return j;
}

static const char *jstr(json_t *o, const char *path)
{
	json_t *v = json_object_get(o, path);

	if (!json_is_string(v))
		fail_msg("\"%s\" is not a string", path);
	return json_string_value(v);
}

static json_t *sarif_run(json_t *log)
{
	return json_array_get(json_object_get(log, "runs"), 0);
}

static json_t *sarif_results(json_t *log)
{
	return json_object_get(sarif_run(log), "results");
}

/* The result of cell identity "ATTACK/variant/config" (no toolchain), or NULL. */
static json_t *sarif_result(json_t *results, const char *key)
{
	size_t i;
	json_t *r;

	json_array_foreach(results, i, r) {
		json_t *fp = json_object_get(r, "partialFingerprints");

		if (!strcmp(jstr(fp, "timerharnessCell/v2"), key))
			return r;
	}
	return NULL;
}

static const char *sarif_hash(json_t *r)
{
	return jstr(json_object_get(r, "partialFingerprints"), "primaryLocationLineHash");
}

static struct th_cell *cell_of(struct th_results *r, const char *attack, enum th_variant v,
			       const char *config, const char *toolchain)
{
	struct th_cell *c = th_results_find_cell(r, NULL, attack, v, config, toolchain);

	if (!c)
		fail_msg("no cell %s %s/%s/%s", attack, th_variant_name(v), config, toolchain);
	return c;
}

/* The rules, and what GitHub's code scanning makes of a passing run's log:
 * the cells the gate accepts (declared weaknesses, improvements, a declared
 * FALSE_POSITIVE) are no results, since code scanning shows every result of
 * a rule with a security-severity as a security alert whatever its level. */
static void sarif_valid_and_levels(void **state)
{
	struct tmp *t = *state;
	json_t *j = sarif_load(t, DATA("doctored_hijacked.json")), *run, *rules, *results, *r, *v;
	static const char *const needed[] = { "HIJACKED", "REDIRECTED", "CRASHED", "HANG",
					      "FALSE_POSITIVE" };
	size_t i;

	assert_string_equal(jstr(j, "version"), "2.1.0");
	assert_contains(jstr(j, "$schema"), "sarif-2.1.0");
	assert_int_equal(json_array_size(json_object_get(j, "runs")), 1);
	run = sarif_run(j);
	v = json_object_get(json_object_get(run, "tool"), "driver");
	assert_string_equal(jstr(v, "name"), "timerharness");
	rules = json_object_get(v, "rules");
	for (size_t k = 0; k < sizeof(needed) / sizeof(needed[0]); k++) {
		json_t *rule = NULL;

		json_array_foreach(rules, i, r)
			if (!strcmp(jstr(r, "id"), needed[k]))
				rule = r;
		if (!rule)
			fail_msg("no rule %s", needed[k]);
		assert_true(strlen(jstr(json_object_get(rule, "shortDescription"), "text")) > 10);
		assert_true(strlen(jstr(json_object_get(rule, "fullDescription"), "text")) > 40);
		/* help.text: required by code scanning's reportingDescriptor. */
		assert_true(strlen(jstr(json_object_get(rule, "help"), "text")) > 40);
		/* Code scanning ranks security rules by security-severity. */
		v = json_object_get(rule, "properties");
		assert_string_equal(json_string_value(json_array_get(json_object_get(v, "tags"), 0)),
				    strcmp(needed[k], "FALSE_POSITIVE") ? "security" : "correctness");
		if (strcmp(needed[k], "FALSE_POSITIVE"))
			assert_true(atof(jstr(v, "security-severity")) >= 4.0);
	}
	/* The fixture's only finding: its doctored cell, which regressed. Its
	 * new BLOCKED_CFI cell is new but no finding; the rest pass or improved. */
	results = sarif_results(j);
	assert_int_equal(json_array_size(results), 1);
	r = sarif_result(results, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4/modern/cfi-icall");
	assert_non_null(r);
	/* Declared BLOCKED_CFI, HIJACKED: the severity table's lost CFI block,
	 * critical (report/severity.def). */
	assert_string_equal(jstr(r, "ruleId"), "CFI_BLOCK_LOST");
	v = json_array_get(rules, (size_t)json_integer_value(json_object_get(r, "ruleIndex")));
	assert_string_equal(jstr(v, "id"), "CFI_BLOCK_LOST");
	assert_true(atof(jstr(json_object_get(v, "properties"), "security-severity")) > 9.0);
	assert_string_equal(jstr(r, "level"), "error");
	assert_string_equal(jstr(r, "baselineState"), "new");
	assert_string_equal(jstr(json_object_get(r, "message"), "text"),
			    "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 timer/modern/cfi-icall on clang-14: HIJACKED "
			    "(expected BLOCKED_CFI, verdict regression). Evidence: SIGILL at 0x401234: "
			    "ud2 of a cfi-icall check site");
	{
		json_t *loc = json_array_get(json_object_get(r, "locations"), 0);
		json_t *phys = json_object_get(loc, "physicalLocation");

		/* No expectations recorded: the checkout's declaration, no line. */
		assert_string_equal(jstr(json_object_get(phys, "artifactLocation"), "uri"), "attacks/expected.tsv");
		assert_null(json_object_get(phys, "region"));
		assert_string_equal(jstr(json_array_get(json_object_get(loc, "logicalLocations"), 0), "name"),
				    "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4");
	}
	v = json_object_get(r, "properties");
	assert_string_equal(json_string_value(json_array_get(json_object_get(v, "toolchains"), 0)), "clang-14");
	v = json_array_get(json_object_get(v, "cells"), 0);
	assert_string_equal(jstr(v, "toolchain"), "clang-14");
	assert_string_equal(jstr(v, "expected"), "BLOCKED_CFI");
	assert_string_equal(jstr(v, "verdict"), "regression");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "counts"), "BLOCKED_CFI")), 1);
	/* Declared weaknesses, accepted by the gate: no result, no alert. */
	assert_null(sarif_result(results, "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4/legacy/cfi-icall"));
	assert_null(sarif_result(results, "MEMCPY_INTRA_BEFORE_ARM_NONE/transitional/cfi-icall"));
	assert_null(sarif_result(results, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4/modern/none"));
	assert_null(sarif_result(results, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4/modern/randstruct"));
	assert_null(sarif_result(results, "INDEX_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO/modern/cfi-icall"));
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(run, "invocations"), 0),
						 "executionSuccessful")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(run, "properties"), "findings")), 1);
	json_decref(j);

	/* A run that passes the gate: no result at all. */
	j = sarif_load(t, DATA("small.json"));
	assert_int_equal(json_array_size(sarif_results(j)), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(sarif_run(j), "properties"),
							    "findingsOmitted")), 0);
	json_decref(j);

	/* A partial run is not a successful execution, and says why. */
	j = sarif_load(t, DATA("partial.json"));
	run = sarif_run(j);
	v = json_array_get(json_object_get(run, "invocations"), 0);
	assert_true(json_is_false(json_object_get(v, "executionSuccessful")));
	assert_contains(jstr(json_object_get(json_array_get(json_object_get(v, "toolExecutionNotifications"), 0),
					     "message"), "text"), "interrupted: SIGINT");
	json_decref(j);
}

/* A regressed cell of an outcome no other rule reports is still a finding. */
static void sarif_other_regression(void **state)
{
	struct tmp *t = *state;
	struct th_results *r = load_ok(DATA("small.json"));
	struct th_cell *c = cell_of(r, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "kcfi",
				    "clang-22");
	json_t *j, *res;

	c->verdict = TH_VERDICT_REGRESSION;	/* as a baseline would have judged it */
	j = sarif_of(t, r);
	res = sarif_result(sarif_results(j), "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4/modern/kcfi");
	assert_non_null(res);
	assert_string_equal(jstr(res, "ruleId"), "REGRESSION");
	assert_string_equal(jstr(res, "level"), "error");
	json_decref(j);
	th_results_free(r);
}

/* A finding on two toolchains is one result, fingerprinted by the cell
 * without its toolchain or its line (code scanning matches alerts across
 * runs by primaryLocationLineHash): the same cell regressing on one
 * toolchain only, declared on another line, is the same alert. New
 * findings are warnings; paths are the checkout's, not this machine's. */
static void sarif_findings_across_toolchains(void **state)
{
	struct tmp *t = *state;
	char err[1024], hash[17];
	struct th_results *r = load_ok(DATA("small.json"));
	static const char *const atk = "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4";
	struct th_cell *c14 = cell_of(r, atk, TH_VARIANT_MODERN, "cfi-icall", "clang-14");
	struct th_cell *c22 = cell_of(r, atk, TH_VARIANT_MODERN, "cfi-icall", "clang-22");
	struct th_cell *n22 = cell_of(r, "INDEX_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO", TH_VARIANT_MODERN,
				      "cfi-icall", "clang-22");
	json_t *j, *results, *res, *props, *cells, *phys;

	assert_int_equal(th_results_set_expectations(r, TH_TEST_SOURCE_DIR "/attacks/expected.tsv",
		"0000000000000000000000000000000000000000000000000000000000000000", err, sizeof(err)), 0);
	assert_int_equal(th_cell_record_run(c14, TH_HIJACKED, err, sizeof(err)), 0);
	assert_int_equal(th_cell_record_run(c22, TH_HIJACKED, err, sizeof(err)), 0);
	assert_int_equal(th_cell_record_run(n22, TH_HIJACKED, err, sizeof(err)), 0);
	c14->expected_line = 42;
	c22->expected_line = 42;
	assert_int_equal(th_cell_set_rerun(c14, TH_TEST_SOURCE_DIR "/build/clang-14/cli/timerharness matrix "
		"--toolchain clang-14 --variant modern --config cfi-icall --attack MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 "
		"--expect " TH_TEST_SOURCE_DIR "/attacks/lenient.tsv", err, sizeof(err)), 0);
	j = sarif_of(t, r);
	results = sarif_results(j);
	assert_int_equal(json_array_size(results), 2);
	/* Most severe first: the regression, then the new finding. */
	res = json_array_get(results, 0);
	assert_ptr_equal(res, sarif_result(results, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4/modern/cfi-icall"));
	assert_string_equal(jstr(res, "level"), "error");
	assert_string_equal(jstr(json_object_get(res, "message"), "text"),
			    "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 timer/modern/cfi-icall on clang-14 and clang-22: "
			    "HIJACKED (expected BLOCKED_CFI, verdict regression, 2 runs). Evidence on clang-14: "
			    "SIGILL at 0x401234: ud2 of a cfi-icall check site; on clang-22: SIGILL at 0x401250: "
			    "ud2 of a cfi-icall check site");
	props = json_object_get(res, "properties");
	assert_int_equal(json_array_size(json_object_get(props, "toolchains")), 2);
	assert_null(json_object_get(props, "toolchain"));
	cells = json_object_get(props, "cells");
	assert_string_equal(jstr(json_array_get(cells, 1), "toolchain"), "clang-22");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(cells, 0), "expectedLine")), 42);
	/* Relative to the repository's root, wherever it was checked out. */
	assert_string_equal(jstr(json_array_get(cells, 0), "rerun"),
			    "build/clang-14/cli/timerharness matrix --toolchain clang-14 --variant modern "
			    "--config cfi-icall --attack MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 --expect "
			    "attacks/lenient.tsv");
	phys = json_object_get(json_array_get(json_object_get(res, "locations"), 0), "physicalLocation");
	assert_string_equal(jstr(json_object_get(phys, "artifactLocation"), "uri"), "attacks/expected.tsv");
	assert_string_equal(jstr(json_object_get(phys, "artifactLocation"), "uriBaseId"), "%SRCROOT%");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(phys, "region"), "startLine")), 42);
	assert_int_equal(strlen(sarif_hash(res)), 16);
	snprintf(hash, sizeof(hash), "%s", sarif_hash(res));
	/* No toolchain in the identity. */
	assert_string_equal(jstr(json_object_get(res, "partialFingerprints"), "timerharnessCell/v2"),
			    "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4/modern/cfi-icall");
	/* The new finding: a warning, its own fingerprint. */
	res = json_array_get(results, 1);
	assert_ptr_equal(res, sarif_result(results, "INDEX_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO/modern/cfi-icall"));
	assert_string_equal(jstr(res, "ruleId"), "HIJACKED");
	assert_string_equal(jstr(res, "level"), "warning");
	assert_string_equal(jstr(res, "baselineState"), "new");
	assert_string_not_equal(sarif_hash(res), hash);
	json_decref(j);
	th_results_free(r);

	/* The same cell on clang-22 alone, declared on another line. */
	r = load_ok(DATA("small.json"));
	c22 = cell_of(r, atk, TH_VARIANT_MODERN, "cfi-icall", "clang-22");
	assert_int_equal(th_cell_record_run(c22, TH_HIJACKED, err, sizeof(err)), 0);
	c22->expected_line = 57;
	j = sarif_of(t, r);
	results = sarif_results(j);
	assert_int_equal(json_array_size(results), 1);
	assert_string_equal(sarif_hash(json_array_get(results, 0)), hash);
	json_decref(j);
	th_results_free(r);
}

/* JUnit names the expectations and the rerun commands as the repository
 * has them, not by this machine's path. */
static void junit_paths_relative(void **state)
{
	struct tmp *t = *state;
	char err[1024], *xml;
	struct th_results *r = load_ok(DATA("small.json"));
	struct th_cell *c = cell_of(r, "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", TH_VARIANT_MODERN, "cfi-icall",
				    "clang-14");
	const char *path = tmp_file(t, "junit.xml");

	assert_int_equal(th_results_set_expectations(r, TH_TEST_SOURCE_DIR "/attacks/expected.tsv",
		"0000000000000000000000000000000000000000000000000000000000000000", err, sizeof(err)), 0);
	assert_int_equal(th_cell_record_run(c, TH_HIJACKED, err, sizeof(err)), 0);
	assert_int_equal(th_cell_set_rerun(c, TH_TEST_SOURCE_DIR "/build/clang-14/cli/timerharness matrix "
		"--toolchain clang-14", err, sizeof(err)), 0);
	assert_int_equal(th_render_junit(r, path, err, sizeof(err)), 0);
	xml = slurp(path);
	assert_contains(xml, "<property name=\"expectations\" value=\"attacks/expected.tsv\"/>");
	assert_contains(xml, "rerun: build/clang-14/cli/timerharness matrix --toolchain clang-14");
	assert_null(strstr(xml, TH_TEST_SOURCE_DIR "/"));
	free(xml);
	th_results_free(r);
}

/* Code scanning keeps 5,000 results of a run: past that the log holds the
 * most severe, and the log, th_render_sarif_cap_note() and the set's
 * warnings (what matrix and kernel print) say how many were left out. */
static void sarif_result_cap(void **state)
{
	struct tmp *t = *state;
	char err[1024], note[1024], warn[2048], attack[32];
	struct th_results *r = th_results_create("0.1.0-test");
	size_t i;
	json_t *j, *results, *res, *v;

	assert_non_null(r);
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22.1.8", "/usr/bin/clang-22", err,
						  sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "cfi-icall", "-fsanitize=cfi-icall", "cfi", err,
					       sizeof(err)), 0);
	/* 4,999 CRASHED and 2 HIJACKED regressions (declared NO_EFFECT: no
	 * CFI block lost), 1 new HIJACKED: 5,002. */
	for (i = 0; i < TH_SARIF_MAX_RESULTS + 2; i++) {
		struct th_cell_in in = {
			.attack = attack, .technique = "memcpy-intra", .payload = "func:write_cr4",
			.variant = TH_VARIANT_MODERN, .config = "cfi-icall", .toolchain = "clang-22",
			.outcome = i < 2 || i == TH_SARIF_MAX_RESULTS + 1 ? TH_HIJACKED : TH_CRASHED,
			.runs = 1, .evidence = "x",
			.expected = i == TH_SARIF_MAX_RESULTS + 1 ? TH_OUTCOME_INVALID : TH_NO_EFFECT,
		};

		snprintf(attack, sizeof(attack), "A%05zu", TH_SARIF_MAX_RESULTS + 2 - i);
		assert_non_null(th_results_add_cell(r, &in, err, sizeof(err)));
	}
	assert_int_equal(th_render_sarif_cap_note(r, note, sizeof(note)), 1);
	assert_string_equal(note, "report.sarif: 5002 findings, more than the 5000 results of a run GitHub "
			    "code scanning keeps: the 5000 most severe are in it, 2 left out (results.json "
			    "and junit.xml have every cell)");
	j = sarif_of(t, r);
	results = sarif_results(j);
	assert_int_equal(json_array_size(results), TH_SARIF_MAX_RESULTS);
	/* The HIJACKED regressions first, then the crashes (REGRESSION), the
	 * new finding (a warning) left out. */
	assert_string_equal(jstr(json_array_get(results, 0), "ruleId"), "HIJACKED");
	assert_string_equal(jstr(json_array_get(results, 1), "ruleId"), "HIJACKED");
	assert_string_equal(jstr(json_array_get(results, 2), "ruleId"), "REGRESSION");
	json_array_foreach(results, i, res)
		assert_string_equal(jstr(res, "level"), "error");
	v = json_object_get(sarif_run(j), "properties");
	assert_int_equal(json_integer_value(json_object_get(v, "findings")), TH_SARIF_MAX_RESULTS + 2);
	assert_int_equal(json_integer_value(json_object_get(v, "findingsOmitted")), 2);
	v = json_array_get(json_object_get(sarif_run(j), "invocations"), 0);
	assert_string_equal(jstr(json_object_get(json_array_get(json_object_get(v, "toolExecutionNotifications"), 0),
						 "message"), "text"), note);
	assert_true(json_is_true(json_object_get(v, "executionSuccessful")));
	json_decref(j);
	assert_int_equal(th_render_write_set(r, t->dir, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_contains(warn, note);
	th_results_free(r);

	/* Within the limit: nothing to say. */
	r = load_ok(DATA("small.json"));
	assert_int_equal(th_render_sarif_cap_note(r, note, sizeof(note)), 0);
	assert_string_equal(note, "");
	th_results_free(r);
}

/* ---- KTAP ---- */

/* Checks the KTAP structure: version lines, plans that match the number of
 * results, results numbered from 1, every line of a known kind, subtests
 * indented by four spaces. Return: the top-level plan. */
static int ktap_check(const char *text)
{
	char *copy = strdup(text), *save = NULL;
	int plan[2] = { -1, -1 }, seen[2] = { 0, 0 }, top_plan = -1;
	bool version[2] = { false, false };

	assert_non_null(copy);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int d = !strncmp(l, "    ", 4);
		const char *b = l + 4 * d;
		int n;

		if (d && !strncmp(b, "    ", 4))
			fail_msg("nested too deep: %s", l);
		if (!strcmp(b, "KTAP version 1")) {
			version[d] = true;
			if (d) {
				plan[1] = -1;
				seen[1] = 0;
			}
		} else if (sscanf(b, "1..%d", &n) == 1) {
			assert_true(version[d]);
			plan[d] = n;
			if (!d)
				top_plan = n;
		} else if (!strncmp(b, "ok ", 3) || !strncmp(b, "not ok ", 7)) {
			const char *num = b + (b[0] == 'o' ? 3 : 7);

			assert_true(plan[d] >= 0);
			if (atoi(num) != ++seen[d])
				fail_msg("result numbered %d, expected %d: %s", atoi(num), seen[d], l);
			if (!d) {	/* the parent's result closes its subtests */
				if (seen[1] != plan[1])
					fail_msg("subtest plan 1..%d, %d results", plan[1], seen[1]);
				seen[1] = 0;
				plan[1] = -1;
			}
			/* The description is one word; '#' only starts a directive. */
			const char *sp = strchr(num, ' ');
			assert_non_null(sp);
			assert_true(sp[1] != ' ' && sp[1] != '#');
			const char *hash = strchr(sp, '#');
			if (hash)
				assert_true(!strncmp(hash, "# SKIP ", 7));
		} else if (b[0] != '#') {
			fail_msg("unknown line: %s", l);
		}
	}
	if (seen[0] != plan[0])
		fail_msg("top-level plan 1..%d, %d results", plan[0], seen[0]);
	free(copy);
	return top_plan;
}

static void ktap_plan_and_results(void **state)
{
	struct tmp *t = *state;
	char *k = render_to_text(t, th_render_ktap, DATA("doctored_hijacked.json"), "results.ktap");

	assert_true(!strncmp(k, "KTAP version 1\n", 15));
	assert_int_equal(ktap_check(k), 2);
	assert_contains(k, "\n1..2\n    KTAP version 1\n    # Subtest: clang-14\n    1..9\n");
	assert_contains(k, "\n    KTAP version 1\n    # Subtest: clang-22\n    1..6\n");
	/* The regression fails, and fails its toolchain. */
	assert_contains(k, "    # outcome=HIJACKED runs=1 expected=BLOCKED_CFI verdict=regression "
			   "evidence=SIGILL at 0x401234: ud2 of a cfi-icall check site\n"
			   "    not ok 6 MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4.timer.modern.cfi-icall\n");
	assert_contains(k, "\nnot ok 1 clang-14\n");
	assert_contains(k, "\nok 2 clang-22\n");
	/* UNSUPPORTED is skipped, with the probe's reason. */
	assert_contains(k, "    ok 7 MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4.timer.modern.kcfi # SKIP UNSUPPORTED: "
			   "probe: clang 14 has no -fsanitize=kcfi\n");
	assert_contains(k, "# clang-14 (14.0.6): 9 cells: 7 ok, 1 not ok, 1 skipped\n");
	/* improvement and new are ok; counts of disagreeing runs are shown. */
	assert_contains(k, "verdict=improvement evidence=SIGSEGV at 0x0\n"
			   "    ok 2 MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4.timer.modern.none\n");
	assert_contains(k, "expected=none verdict=new ");
	assert_contains(k, "# outcome=CRASHED counts=CRASHED:2,NO_EFFECT:3 runs=5 ");
	free(k);

	/* Evidence with newlines, '#' and markup stays on its diagnostic line. */
	k = render_to_text(t, th_render_ktap, DATA("markup.json"), "results.ktap");
	assert_int_equal(ktap_check(k), 2);
	assert_contains(k, "evidence=<script>alert(\"x\")</script> & 'q'\\nline <b>2</b> # not a directive\n"
			   "    ok 2 MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4.timer.legacy.cfi-icall\n");
	assert_contains(k, "# SKIP UNSUPPORTED: probe: <kcfi> & \"missing\"\n");
	assert_not_contains(k, "\nnot ok");
	assert_not_contains(k, "    not ok");
	free(k);

	/* A toolchain without cells is skipped with an empty plan. */
	char err[512];
	struct th_results *r = th_results_create("1");
	const char *path = tmp_file(t, "empty.ktap");

	assert_int_equal(th_results_add_toolchain(r, "clang-14", "14", "", err, sizeof(err)), 0);
	assert_int_equal(th_render_ktap(r, path, err, sizeof(err)), 0);
	k = slurp(path);
	assert_int_equal(ktap_check(k), 1);
	assert_contains(k, "    1..0\n# clang-14 (14): 0 cells: 0 ok, 0 not ok, 0 skipped\n"
			   "ok 1 clang-14 # SKIP no cells in the results\n");
	free(k);
	th_results_free(r);
}

static void ktap_partial_and_not_applicable(void **state)
{
	struct tmp *t = *state;
	char err[512];
	struct th_results *r = load_ok(DATA("partial.json"));
	struct th_cell_in in = { "MEMCPY_INTRA_BEFORE_ARM_DATA_FAKE_OBJECT", "memcpy-intra", "before-arm",
				 "data:fake-object", TH_VARIANT_MODERN, "none", "clang-22",
				 TH_NOT_APPLICABLE, 0, NULL, "no .data on the 4.15 layout",
				 TH_NOT_APPLICABLE, 0, NULL, 0, NULL, 0, TH_API_TIMER };
	const char *path = tmp_file(t, "partial.ktap");

	assert_non_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_int_equal(th_render_ktap(r, path, err, sizeof(err)), 0);
	char *k = slurp(path);
	assert_int_equal(ktap_check(k), 2);
	assert_contains(k, "\n# partial run (interrupted: SIGINT): cells not listed were not run\n1..2\n");
	const char *l = strstr(k, " MEMCPY_INTRA_BEFORE_ARM_DATA_FAKE_OBJECT.timer.modern.none # SKIP NOT_APPLICABLE: "
				  "no .data on the 4.15 layout\n");
	assert_non_null(l);
	while (l > k && l[-1] != '\n')
		l--;
	assert_true(!strncmp(l, "    ok ", 7));
	free(k);
	th_results_free(r);
}

/* ---- a probabilistic cell's declared set, in every output ---- */

static void expected_sets_shown(void **state)
{
	struct tmp *t = *state;
	char err[1024] = "", path[300];
	struct th_results *r = th_results_create("0.1.0-test"), *back;
	const th_outcome_set set = TH_OUTCOME_BIT(TH_REDIRECTED) | TH_OUTCOME_BIT(TH_CRASHED) |
				   TH_OUTCOME_BIT(TH_NO_EFFECT);
	static const unsigned regressed[TH_OUTCOME_COUNT] = { [TH_HIJACKED] = 1, [TH_CRASHED] = 4 };
	static const unsigned in_set[TH_OUTCOME_COUNT] = { [TH_CRASHED] = 2, [TH_NO_EFFECT] = 3 };
	struct th_cell_in in = {
		.attack = "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", .technique = "memcpy-intra",
		.timing = "before-arm", .payload = "func:write_cr4", .variant = TH_VARIANT_MODERN,
		.config = "randstruct", .toolchain = "clang-22", .outcome = TH_OUTCOME_INVALID,
		.counts = regressed, .evidence = "seed 3: target ran: name=write_cr4 chosen=1 val=0x407f0",
		.expected = TH_REDIRECTED,
		.expected_line = 7, .expected_set = set,
	};
	struct th_cell *c;

	assert_non_null(r);
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22.1.8", "/usr/bin/clang-22", err,
						  sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "randstruct", "-frandomize-layout-seed=@SEED@", "rs",
					       err, sizeof(err)), 0);
	assert_non_null(c = th_results_add_cell(r, &in, err, sizeof(err)));
	assert_int_equal(c->verdict, TH_VERDICT_REGRESSION);
	in.attack = "MEMCPY_INTRA_BEFORE_ARM_FUNC_SAME_CLASS";
	in.payload = "func:same-class";
	in.counts = in_set;
	assert_non_null(c = th_results_add_cell(r, &in, err, sizeof(err)));
	assert_int_equal(c->verdict, TH_VERDICT_PASS);
	/* Every report that says what was expected says the set. */
	static const enum th_render_format shown[] = { TH_RENDER_MARKDOWN, TH_RENDER_HTML,
						       TH_RENDER_JUNIT, TH_RENDER_SARIF, TH_RENDER_KTAP };
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		snprintf(path, sizeof(path), "%s/sets.%s", t->dir, th_render_format_name(shown[i]));
		if (th_render_format_file(path, shown[i], r, err, sizeof(err)))
			fail_msg("%s: %s", th_render_format_name(shown[i]), err);
		char *text = slurp(path);
		if (!strstr(text, "REDIRECTED|CRASHED|NO_EFFECT"))
			fail_msg("%s does not show the declared set", th_render_format_name(shown[i]));
		free(text);
		unlink(path);
	}
	/* results.json keeps it: expected the worst, expected_set all of it. */
	snprintf(path, sizeof(path), "%s/sets.json", t->dir);
	assert_int_equal(th_results_write(r, path, err, sizeof(err)), 0);
	char *json = slurp(path);
	assert_contains(json, "\"expected_set\": [\n        \"REDIRECTED\",\n        \"CRASHED\",\n"
			      "        \"NO_EFFECT\"\n      ]");
	back = load_ok(path);
	assert_int_equal(back->ncells, 2);
	for (size_t i = 0; i < back->ncells; i++) {
		assert_int_equal(back->cells[i]->expected, TH_REDIRECTED);
		assert_int_equal(back->cells[i]->expected_set, set);
		assert_int_equal(th_cell_verdict(back->cells[i], TH_OUTCOME_INVALID),
				 back->cells[i]->verdict);
	}
	th_results_free(back);
	/* A set whose most severe member is not expected is refused. */
	char *doctored = strdup(json), *at = strstr(doctored, "\"expected\": \"REDIRECTED\"");
	assert_non_null(at);
	memcpy(at + strlen("\"expected\": \""), "NO_EFFECT\" ", strlen("NO_EFFECT\" "));
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(doctored, f);
	fclose(f);
	expect_load_error(path, "expected_set");
	free(doctored);
	free(json);
	unlink(path);
	th_results_free(r);
}

/* ---- formats ---- */

static void formats_by_name(void **state)
{
	struct tmp *t = *state;
	char err[1024] = "", path[300];
	struct th_results *r = load_ok(DATA("small.json"));

	for (int i = 0; i < TH_RENDER_FORMAT_COUNT; i++) {
		enum th_render_format f = (enum th_render_format)i;
		const char *name = th_render_format_name(f);

		assert_non_null(name);
		assert_int_equal(th_render_format_parse(name), f);
		snprintf(path, sizeof(path), "%s/out.%s", t->dir, name);
		if (th_render_format_file(path, f, r, err, sizeof(err)))
			fail_msg("%s: %s", name, err);
		char *s = slurp(path);
		/* GitLab's Code Quality report of a run with no finding is "[]". */
		if (f == TH_RENDER_CODEQUALITY)
			assert_true(s[0] == '[' && strlen(s) >= 3);
		else
			assert_true(strlen(s) > 100);
		if (f == TH_RENDER_MATRIX)	/* never coloured in a file */
			assert_not_contains(s, "\033[");
		free(s);
	}
	assert_int_equal(count_entries(t->dir), TH_RENDER_FORMAT_COUNT);
	assert_int_equal(th_render_format_parse("markdown"), TH_RENDER_FORMAT_INVALID);
	assert_int_equal(th_render_format_parse("HTML"), TH_RENDER_FORMAT_INVALID);
	assert_null(th_render_format_name(TH_RENDER_FORMAT_COUNT));
	/* A failed write leaves nothing behind. */
	snprintf(path, sizeof(path), "%s/missing/out.html", t->dir);
	assert_int_equal(th_render_format_file(path, TH_RENDER_HTML, r, err, sizeof(err)), -1);
	assert_contains(err, "No such file or directory");
	assert_int_equal(count_entries(t->dir), TH_RENDER_FORMAT_COUNT);
	th_results_free(r);
}

/* ---- text that leaves the program ---- */

/* gate_controls.json: escape sequences, a bidi override, noncharacters and
 * a CR in evidence; a newline in a toolchain version; escapes in a path, a
 * probe reason and the reason a run was interrupted. */
#define CONTROLS DATA("gate_controls.json")

static void ktap_escapes(void **state)
{
	struct tmp *t = *state;
	char *k = render_to_text(t, th_render_ktap, CONTROLS, "controls.ktap");

	assert_shows_only("ktap", k, true);
	ktap_check(k);		/* every line of a known kind: none injected */
	assert_not_contains(k, "\nBail out!");
	assert_contains(k, "\n# clang-22 (22.1.8\\nBail out! injected): 27 cells:");
	assert_contains(k, "evidence=ran\\x1b[2J\\u009b31m \\u202egnp.exe\\u202c \\ufffe \\uffff end\\rover"
			   "\\nnext\tcol \\x7f\n");
	free(k);
}

/* XML 1.0's Char production: TAB, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD,
 * U+10000..U+10FFFF; the text must also be UTF-8 throughout. */
static void assert_xml_chars(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p) {
		unsigned long cp = *p;
		size_t n = cp < 0x80 ? 1 : cp >= 0xf0 ? 4 : cp >= 0xe0 ? 3 : 2;

		for (size_t i = 1; i < n; i++) {
			assert_true((p[i] & 0xc0) == 0x80);
			cp = (i == 1 ? cp & (0xff >> (n + 1)) : cp) << 6 | (p[i] & 0x3f);
		}
		if (!(cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
		      (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)))
			fail_msg("U+%04lX is not an XML 1.0 Char (byte %zu)", cp,
				 (size_t)(p - (const unsigned char *)text));
		p += n;
	}
}

/* A harness error fails its testcase and is counted once: not skipped. */
static void junit_harness_error(void **state)
{
	struct tmp *t = *state;
	char *x = render_to_text(t, th_render_junit, DATA("gate_harness.json"), "harness.xml");

	/* Ant's "error": the test could not be carried out. */
	assert_contains(x, "tests=\"27\" failures=\"0\" errors=\"1\" skipped=\"");
	assert_contains(x, "      <error type=\"HARNESS_ERROR\" message=\"observed HARNESS_ERROR, expected ");
	free(x);
}

static void junit_escapes(void **state)
{
	struct tmp *t = *state;
	char *x = render_to_text(t, th_render_junit, CONTROLS, "controls.xml");

	assert_xml_chars(x);
	assert_shows_only("junit", x, true);
	assert_contains(x, "ran\\x1b[2J\\u009b31m \\u202egnp.exe\\u202c \\ufffe \\uffff end&#13;over\nnext");
	assert_contains(x, "<skipped message=\"UNSUPPORTED: no kcfi\\x1b]0;title\\x07\"/>");
	free(x);
}

static void markdown_escapes(void **state)
{
	struct tmp *t = *state;
	char *md = render_md(t, CONTROLS);

	assert_shows_only("markdown", md, false);
	assert_contains(md, "22.1.8 Bail out! injected");
	assert_contains(md, "target ran: name=write_cr4 chosen=1 \\x1b[2J\\u009b31m \\u202egnp.exe\\u202c \\ufffe end\\rover\nnext\n");
	assert_contains(md, "SIGINT\\x1b\\[2J");
	free(md);
}

static void html_escapes(void **state)
{
	struct tmp *t = *state;
	char *h = render_to_text(t, th_render_html, CONTROLS, "controls.html");

	assert_shows_only("html", h, true);
	assert_contains(h, "ran\\x1b[2J\\u009b31m \\u202egnp.exe\\u202c \\ufffe \\uffff end");
	free(h);
}

static void matrix_escapes(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	struct th_results *r = load_ok(CONTROLS);

	assert_int_equal(th_render_matrix(f, r, 0), 0);
	fclose(f);
	assert_shows_only("matrix", text, false);
	assert_contains(text, "== clang-22 (22.1.8\\nBail out! injected, /usr/bin/clang-22\\x1b[31m) ==\n");
	assert_contains(text, "PARTIAL results (interrupted: SIGINT\\x1b[2J)");
	free(text);
	th_results_free(r);
}

/* ---- files replaced ---- */

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode;
}

/* Only a regular file is replaced, and it keeps its mode. */
static void write_only_regular_files(void **state)
{
	struct tmp *t = *state;
	char err[1024], target[300], link[300], fifo[300];
	struct th_results *r = load_ok(DATA("small.json"));

	snprintf(target, sizeof(target), "%s", tmp_file(t, "target.md"));
	snprintf(link, sizeof(link), "%s", tmp_file(t, "link.md"));
	snprintf(fifo, sizeof(fifo), "%s", tmp_file(t, "fifo.md"));
	spit(target, "kept\n");
	assert_int_equal(chmod(target, 0640), 0);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);

	assert_int_equal(th_render_markdown(r, link, err, sizeof(err)), -1);
	assert_contains(err, "link.md: cannot replace it: a symbolic link, not a regular file");
	assert_true(S_ISLNK(mode_of(link)));
	char *s = slurp(target);
	assert_string_equal(s, "kept\n");
	free(s);
	assert_int_equal(th_render_markdown(r, fifo, err, sizeof(err)), -1);
	assert_contains(err, "fifo.md: cannot replace it: a FIFO, not a regular file");
	assert_true(S_ISFIFO(mode_of(fifo)));
	assert_int_equal(th_render_out_ok(fifo, err, sizeof(err)), -1);
	assert_int_equal(th_render_out_ok("/dev/null", err, sizeof(err)), -1);
	assert_contains(err, "/dev/null: cannot replace it: a character device, not a regular file");

	assert_int_equal(th_render_markdown(r, target, err, sizeof(err)), 0);
	assert_int_equal(mode_of(target) & 07777, 0640);
	s = slurp(target);
	assert_true(!strncmp(s, "# timerharness results", 22));
	free(s);
	assert_int_equal(count_entries(t->dir), 3);	/* no temporary left */
	th_results_free(r);
}

/* One run's files: all four replaced, or none (a target that cannot be
 * replaced fails the set before anything is renamed). */
static void output_set_all_or_none(void **state)
{
	struct tmp *t = *state;
	char err[1024], path[300];
	struct th_results *r = load_ok(DATA("gate.json"));

	for (size_t i = 0; th_render_set_name(i); i++) {
		snprintf(path, sizeof(path), "%s/%s", t->dir, th_render_set_name(i));
		if (!strcmp(th_render_set_name(i), "junit.xml"))
			assert_int_equal(mkdir(path, 0755), 0);
		else
			spit(path, "old\n");
	}
	assert_int_equal(th_render_output_set(r, t->dir, err, sizeof(err)), -1);
	assert_contains(err, "junit.xml: cannot replace it: a directory, not a regular file");
	for (size_t i = 0; th_render_set_name(i); i++) {
		snprintf(path, sizeof(path), "%s/%s", t->dir, th_render_set_name(i));
		if (strcmp(th_render_set_name(i), "junit.xml")) {
			char *s = slurp(path);

			assert_string_equal(s, "old\n");
			free(s);
		}
	}
	assert_int_equal(count_entries(t->dir), 5);	/* no temporary left */

	snprintf(path, sizeof(path), "%s/junit.xml", t->dir);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/report.md", t->dir);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(th_render_output_set(r, t->dir, err, sizeof(err)), 0);
	assert_int_equal(count_entries(t->dir), 5);
	assert_int_equal(mode_of(path) & 07777, 0600);
	snprintf(path, sizeof(path), "%s/results.json", t->dir);
	th_results_free(r);
	r = load_ok(path);
	assert_int_equal(r->ncells, 54);
	assert_non_null(r->expect_sha256);
	assert_true(r->has_selection);
	th_results_free(r);
}

/* The results schema (docs/schema) names the outcomes of results/outcome.h,
 * all of them, in severity order: a new outcome cannot be written before
 * the published contract says what it is. */
static void schema_names_the_outcomes(void **state)
{
	(void)state;
	json_error_t je;
	json_t *s = json_load_file(TH_SCHEMA_DIR "/results.schema.json", 0, &je), *e;
	size_t i;

	if (!s)
		fail_msg("%s: line %d: %s", TH_SCHEMA_DIR "/results.schema.json", je.line, je.text);
	e = json_object_get(json_object_get(json_object_get(s, "$defs"), "outcome"), "enum");
	assert_int_equal(json_array_size(e), TH_OUTCOME_COUNT);
	for (i = 0; i < TH_OUTCOME_COUNT; i++)
		assert_string_equal(json_string_value(json_array_get(e, i)),
				    th_outcome_name((enum th_outcome)i));
	json_decref(s);
}

/* One case; tests/report.cmake registers every TH_CASE line with CTest. */
#define TH_CASE(name) cmocka_unit_test_setup_teardown(name, tmp_setup, tmp_teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		TH_CASE(round_trip_equal),
		TH_CASE(write_is_deterministic),
		TH_CASE(write_missing_dir_creates_nothing),
		TH_CASE(write_failure_keeps_destination),
		TH_CASE(load_small),
		TH_CASE(load_missing_file),
		TH_CASE(load_not_a_file),
		TH_CASE(load_not_json),
		TH_CASE(load_wrong_schema),
		TH_CASE(load_unknown_outcome),
		TH_CASE(load_unknown_config),
		TH_CASE(load_unknown_toolchain),
		TH_CASE(load_unknown_variant),
		TH_CASE(load_unknown_api),
		TH_CASE(api_round_trip),
		TH_CASE(load_unknown_verdict),
		TH_CASE(load_missing_field),
		TH_CASE(load_wrong_type),
		TH_CASE(load_duplicate_cell),
		TH_CASE(load_strict_fields),
		TH_CASE(add_cell_validates),
		TH_CASE(record_runs_and_metrics),
		TH_CASE(verdict_table),
		TH_CASE(verdict_sets),
		TH_CASE(outcome_set_parse),
		TH_CASE(expected_sets_shown),
		TH_CASE(check_pass),
		TH_CASE(check_doctored_regression),
		TH_CASE(check_doctored_api),
		TH_CASE(check_unbacked),
		TH_CASE(check_every_cell_unbacked),
		TH_CASE(check_evidence_unproven),
		TH_CASE(check_every_cell_unproven),
		TH_CASE(check_evidence_defence_unbuilt),
		TH_CASE(evidence_forms),
		TH_CASE(evidence_forms_kernel_goldens),
		TH_CASE(check_json_regression),
		TH_CASE(check_stored_verdict_ignored),
		TH_CASE(check_hidden_by_null_expectation),
		TH_CASE(check_hidden_by_hijacked_expectation),
		TH_CASE(check_hidden_by_unsupported_expectation),
		TH_CASE(check_hidden_by_not_applicable_expectation),
		TH_CASE(check_other_expectations),
		TH_CASE(check_lost_defence),
		TH_CASE(check_could_not_run),
		TH_CASE(check_support_flip),
		TH_CASE(check_empty),
		TH_CASE(check_shrunk),
		TH_CASE(check_slice),
		TH_CASE(check_slice_short),
		TH_CASE(check_partial),
		TH_CASE(check_partial_against_baseline),
		TH_CASE(check_harness_error),
		TH_CASE(check_harness_error_counted),
		TH_CASE(check_unplanned),
		TH_CASE(check_no_provenance),
		TH_CASE(check_bad_input),
		TH_CASE(check_baseline_regression),
		TH_CASE(check_stdout_unwritable),
		TH_CASE(check_escapes),
		TH_CASE(markdown_headlines),
		TH_CASE(markdown_regression_listed),
		TH_CASE(markdown_write_fails_cleanly),
		TH_CASE(matrix_small),
		TH_CASE(matrix_wide_uses_keys),
		TH_CASE(junit_output),
		TH_CASE(matrix_no_trailing_spaces),
		TH_CASE(html_escapes_and_shows_every_cell),
		TH_CASE(html_regression_framed),
		TH_CASE(sarif_valid_and_levels),
		TH_CASE(sarif_other_regression),
		TH_CASE(sarif_findings_across_toolchains),
		TH_CASE(junit_paths_relative),
		TH_CASE(sarif_result_cap),
		TH_CASE(ktap_plan_and_results),
		TH_CASE(ktap_partial_and_not_applicable),
		TH_CASE(formats_by_name),
		TH_CASE(ktap_escapes),
		TH_CASE(junit_harness_error),
		TH_CASE(junit_escapes),
		TH_CASE(markdown_escapes),
		TH_CASE(html_escapes),
		TH_CASE(matrix_escapes),
		TH_CASE(write_only_regular_files),
		TH_CASE(output_set_all_or_none),
		TH_CASE(schema_names_the_outcomes),
	};

	if (argc < 2)
		return cmocka_run_group_tests_name("report", tests, NULL, NULL);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(tests[i].name, argv[1]))
			return _cmocka_run_group_tests("report", &tests[i], 1, NULL, NULL);
	fprintf(stderr, "report_test: no case \"%s\"\n", argv[1]);
	return 2;
}
