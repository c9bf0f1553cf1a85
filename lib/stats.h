/* SPDX-License-Identifier: MIT */
/* The figures' arithmetic (benchmarks, campaigns, boots) and sorting. */
#ifndef TH_LIB_STATS_H
#define TH_LIB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* qsort(3)'s comparison of two doubles, ascending. */
int th_cmp_double(const void *a, const void *b);

/* qsort(3)'s comparison of two uint64_t, ascending. */
int th_cmp_u64(const void *a, const void *b);

/* splitmix64 (Steele, Lea, Flood 2014): the next draw of *state, which it
 * advances. The bench's seeds, draws and shuffles (plenty for uniform
 * deltas); the wahern comparison draws the same stream. */
uint64_t th_splitmix64(uint64_t *state);

/* The median of v[0..n) (n > 0), the mean of the middle two for an even n.
 * Sorts v. */
double th_median(double *v, size_t n);

#endif
