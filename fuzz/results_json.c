/* SPDX-License-Identifier: MIT */
/*
 * results_json: results.json (report/results.h) from load to every output.
 *
 * Input: the bytes of a results.json.
 * Oracle:
 *  - th_results_load() and `check` (th_check_main) agree on what is bad
 *    input: a file the loader refuses is bad input to check (exit 2), with
 *    a message naming the file; a file it accepts never is;
 *  - every renderer (report/render.h: md, html, junit, sarif, ktap, matrix)
 *    renders an accepted model;
 *  - the write-back round trip loses nothing: th_results_write() accepts
 *    what th_results_load() accepted, the written file loads again, renders
 *    exactly as the original did in every format, and writing it again
 *    gives the same bytes;
 *  - check of the written file, with the input as its baseline, is never
 *    bad input.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz.h"
#include "render.h"
#include "results.h"

#define TH_FUZZ_TARGET "results_json"

static char in_path[4096], out_path[4096], out2_path[4096];

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

static int check(const char *path, const char *baseline, char **out, char **err)
{
	size_t ol, el;
	FILE *o = open_memstream(out, &ol), *e = open_memstream(err, &el);
	int rc;

	if (!o || !e)
		abort();
	rc = th_check_main(path, baseline, o, e);
	fclose(o);
	fclose(e);
	return rc;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	th_fuzz_scratch_path("results.json", in_path, sizeof(in_path));
	th_fuzz_scratch_path("written.json", out_path, sizeof(out_path));
	th_fuzz_scratch_path("rewritten.json", out2_path, sizeof(out2_path));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct th_results *res = NULL, *again = NULL;
	char err[2048] = "", *cout, *cerr;
	int loaded, rc;

	th_fuzz_write_file(in_path, data, size);
	loaded = th_results_load(in_path, &res, err, sizeof(err)) == 0;
	rc = check(in_path, NULL, &cout, &cerr);
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
	if (rc == TH_CHECK_BAD_INPUT)
		TH_FUZZ_FAIL("the loader accepted the file but check calls it bad input: %s", cerr);
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
	rc = check(out_path, in_path, &cout, &cerr);
	if (rc == TH_CHECK_BAD_INPUT)
		TH_FUZZ_FAIL("check of the written file against the input as baseline: bad input: %s", cerr);
	free(cout);
	free(cerr);
	th_results_free(again);
	th_results_free(res);
	return 0;
}
