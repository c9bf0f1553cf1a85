/* SPDX-License-Identifier: MIT */
/*
 * From an attack binary to the results' reach section: cfi/target_set.h's target
 * sets of each API family's dispatch (results/api.def: call_timer_fn,
 * tasklet_action_common) and llvm-cfi-verify's verdicts, as results/reach.h
 * entries. Called by the matrix runner for each binary it was built with.
 *
 * How many indirect calls each dispatch makes is the family's: the timer's
 * one (fn(...)), the tasklet's one or two, each named by how it passes its
 * object (th_site_calls): "callback" (t->callback(t)) and "func"
 * (t->func(t->data)); legacy has func only, modern callback only,
 * transitional both. Two calls the compiler merged into one instruction
 * (cfi-icall, and no CFI: one `call rax`) are two entries, each its own
 * check's set. A family other than the timer whose dispatch the binary
 * lacks is not read.
 */
#ifndef TH_CFI_REACH_COLLECT_H
#define TH_CFI_REACH_COLLECT_H

#include <stddef.h>

#include "results/results.h"

/* Is @config one whose reach the results record: a CFI config (its cflags
 * name -fsanitize=cfi-icall, kcfi or function) or none, the baseline? */
int th_reach_wanted(const char *config);

/*
 * Read @binary (built for @toolchain, @variant, @config) and add its entries
 * to res->reach, one per call of each family's dispatch, members marked by
 * @privileged (@npriv names); llvm-cfi-verify is run on it when the binary
 * has a check at the timer's call and the tool is installed (its verdicts
 * are the binary's: on the timer's entry, null on the others).
 * Return: 0, or -1 with @err (the binary cannot be read, a dispatch makes
 * more calls than its family's or one that cannot be named, an entry of
 * that key exists, out of memory); the families read before it stay added.
 */
int th_reach_collect(struct th_results *res, const char *toolchain, const char *variant,
		     const char *config, const char *binary, const char *const *privileged,
		     size_t npriv, char *err, size_t n);

/*
 * Read a Linux vmlinux built with CONFIG_CFI_CLANG (kCFI) and add its
 * entries to res->reach, for the kernel command: call_timer_fn's, variant
 * modern (the kernel's fn(struct timer_list *)), and tasklet_action_common's
 * two, "callback" and "func", variant transitional (5.9+: both in one
 * struct); on @platform, the kernel's "linux-<release>" (declared in @res
 * with th_results_add_platform() first; never "model"), @toolchain and
 * @config as the caller names them (both must already be declared in @res),
 * binary @vmlinux. An entry of the same key is never replaced; the model's
 * entries of that toolchain and config stay beside them. A retpoline
 * kernel's calls through __x86_indirect_thunk_r11 (6.12's thunks are
 * labels of __x86_indirect_thunk_array) are indirect calls.
 * Members are marked by @privileged (@npriv names; NULL: the kernel's,
 * runner/privileged.h TH_KERNEL_PRIVILEGED), every member is a
 * container-confusion candidate, and the entry's uses say what each
 * container gives (cfi/target_set.h). llvm-cfi-verify is not run (it reads
 * cfi-icall's jump tables, not kCFI).
 * Return: 0, or -1 with @err, nothing added (the platform not a declared
 * kernel's, not a readable ELF, no call_timer_fn or not exactly one indirect
 * call in it, tasklet_action_common not its one or two calls, a call no
 * check guards, an entry exists, out of memory).
 */
int th_reach_collect_vmlinux(struct th_results *res, const char *platform, const char *toolchain,
			     const char *config, const char *vmlinux, const char *const *privileged,
			     size_t npriv, char *err, size_t n);

#endif
