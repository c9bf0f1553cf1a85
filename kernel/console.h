/* SPDX-License-Identifier: MIT */
/*
 * The real kernel's serial console, classified in the project's outcomes
 * (docs/outcomes.md; kernel/README.md says how each is observed).
 *
 * Two kinds of line count: the test unit's (kernel/unit/), each
 * "timerharness <token>: ..." with this boot's token, which states facts
 * (the write landed, what call_timer_fn called, kernel state read after);
 * and the kernel's own: "CFI failure at call_timer_fn+..." (kCFI's
 * report_cfi_failure()), an oops ("general protection fault", "BUG: ...",
 * "invalid opcode") and its "RIP: 0010:sym+off/size". Nothing else on the
 * console (a line without the token, garbage, a payload's bytes) decides
 * anything. syzkaller's pkg/report is the model; its goldens are
 * tests/data/kernel/console/.
 */
#ifndef TH_KERNEL_CONSOLE_H
#define TH_KERNEL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/outcome.h"

/* How the boot ended, as the host saw QEMU. */
enum th_boot_end {
	TH_BOOT_EXITED,		/* QEMU exited on its own (reboot -f, or panic=-1) */
	TH_BOOT_TIMEOUT,	/* killed at the time limit */
	TH_BOOT_FAILED,		/* QEMU could not start, or exited with an error */
};

struct th_console_cell {
	const char *attack;	/* MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 */
	const char *payload;	/* func:write_cr4 */
	const char *token;	/* this boot's timerharness.token= */
};

#define TH_CONSOLE_EVIDENCE	512

struct th_console_verdict {
	enum th_outcome outcome;
	char evidence[TH_CONSOLE_EVIDENCE];	/* printable ASCII, one line */
	/* Facts, for the report and tests. */
	bool unit_seen, write_landed, cfi_failure, oops, userspace;
	char call_target[96];		/* first call_timer_fn target, "" none */
	char legit[96];			/* the victim's legitimate callback */
	char rip[96];			/* the oops's RIP symbol, "" none */
};

/*
 * Classify the console log @log (@n bytes; any bytes) of the boot of @cell,
 * which ended as @end (@qemu_error: why, for TH_BOOT_FAILED, else NULL).
 * Always yields an outcome; HARNESS_ERROR when the boot, the unit or the
 * write did not happen as planned, never an attack outcome.
 */
void th_console_classify(const char *log, size_t n, const struct th_console_cell *cell,
			 enum th_boot_end end, const char *qemu_error,
			 struct th_console_verdict *v);

#endif
