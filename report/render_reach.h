/* SPDX-License-Identifier: MIT */
/*
 * The reach section's views (the model: results/reach.h): the section of
 * report.md and report.html, written once against the document writer
 * (doc.h), and a real kernel's entry in one line for the verdict screen.
 */
#ifndef TH_REPORT_RENDER_REACH_H
#define TH_REPORT_RENDER_REACH_H

#include <stddef.h>

#include "doc.h"
#include "reach.h"
#include "results.h"

/* The section: "what can the 4.15 call site still reach, and does any path
 * get to write_cr4?", answered from the entries and the cells whose payload
 * is func:foreign-callback. Nothing is written when res has no reach
 * section. Return: 0, or -1 (out of memory, or a write failed). */
int th_render_reach(struct th_doc *d, const struct th_results *res);

/* A real kernel's entry in one line of plain text, for the verdict screen
 * and card: "linux-6.1.192 (real kernel): call_timer_fn can reach 28 of
 * 61234 functions (clang-22 modern kcfi), none privileged". Return: 0, or
 * -1 when truncated. */
int th_reach_kernel_line(const struct th_reach_entry *e, char *buf, size_t n);

#endif
