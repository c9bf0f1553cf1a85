/* SPDX-License-Identifier: MIT */
/*
 * `timerharness kernel`: the real-kernel leg (kernel/README.md). Boots each
 * cell of kernel/cells.tsv on each kernel built by kernel/build (or on the
 * user's own bzImage), classifies the serial console (kernel/console.h) and
 * puts the cells, platform "linux-<release>", into <out>/results.json beside
 * the model's, re-rendering every report. The plan, the boots and the cells
 * into the model are the loop's (loops/kernel_leg.h); here the options,
 * out's lock, and writing and showing the set (report/render.h).
 *
 * `timerharness kernel classify [--cell ID] [--token T] [--end E] LOG`
 * classifies one console captured anywhere (QEMU here, a real machine's
 * serial line, dmesg; the goldens of tests/data/kernel/): the cell and the
 * token default to the console's own kernel command line.
 *
 * Exit: 0 every cell booted and observed; 1 results could not be written;
 * 2 bad input (usage, no kernel or QEMU, a kernel without the unit or that
 * lost its defence), nothing written; 3 written, some cells are
 * HARNESS_ERROR.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "lib/fs.h"
#include "lib/text.h"
#include "cli.h"
#include "kernel/console.h"
#include "kernel/run.h"
#include "loops/kernel_leg.h"
#include "expect.h"
#include "paths.h"
#include "render.h"
#include "results.h"

#define CMD "kernel"

#ifndef TH_KERNEL_DIR
#define TH_KERNEL_DIR "kernel"
#endif
#ifndef TH_KERNEL_BUILD
#define TH_KERNEL_BUILD "build/kernel"
#endif

#define KERNEL "timerharness kernel: "
#define CLASSIFY "timerharness kernel classify: "
/* The most of a console classify reads. */
#define CLASSIFY_MAX (64 << 20)

/* A line of the command on @f: @prefix, then the message with every
 * control byte (line breaks too) and backslash escaped (\x1b, \\): the
 * names, releases, paths and a console's words in it come from files and
 * users. */
__attribute__((format(printf, 3, 4))) static void say(FILE *f, const char *prefix,
						       const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fputs(prefix, f);
	th_put_escaped(f, line);
	fputc('\n', f);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: timerharness kernel [--release R,..] [--config C,..] [--cells GLOB,..]\n"
		"                           [--jobs N] [--timeout S] [--out DIR] [--qemu PATH]\n"
		"                           [--cpu MODEL] [--build DIR]\n"
		"       timerharness kernel --bzimage FILE --dotconfig FILE [--vmlinux FILE]\n"
		"                           --name CONFIG ..\n"
		"       timerharness kernel classify [--cell ID] [--token T]\n"
		"                           [--end exited|timeout|failed] LOG\n"
		"  boot each cell of kernel/cells.tsv on each kernel of kernel/kernels.tsv built\n"
		"  by kernel/build (build/kernel/<release>/<config>) under QEMU, classify its\n"
		"  serial console, and put the cells (platform linux-<release>) into\n"
		"  DIR/results.json beside the model's, with every report re-rendered\n"
		"  (default DIR: out)\n"
		"  --release    release series of kernel/kernels.tsv (6.1, 6.12; default: all)\n"
		"  --config     kernel configs (kernel/kernels.tsv's; default: all)\n"
		"  --cells      fnmatch globs on attack IDs (default: all); a selection\n"
		"               replaces only the cells it names\n"
		"  --jobs       boots at once (default: the number of CPUs)\n"
		"  --timeout    seconds per boot (default 60); a guest silent for 10 s after\n"
		"               call_timer_fn or tasklet_action_common entered a target is\n"
		"               ended then (HANG)\n"
		"  --cpu        QEMU's -cpu (default max,la57=off: the CR4 features Linux pins,\n"
		"               4-level paging as the CVE's machines had; kernel/README.md)\n"
		"  --bzimage, --dotconfig, --vmlinux, --name: your own kernel, built with the\n"
		"               unit (kernel/README.md, \"Bring your own kernel\"); --name is\n"
		"               the config it is judged as (a kernel/configs/ name: kcfi,\n"
		"               kcfi-smp, fineibt or none; a kernel\n"
		"               with CONFIG_FINEIBT is booted cfi=kcfi or cfi=fineibt; one\n"
		"               with CONFIG_CFI_PERMISSIVE=y blocks nothing: none)\n"
		"  classify     one console captured anywhere (QEMU, a real machine's serial\n"
		"               line, dmesg, journalctl -k; - reads standard input), printed\n"
		"               as OUTCOME<TAB>evidence; --cell and --token default to the\n"
		"               console's own \"Kernel command line:\"; --end timeout when the\n"
		"               machine printed nothing more and you gave up on it\n"
		"exit: 0 observed; 1 could not write; 2 bad input (nothing written);\n"
		"      3 written, some cells are HARNESS_ERROR\n");
}

