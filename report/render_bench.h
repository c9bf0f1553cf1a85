/* SPDX-License-Identifier: MIT */
/*
 * "What the wheel and the defences cost" in report.md and report.html: for
 * each toolchain, what each hardening config costs the timer dispatch
 * (bench-configs-*.json: ns and instructions per fired timer, against
 * none) and the wheel against the heap (bench.json: ratios, ns and
 * instructions per op). Every figure comes from the loaded files
 * (bench_figures.h), attached to the results they are rendered with; with
 * none attached it writes nothing, so a report without the bench's files
 * is unchanged.
 */
#ifndef TH_REPORT_RENDER_BENCH_H
#define TH_REPORT_RENDER_BENCH_H

#include <stddef.h>
#include <stdio.h>

#include "bench_figures.h"
#include "results.h"

/* Render s with res from now on (NULL: nothing). Not owned. */
void th_render_bench_attach(const struct th_results *res, const struct th_bench_set *s);

/*
 * Attach the bench's files beside results_path, if there are any (then
 * owned and freed by the next attach).
 * Return: 0 (none there, or loaded), -1 with err when one exists but is
 * invalid (nothing attached).
 */
int th_render_bench_attach_beside(const struct th_results *res, const char *results_path,
				  char *err, size_t errlen);

/* The section, for the renderers (one call each). Return: 0, -1 on a write error. */
int th_render_bench_markdown(FILE *out, const struct th_results *res);
int th_render_bench_html(FILE *out, const struct th_results *res);

#endif
