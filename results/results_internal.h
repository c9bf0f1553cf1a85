/* SPDX-License-Identifier: MIT */
/* Helpers of the results/ sources alone: what other folders use is in
 * results_view.h (the model as the renderers read it) and results_write.h
 * (its files written, staged or atomically). */
#ifndef TH_RESULTS_INTERNAL_H
#define TH_RESULTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "results.h"
#include "results_view.h"
#include "results_write.h"

/* c (a cell of another model) added to res as stored: its counts, runs,
 * outcome, verdict and seconds as the file says them, on platform (NULL:
 * c's own). merge and a real kernel's cells kept (th_results_replace_platform).
 * Return: the new cell, or NULL with err set. */
struct th_cell *th_results_copy_cell(struct th_results *res, const struct th_cell *c,
				     const char *platform, char *err, size_t errlen);

/* A deep copy of res through its JSON (what the loader accepts), without
 * the cells, agreement rows and reach entries of drop_platform (NULL:
 * none). Return: 0, or -1 with err. */
int th_results_copy(const struct th_results *res, const char *drop_platform,
		    struct th_results **out, char *err, size_t errlen);

/* Append a row to the stored agreement as it is (the loader; merge). */
int th_results_store_agreement_row(struct th_results *res, const struct th_agreement *row,
				   char *err, size_t errlen);

/* An upper-case attack ID: [A-Z][A-Z0-9_]*. */
bool th_results_valid_attack_id(const char *s);

/* Pointers to the n elements of size sz at base, sorted by cmp (which gets
 * two pointers to pointers); malloc'd, NULL when n is 0 (*oom tells
 * out-of-memory apart). */
const void **th_results_sorted_ptrs(const void *base, size_t n, size_t sz,
				    int (*cmp)(const void *, const void *), int *oom);

#endif
