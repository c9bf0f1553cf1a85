// SPDX-License-Identifier: MIT
#define _GNU_SOURCE /* FNM_CASEFOLD, strndup */
#include "kernel/run.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/fs.h"
#include "results/results.h"
#include "runner/child.h"

/* ---- a built kernel ------------------------------------------------------------ */

static char *slurp_line(const char *path)
{
	const char *why;
	FILE *f = th_fopen_read(path, "r", &why);
	char buf[512];

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return strdup(buf);
}

/* The value of CONFIG_<name>= in .config (quotes removed), or NULL. */
static char *kconfig_value(const char *dotconfig, const char *name)
{
	const char *why;
	FILE *f = th_fopen_read(dotconfig, "r", &why);
	char buf[1024], *v = NULL;
	size_t nl = strlen(name);

	if (!f)
		return NULL;
	while (fgets(buf, sizeof(buf), f)) {
		if (strncmp(buf, name, nl) || buf[nl] != '=')
			continue;
		buf[strcspn(buf, "\r\n")] = '\0';
		v = buf + nl + 1;
		if (*v == '"') {
			v++;
			if (*v && v[strlen(v) - 1] == '"')
				v[strlen(v) - 1] = '\0';
		}
		v = strdup(v);
		break;
	}
	fclose(f);
	return v;
}

/* A regular file we may read (a FIFO or /dev/zero given as a kernel's
 * file is refused here, never read); else false with @why set. */
static bool readable(const char *p, const char **why)
{
	if (!th_is_regular(p, why))
		return false;
	if (access(p, R_OK)) {
		*why = strerror(errno);
		return false;
	}
	return true;
}

