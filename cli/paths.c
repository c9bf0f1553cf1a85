/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef TH_FUZZ_EXPECT_PATH
#define BUILD_FUZZ_EXPECT TH_FUZZ_EXPECT_PATH
#else
#define BUILD_FUZZ_EXPECT NULL
#endif
#ifdef TH_FUZZ_PLAN_PATH
#define BUILD_FUZZ_PLAN TH_FUZZ_PLAN_PATH
#else
#define BUILD_FUZZ_PLAN NULL
#endif

int th_paths_get(struct th_paths *p)
{
	static char exe[PATH_MAX], root[PATH_MAX], expect[PATH_MAX], kernel[PATH_MAX],
		fuzz_expect[PATH_MAX], fuzz_plan[PATH_MAX];
	const char *bindir = "/" TH_INSTALL_BINDIR "/timerharness";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len, blen = strlen(bindir);

	if (n <= 0) {
		perror("timerharness: /proc/self/exe");
		return -1;
	}
	exe[n] = '\0';
	len = (size_t)n;
	/* The build tree's own program: the checkout it was built from. */
	if (!strcmp(exe, TH_BUILD_EXE) || len <= blen || strcmp(exe + len - blen, bindir)) {
		*p = (struct th_paths){ TH_BUILD_ROOT, TH_EXPECT_PATH, TH_KERNEL_DIR, BUILD_FUZZ_EXPECT,
					BUILD_FUZZ_PLAN, false, "run 'make build' first" };
		return 0;
	}
	/* <prefix>/bin/timerharness: what `cmake --install` put beside it. */
	snprintf(root, sizeof(root), "%.*s/" TH_INSTALL_LIBDIR "/timerharness", (int)(len - blen), exe);
	snprintf(expect, sizeof(expect), "%.*s/" TH_INSTALL_DATADIR "/timerharness/expected.tsv",
		 (int)(len - blen), exe);
	snprintf(kernel, sizeof(kernel), "%.*s/" TH_INSTALL_DATADIR "/timerharness/kernel",
		 (int)(len - blen), exe);
	snprintf(fuzz_expect, sizeof(fuzz_expect), "%.*s/" TH_INSTALL_DATADIR "/timerharness/fuzz/expected.tsv",
		 (int)(len - blen), exe);
	snprintf(fuzz_plan, sizeof(fuzz_plan), "%.*s/" TH_INSTALL_DATADIR "/timerharness/fuzz/campaigns.tsv",
		 (int)(len - blen), exe);
	*p = (struct th_paths){ root, expect, kernel, BUILD_FUZZ_EXPECT ? fuzz_expect : NULL,
				BUILD_FUZZ_PLAN ? fuzz_plan : NULL, true,
				"install a build tree's attack binaries there with 'cmake --install "
				"build/<preset> --prefix <prefix>', or name a build with --build-root" };
	return 0;
}

int th_paths_installed_ok(const struct th_paths *p, const char *expect, const char *cmd)
{
	if (!p->installed || strcmp(expect, p->expect) || !access(expect, R_OK))
		return 0;
	fprintf(stderr, "timerharness %s: %s is missing: an installed timerharness reads the "
		"expectations and runs the attack binaries installed beside it; install a whole "
		"build tree with 'cmake --install build/<preset> --prefix <prefix>', or give --expect "
		"(and --build-root)\n", cmd, expect);
	return -1;
}
