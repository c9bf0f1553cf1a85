/* SPDX-License-Identifier: MIT */
/*
 * What the kernel command does with its cells, through the API it calls
 * (results/results.h, report/render.h, attacks/expect.h), without a kernel:
 * a real kernel's run of one platform put into DIR/results.json beside the
 * model's cells, judged by the expectations, and the set written as
 * `matrix` writes it. tests/kernel_leg.cmake then gates it with `check`.
 *
 *   kernel_leg DIR EXPECT PLATFORM CONFIG ATTACK OUTCOME [partial]
 *
 * The run holds one cell, ATTACK modern/CONFIG on the first toolchain of
 * DIR/results.json, observed OUTCOME. Exit 0 written, 1 refused (the
 * message on stderr; DIR untouched).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfi/evidence.h"
#include "expect.h"
#include "render.h"
#include "results.h"

int main(int argc, char **argv)
{
	char err[2048] = "no such config in the results", warn[1024], path[4096];
	struct th_results *dst = NULL, *src = NULL;
	int fd, rc = 1;

	if (argc < 7) {
		fprintf(stderr, "usage: kernel_leg DIR EXPECT PLATFORM CONFIG ATTACK OUTCOME [partial]\n");
		return 2;
	}
	const char *dir = argv[1], *expect = argv[2], *platform = argv[3], *config = argv[4];
	const char *attack = argv[5];
	enum th_outcome o = th_outcome_parse(argv[6]);

	/* One writer at a time, from reading the set to writing it. */
	if ((fd = th_render_lock_dir(dir, "kernel", err, sizeof(err))) < 0 ||
	    th_expect_load(expect, err, sizeof(err)))
		goto out;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (th_results_load(path, &dst, err, sizeof(err)))
		goto out;
	const struct th_toolchain *tc = &dst->toolchains[0];
	const struct th_config *cfg = th_results_find_config(dst, config);

	/* The run: its toolchain and config as the model's run records them. */
	src = th_results_create(dst->version);
	struct th_platform_in pin = { platform, "Debian linux-source-6.1 6.1.192-3",
				      "Debian clang version 22.1.8", "QEMU emulator version 7.2.15",
				      "max", 1.6 };
	/* The console classifier's words for the outcome where its proof
	 * has a form (cfi/evidence.h); narration where it has none. */
	char ev[256] = "the serial console's lines";

	if (o == TH_HANG)
		snprintf(ev, sizeof(ev), TH_KEV_NEVER_RETURNED, "call_timer_fn",
			 "native_write_cr4+0x0/0x7c");
	struct th_cell_in in = { .attack = attack, .technique = "memcpy-intra",
				 .timing = strstr(attack, "_PENDING_") ? "pending" : "before-arm",
				 .payload = "func:write_cr4", .variant = TH_VARIANT_MODERN,
				 .config = config, .toolchain = tc->name, .outcome = o, .runs = 1,
				 .evidence = ev, .seconds = 1.7,
				 .expected = TH_OUTCOME_INVALID, .platform = platform };

	if (!src || !cfg ||
	    th_results_set_expectations(src, th_expect_path(), th_expect_sha256(), err, sizeof(err)) ||
	    th_results_add_toolchain(src, tc->name, tc->version, tc->path, err, sizeof(err)) ||
	    th_results_add_config(src, cfg->name, cfg->flags, cfg->description, err, sizeof(err)) ||
	    th_results_add_platform(src, &pin, err, sizeof(err)) ||
	    th_results_add_platform_config(src, platform, config, "# CONFIG_CFI_CLANG is not set", err,
					   sizeof(err)) ||
	    !th_results_add_cell(src, &in, err, sizeof(err)) ||
	    (argc > 7 && th_results_set_partial(src, true, "SIGINT", err, sizeof(err))))
		goto out;
	if (th_results_replace_platform(dst, src, platform, err, sizeof(err)) ||
	    th_expect_judge_results(dst, err, sizeof(err)) ||
	    th_render_write_set(dst, dir, warn, sizeof(warn), err, sizeof(err)))
		goto out;
	th_render_verdict(stdout, dst, 0);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "kernel_leg: %s\n", err);
	th_results_free(src);
	th_results_free(dst);
	th_expect_free();
	if (fd >= 0)
		close(fd);
	return rc;
}
