/* SPDX-License-Identifier: MIT */
/*
 * results_json: results.json (results/results.h) from load to every output.
 * A fuzz target of report/'s views and gate, so it lies beside them; it is
 * built, packaged and replayed as every target is (fuzz/CMakeLists.txt,
 * th_fuzz_add MAIN), its corpus and dictionary under fuzz/.
 *
 * Input: the bytes of a results.json.
 * Oracle:
 *  - a file th_results_load() refuses is bad input to `check`
 *    (th_check_main exits 2), and the loader's message names the file;
 *  - every renderer (report/render.h: md, html, junit, sarif, ktap, matrix)
 *    renders an accepted model;
 *  - the write-back round trip loses nothing: th_results_write() accepts
 *    what th_results_load() accepted, the written file loads again, renders
 *    exactly as the original did in every format, and writing it again
 *    gives the same bytes;
 *  - `check` judges the written file exactly as it judged the input (same
 *    exit status), and never fails on its own (every status is one of
 *    report/check.h's four).
 * `check` judges by the declaration of the gate fixtures (gate.json's attacks
 * and configs, tests/data/report/gate-expected.tsv, compiled in at build
 * time: the runner of OSS-Fuzz has nothing but the binary), so the seeds
 * taken from tests/data/report/gate*.json reach its verdicts.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "expect.h"
#include "fuzz.h"
#include "render.h"
#include "results.h"

#define TH_FUZZ_TARGET "results_json"

/* th_fuzz_gate_expected[]: the bytes of tests/data/report/gate-expected.tsv */
#include "gate_expected.inc"
/* th_gate_attacks[], th_gate_configs[]: what gate.json holds
 * (tests/report_fixtures.cmake) */
#include "report_fixtures.inc"

static const char *const gate_selftests[] = { "SELFTEST_HANG" };
static struct th_check_decl decl;
static char in_path[4096], out_path[4096], out2_path[4096], expect_path[4096];

/* The whole of a file we wrote. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	if (!f)
		TH_FUZZ_FAIL("cannot read back %s", path);
	*len = 0;
	for (;;) {
		if (*len == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
			abort();
		size_t r = fread(buf + *len, 1, cap - *len, f);

		*len += r;
		if (!r)
			break;
	}
	fclose(f);
	return buf;
}

static char *render(const struct th_results *res, enum th_render_format f, size_t *len)
{
	char *buf = NULL, err[1024] = "";
	FILE *out = open_memstream(&buf, len);

	if (!out)
		abort();
	if (th_render_format_to(out, f, res, 0, err, sizeof(err)))
		TH_FUZZ_FAIL("the %s renderer refused a model the loader accepted: %s",
			     th_render_format_name(f), err);
	fclose(out);
	return buf;
}

static int check(const char *path, char **out, char **err)
{
	struct th_check_opts opts = { .results = path };
	size_t ol, el;
	FILE *o = open_memstream(out, &ol), *e = open_memstream(err, &el);
	int rc;

	if (!o || !e)
		abort();
	rc = th_check_main(&opts, &decl, o, e);
	fclose(o);
	fclose(e);
	return rc;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[1024];

	(void)argc;
	(void)argv;
	th_fuzz_scratch_path("results.json", in_path, sizeof(in_path));
	th_fuzz_scratch_path("written.json", out_path, sizeof(out_path));
	th_fuzz_scratch_path("rewritten.json", out2_path, sizeof(out2_path));
	th_fuzz_scratch_path("gate-expected.tsv", expect_path, sizeof(expect_path));
	th_fuzz_write_file(expect_path, th_fuzz_gate_expected, sizeof(th_fuzz_gate_expected));
	if (th_expect_load(expect_path, err, sizeof(err)))
		TH_FUZZ_FAIL("the compiled-in declaration does not load: %s", err);
	decl = (struct th_check_decl){
		.expect_path = th_expect_path(), .expect_sha256 = th_expect_sha256(),
		.expect = th_expect_outcome_on, .where = th_expect_where_on,
		.attacks = th_gate_attacks, .nattacks = TH_GATE_NATTACKS,
		.configs = th_gate_configs, .nconfigs = TH_GATE_NCONFIGS,
		.selftests = gate_selftests, .nselftests = 1,
	};
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct th_results *res = NULL, *again = NULL;
	char err[2048] = "", *cout, *cerr;
	int loaded, rc;

	th_fuzz_write_file(in_path, data, size);
	loaded = th_results_load(in_path, &res, err, sizeof(err)) == 0;
	rc = check(in_path, &cout, &cerr);
	if (rc < TH_CHECK_OK || rc > TH_CHECK_HARNESS_ERROR)
		TH_FUZZ_FAIL("check exited %d, none of its statuses", rc);
	if (!loaded) {
		if (strncmp(err, in_path, strlen(in_path)))
			TH_FUZZ_FAIL("a refused file's message does not name it: '%s'", err);
		if (rc != TH_CHECK_BAD_INPUT)
			TH_FUZZ_FAIL("the loader refused the file (%s) but check exited %d, not %d (bad input)",
				     err, rc, TH_CHECK_BAD_INPUT);
		free(cout);
		free(cerr);
		return 0;
	}
	free(cout);
	free(cerr);

	if (th_results_write(res, out_path, err, sizeof(err)))
		TH_FUZZ_FAIL("write-back refused a model the loader accepted: %s", err);
	if (th_results_load(out_path, &again, err, sizeof(err)))
		TH_FUZZ_FAIL("the written file does not load again: %s", err);
	for (int f = 0; f < TH_RENDER_FORMAT_COUNT; f++) {
		size_t l1, l2;
		char *r1 = render(res, (enum th_render_format)f, &l1);
		char *r2 = render(again, (enum th_render_format)f, &l2);

		if (l1 != l2 || memcmp(r1, r2, l1))
			TH_FUZZ_FAIL("the %s rendering changed through write and load (%zu -> %zu bytes)",
				     th_render_format_name((enum th_render_format)f), l1, l2);
		free(r1);
		free(r2);
	}
	if (th_results_write(again, out2_path, err, sizeof(err)))
		TH_FUZZ_FAIL("writing the reloaded model failed: %s", err);
	{
		size_t l1, l2;
		char *w1 = slurp(out_path, &l1), *w2 = slurp(out2_path, &l2);

		if (l1 != l2 || memcmp(w1, w2, l1))
			TH_FUZZ_FAIL("write, load, write is not a fixed point (%zu -> %zu bytes)", l1, l2);
		free(w1);
		free(w2);
	}
	{
		int rc2 = check(out_path, &cout, &cerr);

		if (rc2 != rc)
			TH_FUZZ_FAIL("check judged the input %d and the same results written back %d: %s",
				     rc, rc2, cerr);
	}
	free(cout);
	free(cerr);
	th_results_free(again);
	th_results_free(res);
	return 0;
}
