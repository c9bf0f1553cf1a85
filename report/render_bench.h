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

/* The section is sections.c's row th_section_bench() (sections.h): the
 * model's bench figures (res->bench, read by
 * th_results_load_bench_beside()); none: nothing. */

#endif
