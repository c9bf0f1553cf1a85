/* SPDX-License-Identifier: MIT */
/*
 * The campaigns' gate on its own (tests/fuzz_campaign.cmake): report/check_fuzz.c
 * run on fixtures, apart from `timerharness check` and a results file.
 *   fuzz_check --plan PLAN --build-root DIR [--allow-slice] [--allow-partial]
 *              [--verbose] [--beside] [--no-replay] FUZZ.json EXPECTED.tsv
 *              (--no-replay: the fixtures' reproducers are bytes, not a
 *              build's findings: tests/fuzz_run.sh replays real ones)
 *   fuzz_check --plan PLAN --build-root DIR --plan-build
 *              the plan against the build (th_check_fuzz_plan_build): 0 the
 *              same, 1 they differ (each difference a line), 2 unreadable
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check_fuzz.h"

int main(int argc, char **argv)
{
	struct th_check_fuzz_opts o = { 0 };
	int i = 1, plan_build = 0;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--allow-slice"))
			o.allow_slice = true;
		else if (!strcmp(argv[i], "--allow-partial"))
			o.allow_partial = true;
		else if (!strcmp(argv[i], "--verbose"))
			o.verbose = true;
		else if (!strcmp(argv[i], "--beside"))
			o.beside = true;
		else if (!strcmp(argv[i], "--no-replay"))
			o.no_replay = true;
		else if (!strcmp(argv[i], "--plan-build"))
			plan_build = 1;
		else if (!strcmp(argv[i], "--plan") && i + 1 < argc)
			o.plan = argv[++i];
		else if (!strcmp(argv[i], "--build-root") && i + 1 < argc)
			o.build_root = argv[++i];
		else
			return TH_CHECK_BAD_INPUT;
	}
	if (!o.plan || !o.build_root || argc - i != (plan_build ? 0 : 2)) {
		fprintf(stderr, "usage: fuzz_check --plan PLAN --build-root DIR [--allow-slice] [--allow-partial] "
			"[--verbose] [--beside] [--no-replay] FUZZ.json EXPECTED.tsv\n"
			"       fuzz_check --plan PLAN --build-root DIR --plan-build\n");
		return TH_CHECK_BAD_INPUT;
	}
	if (plan_build) {
		int d = th_check_fuzz_plan_build(o.plan, o.build_root, stdout, stderr);

		return d < 0 ? 2 : d > 0;
	}
	o.fuzz = argv[i];
	o.expect = argv[i + 1];
	return th_check_fuzz_main(&o, stdout, stderr);
}
