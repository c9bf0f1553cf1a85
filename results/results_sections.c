/* SPDX-License-Identifier: MIT */
/* The sections kept beside results.json, read into the model (results.h). */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "bench_figures.h"
#include "fuzz_summary.h"

#include <unistd.h>

void th_results_set_fuzz(struct th_results *res, struct th_fz_summary *s)
{
	if (res->fuzz != s)
		th_fz_summary_free(res->fuzz);
	res->fuzz = s;
}

void th_results_set_bench(struct th_results *res, struct th_bench_set *s)
{
	if (res->bench != s)
		th_bench_set_free(res->bench);
	res->bench = s;
}

int th_results_load_fuzz_beside(struct th_results *res, const char *results_path,
				char *err, size_t errlen)
{
	char path[4096];
	struct th_fz_summary *s = NULL;

	th_results_set_fuzz(res, NULL);
	th_fz_summary_beside(results_path, path, sizeof(path));
	if (access(path, F_OK))
		return 0;
	if (th_fz_summary_load(path, &s, err, errlen))
		return -1;
	th_results_set_fuzz(res, s);
	return 0;
}

int th_results_load_bench_beside(struct th_results *res, const char *results_path,
				 char *err, size_t errlen)
{
	struct th_bench_set *s = NULL;

	th_results_set_bench(res, NULL);
	if (th_bench_set_load_beside(results_path, &s, err, errlen))
		return -1;
	th_results_set_bench(res, s);
	return 0;
}
