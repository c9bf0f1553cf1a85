/* SPDX-License-Identifier: MIT */
/*
 * Attributes the hardening configs need in source (cfi/configs.tsv).
 *
 * TH_RANDOMIZE_LAYOUT      on a victim struct: shuffled per seed under the
 *                          `randstruct` config (-DTH_RANDSTRUCT=1), else nothing.
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

#if defined(TH_RANDSTRUCT) && TH_RANDSTRUCT
#if defined(__has_attribute) && __has_attribute(randomize_layout)
#define TH_RANDOMIZE_LAYOUT __attribute__((randomize_layout))
#else
#error "TH_RANDSTRUCT=1 needs __attribute__((randomize_layout)) (clang >= 15)"
#endif
#else
#define TH_RANDOMIZE_LAYOUT
#endif

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