int th_kernel_target_load(struct th_kernel_target *t, const char *config, const char *dir,
			  const char *bzimage, const char *dotconfig, const char *vmlinux,
			  char *err, size_t n)
{
	char path[4096], *cfi, *perm, *unit, *clang, *gcc;
	char dc[4096];
	const char *why, *rel_from = dc;	/* where the release was read */
	char plat[80];

	memset(t, 0, sizeof(*t));
	t->config = strdup(config);
	if (dir) {
		snprintf(path, sizeof(path), "%s/arch/x86/boot/bzImage", dir);
		t->bzimage = strdup(path);
		snprintf(dc, sizeof(dc), "%s/.config", dir);
		snprintf(path, sizeof(path), "%s/vmlinux", dir);
		t->vmlinux = readable(path, &why) ? strdup(path) : NULL;
		snprintf(path, sizeof(path), "%s/include/config/kernel.release", dir);
		t->release = slurp_line(path);
		if (t->release)
			rel_from = path;
	} else {
		t->bzimage = strdup(bzimage);
		snprintf(dc, sizeof(dc), "%s", dotconfig);
		t->vmlinux = vmlinux ? strdup(vmlinux) : NULL;
		t->release = NULL;	/* from the .config banner, below */
	}
	if (!t->config || !t->bzimage) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (!readable(t->bzimage, &why)) {
		snprintf(err, n, "%s: %s%s", t->bzimage, why,
			 dir ? " (build it: make kernel, or kernel/build)" : "");
		return -1;
	}
	if (!readable(dc, &why)) {
		snprintf(err, n, "%s: %s (the kernel's .config says what it was built with)", dc, why);
		return -1;
	}
	if (vmlinux && !readable(vmlinux, &why)) {
		snprintf(err, n, "%s: %s", vmlinux, why);
		return -1;
	}
	if (!t->release) {
		/* Bring your own: the release is in the .config's banner line,
		 * "# Linux/x86 6.1.192 Kernel Configuration". */
		FILE *f = th_fopen_read(dc, "r", &why);
		char buf[256];

		while (f && fgets(buf, sizeof(buf), f)) {
			char rel[64];

			if (sscanf(buf, "# Linux/x86 %63s Kernel Configuration", rel) == 1 ||
			    sscanf(buf, "# Linux/x86_64 %63s Kernel Configuration", rel) == 1) {
				t->release = strdup(rel);
				break;
			}
		}
		if (f)
			fclose(f);
		if (!t->release) {
			snprintf(err, n, "%s: no kernel release (include/config/kernel.release, or the .config's banner line)",
				 dc);
			return -1;
		}
	}
	/* It names the platform, linux-<release>, in every file and message,
	 * as results.h allows one (letters, digits, ._+~-): said now, before
	 * any boot, not when the cells are added. */
	snprintf(plat, sizeof(plat), "linux-%.60s", t->release);
	if (!*t->release || strlen(t->release) > 58 || !th_platform_name_valid(plat)) {
		snprintf(err, n, "%s: kernel release '%.64s' is not one a platform is named by "
			 "(linux-<release>: 1 to 58 letters, digits and ._+~-; no control character, "
			 "blank or '/')", rel_from, t->release);
		return -1;
	}
	t->compiler = kconfig_value(dc, "CONFIG_CC_VERSION_TEXT");
	clang = kconfig_value(dc, "CONFIG_CLANG_VERSION");
	gcc = kconfig_value(dc, "CONFIG_GCC_VERSION");
	if (clang && atoi(clang) > 0) {
		char tc[32];

		snprintf(tc, sizeof(tc), "clang-%d", atoi(clang) / 10000);
		t->toolchain = strdup(tc);
	} else if (gcc && atoi(gcc) > 0) {
		char tc[32];

		snprintf(tc, sizeof(tc), "gcc-%d", atoi(gcc) / 10000);
		t->toolchain = strdup(tc);
	}
	free(clang);
	free(gcc);
	if (!t->toolchain) {
		snprintf(err, n, "%s: neither CONFIG_CLANG_VERSION nor CONFIG_GCC_VERSION", dc);
		return -1;
	}
	{
		char *fi = kconfig_value(dc, "CONFIG_FINEIBT");

		t->fineibt = fi && !strcmp(fi, "y");
		free(fi);
	}
	{
		/* An SMP kernel is booted on two CPUs (kernel/kernels.tsv's
		 * kcfi-smp): the timer's base and .flags' CPU bits mean what
		 * they do on a multiprocessor. */
		char *smp = kconfig_value(dc, "CONFIG_SMP");

		t->smp = smp && !strcmp(smp, "y");
		free(smp);
	}
	cfi = kconfig_value(dc, "CONFIG_CFI_CLANG");
	perm = kconfig_value(dc, "CONFIG_CFI_PERMISSIVE");
	unit = kconfig_value(dc, "CONFIG_TIMERHARNESS");
	t->cfi = cfi && !strcmp(cfi, "y");
	t->cfi_permissive = t->cfi && perm && !strcmp(perm, "y");
	t->unit = unit && !strcmp(unit, "y");
	free(cfi);
	free(perm);
	free(unit);
	snprintf(t->kconfig, sizeof(t->kconfig), "%s",
		 t->cfi_permissive ? "CONFIG_CFI_CLANG=y CONFIG_CFI_PERMISSIVE=y (reports a failed check, then calls)" :
		 t->cfi ? "CONFIG_CFI_CLANG=y" : "# CONFIG_CFI_CLANG is not set");
	if (!t->unit) {
		snprintf(err, n, "%s: CONFIG_TIMERHARNESS is not y: this kernel has no timerharness unit (kernel/README.md: adding it to your tree)",
			 dc);
		return -1;
	}
	if ((!strcmp(config, "kcfi") || !strcmp(config, "kcfi-smp")) && !t->cfi) {
		snprintf(err, n, "%s: config %s without CONFIG_CFI_CLANG=y: the defence is lost", dc, config);
		return -1;
	}
	if (!strcmp(config, "kcfi-smp") && !t->smp) {
		snprintf(err, n, "%s: config kcfi-smp without CONFIG_SMP=y: a uniprocessor kernel", dc);
		return -1;
	}
	/* FineIBT (6.2+, arch/x86/kernel/alternative.c) needs CONFIG_FINEIBT,
	 * which follows from CFI_CLANG, X86_KERNEL_IBT and retpolines. */
	if (!strcmp(config, "fineibt") && (!t->cfi || !t->fineibt)) {
		snprintf(err, n, "%s: config fineibt without CONFIG_CFI_CLANG=y and CONFIG_FINEIBT=y: the defence is lost", dc);
		return -1;
	}
	/*
	 * CONFIG_CFI_PERMISSIVE: report_cfi_failure() (kernel/cfi.c) prints
	 * the report, __warn()s and returns BUG_TRAP_TYPE_WARN, and
	 * handle_bug() (arch/x86/kernel/traps.c) steps over the ud2: the call
	 * is made. Such a kernel blocks nothing: it is judged as none (its
	 * reports kept as the cells' evidence), never as a CFI config.
	 */
	if (t->cfi_permissive && strcmp(config, "none")) {
		snprintf(err, n, "%s: config %s with CONFIG_CFI_PERMISSIVE=y: that kernel reports a failed check and makes the call anyway, so it blocks nothing (judge it as none: --name none)",
			 dc, config);
		return -1;
	}
	if (!strcmp(config, "none") && t->cfi && !t->cfi_permissive) {
		snprintf(err, n, "%s: config none with CONFIG_CFI_CLANG=y", dc);
		return -1;
	}
	return 0;
}

