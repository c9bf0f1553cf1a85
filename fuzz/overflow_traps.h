/* SPDX-License-Identifier: MIT */
/*
 * The exact checks that guard the wheel's indirect call: the CFI guards of
 * call_timer_fn(), read from the running binary (/proc/self/exe) once at
 * start-up by the project's binary reader (binread/binread.h: libelf and
 * capstone, the function executed symbolically, so the check is found from
 * what it computes, not matched as a byte pattern). A SIGILL/SIGTRAP counts
 * as BLOCKED_CFI only when its pc (from the signal's ucontext) is one of the
 * trap guards; a -fsanitize=function report only when its source location
 * is one of the handler guards'.
 */
#ifndef TH_FUZZ_OVERFLOW_TRAPS_H
#define TH_FUZZ_OVERFLOW_TRAPS_H

#include <stddef.h>
#include <stdint.h>

/* The function that holds the timer wheel's indirect call
 * (timer_core/legacy.c, modern.c); the name cfi/classify.h proves trap sites
 * against. A world of another family names its own dispatch
 * (overflow_world.h th_fz_family: tasklet_action_common). */
#define TH_FZ_DISPATCH_FUNC "call_timer_fn"
#define TH_FZ_TRAPS_MAX 16

struct th_fz_traps {
	uintptr_t pc[TH_FZ_TRAPS_MAX];		/* trap guards, run-time addresses */
	/* The register (binread/binread.h enum th_reg, x86 encoding order) that
	 * holds the call target at each trap guard, as the binary reader
	 * decoded the check (the matrix reads the same one from the stopped
	 * child, runner/child.c); TH_NOREG (-1) when it does not say. */
	int target_reg[TH_FZ_TRAPS_MAX];
	/* The call site and guard each trap is (binread's, kept open: the
	 * check behind a guard is evaluated on the trapped target). */
	const void *site[TH_FZ_TRAPS_MAX], *guard[TH_FZ_TRAPS_MAX];
	size_t n;
	struct {
		char file[256];
		unsigned line;
	} handler[TH_FZ_TRAPS_MAX];		/* handler guards' source locations */
	size_t nhandlers;
	char how[200];		/* "kcfi: hash 0x... at T-4, ud2 at 0x... (.kcfi_traps)" */
	char func[64];		/* the dispatch read */
	void *bin_;		/* the binary, open while the traps are used */
	uintptr_t bias_;
};

/*
 * Read the guards of every indirect call of func (the dispatch of the
 * world's family) in the binary at path (NULL: /proc/self/exe, the one
 * running), and keep it open. Return: 0 (t->n and t->nhandlers may be 0: no
 * check there), or -1 with err (unreadable or stripped binary, no such
 * function).
 */
int th_fz_traps_load(const char *path, const char *func, struct th_fz_traps *t, char *err, size_t n);

/* Is pc (run time) one of the trap guards? Return: 0 no, 1 the dispatch's. */
int th_fz_traps_is_dispatch(const struct th_fz_traps *t, uintptr_t pc);

/* The register holding the call target at the trap guard pc (x86 encoding
 * order: 0 rax .. 15 r15), or -1: not a guard, or the reader does not say. */
int th_fz_traps_target_reg(const struct th_fz_traps *t, uintptr_t pc);

/*
 * A trap at pc with the general-purpose registers regs (x86 encoding order;
 * NULL: not read), judged as the matrix's runner judges one
 * (runner/child.c): the trap is a CFI stop only where the check behind it
 * refuses the call's target, read from the register the reader names at
 * that guard. One call instruction can sit behind several checks (two calls
 * of one function merged by the compiler, each path with its own type
 * check: 6.1's tasklet_action_common() under cfi-icall), and one trap can
 * stand behind several: each check is evaluated by itself
 * (th_guard_admits()), and a check that refuses its target is taken over
 * one that admits it.
 * Return: 0 pc is no trap guard of the dispatch; 1 a check that refuses
 * the target (or cannot tell: a load outside the image), *target and *reg
 * set (*reg -1 and *target 0 when no register is named or regs is NULL);
 * 2 every check behind pc admits its target (*target, *reg as above): the
 * trap is no CFI stop.
 */
