/* SPDX-License-Identifier: MIT */
/* Helpers shared by the results/ sources and the views over the model
 * (report/report_internal.h includes this); not part of the public API. */
#ifndef TH_RESULTS_INTERNAL_H
#define TH_RESULTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "results.h"

/* snprintf into err (if any); always returns -1 so callers can return it. */
int th_results_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The code point of the valid UTF-8 sequence at s, its length in *n; *n is
 * 0 when s does not start one (overlong, surrogate, beyond U+10FFFF,
 * truncated: jansson's rules). */
unsigned long th_results_utf8(const unsigned char *s, size_t *n);

/* strdup that maps NULL to "", every byte that is not UTF-8 made '?'. */
char *th_results_strdup(const char *s);

/* Compare names so that digit runs compare as numbers (clang-9 < clang-14). */
int th_results_natcmp(const char *a, const char *b);

/* Rank of a technique / timing in display order (unknown ones last). */
int th_results_technique_rank(const char *technique);
int th_results_timing_rank(const char *timing);

/* path may be replaced: it does not exist or is a regular file (*exists
 * then true, *st its lstat). A symbolic link, a device node, a FIFO, a
 * socket or a directory is refused (-1, err says which): rename() would
 * replace the node itself, never write where it leads. */
int th_results_check_target(const char *path, struct stat *st, bool *exists,
			    char *err, size_t errlen);

/* A file written in two steps, so several can be replaced as a set: stage
 * writes path.tmp.<pid> (with the mode, and where allowed the owner, of
 * the file it will replace) and fsyncs it; commit renames it over path and
 * fsyncs the directory; discard removes it. Each failing call leaves path
 * untouched and nothing staged. */
struct th_results_staged {
	const char *path;	/* borrowed */
	char *tmp;		/* NULL when nothing is staged */
};
int th_results_stage(const char *path, const char *buf, size_t len,
		     struct th_results_staged *st, char *err, size_t errlen);
int th_results_commit(struct th_results_staged *st, char *err, size_t errlen);
void th_results_discard(struct th_results_staged *st);

/* Atomically replace path with len bytes of buf: stage, then commit. On
 * failure path is untouched. */
int th_results_write_atomic(const char *path, const char *buf, size_t len,
			    char *err, size_t errlen);

/* c (a cell of another model) added to res as stored: its counts, runs,
 * outcome, verdict and seconds as the file says them, on platform (NULL:
 * c's own). merge and a real kernel's cells kept (th_results_replace_platform).
 * Return: the new cell, or NULL with err set. */
struct th_cell *th_results_copy_cell(struct th_results *res, const struct th_cell *c,
				     const char *platform, char *err, size_t errlen);

/* results.json's text (validated as th_results_write does); malloc'd. */
int th_results_serialise(const struct th_results *res, char **buf, size_t *len,
			 char *err, size_t errlen);

/* Position of a config in res->configs (declaration order); nconfigs when
 * not declared. */
size_t th_results_config_pos(const struct th_results *res, const char *name);

/* Platforms in output order: "model" first, then by name (natcmp). */
int th_results_platform_cmp(const char *a, const char *b);

/*
 * A renderer's view of one platform: a shallow copy of res whose cells are
 * that platform's only, and whose toolchains are those its cells name (the
 * model's: every toolchain but those only a real kernel's cells name).
 * Every other field is res's (shared, not owned); th_results_find_cell on
 * it finds that platform's cells only; th_results_origin gives res back (for
 * what is attached to res: fuzz.json, the bench's files). The renderers
 * show the model's cells from the model's view exactly as before platforms
 * existed, and each real kernel's below. Free with th_results_view_free.
 * Return: 0, -1 when out of memory.
 */
int th_results_view(const struct th_results *res, const char *platform, struct th_results *view);
void th_results_view_free(struct th_results *view);
const struct th_results *th_results_origin(const struct th_results *res);
/* The platform a view shows ("model" for a model itself). */
const char *th_results_view_platform(const struct th_results *res);
/* The real-kernel platforms with cells or an entry, in output order:
 * malloc'd names (borrowed strings), NULL when none (*oom tells apart). */
const char **th_results_kernel_platforms(const struct th_results *res, size_t *n, int *oom);
/* Those platforms' names (th_results_kernel_platforms) and every real-kernel
 * cell's agreement with the model (th_results_agreement), what a kernel
 * section or line shows. Return: 0, with *np 0 and nothing allocated when
 * there is no real kernel; -1 out of memory. Free both with
 * th_results_kernels_free(). */
struct th_agreement;
int th_results_kernels(const struct th_results *res, const char ***names, size_t *np,
		       struct th_agreement **rows, size_t *nrows);
void th_results_kernels_free(const char **names, struct th_agreement *rows, size_t nrows);

/* A deep copy of res through its JSON (what the loader accepts), without
 * the cells, agreement rows and reach entries of drop_platform (NULL:
 * none). Return: 0, or -1 with err. */
int th_results_copy(const struct th_results *res, const char *drop_platform,
		    struct th_results **out, char *err, size_t errlen);

/* Append a row to the stored agreement as it is (the loader; merge). */
int th_results_store_agreement_row(struct th_results *res, const struct th_agreement *row,
				   char *err, size_t errlen);

/* The agreement's counts for platform: rows that agree, differ as
 * declared, differ undeclared; and its cells without a model cell. */
struct th_agreement_counts {
	size_t cells, agree, declared, disagree, alone;
};
void th_results_agreement_counts(const struct th_results *res, const struct th_agreement *rows,
				 size_t n, const char *platform, struct th_agreement_counts *k);

/* An upper-case attack ID: [A-Z][A-Z0-9_]*. */
bool th_results_valid_attack_id(const char *s);

/* Per-outcome counts of observed outcomes, over the model's cells (a
 * view's: its platform's) of toolchain (NULL: all). Return: how many cells
 * were counted. */
size_t th_results_count(const struct th_results *res, const char *toolchain,
			unsigned counts[TH_OUTCOME_COUNT]);

/* The verdict a renderer shows: the stored one, or regression when the
 * outcome/expected pair says so (a hand-edited outcome is not hidden). */
enum th_verdict th_results_shown_verdict(const struct th_cell *c);

/* Pointers to the n elements of size sz at base, sorted by cmp (which gets
 * two pointers to pointers); malloc'd, NULL when n is 0 (*oom tells
 * out-of-memory apart). */
const void **th_results_sorted_ptrs(const void *base, size_t n, size_t sz,
				    int (*cmp)(const void *, const void *), int *oom);

/* The cells sorted by cmp; malloc'd, res->ncells entries; NULL when there
 * are none (*oom tells out-of-memory apart). */
typedef int th_results_cell_cmp(const struct th_results *res, const struct th_cell *a,
				const struct th_cell *b);
const struct th_cell **th_results_sort_cells(const struct th_results *res,
					     th_results_cell_cmp *cmp, int *oom);

/* Toolchains in output order (clang-9 < clang-14); malloc'd, NULL when none
 * (*oom tells out-of-memory apart). */
const struct th_toolchain **th_results_sorted_toolchains(const struct th_results *res,
							 int *oom);

/* Metrics by name; malloc'd, NULL when none (*oom tells out-of-memory apart). */
const struct th_metric **th_results_sorted_metrics(const struct th_results *res, int *oom);

#endif
