/* SPDX-License-Identifier: MIT */
/*
 * manifest_tsv: the build manifest reader (attacks/manifest.h) on any text.
 *
 * Input: the bytes of a th-manifest.tsv.
 * Oracle: a refused file's message is "FILE:LINE: what" or "FILE: what";
 * an accepted one has a toolchain, and each binary it lists has all nine
 * fields, none holding a TAB or a newline, and names the line it came
 * from ("FILE:LINE", a line the file has); reading it again into the same
 * struct appends exactly as much again; freeing leaves nothing behind (the
 * replay and libFuzzer builds run LeakSanitizer).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "manifest.h"

#define TH_FUZZ_TARGET "manifest_tsv"

static char path[4096];

static void check_where(const char *what, const char *err, size_t lines, int need_line)
{
	size_t plen = strlen(path);
	char *end;
	unsigned long line;

	if (strncmp(err, path, plen) || err[plen] != ':')
		TH_FUZZ_FAIL("%s '%s' does not start with the file's name", what, err);
	if (err[plen + 1] < '0' || err[plen + 1] > '9') {
		if (need_line)
			TH_FUZZ_FAIL("%s '%s' has no line number", what, err);
		return;
	}
	line = strtoul(err + plen + 1, &end, 10);
	if (!line || line > lines)
		TH_FUZZ_FAIL("%s '%s' names line %lu of a %zu-line file", what, err, line, lines);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	th_fuzz_scratch_path("th-manifest.tsv", path, sizeof(path));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct th_manifest b = { 0 };
	char err[8192] = "";
	size_t lines = 0, nbins, ntools;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	lines += size && data[size - 1] != '\n';
	th_fuzz_write_file(path, data, size);
	if (th_manifest_load(&b, path, err, sizeof(err))) {
		check_where("a refusal", err, lines, 0);
		th_manifest_free(&b);
		return 0;
	}
	if (!b.ntools)
		TH_FUZZ_FAIL("accepted without a toolchain line");
	for (size_t i = 0; i < b.nbins; i++) {
		const struct th_mbin *m = &b.bins[i];
		const char *f[] = { m->kind, m->toolchain, m->config, m->variant, m->seed,
				    m->path, m->status, m->reason, m->flags };

		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			if (!f[k])
				TH_FUZZ_FAIL("binary %zu: field %zu missing", i, k);
			if (strpbrk(f[k], "\t\n"))
				TH_FUZZ_FAIL("binary %zu: field %zu holds a TAB or newline: '%s'", i, k, f[k]);
		}
		if (!m->where)
			TH_FUZZ_FAIL("binary %zu: no FILE:LINE", i);
		check_where("a binary's place", m->where, lines, 1);
	}
	nbins = b.nbins;
	ntools = b.ntools;
	if (th_manifest_load(&b, path, err, sizeof(err)))
		TH_FUZZ_FAIL("the same file refused the second time: %s", err);
	if (b.nbins != 2 * nbins || b.ntools != 2 * ntools)
		TH_FUZZ_FAIL("read twice: %zu binaries and %zu toolchains, after %zu and %zu", b.nbins,
			     b.ntools, nbins, ntools);
	th_manifest_free(&b);
	return 0;
}