void th_kernel_target_free(struct th_kernel_target *t)
{
	free(t->config);
	free(t->bzimage);
	free(t->vmlinux);
	free(t->release);
	free(t->compiler);
	free(t->toolchain);
	memset(t, 0, sizeof(*t));
}

/* ---- boots --------------------------------------------------------------------- */

bool th_kernel_cell_selected(const char *attack, const char *globs)
{
	char buf[1024], *save = NULL, *g;

	if (!globs || !*globs)
		return true;
	snprintf(buf, sizeof(buf), "%s", globs);
	for (g = strtok_r(buf, ",", &save); g; g = strtok_r(NULL, ",", &save))
		if (!fnmatch(g, attack, FNM_CASEFOLD))
			return true;
	return false;
}

static void new_token(char *tok, size_t n)
{
	unsigned char b[8];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t i;

	if (fd < 0 || read(fd, b, sizeof(b)) != (ssize_t)sizeof(b)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (i = 0; i < sizeof(b); i++)
			b[i] = (unsigned char)((ts.tv_nsec >> (i * 3)) ^ (getpid() >> i) ^ (i * 77));
	}
	if (fd >= 0)
		close(fd);
	for (i = 0; i < sizeof(b) && 2 * i + 2 < n; i++)
		snprintf(tok + 2 * i, 3, "%02x", b[i]);
}

struct job {
	struct th_child *child;		/* its slot in the pumped array */
	struct th_kernel_result *r;
	size_t seen;			/* console bytes when last looked at */
	bool called;			/* the unit's CALL line is on the console */
	char token[32];
	char append[512];
	bool running;
};

static int start(struct job *j, const struct th_kernel_run_opts *o)
{
	const struct th_kernel_result *r = j->r;
	struct th_child_opts co = { .timeout = o->timeout };
	const char *argv[32];
	int a = 0;

	new_token(j->token, sizeof(j->token));
	snprintf(j->append, sizeof(j->append),
		 "console=ttyS0 panic=-1 oops=panic loglevel=7%s%s timerharness.cell=%s timerharness.token=%s",
		 r->target->boot && *r->target->boot ? " " : "", r->target->boot ? r->target->boot : "",
		 r->cell->attack, j->token);
	argv[a++] = o->qemu;
	argv[a++] = "-nodefaults";
	argv[a++] = "-display";
	argv[a++] = "none";
	argv[a++] = "-no-reboot";
	argv[a++] = "-cpu";
	argv[a++] = o->cpu;
	argv[a++] = "-smp";
	/* An SMP kernel gets two CPUs, as two sockets: the kernel finds them
	 * in SeaBIOS's MP table (no ACPI in these configs), which lists one
	 * CPU per socket: "-smp 2" alone boots 1 (measured: "smp: Brought up
	 * 1 node, 1 CPU"). */
	argv[a++] = r->target->smp ? "2,sockets=2" : "1";
	argv[a++] = "-m";
	argv[a++] = "256";
	argv[a++] = "-serial";
	argv[a++] = "stdio";
	argv[a++] = "-kernel";
	argv[a++] = r->target->bzimage;
	argv[a++] = "-initrd";
	argv[a++] = o->initrd;
	argv[a++] = "-append";
	argv[a++] = j->append;
	argv[a] = NULL;
	memset(j->child, 0, sizeof(*j->child));
	if (th_child_spawn(j->child, argv, &co))
		return -1;
	j->running = true;
	j->seen = 0;
	j->called = false;
	return 0;
}

/*
 * A kernel booted in a CFI mode (cfi=kcfi, cfi=fineibt: 6.2+'s
 * cfi_parse_cmdline(), arch/x86/kernel/alternative.c) must say it took it:
 * apply_fineibt() prints "Using kCFI" or "Using FineIBT CFI" (pr_fmt "SMP
 * alternatives: "), and a kernel that ignored the option (or fell back,
 * "Something went horribly wrong") is not the config its cells are judged
 * as: HARNESS_ERROR, never a quiet green.
 */
