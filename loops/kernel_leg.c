/* SPDX-License-Identifier: MIT */
/*
 * The real-kernel leg's loop (kernel_leg.h): the plan, the boots, and the
 * booted cells into the results model: one platform per kernel release
 * ("linux-6.1.192"), put beside the model's cells of the out folder's
 * results.json (th_results_replace_platform), judged by the checkout's
 * expectations (attacks/expected.tsv's @platform rules and @differs rows).
 * Writing the set and showing the verdict are the CLI's (cli/cmd_kernel.c),
 * which holds out's lock from loading its results.json until the set is
 * written.
 */
#define _GNU_SOURCE
#include "kernel_leg.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attacks/expect.h"
#include "cfi/evidence.h"
#include "cfi/reach_collect.h"
#include "results/results.h"
#include "lib/fs.h"
#include "lib/stats.h"

/* @name as execv() needs it: a path, or searched in PATH. Return: 0. */
static int find_program(const char *name, char *path, size_t n)
{
	const char *dirs = getenv("PATH");

	if (strchr(name, '/')) {
		snprintf(path, n, "%s", name);
		return access(path, X_OK);
	}
	while (dirs && *dirs) {
		size_t len = strcspn(dirs, ":");

		snprintf(path, n, "%.*s/%s", (int)len, len ? dirs : ".", name);
		if (!access(path, X_OK))
			return 0;
		dirs += len + (dirs[len] == ':');
	}
	return -1;
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
	const char *why;
	FILE *f;

	snprintf(out, n, "your own kernel: %s", t->bzimage);
	if (!build)
		return;
	/* kernel/build: <build>/<release>/source.txt (kernel/kernels.tsv's
	 * releases), or <build>/source.txt. */
	if (t->series)
		snprintf(path, sizeof(path), "%s/%s/source.txt", build, t->series);
	else
		snprintf(path, sizeof(path), "%s/source.txt", build);
	if ((f = th_fopen_read(path, "r", &why))) {
		if (fgets(out, (int)n, f))
			out[strcspn(out, "\r\n")] = '\0';
		fclose(f);
	}
}