static int cmd_classify(int argc, char **argv)
{
	const char *cell = NULL, *payload = "-", *token = NULL, *end = "exited", *file = NULL, *why;
	struct th_console_cell cc;
	struct th_console_verdict v;
	char ecell[96] = "", etoken[96] = "", berr[512];
	enum th_boot_end e;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int bad = 0;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		const char *val;

		if ((val = th_optval(argc, argv, &i, CMD " classify", "--cell", &bad)))
			cell = val;
		else if ((val = th_optval(argc, argv, &i, CMD " classify", "--payload", &bad)))
			payload = val;
		else if ((val = th_optval(argc, argv, &i, CMD " classify", "--token", &bad)))
			token = val;
		else if ((val = th_optval(argc, argv, &i, CMD " classify", "--end", &bad)))
			end = val;
		else if (bad)
			return 2;
		else if (argv[i][0] == '-' && argv[i][1]) {
			say(stderr, CLASSIFY, "unknown option '%s'", argv[i]);
			return 2;
		} else if (file) {
			fprintf(stderr, "timerharness kernel classify: one LOG only\n");
			return 2;
		} else
			file = argv[i];
	}
	if (!file) {
		fprintf(stderr, "timerharness kernel classify: needs a LOG (a console; - for standard input)\n");
		return 2;
	}
	if (!strcmp(end, "exited"))
		e = TH_BOOT_EXITED;
	else if (!strcmp(end, "timeout"))
		e = TH_BOOT_TIMEOUT;
	else if (!strcmp(end, "failed"))
		e = TH_BOOT_FAILED;
	else {
		say(stderr, CLASSIFY, "--end is exited, timeout or failed, not '%s'", end);
		return 2;
	}
	if (!strcmp(file, "-"))
		f = stdin;
	else if (th_optpath(stderr, CMD " classify", "", file, TH_OPT_FILE))
		return 2;
	else if (!(f = th_fopen_read(file, "rb", &why))) {
		say(stderr, CLASSIFY, "%s: %s", file, why);
		return 2;
	}
	for (;;) {
		size_t got;

		/* Standard input may never end (/dev/zero): one boot's console,
		 * even a real machine's dmesg, is far less. */
		if (len >= CLASSIFY_MAX) {
			say(stderr, CLASSIFY, "%s: more than %d MiB: not one boot's console (cut it to the boot)",
			    f == stdin ? "standard input" : file, CLASSIFY_MAX >> 20);
			free(buf);
			if (f != stdin)
				fclose(f);
			return 2;
		}
		if (len == cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				fprintf(stderr, "timerharness kernel classify: out of memory\n");
				free(buf);
				return 2;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	if (f != stdin)
		fclose(f);
	/* A console from anywhere: what the host would say, from its own
	 * kernel command line (kernel/console.h). */
	snprintf(ecell, sizeof(ecell), "%s", cell ? cell : "");
	snprintf(etoken, sizeof(etoken), "%s", token ? token : "");
	if (!cell || !token) {
		if (th_console_boot_args(buf, len, ecell, sizeof(ecell), etoken, sizeof(etoken), berr,
					 sizeof(berr))) {
			say(stderr, CLASSIFY, "%s: %s", file, berr);
			free(buf);
			return 2;
		}
		say(stderr, CLASSIFY, "%s: cell %s, token %s: from its kernel command line", file, ecell,
		    etoken);
	}
	cc = (struct th_console_cell){ ecell, payload, etoken };
	th_console_classify(buf, len, &cc, e, e == TH_BOOT_FAILED ? "as given (--end failed)" : NULL, &v);
	free(buf);
	printf("%s\t%s\n", th_outcome_name(v.outcome), v.evidence);
	return fflush(stdout) ? 1 : 0;
}

static void progress(void *arg, size_t done, size_t total, const struct th_kernel_result *r)
{
	(void)arg;
	printf("kernel: [%2zu/%zu] %-5s %-50s %-16s %.1f s\n", done, total, r->target->config,
	       r->cell->attack, th_outcome_name(r->v.outcome), r->seconds);
	fflush(stdout);
}

/*
 * Two real kernels side by side: each cell of the first linux-* platform
 * beside the same cell (attack, variant, config, toolchain) of each later
 * one, the configs both have (6.1 and 6.12: kcfi, none). Printed, not
 * gated: each kernel is gated against the model and its own rules.
 */
static void kernels_side_by_side(const struct th_results *r)
{
	for (size_t a = 0; a < r->nplatforms; a++) {
		for (size_t b = a + 1; b < r->nplatforms; b++) {
			const char *pa = r->platforms[a].name, *pb = r->platforms[b].name;
			size_t both = 0, same = 0;

			for (size_t i = 0; i < r->ncells; i++) {
				const struct th_cell *c = r->cells[i], *d;

				if (!c->platform || strcmp(c->platform, pa))
					continue;
				d = th_results_find_cell(r, pb, c->attack, c->variant, c->config, c->toolchain);
				if (!d)
					continue;
				both++;
				if (th_cell_observed(c) == th_cell_observed(d)) {
					same++;
					continue;
				}
				say(stdout, "kernel: ", "  %s %s: %s %s, %s %s", c->attack, c->config, pa,
				    th_outcome_name(th_cell_observed(c)), pb,
				    th_outcome_name(th_cell_observed(d)));
			}
			if (both)
				say(stdout, "kernel: ", "%s vs %s: %zu cells of the configs both have, %zu the same, %zu differ (listed above)",
				    pa, pb, both, same, both - same);
		}
	}
}

/*
 * Print what th_kernel_leg_run() put into @dst once the set is written:
 * the kernels, where the cells and logs went, the verdict. Return: the
 * command's exit status.
 */
static int write_and_show(const struct th_kernel_leg *leg, struct th_results *dst,
			  const char *out)
{
	char err[2048] = "", warn[2048] = "";
	int rc;

	if (th_render_write_set(dst, out, warn, sizeof(warn), err, sizeof(err))) {
		/* The usage's 1: could not write (it said 2, bad input, before). */
		say(stderr, KERNEL, "%s; the previous results in %s are kept", err, out);
		fflush(stdout);
		return 1;
	}
	for (char *p = warn, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		say(stderr, KERNEL, "%.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
	}
	for (size_t k = 0; k < leg->ntargets; k++) {
		const struct th_kernel_target *t = &leg->targets[k];
		double secs = 0, most = 0;
		size_t boots = 0;

		/* Each kernel's boot time: its boots' QEMU seconds (they run
		 * --jobs at once, so the kernels' sum is more than the wall). */
		for (size_t i = 0; i < leg->nrs; i++)
			if (leg->rs[i].target == t) {
				secs += leg->rs[i].seconds;
				most = leg->rs[i].seconds > most ? leg->rs[i].seconds : most;
				boots++;
			}
		say(stdout, "kernel: ", "%s: linux-%s%s%s, %s, %s%s%s: %zu boot%s in %.0f s (longest %.1f s)",
		    t->config, t->release, t->boot && *t->boot ? " booted " : "",
		    t->boot ? t->boot : "", t->toolchain, t->kconfig, t->vmlinux ? ", " : "",
		    t->vmlinux ? t->vmlinux : "", boots, boots == 1 ? "" : "s", secs, most);
	}
	say(stdout, "kernel: ", "%zu cells into %s/results.json (console logs: %s/kernel/%s<config>/<cell>.log)",
	    leg->nrs, out, out, leg->ntargets && leg->targets[0].series ? "<release>/" : "");
	th_render_verdict(stdout, dst, 0);
	kernels_side_by_side(dst);
	rc = leg->harness_errors ? 3 : 0;
	if (leg->harness_errors)
		fprintf(stderr, "timerharness kernel: %zu cells are HARNESS_ERROR (check fails on them)\n",
			leg->harness_errors);
	fflush(stdout);
	return rc;
}

int th_cli_kernel(int argc, char **argv)
{
	const char *configs = NULL, *cells = NULL, *out = "out", *qemu = "qemu-system-x86_64";
	const char *cpu = "max,la57=off", *build = TH_KERNEL_BUILD, *bz = NULL, *dotconfig = NULL;
	const char *vmlinux = NULL, *name = NULL, *releases = NULL;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN), timeout = 60;
	struct th_kernel_leg_opts o;
	struct th_kernel_leg leg;
	char err[2048], path[4096];
	struct th_results *dst = NULL;
	struct th_paths paths;
	int bad = 0, rc, lock = -1;

	if (argc > 1 && !strcmp(argv[1], "classify"))
		return cmd_classify(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) {
		const char *val;

		if (th_optname(argv[i], "--help", false) || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return fflush(stdout) ? 1 : 0;
		}
		if ((val = th_optval(argc, argv, &i, CMD, "--config", &bad)))
			configs = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--release", &bad)))
			releases = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--cells", &bad)))
			cells = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--out", &bad)))
			out = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--qemu", &bad)))
			qemu = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--cpu", &bad)))
			cpu = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--build", &bad)))
			build = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--bzimage", &bad)))
			bz = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--dotconfig", &bad)))
			dotconfig = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--vmlinux", &bad)))
			vmlinux = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--name", &bad)))
			name = val;
		else if ((val = th_optval(argc, argv, &i, CMD, "--jobs", &bad))) {
			if (th_optnum(CMD, "--jobs", val, 1, 64, &jobs))
				return 2;
		} else if ((val = th_optval(argc, argv, &i, CMD, "--timeout", &bad))) {
			if (th_optnum(CMD, "--timeout", val, 1, 3600, &timeout))
				return 2;
		} else if (bad) {
			return 2;
		} else {
			say(stderr, KERNEL, "unknown argument '%s'", argv[i]);
			fputc('\n', stderr);
			usage(stderr);
			return 2;
		}
	}
	if (jobs < 1)
		jobs = 1;
	if ((bz || dotconfig || vmlinux || name) && !(bz && dotconfig && name)) {
		fprintf(stderr, "timerharness kernel: your own kernel needs --bzimage, --dotconfig and --name together\n");
		return 2;
	}
	if (bz && releases) {
		fprintf(stderr, "timerharness kernel: --release names the kernels of kernel/build; your own kernel's release is its own\n");
		return 2;
	}
	if (bz && configs) {
		fprintf(stderr, "timerharness kernel: --config names the kernels of kernel/build; with --bzimage, --name says the config\n");
		return 2;
	}
	/* Never read what would block or never end (a FIFO, /dev/zero). */
	if ((bz && th_optpath(stderr, CMD, "--bzimage", bz, TH_OPT_FILE)) ||
	    (dotconfig && th_optpath(stderr, CMD, "--dotconfig", dotconfig, TH_OPT_FILE)) ||
	    (vmlinux && th_optpath(stderr, CMD, "--vmlinux", vmlinux, TH_OPT_FILE)) ||
	    th_optpath(stderr, CMD, "--build", build, TH_OPT_DIR) ||
	    th_optpath(stderr, CMD, "--out", out, TH_OPT_DIR))
		return 2;
	o = (struct th_kernel_leg_opts){
		.kernel_dir = TH_KERNEL_DIR, .build = build, .configs = configs, .cells = cells,
		.releases = releases,
		.qemu = qemu, .cpu = cpu, .jobs = (unsigned)jobs, .timeout = (double)timeout,
		.bzimage = bz, .dotconfig = dotconfig, .vmlinux = vmlinux, .name = name,
		.progress = progress,
	};
	if (th_kernel_leg_plan(&leg, &o, err, sizeof(err))) {
		if (err[0])
			say(stderr, KERNEL, "%s", err);
		rc = 2;
		goto done;
	}
	/*
	 * The cells go beside the model's: out's lock is held from reading its
	 * results.json, before minutes of boots, until the set is written, and
	 * a results.json that is missing or does not load is said now.
	 */
	if (th_paths_get(&paths)) {
		rc = 2;
		goto done;
	}
	if (mkdir(out, 0755) && errno != EEXIST) {
		say(stderr, KERNEL, "%s: %s", out, strerror(errno));
		rc = 1;
		goto done;
	}
	snprintf(path, sizeof(path), "%s/results.json", out);
	if ((lock = th_render_lock_dir(out, "kernel", err, sizeof(err))) < 0 ||
	    th_expect_load(paths.expect, err, sizeof(err))) {
		say(stderr, KERNEL, "%s", err);
		rc = 2;
		goto done;
	}
	if (access(path, F_OK)) {
		say(stderr, KERNEL, "%s: %s: the real kernel's cells go beside the model's (timerharness matrix --out %s first; make kernel does)",
		    path, strerror(errno), out);
		rc = 2;
		goto done;
	}
	if (th_results_load(path, &dst, err, sizeof(err))) {
		say(stderr, KERNEL, "%s", err);
		rc = 2;
		goto done;
	}
	if (th_kernel_leg_run(&leg, dst, out, err, sizeof(err))) {
		say(stderr, KERNEL, "%s", err);
		rc = 2;
		goto done;
	}
	rc = write_and_show(&leg, dst, out);
done:
	th_results_free(dst);
	th_expect_free();
	th_render_unlock_dir(lock, out);
	th_kernel_leg_free(&leg);
	return rc;
}
