/* SPDX-License-Identifier: MIT */
/* The figures' arithmetic: benchmarks, campaigns, boots. */
#ifndef TH_LIB_STATS_H
#define TH_LIB_STATS_H

#include <stddef.h>

/* qsort(3)'s comparison of two doubles, ascending. */
int th_cmp_double(const void *a, const void *b);

/* The median of v[0..n) (n > 0), the mean of the middle two for an even n.
 * Sorts v. */
double th_median(double *v, size_t n);

#endif
