/* SPDX-License-Identifier: MIT */
/*
 * From an attack binary to the results' reach section: cfi/target_set.h's target
 * set of call_timer_fn and llvm-cfi-verify's verdicts, as results/reach.h
 * entries. Called by the matrix runner for each binary it was built with.
 */
#ifndef TH_CFI_REACH_COLLECT_H
#define TH_CFI_REACH_COLLECT_H

#include <stddef.h>

#include "results/results.h"

/* Is @config one whose reach the results record: a CFI config (its cflags
 * name -fsanitize=cfi-icall, kcfi or function) or none, the baseline? */
int th_reach_wanted(const char *config);

/*
 * Read @binary (built for @toolchain, @variant, @config) and add its entry
 * to res->reach, members marked by @privileged (@npriv names); llvm-cfi-verify
 * is run on it when the binary has a check there and the tool is installed.
 * Return: 0, or -1 with @err (the binary cannot be read, out of memory).
 */
int th_reach_collect(struct th_results *res, const char *toolchain, const char *variant,
		     const char *config, const char *binary, const char *const *privileged,
		     size_t npriv, char *err, size_t n);

/*
 * Read a Linux vmlinux built with CONFIG_CFI_CLANG (kCFI) and add its
 * call_timer_fn entry to res->reach, for the kernel command: on @platform,
 * the kernel's "linux-<release>" (declared in @res with
 * th_results_add_platform() first; never "model"), variant modern (the
 * kernel's fn(struct timer_list *)), @toolchain and @config as the caller
 * names them (both must already be declared in @res), binary @vmlinux. An
 * entry of the same (platform, toolchain, modern, config) is never
 * replaced; the model's entry of that toolchain and config stays beside it.
 * Members are marked by @privileged (@npriv names; NULL: the kernel's,
 * runner/privileged.h TH_KERNEL_PRIVILEGED), every member is a
 * container-confusion candidate, and the entry's uses say what each
 * container gives (cfi/target_set.h). llvm-cfi-verify is not run (it reads
 * cfi-icall's jump tables, not kCFI).
 * Return: 0, or -1 with @err (the platform not a declared kernel's, not a
 * readable ELF, no call_timer_fn or not exactly one indirect call in it, no
 * check guarding it, the entry exists, out of memory).
 */
int th_reach_collect_vmlinux(struct th_results *res, const char *platform, const char *toolchain,
			     const char *config, const char *vmlinux, const char *const *privileged,
			     size_t npriv, char *err, size_t n);

#endif
