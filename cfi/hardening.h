/* SPDX-License-Identifier: MIT */
/*
 * Attributes the hardening configs need in source (cfi/configs.tsv).
 *
 * (Randomised layouts: __randomize_layout in timer_core's th/compiler.h.)
 * TH_NO_KCFI               on a function that calls into libc through a pointer it
 *                          holds: libc has no kcfi type hashes, so every such call
 *                          traps under `kcfi`. Nothing before clang 16.
 * TH_DELIBERATE_FN_CAST(T, f)
 *                          cast function f to function-pointer type T with the
 *                          cast-function-type warnings off for this one expression.
 *                          Only for code that attacks or probes on purpose; tag each
 *                          use with a one-line reason.
 */
#ifndef TH_CFI_HARDENING_H
#define TH_CFI_HARDENING_H

#if defined(__clang_major__) && __clang_major__ >= 16
#define TH_NO_KCFI __attribute__((no_sanitize("kcfi")))
#else
#define TH_NO_KCFI
#endif

/* -Wcast-function-type covers -Wcast-function-type-strict on newer clangs, which
 * also rejects the usual detour through void (*)(void). */
#define TH_DELIBERATE_FN_CAST(T, f)                                            \
	(__extension__({                                                       \
		_Pragma("clang diagnostic push")                               \
		_Pragma("clang diagnostic ignored \"-Wcast-function-type\"")   \
		T th_cast_ = (T)(f);                                           \
		_Pragma("clang diagnostic pop")                                \
		th_cast_;                                                      \
	}))

#endif
