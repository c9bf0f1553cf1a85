/* SPDX-License-Identifier: MIT */
/*
 * Judging a feature probe: did `th-probe-<config> <check>`, run by the runner
 * (runner/child.h, traced, with TH_PROBE_SITE_FUNC watched), show the feature
 * working in this exact build? Flag acceptance is not support (clang 14
 * accepts -fsanitize=function for C and does nothing); this looks at what the
 * run did, with the same proofs as the classifier (cfi/classify.h).
 *
 * The probe (cfi/probes/probe.c) prints `TH-PROBE: run=<token> before <check>`,
 * does the one bad thing <check>'s feature must stop, then prints
 * `TH-PROBE: run=<token> after <check>`. Supported when:
 *   cfi        the cfi-icall check guarding probe_call's indirect call trapped
 *              there (ud1, trap mode) and the process died by it
 *   cfi-generalized
 *              a call through void (*)(struct probe_a *) to a
 *              void (struct probe_b *) completed ("after" printed, exit 0)
 *              while the call in probe_call_ptr is guarded by a cfi-icall
 *              check on a `.generalized` type id: pointer generalisation is
 *              active; `cfi` in the same config shows a non-pointer
 *              mismatch still traps
 *   cfi-diag   the cfi-icall check's handler was called from probe_call, the
 *              runtime exited with the run's code and printed its diagnostic
 *              at the call's source line
 *   kcfi       the kcfi check guarding probe_call trapped (ud2, listed in
 *              .kcfi_traps) and the process died by it
 *   function   as cfi-diag, with the function sanitizer's handler
 *   asan       `==<pid>==ERROR: AddressSanitizer: heap-buffer-overflow` and
 *              the runtime's exit with the run's code
 *   bounds     `runtime error: index ... out of bounds` and UBSan's exit
 *   fortify    the TH_FIELD_MEMCPY report, then SIGABRT
 *   randstruct the probe's `layout` offsets are not in declaration order
 *              (each seed's probe judged; one differing seed suffices)
 * Otherwise "after" printed means the bad call or write completed: not
 * supported, and the reason names the probed toolchain.
 */
#ifndef TH_CFI_PROBE_JUDGE_H
#define TH_CFI_PROBE_JUDGE_H

#include <stddef.h>

#include "classify.h"

/* The probe's check site (cfi, cfi-diag, kcfi, function): the runner watches
 * it; and the generalized-pointer call site. */
#define TH_PROBE_SITE_FUNC "probe_call"
#define TH_PROBE_PTR_SITE_FUNC "probe_call_ptr"
/* What the generalized call reaches: it prints this. */
#define TH_PROBE_GEN_TARGET "probe_gen_target"

/* Return: 1 supported, 0 not (also for an unknown check); reason always gets
 * one line naming what was observed. */
int th_probe_judge(const char *check, const struct th_child_obs *obs, char *reason, size_t n);

#endif
