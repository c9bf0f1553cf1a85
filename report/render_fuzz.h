/* SPDX-License-Identifier: MIT */
/*
 * The "Fuzzing campaigns" section of report.md and report.html: for each API
 * generation (4.14 legacy, the 4.14-rc3 shim, 4.15 modern) and config, what
 * `timerharness fuzz` found and how fast, with every finding's chain in full.
 * It reads only a loaded fuzz.json (fuzz_summary.h), attached to the results
 * it is rendered with; with none attached it writes nothing, so a report of
 * a matrix run without campaigns is unchanged. After a campaign, the
 * command that ran it (cli/cmd_fuzz.c) renders the reports again.
 */
#ifndef TH_REPORT_RENDER_FUZZ_H
#define TH_REPORT_RENDER_FUZZ_H

#include <stddef.h>
#include <stdio.h>

#include "fuzz_summary.h"
#include "results.h"

/* The model's campaigns (res->fuzz of the results res is a view of; NULL:
 * none), for the verdict card. */
const struct th_fz_summary *th_render_fuzz_summary(const struct th_results *res);

/* The section, for the renderers (one call each). Return: 0, -1 on a write error. */
int th_render_fuzz_markdown(FILE *out, const struct th_results *res);
int th_render_fuzz_html(FILE *out, const struct th_results *res);

#endif
