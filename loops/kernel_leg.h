/* SPDX-License-Identifier: MIT */
/*
 * The real-kernel leg's loop (kernel/README.md): plan the boots (the cells
 * of kernel/cells.tsv x the kernels kernel/build made, or the user's own),
 * boot each under QEMU (kernel/run.h), and put the boots into a results
 * model as platform "linux-<release>" cells beside the model's, judged by
 * the checkout's expectations. Nothing here is rendered or written into
 * the out folder but the boots' console logs: the CLI (cli/cmd_kernel.c)
 * holds out's lock, loads its results.json and the expectations, calls
 * th_kernel_leg_run(), and writes and shows the set with report/.
 *
 * Not kernel.h: timer_core/include/th/kernel.h is one already, and a header
 * name is the tree's once (tests/layering.py).
 */
#ifndef TH_LOOPS_KERNEL_LEG_H
#define TH_LOOPS_KERNEL_LEG_H

#include <stddef.h>

#include "attacks/kernel_plan.h"
#include "kernel/run.h"

struct th_results;

struct th_kernel_leg_opts {
	const char *kernel_dir;	/* kernel/: cells.tsv, configs/ */
	const char *build;	/* kernel/build's: <release>/<config>/ (kernel/
				 * kernels.tsv; <config>/ without that file) and
				 * initramfs.cpio */
	const char *configs;	/* comma-separated fnmatch globs on config names;
				 * NULL: every one (not with bzimage) */
	const char *releases;	/* comma-separated fnmatch globs on the release
				 * series of kernel/kernels.tsv ("6.1", "6.12");
				 * NULL: every one (not with bzimage) */
	const char *cells;	/* comma-separated fnmatch globs on attack IDs;
				 * NULL: every cell */
	const char *qemu;	/* a path, or a name searched in PATH */
	const char *cpu;	/* QEMU's -cpu */
	unsigned jobs;		/* boots at once */
	double timeout;		/* seconds per boot */
	/* The user's own kernel (kernel/README.md, "Bring your own kernel"):
	 * bzimage, dotconfig and name together, vmlinux optional; NULL:
	 * kernel/build's kernels. */
	const char *bzimage, *dotconfig, *vmlinux, *name;
	/* Called after each boot, in completion order (the CLI's progress). */
	void (*progress)(void *arg, size_t done, size_t total, const struct th_kernel_result *r);
	void *arg;
};

struct th_kernel_leg {
	struct th_kernel_plan plan;
	struct th_kernel_target *targets;	/* the kernels to boot */
	size_t ntargets;
	struct th_kernel_result *rs;		/* the boots (th_kernel_leg_run) */
	size_t nrs;
	size_t harness_errors;			/* boots that are HARNESS_ERROR */
	char qemu[4096];			/* the QEMU found */
	/* private */
	const struct th_kernel_leg_opts *o_;
};

/*
 * Load the plan and the kernels to boot and find QEMU: every check that
 * can refuse the run before the out folder is touched. @o must outlive
 * @leg. Return: 0, or -1 with the reason in @err ("" when out of memory);
 * th_kernel_leg_free() either way.
 */
int th_kernel_leg_plan(struct th_kernel_leg *leg, const struct th_kernel_leg_opts *o,
		       char *err, size_t n);

/*
 * Boot the planned cells (console logs into @out/kernel/<release>/<config>/
 * <cell>.log; @out/kernel/<config>/ for your own kernel)
 * and put them into @dst (@out's results.json, loaded by the caller, who
 * holds @out's lock and the loaded expectations, attacks/expect.h) as
 * platform "linux-<release>" cells, replacing that platform's cells (a
 * selection of cells keeps the ones it did not boot); judge the set and
 * count its metrics. @dst is then ready to be written. Return: 0, or -1
 * with the reason in @err (@dst may be half filled: do not write it).
 */
int th_kernel_leg_run(struct th_kernel_leg *leg, struct th_results *dst, const char *out,
		      char *err, size_t n);

void th_kernel_leg_free(struct th_kernel_leg *leg);

#endif
