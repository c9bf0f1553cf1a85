/* SPDX-License-Identifier: MIT */
/*
 * The sections of report.md and report.html, each written once against the
 * document writer (doc.h) and each in its own file (section_*.c,
 * render_*.c).
 */
#ifndef TH_REPORT_SECTIONS_H
#define TH_REPORT_SECTIONS_H

#include "doc.h"
#include "results.h"

/* Each real kernel (the results' platforms): what it is, its cells beside
 * the model's (the agreement, computed from the cells), then its cells.
 * res: the whole results (th_report_origin()), every platform's cells.
 * Nothing when there is no real kernel. Return: 0, or -1 (out of memory). */
int th_section_kernel(struct th_doc *d, const struct th_results *res);

#endif
