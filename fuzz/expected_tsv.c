/* SPDX-License-Identifier: MIT */
/*
 * expected_tsv: the declared expectations (attacks/expect.h) on any text.
 *
 * Input: the bytes of an expected.tsv.
 * Oracle: a refused file's message is "FILE:LINE: what" (or "FILE: what");
 * an accepted one answers every lookup consistently: for each line's
 * first four fields taken as a cell (attack, variant, config, toolchain),
 * and for a few fixed cells, th_expect_lookup() finds a rule exactly when
 * th_expect_where() names one, at "FILE:LINE", and the outcome it declares
 * is one of results/outcome.h's names, or a set of them ("HIJACKED|CRASHED").
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "fuzz.h"
#include "outcome.h"

#define TH_FUZZ_TARGET "expected_tsv"

static char path[4096];

static void probe(const char *attack, const char *variant, const char *config, const char *toolchain)
{
	const char *reason = NULL;
	const char *o = th_expect_lookup(attack, variant, config, toolchain, &reason);
	const char *w = th_expect_where(attack, variant, config, toolchain);

	if (!o != !w)
		TH_FUZZ_FAIL("cell %s/%s/%s/%s: lookup %s but where %s", attack, variant, config, toolchain,
			     o ? o : "(none)", w ? w : "(none)");
	if (!o)
		return;
	th_outcome_set set;
	char why[300];

	if (th_outcome_set_parse(o, &set, why, sizeof(why)) ||
	    set != th_expect_set_on(NULL, attack, variant, config, toolchain))
		TH_FUZZ_FAIL("cell %s/%s/%s/%s: declared outcome '%s' is not an outcome or a set of them",
			     attack, variant, config, toolchain, o);
	if (strncmp(w, path, strlen(path)) || w[strlen(path)] != ':')
		TH_FUZZ_FAIL("rule location '%s' is not %s:LINE", w, path);
	if (!reason)
		TH_FUZZ_FAIL("cell %s/%s/%s/%s: a rule without its reason", attack, variant, config, toolchain);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	th_fuzz_scratch_path("expected.tsv", path, sizeof(path));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";

	th_fuzz_write_file(path, data, size);
	if (th_expect_load(path, err, sizeof(err))) {
		if (strncmp(err, path, strlen(path)) || err[strlen(path)] != ':')
			TH_FUZZ_FAIL("a refused file's message is not \"FILE:LINE: what\": '%s'", err);
		th_expect_free();
		return 0;
	}
	probe("MEMCPY_INTRA_BEFORE_ARM_NONE", "legacy", "none", "clang-14");
	probe("HEAP_NEIGHBOUR_PENDING_FUNC_DATA_WRITE_CR4", "modern", "cfi-icall", "clang-22");
	probe("", "", "", "");
	/* Each line's own first fields, as a cell: lookups that hit rules. */
	{
		char *text = malloc(size + 1), *save = NULL;

		if (!text)
			abort();
		memcpy(text, data, size);
		text[size] = '\0';
		for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *f[4] = { "", "", "", "" }, *p = line;

			for (int i = 0; i < 4 && p; i++) {
				char *tab = strchr(p, '\t');

				f[i] = p;
				if (tab)
					*tab = '\0';
				p = tab ? tab + 1 : NULL;
			}
			probe(f[0], f[1], f[2], f[3]);
		}
		free(text);
	}
	th_expect_free();
	return 0;
}
