/* SPDX-License-Identifier: MIT */
/*
 * The campaigns' gate on its own (tests/fuzz.cmake): report/check_fuzz.c run
 * on fixtures, apart from `timerharness check` and a results file.
 *   fuzz_check [--allow-slice] [--allow-partial] [--verbose] [--beside] FUZZ.json EXPECTED.tsv
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check_fuzz.h"

int main(int argc, char **argv)
{
	struct th_check_fuzz_opts o = { 0 };
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--allow-slice"))
			o.allow_slice = true;
		else if (!strcmp(argv[i], "--allow-partial"))
			o.allow_partial = true;
		else if (!strcmp(argv[i], "--verbose"))
			o.verbose = true;
		else if (!strcmp(argv[i], "--beside"))
			o.beside = true;
		else
			return TH_CHECK_BAD_INPUT;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: fuzz_check [--allow-slice] [--allow-partial] [--verbose] [--beside] FUZZ.json EXPECTED.tsv\n");
		return TH_CHECK_BAD_INPUT;
	}
	o.fuzz = argv[i];
	o.expect = argv[i + 1];
	return th_check_fuzz_main(&o, stdout, stderr);
}
