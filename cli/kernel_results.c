/* SPDX-License-Identifier: MIT */
/*
 * The booted cells into the results model: one platform per kernel release
 * ("linux-6.1.192"), put beside the model's cells of DIR/results.json
 * (th_results_replace_platform), judged by the checkout's expectations
 * (attacks/expected.tsv's @platform rules and @differs rows), and the whole
 * set written as `matrix` writes it, under the same lock.
 */
#define _GNU_SOURCE
#include "kernel_results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfi/reach_collect.h"
#include "expect.h"
#include "render.h"
#include "results.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "QEMU emulator version 7.2.15 (...)": QEMU's own first line. */
static void qemu_version(const char *qemu, char *out, size_t n)
{
	char cmd[4200];
	FILE *p;

	snprintf(out, n, "%s", qemu);
	snprintf(cmd, sizeof(cmd), "'%s' --version 2>/dev/null", qemu);
	if (strchr(qemu, '\'') || !(p = popen(cmd, "r")))
		return;
	if (fgets(out, (int)n, p))
		out[strcspn(out, "\r\n")] = '\0';
	pclose(p);
}

/* Where the kernel's source came from: kernel/build writes it down. */
static void kernel_source(const char *build, const struct th_kernel_target *t, char *out, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(out, n, "your own kernel: %s", t->bzimage);
	if (!build)
		return;
	snprintf(path, sizeof(path), "%s/source.txt", build);
	if ((f = fopen(path, "r"))) {
		if (fgets(out, (int)n, f))
			out[strcspn(out, "\r\n")] = '\0';
		fclose(f);
	}
}

/* The boots of one release into src. Return: 0, or -1 with err set. */
static int fill(struct th_results *src, const struct th_results *dst, const char *platform,
		const char *release, const char *qemu, const char *build, const char *out_dir,
		const struct th_kernel_target *targets, size_t ntargets,
		const struct th_kernel_result *rs, size_t nrs, const char *globs, char *err, size_t n)
{
	char source[512], qv[256], rerun[1024];
	double *secs = calloc(nrs + 1, sizeof(double));
	size_t nsecs = 0, i, k;
	const struct th_kernel_target *first = NULL;
	const struct th_platform *old;

	if (!secs) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (i = 0; i < nrs; i++)
		if (!strcmp(rs[i].target->release, release) && rs[i].v.outcome != TH_HANG &&
		    rs[i].v.outcome != TH_HARNESS_ERROR)
			secs[nsecs++] = rs[i].seconds;
	qsort(secs, nsecs, sizeof(*secs), cmp_double);
	for (k = 0; k < ntargets && !first; k++)
		if (!strcmp(targets[k].release, release))
			first = &targets[k];
	kernel_source(build, first, source, sizeof(source));
	qemu_version(qemu, qv, sizeof(qv));
	{
		struct th_platform_in pin = {
			platform, source, first->compiler ? first->compiler : first->toolchain, qv, "max",
			nsecs ? secs[nsecs / 2] : -1,
		};

		if (th_results_set_expectations(src, th_expect_path(), th_expect_sha256(), err, n) ||
		    th_results_add_platform(src, &pin, err, n)) {
			free(secs);
			return -1;
		}
	}
	free(secs);
	for (k = 0; k < ntargets; k++) {
		const struct th_kernel_target *t = &targets[k];
		const struct th_toolchain *tc = th_results_find_toolchain(dst, t->toolchain);
		const struct th_config *cfg = th_results_find_config(dst, t->config);

		if (strcmp(t->release, release))
			continue;
		if (!cfg) {
			snprintf(err, n, "%s/results.json has no config %s: the real kernel's cells are judged beside the model's (timerharness matrix --out %s first)",
				 out_dir, t->config, out_dir);
			return -1;
		}
		if (!th_results_find_toolchain(src, t->toolchain) &&
		    th_results_add_toolchain(src, t->toolchain, tc ? tc->version : (t->compiler ? t->compiler : "?"),
					     tc ? tc->path : "", err, n))
			return -1;
		if (!th_results_find_config(src, t->config) &&
		    th_results_add_config(src, cfg->name, cfg->flags, cfg->description, err, n))
			return -1;
		if (th_results_add_platform_config(src, platform, t->config, t->kconfig, err, n))
			return -1;
	}
	/* What the kernel's own call_timer_fn can still call, read from the
	 * vmlinux that was booted (cfi/reach_collect.h): only a kCFI kernel
	 * has a check there; without one every function is a target. */
	for (k = 0; k < ntargets; k++) {
		const struct th_kernel_target *t = &targets[k];
		char e[1024];

		if (strcmp(t->release, release) || !t->cfi || !t->vmlinux)
			continue;
		if (th_reach_collect_vmlinux(src, platform, t->toolchain, t->config, t->vmlinux, NULL, 0,
					     e, sizeof(e))) {
			snprintf(err, n, "the reach of %s's call_timer_fn: %s (the boots' console logs are in %s/kernel)",
				 t->config, e, out_dir);
			return -1;
		}
	}
	/* A slice keeps the platform's other cells as they were. */
	if (globs && (old = th_results_find_platform(dst, platform))) {
		for (i = 0; i < dst->ncells; i++) {
			const struct th_cell *c = dst->cells[i];
			struct th_cell_in in;
			bool booted = false;

			if (!c->platform || strcmp(c->platform, platform))
				continue;
			for (k = 0; k < nrs && !booted; k++)
				booted = !strcmp(rs[k].cell->attack, c->attack) &&
					 !strcmp(rs[k].target->config, c->config);
			if (booted)
				continue;
			if (!th_results_find_config(src, c->config) || !th_results_find_toolchain(src, c->toolchain)) {
				snprintf(err, n, "%s/results.json: %s's cell %s on %s was not booted now and its kernel config is not among those booted: boot every config (no --config) or every cell",
					 out_dir, platform, c->attack, c->config);
				return -1;
			}
			in = (struct th_cell_in){
				.attack = c->attack, .technique = c->technique, .timing = c->timing,
				.payload = c->payload, .variant = c->variant, .config = c->config,
				.toolchain = c->toolchain, .outcome = TH_OUTCOME_INVALID, .runs = c->runs,
				.counts = c->counts, .evidence = c->evidence, .expected = TH_OUTCOME_INVALID,
				.seconds = c->seconds, .rerun = c->rerun, .platform = platform,
			};
			if (!th_results_add_cell(src, &in, err, n))
				return -1;
		}
	}
	for (i = 0; i < nrs; i++) {
		const struct th_kernel_result *r = &rs[i];
		char evidence[TH_CONSOLE_EVIDENCE + 600];
		struct th_cell_in in;

		if (strcmp(r->target->release, release))
			continue;
		snprintf(evidence, sizeof(evidence), "%s%s%s", r->v.evidence, r->log[0] ? "; console: " : "",
			 r->log);
		snprintf(rerun, sizeof(rerun), "timerharness kernel --config %s --cells %s --out %s",
			 r->target->config, r->cell->attack, out_dir);
		in = (struct th_cell_in){
			.attack = r->cell->attack, .technique = r->cell->technique,
			.timing = r->cell->timing, .payload = r->cell->payload,
			.variant = TH_VARIANT_MODERN, .config = r->target->config,
			.toolchain = r->target->toolchain, .outcome = r->v.outcome, .runs = 1,
			.evidence = evidence, .expected = TH_OUTCOME_INVALID, .seconds = r->seconds,
			.rerun = rerun, .platform = platform,
		};
		if (!th_results_add_cell(src, &in, err, n))
			return -1;
	}
	return 0;
}

