/* SPDX-License-Identifier: MIT */
/*
 * Field-spanning memcpy() check, modelled on the Linux kernel's
 * fortify_memcpy_chk() (commit 54d9469bc515, "fortify: Add run-time WARN for
 * cross-field memcpy()").
 *
 * glibc's _FORTIFY_SOURCE sizes memcpy() by the whole object
 * (__builtin_object_size(p, 0)), so memcpy(obj->name, src, 40) with
 * char name[16] followed by a struct timer_list passes: the write stays inside
 * obj. The kernel also asks for the size of the field itself,
 * __builtin_dynamic_object_size(p, 1), and reports a write larger than that.
 *
 * TH_FIELD_MEMCPY(dst, src, n) is memcpy(dst, src, n), returning dst. When
 * TH_FORTIFY_FIELD is defined non-zero (the `fortify` and `defence-in-depth`
 * configs), n is first compared with the size of the field dst names; a larger
 * n prints
 *   fortify: detected field-spanning write (size N) of single field "EXPR" at FILE:LINE (size S)
 * to stderr and abort()s. Blocking mode: the kernel only WARNs and lets the copy
 * go on; the report must say which.
 *
 * It must be a macro. The field size is known only from the expression at the
 * call site (&obj->name); passed through a function parameter, even of a static
 * inline function, the pointer no longer names a field and the size becomes the
 * rest of the object or unknown, and the check silently never fires.
 * __builtin_dynamic_object_size does not evaluate its argument, so dst is
 * evaluated once. An unknown size ((size_t)-1) is never reported.
 */
#ifndef TH_CFI_FORTIFY_FIELD_H
#define TH_CFI_FORTIFY_FIELD_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's name without its directory where the compiler knows it: evidence
 * stays the same from one build tree to another. */
#ifdef __FILE_NAME__
#define TH_FORTIFY_FILE __FILE_NAME__
#else
#define TH_FORTIFY_FILE __FILE__
#endif

/* The report's fixed start: what cfi/classify.c and cfi/probe_judge.c look for. */
#define TH_FORTIFY_FIELD_REPORT "fortify: detected field-spanning write"
#define TH_FORTIFY_FIELD_FMT \
	TH_FORTIFY_FIELD_REPORT " (size %zu) of single field \"%s\" at %s:%d (size %zu)\n"

#if defined(TH_FORTIFY_FIELD) && TH_FORTIFY_FIELD

#if !defined(__has_builtin) || !__has_builtin(__builtin_dynamic_object_size)
#error "TH_FORTIFY_FIELD needs __builtin_dynamic_object_size (clang >= 9)"
#endif

__attribute__((noreturn, cold, noinline)) static inline void
th_fortify_field_fail(size_t n, const char *field, const char *file, int line, size_t size)
{
	fprintf(stderr, TH_FORTIFY_FIELD_FMT, n, field, file, line, size);
	fflush(stderr);
	abort(); /* blocking mode: the kernel WARNs and copies anyway */
}

#define TH_FIELD_MEMCPY(dst, src, n)                                            \
	(__extension__({                                                        \
		const size_t th_fsize_ = __builtin_dynamic_object_size((dst), 1); \
		const size_t th_n_ = (n);                                       \
		if (th_n_ > th_fsize_)                                          \
			th_fortify_field_fail(th_n_, #dst, TH_FORTIFY_FILE, __LINE__, \
					      th_fsize_);                       \
		memcpy((dst), (src), th_n_);                                    \
	}))

#else

#define TH_FIELD_MEMCPY(dst, src, n) memcpy((dst), (src), (n))

#endif

#endif