int th_fz_traps_judge(const struct th_fz_traps *t, uintptr_t pc, const uint64_t *regs,
		      uintptr_t *target, int *reg);

/*
 * Does a check of the dispatch other than the one that refused @target at
 * @pc (another guard: not the same address and branch) admit @target?
 * cfi/classify.c's another_check_admits(), at run time: the legitimate
 * callback stopped at one check of a dispatch with a path of its type
 * (6.1's tasklet_action_common() with use_callback cleared calls a
 * tasklet_setup() callback as func(data)) is the attack's doing,
 * BLOCKED_CFI, not the check's false positive. Return: 1 yes, 0 no.
 */
int th_fz_traps_other_admits(const struct th_fz_traps *t, uintptr_t pc, uintptr_t target);

/* Is file:line (a sanitizer report's) a handler guard of the dispatch? The
 * file may be given with more directories than the binary recorded.
 * Return: 0 no, 1 the dispatch's. */
int th_fz_traps_is_dispatch_report(const struct th_fz_traps *t, const char *file, unsigned line);

/*
 * The run-time address ranges of the sanitizer runtimes' functions in the
 * running binary (symbols __asan*, __ubsan*, __sanitizer*, and the C++
 * namespaces __asan, __ubsan, __sanitizer, __interception), sorted, merged,
 * at most max. The watchdog never cuts a run there: a runtime reporting (and
 * symbolizing) holds its locks and state.
 * Return: how many.
 */
size_t th_fz_runtime_ranges(uintptr_t (*ranges)[2], size_t max);

/* One instruction of the running binary, as binread/binread.h th_bin_insn()
 * decodes it from the file (and the process holds the same bytes). */
struct th_fz_insn {
	uintptr_t pc;		/* run time */
	unsigned char len;
	unsigned char writes;	/* 1 unless known to change only registers and flags */
	unsigned char entry;	/* the first instruction of its symbol */
	/* libFuzzer's inline 8-bit counter (`inc byte ptr [rip + x]` into
	 * __sancov_cntrs, which the model never reads): writes is 0, but the
	 * flags it sets come from the counter. */
	unsigned char counter;
	/* A direct jump back within its symbol (the end of a loop's turn):
	 * where it goes, at run time; 0 for any other instruction. */
	uintptr_t back_to;
	/* A direct jump (jmp or a jcc) anywhere: where it goes, at run time;
	 * 0 for any other instruction. cond: -1 jmp, 0..15 a jcc's condition
	 * (the low nibble of its 0x7X opcode: 4 je, 5 jne, ...), -2 not a
	 * direct jump (or one on rcx, jrcxz and loop, which no flag decides). */
	uintptr_t jump_to;
	signed char cond;
	/* ends: control leaves the function's code here (ret, call, an
	 * indirect jump); vector: it names a register the proof does not
	 * compare (x87, MMX, SSE, AVX). */
	unsigned char ends, vector;
	/* `xchg <size> ptr [base + index*scale + disp], reg` (either order):
	 * the one store the spin proof follows (xchg_size bytes, 0: not one);
	 * registers in x86 encoding order, -1 none; rip_rel: base is rip. */
	unsigned char xchg_size, xchg_rip_rel;
	signed char xchg_reg, xchg_base, xchg_index;
	unsigned char xchg_scale;
	int64_t xchg_disp;
	unsigned short flags_read, flags_written;	/* binread/binread.h struct th_insn */
};

/*
 * Every instruction of each function named name, or an LTO or compiler copy
 * of it (name.llvm.N, name.cold, name.cfi), decoded linearly from its
 * symbol's start: where the watchdog proves a soft lockup
 * (overflow_oracle.c). Return: how many, at most max.
 */
size_t th_fz_func_insns(const char *name, struct th_fz_insn *out, size_t max);

/* The condition of a jcc (struct th_fz_insn cond, 0..15) under EFLAGS efl:
 * 1 taken. */
int th_fz_jcc_taken(int cond, uint64_t efl);

/* The st_size of the object symbol name in the running binary (which, under
 * ASan, includes the global's redzone), or 0. */
size_t th_fz_elf_object_size(const char *name);

#endif