int th_kernel_results_write(struct th_results *dst, const char *out, const char *build,
			    const char *qemu, const char *globs,
			    const struct th_kernel_target *targets, size_t ntargets,
			    const struct th_kernel_result *rs, size_t nrs)
{
	struct th_results *src = NULL;
	char err[2048] = "", warn[2048] = "", path[4096];
	size_t herr = 0, i, k;
	int rc;

	for (i = 0; i < nrs; i++)
		herr += rs[i].v.outcome == TH_HARNESS_ERROR;
	snprintf(path, sizeof(path), "%s/results.json", out);
	for (k = 0; k < ntargets; k++) {
		char platform[160];
		bool seen = false;

		for (i = 0; i < k; i++)
			seen |= !strcmp(targets[i].release, targets[k].release);
		if (seen)
			continue;
		snprintf(platform, sizeof(platform), "linux-%s", targets[k].release);
		src = th_results_create(dst->version);
		if (!src) {
			snprintf(err, sizeof(err), "out of memory");
			goto fail;
		}
		if (fill(src, dst, platform, targets[k].release, qemu, build, out, targets, ntargets, rs,
			 nrs, globs, err, sizeof(err)) ||
		    th_results_replace_platform(dst, src, platform, err, sizeof(err)))
			goto fail;
		th_results_free(src);
		src = NULL;
	}
	if (th_expect_judge_results(dst, err, sizeof(err)) ||
	    th_results_set_count_metrics(dst, err, sizeof(err)) ||
	    th_render_write_set(dst, out, warn, sizeof(warn), err, sizeof(err)))
		goto fail;
	for (char *p = warn, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		fprintf(stderr, "timerharness kernel: %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
	}
	for (k = 0; k < ntargets; k++)
		printf("kernel: %s: linux-%s, %s, %s%s%s\n", targets[k].config, targets[k].release,
		       targets[k].toolchain, targets[k].kconfig, targets[k].vmlinux ? ", " : "",
		       targets[k].vmlinux ? targets[k].vmlinux : "");
	printf("kernel: %zu cells into %s (console logs: %s/kernel/<config>/<cell>.log)\n", nrs, path, out);
	th_render_verdict(stdout, dst, 0);
	rc = herr ? 3 : 0;
	if (herr)
		fprintf(stderr, "timerharness kernel: %zu cells are HARNESS_ERROR (check fails on them)\n", herr);
	goto done;
fail:
	fprintf(stderr, "timerharness kernel: %s\n", err);
	rc = 2;
done:
	th_results_free(src);
	fflush(stdout);
	return rc;
}
