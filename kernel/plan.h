/* SPDX-License-Identifier: MIT */
/*
 * The real-kernel plan: kernel/cells.tsv (its header is the format) and the
 * kernel configs of kernel/configs/ (every <name>.config but base.config).
 */
#ifndef TH_KERNEL_PLAN_H
#define TH_KERNEL_PLAN_H

#include <stddef.h>

struct th_kernel_cell {
	char *attack, *technique, *timing, *payload;
	unsigned line;			/* in cells.tsv */
};

struct th_kernel_plan {
	struct th_kernel_cell *cells;
	size_t ncells;
	char **configs;			/* sorted names, from kernel/configs/ */
	size_t nconfigs;
};

/*
 * Load @cells_tsv and list @configs_dir. Return: 0, or -1 with
 * "FILE:LINE: what is wrong" (or "FILE: <errno text>") in @err.
 */
int th_kernel_plan_load(struct th_kernel_plan *p, const char *cells_tsv, const char *configs_dir,
			char *err, size_t n);
void th_kernel_plan_free(struct th_kernel_plan *p);

#endif
