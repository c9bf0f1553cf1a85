/* SPDX-License-Identifier: MIT */
/*
 * The campaigns a run of `timerharness fuzz` must hold (fuzz/campaigns.tsv;
 * its header comment documents the format), as the attack registry x
 * cfi/configs.tsv is the matrix's plan, and the build they ran from (the
 * fuzz-manifest.tsv of each preset): which toolchains exist, and which
 * campaigns each could build. Read by `check` (check_fuzz.c).
 */
#ifndef TH_FUZZ_FUZZ_PLAN_H
#define TH_FUZZ_FUZZ_PLAN_H

#include <stdbool.h>
#include <stddef.h>

enum th_fz_plan_kind {
	TH_FZ_PLAN_CAMPAIGN,	/* these campaigns are planned */
	TH_FZ_PLAN_UNSUPPORTED,	/* a planned campaign that may be recorded unsupported */
};

struct th_fz_plan_row {
	enum th_fz_plan_kind kind;
	char *target;
	char *variant, *config;	/* campaign: names, comma lists; unsupported: globs */
	char *toolchain;	/* globs, comma alternatives */
	char *reason;
	char where[300];	/* "FILE:LINE" */
};

struct th_fz_plan {
	struct th_fz_plan_row *rows;
	size_t nrows;
	char *path;
};

/* Return: 0 with *out set, or -1 with "FILE:LINE: what is wrong" in err. */
int th_fz_plan_load(const char *path, struct th_fz_plan **out, char *err, size_t n);
void th_fz_plan_free(struct th_fz_plan *p);

/* The first campaign row planning (target, variant, config) on toolchain,
 * or NULL. */
const struct th_fz_plan_row *th_fz_plan_campaign(const struct th_fz_plan *p, const char *target,
						 const char *variant, const char *config,
						 const char *toolchain);
/* The first unsupported row that declares the campaign may not run, or NULL. */
const struct th_fz_plan_row *th_fz_plan_unsupported(const struct th_fz_plan *p, const char *target,
						    const char *variant, const char *config,
						    const char *toolchain);

/* One line of a build's fuzz-manifest.tsv (fuzz/overflow.cmake). */
struct th_fz_built {
	char *target, *toolchain, *variant, *config, *path, *status, *reason, *engine;
	char where[300];	/* "FILE:LINE" */
};

struct th_fz_build {
	struct th_fz_built *rows;
	size_t nrows;
	char *root;
};

/*
 * The fuzz builds under root: root/fuzz-manifest.tsv, or else every
 * root/<preset>/fuzz-manifest.tsv. Return: 0 with *out set, or -1 with err
 * (none there: "no fuzz build under ROOT"; a line that is not 8 fields).
 */
int th_fz_build_load(const char *root, struct th_fz_build **out, char *err, size_t n);
void th_fz_build_free(struct th_fz_build *b);

/* The libFuzzer build of (target, variant, config) by toolchain, or NULL. */
const struct th_fz_built *th_fz_build_find(const struct th_fz_build *b, const char *target,
					   const char *variant, const char *config,
					   const char *toolchain);
/* Does the build hold any libFuzzer build of target by toolchain? */
bool th_fz_build_has_toolchain(const struct th_fz_build *b, const char *target, const char *toolchain);

#endif
