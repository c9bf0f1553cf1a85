/* SPDX-License-Identifier: MIT */
/*
 * Feature probe, in the style of compiler-rt test/cfi/icall/bad-signature.c:
 * one source, built once per config (th-probe-<config>); `probe <check>` prints
 *   TH-PROBE: run=<token> before <check>
 * does the one bad thing <check>'s feature must stop, then prints
 *   TH-PROBE: run=<token> after <check>
 * and exits 0 (<token>: the runner's TH_RUN_TOKEN, runner/child.h). "after"
 * on stdout means the feature did not stop it; how it was stopped is judged
 * by th_probe_judge() (cfi/probe_judge.h). Every line is one write(2), so
 * nothing is lost in a stdio buffer when the process dies.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfi/fortify_field.h"
#include "cfi/hardening.h"
#include "th/compiler.h"
#include "cfi/trap_report.h"

static const char *token(void)
{
	const char *t = getenv("TH_RUN_TOKEN");

	return t && *t ? t : "-";
}

static void say(const char *what, const char *check)
{
	char line[256];
	int len = snprintf(line, sizeof(line), "TH-PROBE: run=%s %s %s\n", token(), what, check);

	if (len > 0 && write(STDOUT_FILENO, line, (size_t)len) < 0)
		exit(3);
}

/* ---- cfi, cfi-diag, kcfi, function: an indirect call of the wrong type --------
 * The pointer has type void (*)(int); it holds a void (long). Both are non-pointer
 * parameters, so -fsanitize-cfi-icall-generalize-pointers does not merge them. */
typedef void probe_fn(int);

/* volatile, written in probe_arm() and read in probe_call(): otherwise the
 * compiler turns the call into a direct one and the check disappears. */
static probe_fn *volatile probe_target;

__attribute__((noinline)) void probe_wrong_type(long v);
__attribute__((noinline)) void probe_wrong_type(long v)
{
	say("wrong-type target ran", v == 42 ? "(argument 42)" : "(argument garbled)");
}

/* The right type, stored only with `probe <check> good`: with one possible
 * (wrong) target, LTO would fold the check into a bare ud1 and drop the
 * indirect call, and there would be no call site whose check to prove. */
__attribute__((noinline)) void probe_right_type(int v);
__attribute__((noinline)) void probe_right_type(int v)
{
	say("right-type target ran", v == 42 ? "(argument 42)" : "(argument garbled)");
}

__attribute__((noinline)) void probe_arm(int good);
__attribute__((noinline)) void probe_arm(int good)
{
	/* Deliberate cast: the mismatch every CFI scheme must stop at the call. */
	probe_target = good ? probe_right_type : TH_DELIBERATE_FN_CAST(probe_fn *, probe_wrong_type);
}

/* The check site: cfi/probe_judge.h looks for the trap inside this function. */
__attribute__((noinline)) void probe_call(void);
__attribute__((noinline)) void probe_call(void)
{
	probe_target(42); /* BAD: indirect call through a pointer of the wrong type */
}

/* ---- cfi-generalized: a pointer-typed mismatch --------------------------------
 * void (struct probe_b *) through void (*)(struct probe_a *): both are "a
 * pointer" once -fsanitize-cfi-icall-generalize-pointers merges them. */
struct probe_a {
	int a;
};
struct probe_b {
	long b;
};
typedef void probe_ptr_fn(struct probe_a *);

static probe_ptr_fn *volatile probe_ptr_target;
static struct probe_a probe_a_obj = { 42 };

__attribute__((noinline)) void probe_gen_target(struct probe_b *b);
__attribute__((noinline)) void probe_gen_target(struct probe_b *b)
{
	say("generalized target ran", b ? "(a pointer)" : "(NULL)");
}

/* The exact type, for `good` (the call stays indirect, as above). */
__attribute__((noinline)) void probe_ptr_right_type(struct probe_a *a);
__attribute__((noinline)) void probe_ptr_right_type(struct probe_a *a)
{
	say("right-type target ran", a ? "(a pointer)" : "(NULL)");
}

static void probe_arm_ptr(int good)
{
	/* Deliberate cast: a pointer-parameter mismatch, generalized or not. */
	probe_ptr_target = good ? probe_ptr_right_type
				: TH_DELIBERATE_FN_CAST(probe_ptr_fn *, probe_gen_target);
}