/* The boots of one release into src. Return: 0, or -1 with err set. */
static int fill(struct th_results *src, const struct th_results *dst, const char *platform,
		const char *release, const char *qemu, const char *cpu, const char *build,
		const char *out_dir,
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
	qsort(secs, nsecs, sizeof(*secs), th_cmp_double);
	for (k = 0; k < ntargets && !first; k++)
		if (!strcmp(targets[k].release, release))
			first = &targets[k];
	kernel_source(build, first, source, sizeof(source));
	qemu_version(qemu, qv, sizeof(qv));
	{
		struct th_platform_in pin = {
			platform, source, first->compiler ? first->compiler : first->toolchain, qv, cpu,
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
		if (!cfg && (!strcmp(t->config, "fineibt") || !strcmp(t->config, "kcfi-smp"))) {
			/* A kernel's own: the model has no FineIBT (its kcfi is
			 * the caller's check) and no second CPU; the cells are
			 * judged by their platform's rules, and beside no model
			 * cell. */
			if (!th_results_find_config(src, t->config) &&
			    th_results_add_config(src, t->config, "",
						  !strcmp(t->config, "fineibt") ?
						  "the real kernel only: kCFI's type hashes checked in the callee's FineIBT preamble (Linux 6.2+, CONFIG_FINEIBT, booted cfi=fineibt; under QEMU's TCG no ENDBR landing-pad check)" :
						  "the real kernel only: kCFI (CONFIG_CFI_CLANG) on an SMP kernel (CONFIG_SMP) booted on 2 vCPUs (QEMU -smp 2): the timer's base and .flags' CPU bits as on a multiprocessor",
						  err, n))
				return -1;
		} else if (!cfg) {
			snprintf(err, n, "%s/results.json has no config %s: the real kernel's cells are judged beside the model's (timerharness matrix --out %s first)",
				 out_dir, t->config, out_dir);
			return -1;
		}
		if (!th_results_find_toolchain(src, t->toolchain) &&
		    th_results_add_toolchain(src, t->toolchain, tc ? tc->version : (t->compiler ? t->compiler : "?"),
					     tc ? tc->path : "", err, n))
			return -1;
		if (cfg && !th_results_find_config(src, t->config) &&
		    th_results_add_config(src, cfg->name, cfg->flags, cfg->description, err, n))
			return -1;
		if (th_results_add_platform_config(src, platform, t->config, t->kconfig, err, n))
			return -1;
	}
	/* What the kernel's own call_timer_fn and tasklet_action_common can
	 * still call, read from the vmlinux that was booted
	 * (cfi/reach_collect.h): only a kCFI kernel has a check there;
	 * without one, or with a permissive one (it reports and calls),
	 * every function is a target. */
	for (k = 0; k < ntargets; k++) {
		const struct th_kernel_target *t = &targets[k];
		char e[1024];

		if (strcmp(t->release, release) || !t->cfi || t->cfi_permissive || !t->vmlinux)
			continue;
		/* Read beside the model's reach of the same config: FineIBT's
		 * check is in the callee's preamble, which the file on disk
		 * holds in its kCFI form (the kernel rewrites it at boot), and
		 * the model has no fineibt config. 6.12's kcfi kernel is the
		 * same vmlinux, read under kcfi. */
		if (!th_results_find_config(dst, t->config))
			continue;
		/* A CONFIG_FINEIBT kernel is built with retpolines: its calls
		 * go through __x86_indirect_thunk_r11, a label inside
		 * __x86_indirect_thunk_array in 6.12, which the reader takes
		 * for the indirect call it is. */
		if (th_reach_collect_vmlinux(src, platform, t->toolchain, t->config, t->vmlinux, NULL, 0,
					     e, sizeof(e))) {
			snprintf(err, n, "the reach of %s's call_timer_fn and tasklet_action_common: %s (the boots' console logs are in %s/kernel)",
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
					 !strcmp(rs[k].target->config, c->config) &&
					 !strcmp(rs[k].target->release, release);
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
				.api = c->api,
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
		snprintf(evidence, sizeof(evidence), "%s%s%s", r->v.evidence, r->log[0] ? TH_KEV_CONSOLE : "",
			 r->log);
		if (r->target->series)
			snprintf(rerun, sizeof(rerun), "timerharness kernel --release %s --config %s --cells %s --out %s",
				 r->target->series, r->target->config, r->cell->attack, out_dir);
		else
			snprintf(rerun, sizeof(rerun), "timerharness kernel --config %s --cells %s --out %s",
				 r->target->config, r->cell->attack, out_dir);
		in = (struct th_cell_in){
			.attack = r->cell->attack, .technique = r->cell->technique,
			.timing = r->cell->timing, .payload = r->cell->payload,
			/* The family's generation on this kernel (kernel/cells.tsv's
			 * api, attacks/kernel_plan.c): the model's cell it meets. */
			.variant = th_variant_parse(r->cell->variant), .config = r->target->config,
			.toolchain = r->target->toolchain, .outcome = r->v.outcome, .runs = 1,
			.evidence = evidence, .expected = TH_OUTCOME_INVALID, .seconds = r->seconds,
			.rerun = rerun, .platform = platform, .api = th_api_parse(r->cell->api),
		};
		if (!th_results_add_cell(src, &in, err, n))
			return -1;
	}
	return 0;
}

/* --name is a config of @configs (kernel/configs/<name>.config), never a
 * path. Return: 0, or -1 with err set (raw: its printer escapes it). */
static int check_name(const struct th_kernel_leg *leg, const char *name, const char *configs,
		      char *err, size_t n)
{
	char list[512] = "";
	size_t len = 0;

	for (size_t k = 0; k < leg->plan.nconfigs; k++)
		if (!strcmp(name, leg->plan.configs[k]))
			return 0;
	if (strchr(name, '/') || strstr(name, "..")) {
		snprintf(err, n, "--name '%.200s': a config's name, not a path (no '/', no '..')", name);
		return -1;
	}
	for (size_t k = 0; k < leg->plan.nconfigs && len < sizeof(list); k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", k ? ", " : "",
					leg->plan.configs[k]);
	snprintf(err, n, "--name '%.200s' is not a kernel config of %s (%s)", name, configs, list);
	return -1;
}

int th_kernel_leg_plan(struct th_kernel_leg *leg, const struct th_kernel_leg_opts *o,
		       char *err, size_t n)
{
	char path[4096], path2[4096];

	memset(leg, 0, sizeof(*leg));
	leg->o_ = o;
	err[0] = '\0';
	snprintf(path, sizeof(path), "%s/cells.tsv", o->kernel_dir);
	snprintf(path2, sizeof(path2), "%s/configs", o->kernel_dir);
	if (th_kernel_plan_load(o->kernel_dir, &leg->plan, err, n))
		return -1;
	if (o->cells) {
		size_t hit = 0;

		for (size_t c = 0; c < leg->plan.ncells; c++)
			hit += th_kernel_cell_selected(leg->plan.cells[c].attack, o->cells);
		if (!hit) {
			snprintf(err, n, "--cells %s selects no cell of %s", o->cells, path);
			return -1;
		}
	}
	/* err stays "": the command has always exited 2 here without a word. */
	leg->targets = calloc(leg->plan.nconfigs + 1, sizeof(*leg->targets));
	if (!leg->targets)
		return -1;
	if (o->bzimage) {
		/* The config it is judged as names its cells and its logs' folder
		 * (DIR/kernel/<name>/): one of the plan's, checked before anything
		 * is read, booted or written. */
		if (check_name(leg, o->name, path2, err, n))
			return -1;
		if (th_kernel_target_load(&leg->targets[0], o->name, NULL, o->bzimage, o->dotconfig,
					  o->vmlinux, err, n))
			return -1;
		leg->ntargets = 1;
		/* A kernel that can run FineIBT chooses its CFI at boot (6.2+:
		 * cfi=auto takes FineIBT only on an IBT CPU): booted in the mode
		 * it is judged as, and proved to have taken it (kernel/run.c). */
		if (leg->targets[0].fineibt && !strcmp(o->name, "kcfi"))
			leg->targets[0].boot = "cfi=kcfi";
		else if (leg->targets[0].fineibt && !strcmp(o->name, "fineibt"))
			leg->targets[0].boot = "cfi=fineibt";
	} else if (leg->plan.nbuilds) {
		/* kernel/kernels.tsv: <build>/<release>/<config>/, each of its
		 * release (a kernel of another release left there is no
		 * kernel of this line). */
		free(leg->targets);
		leg->targets = calloc(leg->plan.nbuilds + 1, sizeof(*leg->targets));
		if (!leg->targets)
			return -1;
		for (size_t k = 0; k < leg->plan.nbuilds; k++) {
			const struct th_kernel_build *b = &leg->plan.builds[k];
			struct th_kernel_target *t = &leg->targets[leg->ntargets];
			size_t rl = strlen(b->release);
			char dir[4096];

			if ((o->configs && !th_kernel_cell_selected(b->config, o->configs)) ||
			    (o->releases && !th_kernel_cell_selected(b->release, o->releases)))
				continue;
			snprintf(dir, sizeof(dir), "%s/%s/%s", o->build, b->release, b->config);
			if (th_kernel_target_load(t, b->config, dir, NULL, NULL, NULL, err, n))
				return -1;
			leg->ntargets++;
			t->boot = b->boot;
			t->series = b->release;
			if (strncmp(t->release, b->release, rl) || (t->release[rl] && t->release[rl] != '.')) {
				snprintf(err, n, "%s: kernel %s, but kernel/kernels.tsv:%u plans %s there (kernel/build builds it)",
					 dir, t->release, b->line, b->release);
				return -1;
			}
			if (strstr(b->boot, "cfi=fineibt") && !t->fineibt) {
				snprintf(err, n, "%s: booted cfi=fineibt (kernel/kernels.tsv:%u), but its .config has no CONFIG_FINEIBT=y",
					 dir, b->line);
				return -1;
			}
		}
		if (!leg->ntargets) {
			snprintf(err, n, "--config %s names no config of %s/kernels.tsv (release %s)",
				 o->configs ? o->configs : "*", o->kernel_dir,
				 o->releases ? o->releases : "*");
			return -1;
		}
	} else {
		for (size_t k = 0; k < leg->plan.nconfigs; k++) {
			char dir[4096];

			if (o->configs && !th_kernel_cell_selected(leg->plan.configs[k], o->configs))
				continue;
			snprintf(dir, sizeof(dir), "%s/%s", o->build, leg->plan.configs[k]);
			if (th_kernel_target_load(&leg->targets[leg->ntargets], leg->plan.configs[k], dir,
						  NULL, NULL, NULL, err, n))
				return -1;
			leg->ntargets++;
		}
		if (!leg->ntargets) {
			snprintf(err, n, "--config %s names no config of %s", o->configs, path2);
			return -1;
		}
	}
	if (find_program(o->qemu, leg->qemu, sizeof(leg->qemu))) {
		snprintf(err, n, "%s: not found or not executable (scripts/install-deps installs Debian's qemu-system-x86; --qemu PATH another)",
			 o->qemu);
		return -1;
	}
	return 0;
}

int th_kernel_leg_run(struct th_kernel_leg *leg, struct th_results *dst, const char *out,
		      char *err, size_t n)
{
	const struct th_kernel_leg_opts *o = leg->o_;
	/* Your own kernel has no kernel/build directory to say its source. */
	const char *build = o->bzimage ? NULL : o->build;
	char initrd[4096], logs[4096];
	struct th_kernel_run_opts ro = {
		.qemu = leg->qemu, .initrd = initrd, .cpu = o->cpu, .timeout = o->timeout,
		.quiet = 10,
		.jobs = o->jobs, .log_dir = logs, .progress = o->progress, .arg = o->arg,
	};
	struct th_results *src = NULL;
	size_t i, k;

	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", o->build);
	snprintf(logs, sizeof(logs), "%s/kernel", out);
	if (th_kernel_run(&ro, &leg->plan, o->cells, leg->targets, leg->ntargets, &leg->rs, &leg->nrs,
			  err, n))
		return -1;
	leg->harness_errors = 0;
	for (i = 0; i < leg->nrs; i++)
		leg->harness_errors += leg->rs[i].v.outcome == TH_HARNESS_ERROR;
	for (k = 0; k < leg->ntargets; k++) {
		const struct th_kernel_target *t = &leg->targets[k];
		char platform[160];
		bool seen = false;

		for (i = 0; i < k; i++)
			seen |= !strcmp(leg->targets[i].release, t->release);
		if (seen)
			continue;
		snprintf(platform, sizeof(platform), "linux-%s", t->release);
		src = th_results_create(dst->version);
		if (!src) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		if (fill(src, dst, platform, t->release, leg->qemu, o->cpu, build, out, leg->targets,
			 leg->ntargets, leg->rs, leg->nrs, o->cells, err, n) ||
		    th_results_replace_platform(dst, src, platform, err, n)) {
			th_results_free(src);
			return -1;
		}
		th_results_free(src);
	}
	if (th_expect_judge_results(dst, err, n) || th_results_set_count_metrics(dst, err, n))
		return -1;
	return 0;
}

void th_kernel_leg_free(struct th_kernel_leg *leg)
{
	free(leg->rs);
	for (size_t k = 0; k < leg->ntargets; k++)
		th_kernel_target_free(&leg->targets[k]);
	free(leg->targets);
	th_kernel_plan_free(&leg->plan);
	memset(leg, 0, sizeof(*leg));
}
