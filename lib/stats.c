// SPDX-License-Identifier: MIT
#include "stats.h"

#include <stdlib.h>

int th_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double th_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), th_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
