/* SPDX-License-Identifier: MIT */
/*
 * A tiny stand-in for an attack binary, built by tests/cfi.cmake under several
 * configs, to test the trap reporter, the ELF trap-site proof and the classifier
 * on real traps. Speaks the child protocol of cfi/classify.h.
 *   bad-call        th_test_call_timer_fn() calls a void (unsigned long) through
 *                   a timer callback pointer: CFI must trap in the check site
 *   good-call       the same call site, the legitimate callback: must run
 *   trap-elsewhere  __builtin_trap() outside the check site: a SIGILL that is
 *                   not a CFI check
 *   segv            a store to address 0x10
 *   wild-jump       a call to address 0x10 (pc itself unmapped; run without CFI)
 *   segv-no-readv, wild-jump-no-readv
 *                   the same with process_vm_readv denied by seccomp: the
 *                   reporter's pipe fallback reads the bytes
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cfi/hardening.h"
#include "cfi/trap_report.h"

struct test_timer {
	void (*function)(struct test_timer *);
	unsigned long flags;
};

typedef void test_timer_fn(struct test_timer *);

static void emit(const char *s)
{
	if (write(STDOUT_FILENO, s, strlen(s)) < 0)
		_exit(3);
}

__attribute__((noinline)) void test_legit_callback(struct test_timer *t);
__attribute__((noinline)) void test_legit_callback(struct test_timer *t)
{
	emit(t && t->flags == 7 ? "TH-LEGIT: intended=1 test_legit_callback on its own timer\n"
				: "TH-NOTE: test_legit_callback on a foreign timer\n");
}

__attribute__((noinline)) void test_write_cr4(unsigned long value);
__attribute__((noinline)) void test_write_cr4(unsigned long value)
{
	(void)value;
	emit("TH-TARGET: name=test_write_cr4 chosen=0 received the timer pointer\n");
}

__attribute__((noinline)) void test_not_a_check_site(void);
__attribute__((noinline)) void test_not_a_check_site(void)
{
	__builtin_trap();
}

/* volatile: written in main, read at the call site, so the call stays indirect. */
static test_timer_fn *volatile pending;

/* The check site: its name contains call_timer_fn, as the wheel's does. */
__attribute__((noinline)) void th_test_call_timer_fn(struct test_timer *t);
__attribute__((noinline)) void th_test_call_timer_fn(struct test_timer *t)
{
	test_timer_fn *fn = pending;

	fn(t);
}

/* Make process_vm_readv fail with EPERM, as some container profiles do. */
static void deny_process_vm_readv(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
		emit("TH-NOTE: cannot install the seccomp filter\n");
		_exit(4);
	}
}

int main(int argc, char **argv)
{
	static struct test_timer timer = { 0, 7 };
	const char *mode = argc > 1 ? argv[1] : "";
	size_t len = strlen(mode);

	if (len > 9 && !strcmp(mode + len - 9, "-no-readv"))
		deny_process_vm_readv();
	th_install_trap_reporter();
	if (!strcmp(mode, "bad-call")) {
		/* Deliberate cast: the legacy-typed target CFI must refuse. */
		pending = TH_DELIBERATE_FN_CAST(test_timer_fn *, test_write_cr4);
		emit("TH-LANDED: yes pending = test_write_cr4\n");
	} else if (!strcmp(mode, "good-call")) {
		pending = test_legit_callback;
	} else if (!strcmp(mode, "trap-elsewhere")) {
		test_not_a_check_site();
	} else if (!strcmp(mode, "segv") || !strcmp(mode, "segv-no-readv")) {
		*(volatile int *)(uintptr_t)0x10 = 1;
	} else if (!strcmp(mode, "wild-jump") || !strcmp(mode, "wild-jump-no-readv")) {
		pending = (test_timer_fn *)(uintptr_t)0x10;
	} else {
		emit("TH-NOTE: usage: bad-call|good-call|trap-elsewhere|segv[-no-readv]|"
		     "wild-jump[-no-readv]\n");
		return 2;
	}
	th_test_call_timer_fn(&timer);
	emit("TH-DONE: returned from th_test_call_timer_fn\n");
	return 0;
}
