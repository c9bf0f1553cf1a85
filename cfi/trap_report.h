/* SPDX-License-Identifier: MIT */
/*
 * Trap reporter: one line on stdout when the process dies by a hardware trap,
 * for a person running a binary by hand. The runner does not read it: it
 * takes the trap from the process itself (runner/child.h, ptrace), so no
 * line a program prints can stand for a trap.
 *
 * On SIGILL, SIGSEGV, SIGBUS, SIGTRAP or SIGFPE it writes, with one write(2):
 *   TH-TRAP: run=<token> sig=<n> name=<SIGILL> pc=0x<hex> ehdr=0x<hex> bytes=<hex|??> addr=0x<hex>
 * pc: the faulting instruction (for SIGTRAP from int3, the one after it);
 * ehdr: run-time address of __ehdr_start, the ELF header of the main binary, so
 * pc - ehdr + (vaddr of the header in the file) is the address in the file;
 * bytes: the 4 bytes at pc (fewer if the mapping ends), ?? if unreadable;
 * addr: si_addr. Then it restores the default action and re-raises: the process
 * still dies by the same signal, as the classifier expects.
 *
 * Async-signal-safe; runs on its own alternate stack (stack overflows too); no
 * indirect calls, so it is safe under every config. Compile trap_report.c into
 * each binary with that binary's config flags (link the th_trap_report target).
 */
#ifndef TH_CFI_TRAP_REPORT_H
#define TH_CFI_TRAP_REPORT_H

#define TH_TRAP_PREFIX "TH-TRAP: "
#define TH_TRAP_PREFIX_LEN (sizeof(TH_TRAP_PREFIX) - 1)

/* Install the handlers (process-wide) and the alternate stack (the calling
 * thread's: call it from the thread that triggers the timer). Call once, early
 * in main(); it replaces a sanitizer runtime's own SIGSEGV handler, so the
 * process still dies by the signal with a TH-TRAP line. */
void th_install_trap_reporter(void);

#endif
