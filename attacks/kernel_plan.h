/* SPDX-License-Identifier: MIT */
/*
 * The real kernel's plan, as `timerharness check` judges a linux-* platform
 * by it: kernel/cells.tsv (one cell a line: attack technique timing
 * payload api, TAB-separated; its head says so) x every kernel config of
 * kernel/kernels.tsv (or of kernel/configs/: a <name>.config file each;
 * base.config is what every one adds to, not a config). A cell's variant is
 * its family's generation on the kernels planned (6.1 and 6.12): the
 * timer's modern (4.15's timer_list), the tasklet's transitional (5.9's
 * tasklet_struct, use_callback beside func and data); th_kernel_variant().
 */
#ifndef TH_ATTACKS_KERNEL_PLAN_H
#define TH_ATTACKS_KERNEL_PLAN_H

#include <stdbool.h>
#include <stddef.h>

struct th_kernel_cell {
	const char *attack;	/* the model's attack ID */
	const char *technique;
	const char *timing;	/* before-arm, pending or - */
	const char *payload;
	const char *api;	/* results/api.def's: "timer", "tasklet" */
	const char *variant;	/* th_kernel_variant(api): "modern", "transitional" */
	unsigned line;		/* of kernel/cells.tsv */
};

/* One kernel of DIR/kernels.tsv: a release's config. */
struct th_kernel_build {
	const char *release;	/* the series: "6.1", "6.12" */
	const char *source;	/* Debian's package: linux-source-6.1 */
	const char *config;	/* judged as: kcfi, fineibt, none */
	const char *fragment;	/* kernel/configs/<fragment>.config */
	const char *boot;	/* added to the command line: "cfi=kcfi", "" */
	unsigned line;
};

struct th_kernel_plan {
	struct th_kernel_cell *cells;	/* in file order */
	size_t ncells;
	const char **attacks;		/* cells[i].attack, for report/check.h */
	const char **variants;		/* cells[i].variant, the same */
	const char **configs;		/* kernel config names, sorted */
	size_t nconfigs;
	char *cells_path;		/* DIR/cells.tsv */
	/* DIR/kernels.tsv's lines, in file order; none when there is no such
	 * file: then every config runs on every release. */
	struct th_kernel_build *builds;
	size_t nbuilds;
	/* private */
	char **lines_;
	size_t nlines_;
};

/*
 * The variant (the model's generation) of the family @api on the real
 * kernels of kernel/kernels.tsv: "modern" for the timer, "transitional" for
 * the tasklet; NULL for a family the plan does not know.
 */
const char *th_kernel_variant(const char *api);

/*
 * Load DIR/cells.tsv and the kernel configs: DIR/kernels.tsv's (release
 * source config fragment boot; each fragment a DIR/configs/<name>.config),
 * or, without that file, the names of DIR/configs/ *.config (but
 * base.config). Errors say "FILE:LINE: what" (a line of cells.tsv: too few
 * or many fields, an attack that is not an upper-case ID, a timing that is
 * not one, an api that is no family, an empty field, an attack twice) or "FILE: what" (unreadable,
 * no cell, no config). Return: 0, or -1 with err set and *p empty.
 */
int th_kernel_plan_load(const char *dir, struct th_kernel_plan *p, char *err, size_t n);
void th_kernel_plan_free(struct th_kernel_plan *p);

/* Is @config planned on @platform ("linux-6.12.118")? Its release's lines
 * of kernels.tsv say (the release "6.12" is the platform's "linux-6.12" or
 * "linux-6.12.*"); every config when there is no kernels.tsv or the
 * release is none of its (a kernel of your own). */
bool th_kernel_plan_config_on(const struct th_kernel_plan *p, const char *platform,
			      const char *config);

#endif
