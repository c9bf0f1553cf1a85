/* SPDX-License-Identifier: MIT */
/*
 * Anti-optimisation lives here, and only here; each use says why.
 * The compiler turns `p = f; p()` into a direct call and a CFI check then
 * disappears, so the indirect calls the harness measures must stay real.
 */
#ifndef TH_COMPILER_H
#define TH_COMPILER_H

/* Keep a function out of line: the CFI check site of an indirect call must
 * sit in a function of known name (trap classification looks it up). */
#define th_noinline __attribute__((noinline))

/* The rare path of a hot function (a misuse refused, debugobjects' books):
 * its frame, WARN buffers and calls stay out of the caller's, whose common
 * path then needs no stack frame at all. */
#define th_cold __attribute__((cold, noinline))

/* A value the optimiser may not see through (forces a real load). */
#define TH_OPAQUE(x) (*(volatile __typeof__(x) *)&(x))

/* Structures an attacker should not know the layout of (the randstruct
 * config, -DTH_RANDSTRUCT=1): shuffled per -frandomize-layout-seed. */
#if defined(TH_RANDSTRUCT) && TH_RANDSTRUCT
#if defined(__has_attribute) && __has_attribute(randomize_layout)
#define __randomize_layout __attribute__((randomize_layout))
#else
#error "TH_RANDSTRUCT=1 needs __attribute__((randomize_layout)) (clang >= 15)"
#endif
#else
#define __randomize_layout
#endif

#define th_unused __attribute__((unused))

#endif
