/* SPDX-License-Identifier: MIT */
/*
 * Judging a feature probe: did `th-probe-<config> <check>` show the feature
 * working? Flag acceptance is not support (clang 14 accepts -fsanitize=function
 * for C and does nothing); this looks at what the run did.
 *
 * Checks (cfi/probes/probe.c performs the bad thing between the markers
 * "TH-PROBE: before <check>" and "TH-PROBE: after <check>"):
 *   cfi        death by SIGILL/SIGTRAP at ud1/ud2 inside probe_call (trap mode)
 *   cfi-diag   "control flow integrity check for type ... failed" on stderr
 *   kcfi       death by SIGILL at an address listed in .kcfi_traps
 *   function   "call to function ... through pointer to incorrect function type"
 *   asan       "ERROR: AddressSanitizer: heap-buffer-overflow"
 *   bounds     "runtime error: index ... out of bounds"
 *   fortify    the TH_FIELD_MEMCPY report, then SIGABRT
 *   randstruct the probe's "TH-PROBE: layout" offsets are not in declaration
 *              order (judge each seed's probe; one differing seed suffices)
 * In every check but randstruct, "after" printed means the bad call or write
 * completed: not supported.
 */
#ifndef TH_CFI_PROBE_JUDGE_H
#define TH_CFI_PROBE_JUDGE_H

#include <stddef.h>

#include "classify.h"

/* The check-site function of the probe (cfi, kcfi). */
#define TH_PROBE_SITE_FUNC "probe_call"

/* Return: 1 supported, 0 not (also for an unknown check); reason always gets
 * one line naming what was observed. */
int th_probe_judge(const char *check, const struct th_child_obs *obs, char *reason, size_t n);

#endif
