/* SPDX-License-Identifier: MIT */
/*
 * The real-kernel leg's run loop: one QEMU boot per cell x kernel config,
 * several at once (runner/child.h: own process group, output captured, a
 * time limit), each console classified (console.h). No results model here:
 * the caller (loops/kernel_leg.c) turns the results into cells.
 */
#ifndef TH_KERNEL_RUN_H
#define TH_KERNEL_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/console.h"
#include "attacks/kernel_plan.h"

/* One built kernel: a config of kernel/configs/, or a user's own. */
struct th_kernel_target {
	char *config;		/* "kcfi", "none" */
	char *bzimage;		/* arch/x86/boot/bzImage */
	char *vmlinux;		/* NULL: none beside it */
	char *release;		/* "6.1.192" (include/config/kernel.release) */
	char *compiler;		/* CONFIG_CC_VERSION_TEXT */
	char *toolchain;	/* "clang-22" (CONFIG_CLANG_VERSION), "gcc-12" */
	bool cfi;		/* CONFIG_CFI_CLANG=y */
	bool cfi_permissive;	/* and CONFIG_CFI_PERMISSIVE=y: blocks nothing */
	bool unit;		/* CONFIG_TIMERHARNESS=y */
	bool fineibt;		/* CONFIG_FINEIBT=y: cfi=fineibt is possible */
	bool smp;		/* CONFIG_SMP=y: booted on 2 vCPUs (QEMU -smp 2) */
	/* kernel/kernels.tsv's: what the command line adds ("cfi=fineibt";
	 * "" nothing), and the release series ("6.12"; NULL: your own). */
	const char *boot;
	const char *series;
	char kconfig[160];	/* the CFI line of its .config, as the report shows it */
};

/*
 * A kernel built in @dir (an O= directory: .config, include/config/
 * kernel.release, arch/x86/boot/bzImage, vmlinux), or given as @bzimage
 * and @dotconfig (bring your own; @vmlinux may be NULL). Checks that
 * the kernel has the unit, and that a config named "kcfi" has
 * CONFIG_CFI_CLANG=y and one named "none" does not (a lost defence is an
 * error, never a quiet green); a CONFIG_CFI_PERMISSIVE=y kernel, which
 * reports and makes the call anyway, is "none" or an error. Return: 0,
 * or -1 with the reason in @err.
 */
int th_kernel_target_load(struct th_kernel_target *t, const char *config, const char *dir,
			  const char *bzimage, const char *dotconfig, const char *vmlinux,
			  char *err, size_t n);
void th_kernel_target_free(struct th_kernel_target *t);

struct th_kernel_result {
	const struct th_kernel_cell *cell;
	const struct th_kernel_target *target;
	struct th_console_verdict v;
	double seconds;
	char log[512];		/* the console log kept on disk */
	/* A boot that ended before the unit ran (HARNESS_ERROR with no unit
	 * line: 6.12's FineIBT patching can die of a timer interrupt, see
	 * kernel/README.md) is booted again, up to TH_KERNEL_BOOTS boots;
	 * how many ended so, and the first one's evidence. */
	unsigned early;
	char first[300];
};

/* Boots of one cell at most when each ends before the unit runs. */
#define TH_KERNEL_BOOTS 4

struct th_kernel_run_opts {
	const char *qemu;	/* qemu-system-x86_64 */
	const char *initrd;
	const char *cpu;	/* -cpu: "max,la57=off" (kernel/README.md says why) */
	double timeout;		/* per boot, seconds */
	double quiet;		/* after the watched dispatch (call_timer_fn,
				 * tasklet_action_common) entered a target:
				 * seconds without a console byte that end the boot */
	unsigned jobs;
	const char *log_dir;	/* <log_dir>/<config>/<attack>.log, or with
				 * a series <log_dir>/<series>/<config>/... */
	/* Called after each boot, in completion order. */
	void (*progress)(void *arg, size_t done, size_t total, const struct th_kernel_result *r);
	void *arg;
};

/*
 * Boot every cell of @plan whose attack matches one of @globs (comma-
 * separated fnmatch globs, case-insensitive; NULL: all) on every target.
 * *@out gets the results (plan order within each target). Return: 0, or -1
 * with the reason in @err (nothing could be started at all).
 */
int th_kernel_run(const struct th_kernel_run_opts *o, const struct th_kernel_plan *plan,
		  const char *globs, const struct th_kernel_target *targets, size_t ntargets,
		  struct th_kernel_result **out, size_t *nout, char *err, size_t n);

/* Does @attack match @globs (as th_kernel_run selects)? */
bool th_kernel_cell_selected(const char *attack, const char *globs);

#endif