static void boot_mode(struct th_kernel_result *r, const char *out, size_t len)
{
	static const struct { const char *arg, *says; } modes[] = {
		{ "cfi=kcfi", "SMP alternatives: Using kCFI" },
		{ "cfi=fineibt", "SMP alternatives: Using FineIBT CFI" },
	};
	const char *boot = r->target->boot;

	if (!boot || r->v.outcome == TH_HARNESS_ERROR)
		return;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const char *a = strstr(boot, modes[i].arg);
		size_t al = strlen(modes[i].arg);

		if (!a || (a != boot && a[-1] != ' ') || (a[al] && a[al] != ' '))
			continue;
		if (out && memmem(out, len, modes[i].says, strlen(modes[i].says)))
			continue;
		r->v.outcome = TH_HARNESS_ERROR;
		snprintf(r->v.evidence, sizeof(r->v.evidence),
			 "booted %s, but the console never says \"%s\" (the kernel did not take that CFI mode): not the %s config",
			 modes[i].arg, modes[i].says, r->target->config);
	}
}

/* Return: true when the boot ended before the unit ran and is to be booted
 * again (up to TH_KERNEL_BOOTS; its log kept as <cell>.boot<N>.log). */
static bool finish(struct job *j, const struct th_kernel_run_opts *o)
{
	struct th_kernel_result *r = j->r;
	struct th_child_obs obs;
	struct th_console_cell cc = { r->cell->attack, r->cell->payload, j->token };
	enum th_boot_end end = TH_BOOT_EXITED;
	char qerr[300] = "";
	char dir[4096];
	FILE *f;

	th_child_observe(&obs, j->child, r->target->config, r->target->toolchain);
	r->seconds = obs.seconds;
	if (obs.timed_out) {
		end = TH_BOOT_TIMEOUT;
	} else if (!obs.execed || (obs.exited && obs.exit_code != 0) || obs.signaled) {
		end = TH_BOOT_FAILED;
		snprintf(qerr, sizeof(qerr), "%s %s%d: %.200s", o->qemu,
			 !obs.execed ? "could not be run, status " : obs.signaled ? "killed by signal " : "exited ",
			 obs.signaled ? obs.signo : obs.exit_code,
			 obs.err_len ? obs.err : "(no message)");
		qerr[strcspn(qerr, "\n")] = '\0';
	}
	th_console_classify(obs.out, obs.out_len, &cc, end, end == TH_BOOT_FAILED ? qerr : NULL, &r->v);
	boot_mode(r, obs.out, obs.out_len);
	if (r->target->series)
		snprintf(dir, sizeof(dir), "%s/%s/%s", o->log_dir, r->target->series, r->target->config);
	else
		snprintf(dir, sizeof(dir), "%s/%s", o->log_dir, r->target->config);
	snprintf(r->log, sizeof(r->log), "%s/%s.log", dir, r->cell->attack);
	if (!th_mkdir_p(dir) && (f = fopen(r->log, "w"))) {
		fprintf(f, "# timerharness kernel: %s on %s (%s), token %s, %s in %.2f s\n",
			r->cell->attack, r->target->config, r->target->bzimage, j->token,
			end == TH_BOOT_TIMEOUT ? "time limit" : end == TH_BOOT_FAILED ? "QEMU failed" : "QEMU exited",
			obs.seconds);
		fprintf(f, "# -append \"%s\"\n", j->append);
		fwrite(obs.out, 1, obs.out_len, f);
		if (obs.err_len) {
			fputs("\n# QEMU's standard error:\n", f);
			fwrite(obs.err, 1, obs.err_len, f);
		}
		fclose(f);
	} else {
		r->log[0] = '\0';
	}
	th_child_free(j->child);
	j->running = false;
	if (r->v.outcome == TH_HARNESS_ERROR && !r->v.unit_seen && end != TH_BOOT_FAILED &&
	    r->early + 1 < TH_KERNEL_BOOTS) {
		char kept[sizeof(r->log) + 16];

		if (!r->early++)
			snprintf(r->first, sizeof(r->first), "%s", r->v.evidence);
		if (r->log[0]) {
			snprintf(kept, sizeof(kept), "%.*s.boot%u.log", (int)strlen(r->log) - 4, r->log,
				 r->early);
			if (rename(r->log, kept))
				r->log[0] = '\0';
		}
		return true;
	}
	if (r->early) {
		char ev[TH_CONSOLE_EVIDENCE];

		snprintf(ev, sizeof(ev), "%s (boot %u: the %u before it ended before the unit ran, the first: %s; their consoles: <cell>.boot<N>.log)",
			 r->v.evidence, r->early + 1, r->early, r->first);
		snprintf(r->v.evidence, sizeof(r->v.evidence), "%s", ev);
	}
	return false;
}

