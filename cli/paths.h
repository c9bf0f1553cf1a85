/* SPDX-License-Identifier: MIT */
/*
 * Where the command finds what it runs and judges by: the attack builds
 * (<build_root>/<toolchain>/th-manifest.tsv) and the declared expectations.
 * Run from its build tree, the source checkout's (build/, attacks/
 * expected.tsv); installed (cmake --install), the files installed beside
 * it, found relative to the program itself (<prefix>/lib/timerharness,
 * <prefix>/share/timerharness/expected.tsv, .../fuzz/expected.tsv), so an
 * installed tree can move.
 */
#ifndef TH_CLI_PATHS_H
#define TH_CLI_PATHS_H

#include <stdbool.h>

struct th_paths {
	const char *build_root;
	const char *expect;
	/* The real kernel's plan: cells.tsv and configs/ (kernel/). */
	const char *kernel;
	/* The campaigns' declared findings (fuzz/expected.tsv); NULL in a
	 * build without the fuzz command. */
	const char *fuzz_expect;
	/* The campaigns a run must hold (fuzz/campaigns.tsv); NULL likewise. */
	const char *fuzz_plan;
	bool installed;
	/* What to do when build_root holds no build. */
	const char *build_hint;
};

/* Return: 0, or -1 after saying on stderr why (the program cannot be
 * located). The strings are static. */
int th_paths_get(struct th_paths *p);

/* An installed command whose default expectations (@expect is p->expect)
 * are missing: say what is missing and how to install it, on stderr
 * prefixed "timerharness CMD: ". Return: 0 when nothing is missing, -1 when
 * that was said. */
int th_paths_installed_ok(const struct th_paths *p, const char *expect, const char *cmd);

#endif
