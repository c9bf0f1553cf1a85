/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "trap_report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "hardening.h"
#include "runner/contract.h"

/* Defined by the linker (bfd, gold, lld) at the ELF header of the executable. */
extern const char __ehdr_start[] __attribute__((weak, visibility("hidden")));

/* No sanitizer instruments the handler: it runs on a dying process, maybe on
 * memory ASan would itself report, and must not re-enter a runtime. */
#define TH_TRAP_NOSAN __attribute__((no_sanitize("address", "undefined"))) TH_NO_KCFI

static const int th_trap_signals[] = { SIGILL, SIGSEGV, SIGBUS, SIGTRAP, SIGFPE };

/* 64 KiB: SIGSTKSZ is no longer a constant in glibc >= 2.34, and ASan's
 * own handler, if it ever runs here, wants more than MINSIGSTKSZ. */
static char th_altstack[64 * 1024] __attribute__((aligned(16)));
/* Fallback reader: write(2) from an unmapped address fails with EFAULT instead
 * of faulting, and the bytes written come back out of the pipe. */
static int th_probe_pipe[2] = { -1, -1 };
/* The runner's per-run token (runner/contract.h), copied at install time:
 * the handler may not call getenv(). */
static char th_trap_token[TH_TOKEN_LEN + 1] = "-";

TH_TRAP_NOSAN static char *th_put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

TH_TRAP_NOSAN static char *th_put_hex(char *p, uint64_t v, int min_digits)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v && n < 16);
	while (n < min_digits && n < 16)
		tmp[n++] = '0';
	while (n)
		*p++ = tmp[--n];
	return p;
}

TH_TRAP_NOSAN static char *th_put_dec(char *p, unsigned v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

TH_TRAP_NOSAN static const char *th_signame(int sig)
{
	switch (sig) {
	case SIGILL: return "SIGILL";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGTRAP: return "SIGTRAP";
	case SIGFPE: return "SIGFPE";
	default: return "SIG?";
	}
}

/* Read n bytes at addr without faulting; returns 1 on success. The raw
 * syscall, not the libc wrapper, so no sanitizer interceptor runs. */
TH_TRAP_NOSAN static int th_read_self(uintptr_t addr, unsigned char *buf, size_t n)
{
	struct iovec local = { buf, n };
	struct iovec remote = { (void *)addr, n };

	if (syscall(SYS_process_vm_readv, (long)getpid(), &local, 1L, &remote, 1L, 0L) == (long)n)
		return 1;
	if (th_probe_pipe[1] < 0)
		return 0;
	if (write(th_probe_pipe[1], (const void *)addr, n) != (ssize_t)n)
		return 0;
	return read(th_probe_pipe[0], buf, n) == (ssize_t)n;
}

TH_TRAP_NOSAN static uintptr_t th_context_pc(const void *uctx, const siginfo_t *si)
{
	const ucontext_t *uc = uctx;

	(void)si;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return (uintptr_t)si->si_addr;
#endif
}

TH_TRAP_NOSAN static void th_trap_handler(int sig, siginfo_t *si, void *uctx)
{
	int saved_errno = errno;
	char line[192];
	char *p = line;
	uintptr_t pc = th_context_pc(uctx, si);
	unsigned char bytes[4];
	size_t nbytes = 0;
	struct sigaction dfl;
	sigset_t unblock;

	if (th_read_self(pc, bytes, 4))
		nbytes = 4;
	else if (th_read_self(pc, bytes, 2))
		nbytes = 2;

	p = th_put_str(p, TH_TRAP_PREFIX "run=");
	p = th_put_str(p, th_trap_token);
	p = th_put_str(p, " sig=");
	p = th_put_dec(p, (unsigned)sig);
	p = th_put_str(p, " name=");
	p = th_put_str(p, th_signame(sig));
	p = th_put_str(p, " pc=0x");
	p = th_put_hex(p, pc, 1);
	p = th_put_str(p, " ehdr=0x");
	p = th_put_hex(p, (uintptr_t)__ehdr_start, 1);
	p = th_put_str(p, " bytes=");
	if (!nbytes)
		p = th_put_str(p, "??");
	for (size_t i = 0; i < nbytes; i++)
		p = th_put_hex(p, bytes[i], 2);
	p = th_put_str(p, " addr=0x");
	p = th_put_hex(p, (uintptr_t)si->si_addr, 1);
	*p++ = '\n';
	/* One write: the line is never interleaved with the child's own lines. */
	if (write(STDOUT_FILENO, line, (size_t)(p - line)) < 0)
		(void)0;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&unblock);
	sigaddset(&unblock, sig);
	errno = saved_errno;
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
	/* Not reached: the pending signal kills the process on unblock. */
	_exit(128 + sig);
}

TH_NO_KCFI void th_install_trap_reporter(void)
{
	stack_t ss;
	struct sigaction sa;
	const char *tok = getenv(TH_TOKEN_ENV);

	if (tok && strlen(tok) == TH_TOKEN_LEN && strspn(tok, "0123456789abcdef") == TH_TOKEN_LEN)
		memcpy(th_trap_token, tok, TH_TOKEN_LEN + 1);

	if (th_probe_pipe[0] < 0 && pipe2(th_probe_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		th_probe_pipe[0] = th_probe_pipe[1] = -1;

	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = th_altstack;
	ss.ss_size = sizeof(th_altstack);
	sigaltstack(&ss, NULL);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = th_trap_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(th_trap_signals) / sizeof(th_trap_signals[0]); i++)
		sigaction(th_trap_signals[i], &sa, NULL);
}
