/* SPDX-License-Identifier: MIT */
/*
 * The real kernel's serial console, classified in the project's outcomes
 * (docs/outcomes.md; kernel/README.md says how each is observed). The same
 * for a console captured anywhere: QEMU's serial port here, a real
 * machine's serial line, dmesg, journalctl -k (the line prefixes they add
 * are read through).
 *
 * Two kinds of line count: the test unit's (kernel/unit/), each
 * "timerharness <token>: ..." with this boot's token, which states facts
 * (the write landed and what it wrote, what call_timer_fn called, kernel
 * state read after); and the kernel's own: a CFI report (kCFI's and
 * FineIBT's "CFI failure at ..." from report_cfi_failure(), kernel/cfi.c;
 * IBT's "Missing ENDBR: ..."), a "WARNING: ... at ..." (__warn(),
 * kernel/panic.c: what a permissive check prints before going on), an oops
 * ("general protection fault", "BUG: ...", "invalid opcode") and its
 * "RIP: 0010:sym+off/size". Nothing else on the console (a line without
 * the token, garbage, a payload's bytes) decides anything.
 *
 * The token is random per boot and on the kernel's command line (the host
 * passes it there), so the console itself shows it ("Kernel command line:
 * ..."): it proves which boot a unit line came from, and keeps out lines
 * from anything that does not know it (a stale log, another boot, bytes a
 * payload writes without reading the command line). It is not a secret
 * from code running in that kernel; no payload here prints.
 *
 * BLOCKED_CFI is a proof, never a guess: a CFI report after the unit's
 * write, after the unit saw the watched call site (the CALL line) head for
 * the target the unit wrote, that names that site (kCFI: the check is in
 * the caller) or that target's own preamble (FineIBT, 6.2+: the check is
 * in the callee, "__cfi_<target>+0xd"; a sealed target's poisoned
 * preamble gives a bare invalid opcode there), and the target written; and
 * the kernel stopped there (the oops at the check). A report that names
 * another site or target, came before the write, or after which the call
 * went on (CONFIG_CFI_PERMISSIVE, ibt=warn: a WARNING, then the call) is
 * evidence, never this cell's block. syzkaller's pkg/report is the model;
 * its goldens are tests/data/kernel/console/.
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

#define TH_CONSOLE_EVIDENCE	1024

struct th_console_verdict {
	enum th_outcome outcome;
	char evidence[TH_CONSOLE_EVIDENCE];	/* printable ASCII, one line */
	/* Facts, for the report and tests. */
	bool unit_seen, write_landed, oops, userspace;
	bool cfi_failure;		/* a CFI report after the write, any */
	bool cfi_block;			/* one of them is this cell's call stopped */
	bool cfi_went_on;		/* one named this cell's call, which went on */
	char site[64];			/* the call site the unit watched, "" none */
	char call_target[96];		/* its first call's target, "" none */
	char written[96];		/* the .function the write left, "" none */
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

/*
 * What the host would have told th_console_classify(), read from the
 * console itself: the kernel's "Kernel command line: ..." (init/main.c
 * prints it at boot) with timerharness.cell=ID and timerharness.token=T,
 * for a console captured without the host (a real machine, another
 * hypervisor, a board's serial log). @cell and @token are filled only
 * where empty. Return: 0; -1 with the reason in @err when the console has
 * no such line or holds boots with different values (name them then).
 */
int th_console_boot_args(const char *log, size_t n, char *cell, size_t cn, char *token, size_t tn,
			 char *err, size_t en);

/*
 * check --consoles DIR (report/check.h console_recheck): the console log
 * of real kernel's cell @c (struct th_cell, results/results.h) as
 * `timerharness kernel` wrote it, DIR/<series>/<config>/<attack>.log (or
 * DIR/<config>/<attack>.log for your own kernel), the path its evidence
 * names after "; console: " ending so; its first line the run's own ("#
 * timerharness kernel: ATTACK on CONFIG (...), token T, ..."), the
 * console the platform's release ("Linux version 6.1.192 "), classified
 * again with that token and boot end. @dir is a const char *.
 * Return: 0 it gives the cell's outcome; -1 with why in @why.
 */
struct th_cell;
int th_console_recheck(void *dir, const struct th_cell *c, char *why, size_t n);

#endif