/* The generalized call site: cfi/probe_judge.h reads its check. */
__attribute__((noinline)) void probe_call_ptr(void);
__attribute__((noinline)) void probe_call_ptr(void)
{
	probe_ptr_target(&probe_a_obj); /* BAD unless pointers are generalized */
}

/* ---- asan: a heap overflow past the end of a malloc'd buffer ------------------ */
static volatile size_t probe_index = 16;

static void probe_asan(void)
{
	/* volatile: a store right before free() is otherwise dead and removed. */
	volatile char *buf = malloc(16);

	if (!buf)
		exit(3);
	buf[probe_index] = 'x'; /* BAD: one past the end (within malloc's slack) */
	free((char *)buf);
}

/* ---- bounds: an out-of-range index into an array inside a struct -------------- */
static struct {
	char a[16];
	char tail[16];
} probe_bounds_obj;
static volatile int probe_bounds_index = 20;

static void probe_bounds(void)
{
	probe_bounds_obj.a[probe_bounds_index] = 'x'; /* BAD: a[20] is tail[4] */
}

/* ---- fortify: a field-spanning memcpy, inside one object ---------------------- */
struct probe_obj {
	char name[16];
	void (*function)(unsigned long);
	unsigned long data;
	char pad[32];
};
static volatile size_t probe_copy_len = 40;

static void probe_fortify(void)
{
	static const char src[64] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	struct probe_obj *obj = calloc(1, sizeof(*obj));

	if (!obj)
		exit(3);
	/* BAD: 40 bytes into name[16], over .function and .data; whole-object
	 * _FORTIFY_SOURCE allows it (the object is 72 bytes). */
	TH_FIELD_MEMCPY(obj->name, src, probe_copy_len);
	free(obj);
}

/* ---- randstruct: the layout of a struct timer_list (4.14) look-alike ---------- */
struct probe_layout {
	void *entry_next, **entry_pprev;
	unsigned long expires;
	void (*function)(unsigned long);
	unsigned long data;
	unsigned int flags;
} __randomize_layout;

static void probe_randstruct(void)
{
	char line[160];
	int len = snprintf(line, sizeof(line),
			   "TH-PROBE: run=%s layout offsets=%zu,%zu,%zu,%zu,%zu,%zu size=%zu "
			   "(entry.next,entry.pprev,expires,function,data,flags)\n", token(),
			   offsetof(struct probe_layout, entry_next),
			   offsetof(struct probe_layout, entry_pprev),
			   offsetof(struct probe_layout, expires),
			   offsetof(struct probe_layout, function),
			   offsetof(struct probe_layout, data),
			   offsetof(struct probe_layout, flags), sizeof(struct probe_layout));

	if (len > 0 && write(STDOUT_FILENO, line, (size_t)len) < 0)
		exit(3);
}

int main(int argc, char **argv)
{
	const char *check = argc == 2 || argc == 3 ? argv[1] : "";
	int good = argc == 3 && !strcmp(argv[2], "good");

	th_install_trap_reporter();
	if (strcmp(check, "cfi") && strcmp(check, "cfi-generalized") && strcmp(check, "cfi-diag") &&
	    strcmp(check, "kcfi") && strcmp(check, "function") && strcmp(check, "asan") &&
	    strcmp(check, "bounds") && strcmp(check, "fortify") && strcmp(check, "randstruct")) {
		fprintf(stderr, "usage: %s cfi|cfi-generalized|cfi-diag|kcfi|function|asan|bounds|"
			"fortify|randstruct [good]\n", argv[0]);
		return 2;
	}
	probe_arm(good);
	probe_arm_ptr(good);
	say("before", check);
	if (!strcmp(check, "asan"))
		probe_asan();
	else if (!strcmp(check, "bounds"))
		probe_bounds();
	else if (!strcmp(check, "fortify"))
		probe_fortify();
	else if (!strcmp(check, "randstruct"))
		probe_randstruct();
	else if (!strcmp(check, "cfi-generalized"))
		probe_call_ptr();
	else
		probe_call();
	say("after", check);
	return 0;
}
