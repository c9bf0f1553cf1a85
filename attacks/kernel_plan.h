/* SPDX-License-Identifier: MIT */
/*
 * The real kernel's plan, as `timerharness check` judges a linux-* platform
 * by it: kernel/cells.tsv (one cell a line: attack technique timing
 * payload, TAB-separated; its head says so) x every kernel config of
 * kernel/configs/ (a <name>.config file each; base.config is what every
 * one adds to, not a config). Every cell is the modern variant (Linux 6.1).
 */
#ifndef TH_ATTACKS_KERNEL_PLAN_H
#define TH_ATTACKS_KERNEL_PLAN_H

#include <stddef.h>

struct th_kernel_cell {
	const char *attack;	/* the model's attack ID */
	const char *technique;
	const char *timing;	/* before-arm, pending or - */
	const char *payload;
	unsigned line;		/* of kernel/cells.tsv */
};

struct th_kernel_plan {
	struct th_kernel_cell *cells;	/* in file order */
	size_t ncells;
	const char **attacks;		/* cells[i].attack, for report/check.h */
	const char **configs;		/* kernel config names, sorted */
	size_t nconfigs;
	char *cells_path;		/* DIR/cells.tsv */
	/* private */
	char **lines_;
	size_t nlines_;
};

/*
 * Load DIR/cells.tsv and the names of DIR/configs/ *.config (but
 * base.config). Errors say "FILE:LINE: what" (a line of cells.tsv: too few
 * or many fields, an attack that is not an upper-case ID, a timing that is
 * not one, an empty field, an attack twice) or "FILE: what" (unreadable,
 * no cell, no config). Return: 0, or -1 with err set and *p empty.
 */
int th_kernel_plan_load(const char *dir, struct th_kernel_plan *p, char *err, size_t n);
void th_kernel_plan_free(struct th_kernel_plan *p);

#endif
