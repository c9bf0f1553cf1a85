/* SPDX-License-Identifier: MIT */
/*
 * The exact trap addresses that guard the wheel's indirect call: the CFI
 * check of call_timer_fn(), read from the running binary (/proc/self/exe)
 * once at start-up. A SIGILL/SIGTRAP counts as BLOCKED_CFI only when its pc
 * (from the signal's ucontext) is one of them.
 *
 * This is the oracle's only contact with the binary: one function to load
 * the set, one to test a pc. The reader behind it (cfi/elf_traps.h today)
 * can be replaced without touching the oracle.
 */
#ifndef TH_FUZZ_OVERFLOW_TRAPS_H
#define TH_FUZZ_OVERFLOW_TRAPS_H

#include <stddef.h>
#include <stdint.h>

/* The function that holds the wheel's indirect call (timer_core/legacy.c,
 * modern.c); the same name cfi/classify.h proves trap sites against. */
#define TH_FZ_DISPATCH_FUNC "call_timer_fn"
#define TH_FZ_TRAPS_MAX 16

struct th_fz_traps {
	uintptr_t pc[TH_FZ_TRAPS_MAX];	/* run-time addresses */
	uint64_t vaddr[TH_FZ_TRAPS_MAX];	/* the same, as file addresses */
	size_t n;
	char how[160];		/* "kcfi: 1 .kcfi_traps entry in call_timer_fn", ... */
};

/*
 * Find every CFI trap instruction guarding call_timer_fn's indirect call in
 * the binary at path (NULL: /proc/self/exe, the one running): under kcfi the
 * entries of .kcfi_traps inside the function; under cfi-icall the ud1/ud2
 * instructions inside it that a conditional jump of the function branches
 * to or falls through to. Return: 0 (t->n may be 0: no CFI check there), or
 * -1 with err (unreadable binary, no such function).
 */
int th_fz_traps_load(const char *path, struct th_fz_traps *t, char *err, size_t n);

/* The st_size of the object symbol name in the running binary (which, under
 * ASan, includes the global's redzone), or 0. */
size_t th_fz_elf_object_size(const char *name);

/* Is pc (run time) one of the traps? */
int th_fz_traps_is_dispatch(const struct th_fz_traps *t, uintptr_t pc);

#endif
