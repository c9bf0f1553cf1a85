/* SPDX-License-Identifier: MIT */
/* The model's sorted views (results_internal.h): its toolchains and metrics
 * in the order every output lists them. */
#define _POSIX_C_SOURCE 200809L
#include "results_internal.h"

#include <stdlib.h>
#include <string.h>

const void **th_results_sorted_ptrs(const void *base, size_t n, size_t sz,
				    int (*cmp)(const void *, const void *), int *oom)
{
	const void **p;

	*oom = 0;
	if (!n)
		return NULL;
	p = malloc(n * sizeof(*p));
	if (!p) {
		*oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = (const char *)base + i * sz;
	qsort(p, n, sizeof(*p), cmp);
	return p;
}

static int cmp_tc(const void *a, const void *b)
{
	return th_results_natcmp((*(const struct th_toolchain *const *)a)->name,
				 (*(const struct th_toolchain *const *)b)->name);
}

const struct th_toolchain **th_results_sorted_toolchains(const struct th_results *res, int *oom)
{
	return (const struct th_toolchain **)th_results_sorted_ptrs(
		res->toolchains, res->ntoolchains, sizeof(*res->toolchains), cmp_tc, oom);
}

static int cmp_metric(const void *a, const void *b)
{
	return strcmp((*(const struct th_metric *const *)a)->name,
		      (*(const struct th_metric *const *)b)->name);
}

const struct th_metric **th_results_sorted_metrics(const struct th_results *res, int *oom)
{
	return (const struct th_metric **)th_results_sorted_ptrs(
		res->metrics, res->nmetrics, sizeof(*res->metrics), cmp_metric, oom);
}

