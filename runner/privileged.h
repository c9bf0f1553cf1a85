/* SPDX-License-Identifier: MIT */
/*
 * The simulated kernel's privileged functions (victim.h): what an attacker
 * wants the timer to call. A function of this list in a call site's target
 * set (cfi/target_set.h) is what the report marks privileged. Variant-independent:
 * also read by the runner, `timerharness reach` and the tests.
 */
#ifndef TH_RUNNER_PRIVILEGED_H
#define TH_RUNNER_PRIVILEGED_H

#define TH_VICTIM_PRIVILEGED \
	"write_cr4", "write_cr4_direct", "commit_creds", "call_usermodehelper"

/* A Linux kernel's (`timerharness reach` on a vmlinux, by default): the
 * functions that change privileged state in one call. */
#define TH_KERNEL_PRIVILEGED \
	"native_write_cr4", "native_write_cr0", "commit_creds", "prepare_kernel_cred", \
	"override_creds", "call_usermodehelper", "call_usermodehelper_exec", "run_cmd", \
	"set_memory_x", "set_memory_rw", "text_poke"

#endif