/*
 * Once the watched dispatch (call_timer_fn, tasklet_action_common) has
 * entered a target (the unit's CALL line), a guest that prints nothing more
 * for o->quiet seconds has stopped: its deadline becomes that, moved on by
 * every new byte. The runner then ends it as at its time limit, and the
 * classifier says HANG only after such a CALL.
 */
static void watch_quiet(struct job *j, const struct th_kernel_run_opts *o)
{
	struct th_child *c = j->child;
	struct timespec now;
	char mark[96];

	if (c->reaped || c->timed_out || o->quiet <= 0)
		return;
	if (!j->called) {
		snprintf(mark, sizeof(mark), "timerharness %s: CALL ", j->token);
		j->called = c->buf[0] && memmem(c->buf[0], c->len[0], mark, strlen(mark));
		if (!j->called)
			return;
	} else if (c->len[0] == j->seen) {
		return;
	}
	j->seen = c->len[0];
	clock_gettime(CLOCK_MONOTONIC, &now);
	c->timeout = (double)(now.tv_sec - c->start.tv_sec) +
		     (double)(now.tv_nsec - c->start.tv_nsec) / 1e9 + o->quiet;
	if (c->timeout > o->timeout)
		c->timeout = o->timeout;
}

int th_kernel_run(const struct th_kernel_run_opts *o, const struct th_kernel_plan *plan,
		  const char *globs, const struct th_kernel_target *targets, size_t ntargets,
		  struct th_kernel_result **out, size_t *nout, char *err, size_t n)
{
	struct th_kernel_result *rs;
	struct th_child *children;
	struct job *jobs;
	size_t total = 0, next = 0, done = 0, t, c;
	unsigned nj = o->jobs ? o->jobs : 1, k;
	const char *why;

	*out = NULL;
	*nout = 0;
	if (nj > 64)
		nj = 64;
	/* A regular file: QEMU would wait on a FIFO until each boot's time ran out. */
	if (!readable(o->initrd, &why)) {
		snprintf(err, n, "%s: %s (build it: kernel/build)", o->initrd, why);
		return -1;
	}
	rs = calloc(plan->ncells * ntargets + 1, sizeof(*rs));
	jobs = calloc(nj, sizeof(*jobs));
	children = calloc(nj, sizeof(*children));
	if (!rs || !jobs || !children) {
		free(rs);
		free(jobs);
		free(children);
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (k = 0; k < nj; k++)
		jobs[k].child = &children[k];
	for (t = 0; t < ntargets; t++)
		for (c = 0; c < plan->ncells; c++)
			if (th_kernel_cell_selected(plan->cells[c].attack, globs)) {
				rs[total].cell = &plan->cells[c];
				rs[total].target = &targets[t];
				total++;
			}
	while (done < total) {
		bool live = false;

		for (k = 0; k < nj && next < total; k++) {
			if (jobs[k].running)
				continue;
			jobs[k].r = &rs[next++];
			if (start(&jobs[k], o)) {
				struct th_console_cell cc = { jobs[k].r->cell->attack, jobs[k].r->cell->payload, "" };
				char why[300];

				snprintf(why, sizeof(why), "%s: %s", o->qemu, strerror(errno));
				th_console_classify(NULL, 0, &cc, TH_BOOT_FAILED, why, &jobs[k].r->v);
				done++;
				if (o->progress)
					o->progress(o->arg, done, total, jobs[k].r);
			}
		}
		for (k = 0; k < nj; k++)
			live |= jobs[k].running;
		if (!live)
			continue;
		th_child_pump(children, (int)nj);
		for (k = 0; k < nj; k++)
			if (jobs[k].running)
				watch_quiet(&jobs[k], o);
		for (k = 0; k < nj; k++)
			if (jobs[k].running && th_child_done(jobs[k].child)) {
				if (finish(&jobs[k], o) && !start(&jobs[k], o))
					continue;	/* booted once more */
				done++;
				if (o->progress)
					o->progress(o->arg, done, total, jobs[k].r);
			}
	}
	free(children);
	free(jobs);
	*out = rs;
	*nout = total;
	return 0;
}
