/* SPDX-License-Identifier: MIT */
/*
 * Tests of cfi/: `th-cfi-test <case> [args...]` runs one cmocka case (one CTest
 * test each, tests/cfi.cmake). Cases on real binaries get their paths as args.
 * `th-cfi-test skip <reason>` and any case calling th_skip() exit 77 (CTest
 * SKIP_RETURN_CODE): what this toolchain cannot build shows as skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cfi/child.h"
#include "cfi/classify.h"
#include "cfi/config_table.h"
#include "cfi/elf_traps.h"
#include "cfi/probe_judge.h"

/* The field check is tested in this file too, whatever this file's flags. */
#undef TH_FORTIFY_FIELD
#define TH_FORTIFY_FIELD 1
#include "cfi/fortify_field.h"

static int g_argc;
static char **g_argv; /* the case's own arguments */
static int g_skipped;

#define th_skip(...)                                     \
	do {                                             \
		print_message("SKIP: " __VA_ARGS__);     \
		print_message("\n");                     \
		g_skipped = 1;                           \
		skip();                                  \
	} while (0)

static const char *arg(int i)
{
	if (i >= g_argc)
		fail_msg("missing argument %d (see tests/cfi.cmake)", i);
	return g_argv[i];
}

/* ---- running a child ------------------------------------------------------------------ */

struct run {
	struct th_child_obs obs;
	struct th_child child;
};

/* Run argv (NULL-terminated) with a time limit, as the matrix runs a cell
 * (cfi/child.h); fill r->obs. */
static void run_child(struct run *r, const char *config, double limit, char *const argv[])
{
	memset(r, 0, sizeof(*r));
	/* Deliberate: execv()'s argv type; the strings are not written. */
	if (th_child_run(&r->child, (const char *const *)argv, limit, false))
		fail_msg("cannot run %s: %s", argv[0], strerror(errno));
	th_child_observe(&r->obs, &r->child, config, argv[0]);
	/* Not print_message(): it truncates at 1 KiB. */
	printf("[child %s %s] %s %d\n--- stdout\n%s--- stderr\n%.2000s\n---\n", argv[0],
	       argv[1] ? argv[1] : "", r->obs.signaled ? "signal" : "exit",
	       r->obs.signaled ? r->obs.signo : r->obs.exit_code, r->obs.out, r->obs.err);
	fflush(stdout);
}

static void run_free(struct run *r)
{
	th_child_free(&r->child);
}

/* ---- canned observations ------------------------------------------------------------- */

static struct th_child_obs exited(int code, const char *out, const char *err)
{
	struct th_child_obs o = { .config = "none", .binary = NULL, .exited = 1,
				  .exit_code = code, .out = out, .err = err };
	return o;
}

static struct th_child_obs killed(int sig, const char *out, const char *err)
{
	struct th_child_obs o = { .config = "none", .signaled = 1, .signo = sig,
				  .out = out, .err = err };
	return o;
}

static enum th_outcome classify(const struct th_child_obs *o, int control, char *ev, size_t n)
{
	enum th_outcome r = th_classify(o, control, ev, n);

	print_message("%s: %s\n", th_outcome_name(r), ev);
	return r;
}

#define assert_outcome(expected, got) \
	assert_string_equal(th_outcome_name(expected), th_outcome_name(got))
#define assert_contains(hay, needle)                                                 \
	do {                                                                         \
		if (!strstr((hay), (needle)))                                        \
			fail_msg("\"%s\" does not contain \"%s\"", (hay), (needle)); \
	} while (0)

static void parse_trap_line(void **state)
{
	struct th_trap_line t;

	(void)state;
	assert_int_equal(th_parse_trap_line("TH-TRAP: sig=4 name=SIGILL pc=0x55d0c1e0185a "
					    "ehdr=0x55d0c1e00000 bytes=670fb940 addr=0x55d0c1e0185a",
					    &t),
			 0);
	assert_int_equal(t.sig, 4);
	assert_string_equal(t.name, "SIGILL");
	assert_true(t.pc == 0x55d0c1e0185aULL);
	assert_true(t.ehdr == 0x55d0c1e00000ULL);
	assert_int_equal(t.nbytes, 4);
	assert_int_equal(t.bytes[0], 0x67);
	assert_int_equal(t.bytes[3], 0x40);
	assert_int_equal(th_parse_trap_line("TH-TRAP: sig=11 name=SIGSEGV pc=0x10 ehdr=0x400000 "
					    "bytes=?? addr=0x10",
					    &t),
			 0);
	assert_int_equal(t.nbytes, 0);
	assert_true(t.pc == 0x10);
}

static void parse_trap_line_malformed(void **state)
{
	struct th_trap_line t;

	(void)state;
	assert_int_equal(th_parse_trap_line("TH-TRAP: sig=4 name=SIGILL pc=1234 ehdr=0x0 bytes=?? addr=0x0", &t), -1);
	assert_int_equal(th_parse_trap_line("TH-TRAP: name=SIGILL pc=0x1 ehdr=0x0 bytes=?? addr=0x0", &t), -1);
	assert_int_equal(th_parse_trap_line("TH-TRAP: sig=4 name=SIGILL pc=0x1 ehdr=0x0 bytes=0f0 addr=0x0", &t), -1);
	assert_int_equal(th_parse_trap_line("TH-NOTE: sig=4", &t), -1);
}

static void config_table(void **state)
{
	static const char *const names[] = { "none", "cfi-icall", "cfi-icall-diag",
		"cfi-icall-generalized", "kcfi", "fsanitize-function", "asan", "bounds",
		"fortify", "randstruct", "defence-in-depth" };
	const struct th_config_info *c;

	(void)state;
	assert_int_equal(th_config_count, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < th_config_count; i++)
		assert_string_equal(th_configs[i].name, names[i]);
	c = th_config_find("defence-in-depth");
	assert_non_null(c);
	assert_true(th_config_has_probe(c, "cfi"));
	assert_true(th_config_has_probe(c, "bounds"));
	assert_true(th_config_has_probe(c, "fortify"));
	assert_false(th_config_has_probe(c, "for"));
	assert_true(th_config_cfi_icall_trap_mode(c));
	assert_false(th_config_cfi_icall_trap_mode(th_config_find("cfi-icall-diag")));
	assert_true(th_config_cfi_icall_trap_mode(th_config_find("cfi-icall-generalized")));
	assert_false(th_config_cfi_icall_trap_mode(th_config_find("kcfi")));
	assert_false(th_config_cfi_icall_trap_mode(NULL));
	assert_true(th_config_has_cflag(th_config_find("fsanitize-function"), "-fsanitize=function"));
	assert_false(th_config_has_cflag(th_config_find("fsanitize-function"), "-fsanitize=func"));
	assert_false(th_config_has_cflag(NULL, "-O2"));
	assert_int_equal(th_config_find("kcfi")->min_clang, 16);
	assert_null(th_config_find("cfi"));
	assert_false(th_config_has_probe(th_config_find("none"), "cfi"));
}

static void x86_trap_insn(void **state)
{
	static const unsigned char ud1[] = { 0x67, 0x0f, 0xb9, 0x40 };
	static const unsigned char ud2[] = { 0x0f, 0x0b, 0xcc, 0xcc };
	static const unsigned char jmp[] = { 0xff, 0xe0, 0x0f, 0x0b };

	(void)state;
	assert_string_equal(th_x86_trap_insn(ud1, 4), "ud1");
	assert_string_equal(th_x86_trap_insn(ud2, 2), "ud2");
	assert_null(th_x86_trap_insn(jmp, 4));
	assert_null(th_x86_trap_insn(ud1, 2));
}

/* ---- the classifier on canned observations: one row per case ------------------------------ */

/* The classification the row does not ask for. */
#define NOT_RUN TH_OUTCOME_INVALID
/* How the child ended (designators of struct th_child_obs). */
#define EXITED(cfg, code) .config = (cfg), .exited = 1, .exit_code = (code)
#define KILLED(cfg, sig) .config = (cfg), .signaled = 1, .signo = (sig)

struct classify_row {
	const char *name; /* the case: th-cfi-test <name> */
	struct th_child_obs obs;
	enum th_outcome attack;  /* classified as an attack run: expected outcome, or NOT_RUN */
	enum th_outcome control; /* classified as a control run: expected outcome, or NOT_RUN */
	/* The evidence of each run: */
	const char *has[3]; /* contains each of these */
	const char *is;     /* is exactly this (NULL: not checked) */
	const char *lacks;  /* does not contain this (NULL: not checked) */
};

static const char cfi_diag_err[] =
	"/work/main/timer_core/wheel.c:211:3: runtime error: control flow integrity check "
	"for type 'void (struct timer_list *)' failed during indirect function call\n"
	"/work/main/attacks/payloads.c:40:1: note: write_cr4 defined here\n";

static const char sigabrt_glibc_err[] = "*** buffer overflow detected ***: terminated\n";

static const struct classify_row classify_rows[] = {
	{ .name = "classify_target_chosen",
	  .obs = { EXITED("none", 0),
	    .out = "TH-NOTE: overwriting\n"
		   "TH-LANDED: yes function=write_cr4 data=0x407f0\n"
		   "TH-TARGET: name=write_cr4 chosen=1 cr4=0x407f0 (SMEP, SMAP off)\n"
		   "TH-DONE: end\n",
	    .err = "" },
	  .attack = TH_HIJACKED, .control = NOT_RUN,
	  .has = { "name=write_cr4 chosen=1 cr4=0x407f0", "landed: yes function=write_cr4" } },
	{ .name = "classify_timeout",
	  .obs = { KILLED("none", SIGKILL), .timed_out = 1, .seconds = 5.0,
	    .out = "TH-NOTE: armed\nTH-NOTE: waiting for expiry\n", .err = "" },
	  .attack = TH_HANG, .control = NOT_RUN, .has = { "5.0 s", "waiting for expiry" } },
	{ .name = "classify_cfi_diag",
	  .obs = { EXITED("cfi-icall-diag", 1), .out = "TH-LANDED: yes function=write_cr4\n",
	    .err = cfi_diag_err },
	  .attack = TH_BLOCKED_CFI, .control = NOT_RUN,
	  .has = { "wheel.c:211:3: runtime error: control flow integrity check for type "
		   "'void (struct timer_list *)' failed",
		   "landed: yes" },
	  .lacks = "/work/main" },
	{ .name = "classify_function_diag",
	  .obs = { EXITED("fsanitize-function", 1), .out = "",
	    .err = "wheel.c:5:50: runtime error: call to function write_cr4 through pointer to "
		   "incorrect function type 'void (*)(struct timer_list *)'\n" },
	  .attack = TH_BLOCKED_CFI, .control = NOT_RUN,
	  .has = { "call to function write_cr4 through pointer to incorrect function type" } },
	{ .name = "classify_cfi_diag_control",
	  .obs = { EXITED("cfi-icall-diag", 1), .out = "TH-NOTE: control run\n",
	    .err = cfi_diag_err },
	  .attack = NOT_RUN, .control = TH_FALSE_POSITIVE,
	  .has = { "control run stopped by CFI", "control flow integrity check" } },
	{ .name = "classify_asan_overflow",
	  .obs = { EXITED("asan", 1), .out = "TH-NOTE: overflowing\n",
	    .err = "=================================================================\n"
		   "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address "
		   "0x606000000058 at pc 0x55d0 bp 0x7ffc sp 0x7ffc\n"
		   "WRITE of size 40 at 0x606000000058 thread T0\n" },
	  .attack = TH_DETECTED, .control = NOT_RUN,
	  .has = { "AddressSanitizer: heap-buffer-overflow on address 0x606000000058",
		   "(WRITE of size 40)" },
	  .lacks = " at pc " },
	/* A crash is not a defence: a control run that crashes is not a false positive. */
	{ .name = "classify_asan_segv",
	  .obs = { EXITED("asan", 1), .out = "TH-LANDED: yes\n",
	    .err = "AddressSanitizer:DEADLYSIGNAL\n"
		   "==4242==ERROR: AddressSanitizer: SEGV on unknown address 0x000000407f0 "
		   "(pc 0x000000407f0 bp 0x7ffc sp 0x7ffc T0)\n" },
	  .attack = TH_CRASHED, .control = TH_CRASHED,
	  .has = { "AddressSanitizer: SEGV on unknown address" } },
	{ .name = "classify_ubsan_bounds",
	  .obs = { EXITED("bounds", 1), .out = "TH-NOTE: index write\n",
	    .err = "/work/main/attacks/victim.c:88:19: runtime error: index 24 out of "
		   "bounds for type 'char[16]'\n"
		   "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior\n" },
	  .attack = TH_DETECTED, .control = NOT_RUN,
	  .is = "victim.c:88:19: runtime error: index 24 out of bounds for type 'char[16]'" },
	{ .name = "classify_fortify_field",
	  .obs = { KILLED("fortify", SIGABRT), .out = "TH-NOTE: memcpy into name\n",
	    .err = "fortify: detected field-spanning write (size 40) of single field "
		   "\"obj->name\" at attacks/victim.c:70 (size 16)\n" },
	  .attack = TH_DETECTED, .control = NOT_RUN,
	  .has = { "fortify: detected field-spanning write (size 40)" } },
	{ .name = "classify_glibc_fortify",
	  .obs = { KILLED("fortify", SIGABRT), .out = "", .err = sigabrt_glibc_err },
	  .attack = TH_DETECTED, .control = NOT_RUN,
	  .is = "*** buffer overflow detected ***: terminated" },
	{ .name = "classify_detected_control",
	  .obs = { KILLED("none", SIGABRT), .out = "", .err = sigabrt_glibc_err },
	  .attack = NOT_RUN, .control = TH_FALSE_POSITIVE,
	  .has = { "control run stopped by a memory-safety check" } },
	{ .name = "classify_segv",
	  .obs = { KILLED("none", SIGSEGV),
	    .out = "TH-LANDED: partial low 6 bytes\n"
		   "TH-TRAP: sig=11 name=SIGSEGV pc=0x4141414141 ehdr=0x555500000000 "
		   "bytes=?? addr=0x4141414141\n",
	    .err = "" },
	  .attack = TH_CRASHED, .control = TH_CRASHED,
	  .has = { "SIGSEGV at pc 0x4141414141", "addr 0x4141414141",
		   "landed: partial low 6 bytes" } },
	{ .name = "classify_sigill_no_trap_line",
	  .obs = { KILLED("cfi-icall", SIGILL), .out = "TH-NOTE: trigger\n", .err = "" },
	  .attack = TH_CRASHED, .control = NOT_RUN, .is = "killed by SIGILL (no TH-TRAP line)" },
	{ .name = "classify_sigill_unreadable_binary",
	  .obs = { KILLED("cfi-icall", SIGILL), .binary = "/nonexistent/th-attack",
	    .out = "TH-TRAP: sig=4 name=SIGILL pc=0x55d0c1e0185a "
		   "ehdr=0x55d0c1e00000 bytes=670fb940 addr=0x55d0c1e0185a\n",
	    .err = "" },
	  .attack = TH_CRASHED, .control = NOT_RUN,
	  .has = { "not a proven CFI check site", "/nonexistent/th-attack" } },
	{ .name = "classify_exit_nonzero",
	  .obs = { EXITED("none", 3), .out = "TH-NOTE: trigger\n", .err = "" },
	  .attack = TH_CRASHED, .control = NOT_RUN, .has = { "exit 3 without TH-DONE" } },
	{ .name = "classify_exit0_no_done",
	  .obs = { EXITED("none", 0), .out = "TH-NOTE: trigger\n", .err = "" },
	  .attack = TH_CRASHED, .control = NOT_RUN,
	  .has = { "exit 0 without TH-DONE; last: TH-NOTE: trigger" } },
	{ .name = "classify_done_legit",
	  .obs = { EXITED("none", 0),
	    .out = "TH-LANDED: no canary intact\n"
		   "TH-LEGIT: intended=1 retire_blk_timer on its own ring\n"
		   "TH-DONE: end\n",
	    .err = "" },
	  .attack = TH_NO_EFFECT, .control = TH_NO_EFFECT,
	  .has = { "legitimate callback ran: intended=1 retire_blk_timer on its own ring",
		   "landed: no canary intact" } },
	{ .name = "classify_done_no_legit",
	  .obs = { EXITED("none", 0), .out = "TH-LANDED: yes\nTH-DONE: timer never fired\n",
	    .err = "" },
	  .attack = TH_NO_EFFECT, .control = NOT_RUN,
	  .has = { "legitimate callback did not run: timer never fired" } },
	{ .name = "classify_done_legit_wrong",
	  .obs = { EXITED("none", 0),
	    .out = "TH-LEGIT: intended=0 data=0x41 (not a live ring)\nTH-DONE: end\n", .err = "" },
	  .attack = TH_NO_EFFECT, .control = NOT_RUN,
	  .has = { "legitimate callback ran on a corrupted argument", "not a live ring" } },
	{ .name = "classify_done_nonzero_exit",
	  .obs = { EXITED("none", 23), .out = "TH-LEGIT: intended=1 x\nTH-DONE: end\n", .err = "" },
	  .attack = TH_CRASHED, .control = NOT_RUN, .has = { "exit 23 after TH-DONE" } },
};

static void check_evidence(const struct classify_row *c, const char *ev)
{
	for (size_t i = 0; i < sizeof(c->has) / sizeof(c->has[0]) && c->has[i]; i++)
		assert_contains(ev, c->has[i]);
	if (c->is)
		assert_string_equal(ev, c->is);
	if (c->lacks)
		assert_null(strstr(ev, c->lacks));
}

/* The test of every classify_rows[] case (its initial state). */
static void classify_row(void **state)
{
	const struct classify_row *c = *state;
	char ev[512];

	if (c->attack != NOT_RUN) {
		assert_outcome(c->attack, classify(&c->obs, 0, ev, sizeof(ev)));
		check_evidence(c, ev);
	}
	if (c->control != NOT_RUN) {
		assert_outcome(c->control, classify(&c->obs, 1, ev, sizeof(ev)));
		check_evidence(c, ev);
	}
}

/* ---- the classifier: cases that change the observation between runs ---------------------- */

static void classify_target_unchosen(void **state)
{
	char ev[256];
	struct th_child_obs o = exited(0, "TH-TARGET: name=write_cr4 chosen=0 cr4=timer address\n"
					  "TH-DONE: end\n", "");

	(void)state;
	assert_outcome(TH_REDIRECTED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "chosen=0");
	/* Any chosen=1 line decides. */
	o.out = "TH-TARGET: name=a chosen=0 x\nTH-TARGET: name=b chosen=1 y\n";
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "name=b chosen=1 y");
}

static void classify_target_beats_crash(void **state)
{
	char ev[256];
	struct th_child_obs o = killed(SIGSEGV, "TH-TARGET: name=write_cr4 chosen=1 cr4=0x407f0\n"
						"TH-TRAP: sig=11 name=SIGSEGV pc=0x10 ehdr=0x0 bytes=?? addr=0x10\n",
				       "");

	(void)state;
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	o.timed_out = 1;
	assert_outcome(TH_HIJACKED, classify(&o, 1, ev, sizeof(ev)));
}

static void classify_evidence_truncated(void **state)
{
	char ev[24];
	struct th_child_obs o = exited(0, "TH-TARGET: name=write_cr4 chosen=1 a very long detail\n", "");

	(void)state;
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	assert_int_equal(strlen(ev), sizeof(ev) - 1);
	assert_string_equal(ev + sizeof(ev) - 4, "...");
}

/* ---- the field check, in this process -------------------------------------------------- */

struct test_sock {
	char name[16];
	void (*function)(unsigned long);
	unsigned long data;
	char more[32];
};

static void fortify_macro_in_range(void **state)
{
	struct test_sock *s = calloc(1, sizeof(*s));
	const char src[16] = "0123456789abcde";
	volatile size_t n = 16;

	(void)state;
	assert_non_null(s);
	assert_ptr_equal(TH_FIELD_MEMCPY(s->name, src, n), s->name);
	assert_memory_equal(s->name, src, 16);
	assert_null(s->function);
	/* The size the macro sees is the field's, taken at the call site. */
	assert_int_equal(__builtin_dynamic_object_size(s->name, 1), 16);
	free(s);
}

static void fortify_macro_field_overflow(void **state)
{
	int status, p[2];
	char err[512] = "";
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char src[64];
		struct test_sock *s = calloc(1, sizeof(*s));
		volatile size_t n = 40;

		dup2(p[1], STDERR_FILENO);
		if (s)
			TH_FIELD_MEMCPY(s->name, src, n); /* must abort */
		_exit(0);
	}
	close(p[1]);
	assert_true(read(p[0], err, sizeof(err) - 1) > 0);
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	print_message("%s", err);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	assert_contains(err, "fortify: detected field-spanning write (size 40) of single field "
			     "\"s->name\" at ");
	assert_contains(err, "cfi_test.c:");
	assert_contains(err, "(size 16)");
}

/* ---- real binaries ------------------------------------------------------------------------ */

static void skip_case(void **state)
{
	(void)state;
	th_skip("%s", arg(0));
}

/* cfi_trap_target bad-call under a CFI config: trap, proven in th_test_call_timer_fn. */
static void elf_cfi_bad_call(void **state)
{
	const char *bin = arg(0), *config = arg(1);
	int kcfi = !strcmp(config, "kcfi");
	char *argv[] = { (char *)bin, "bad-call", NULL };
	struct run r;
	struct th_trap_line t;
	struct th_trap_proof pr;
	struct th_elf e;
	char ev[512], err[256];
	uint64_t start;

	(void)state;
	run_child(&r, config, 10, argv);
	assert_true(r.obs.signaled);
	assert_int_equal(r.obs.signo, SIGILL);
	assert_true(th_find_trap(r.obs.out, &t));
	assert_int_equal(t.sig, SIGILL);
	assert_string_equal(t.name, "SIGILL");
	assert_true(t.ehdr != 0);
	assert_true(t.nbytes == 4);
	assert_non_null(th_x86_trap_insn(t.bytes, t.nbytes));
	assert_true(t.addr == t.pc); /* SIGILL: si_addr is the instruction */

	assert_int_equal(th_elf_open(&e, bin, err, sizeof(err)), 0);
	assert_string_equal(th_elf_func_at(&e, th_elf_vaddr(&e, t.pc, t.ehdr), &start),
			    "th_test_call_timer_fn");
	if (kcfi)
		assert_true(th_elf_kcfi_trap_count(&e) > 0);
	else
		assert_false(e.has_kcfi);
	th_elf_close(&e);

	assert_int_equal(th_elf_prove_cfi_site(bin, t.pc, t.ehdr,
					       kcfi ? TH_PROOF_KCFI : TH_PROOF_CFI_ICALL,
					       "call_timer_fn", t.bytes, t.nbytes, &pr),
			 1);
	assert_int_equal(pr.kind, kcfi ? TH_SITE_KCFI : TH_SITE_CFI_ICALL);
	assert_string_equal(pr.func, "th_test_call_timer_fn");
	assert_string_equal(pr.insn, kcfi ? "ud2" : "ud1");
	/* Wrong function name: not proven (cfi-icall); kcfi needs no name. */
	assert_int_equal(th_elf_prove_cfi_site(bin, t.pc, t.ehdr, TH_PROOF_CFI_ICALL, "probe_call",
					       NULL, 0, &pr),
			 0);
	print_message("not proven (as expected): %s\n", pr.why);
	/* One byte before the trap (the end of the jmp/je before it): not a site. */
	assert_int_equal(th_elf_prove_cfi_site(bin, t.pc - 1, t.ehdr, TH_PROOF_KCFI | TH_PROOF_CFI_ICALL,
					       "call_timer_fn", NULL, 0, &pr),
			 0);

	assert_outcome(TH_BLOCKED_CFI, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, kcfi ? "SIGILL ud2 at 0x" : "SIGILL ud1 at 0x");
	assert_contains(ev, kcfi ? "in th_test_call_timer_fn: kcfi check site (.kcfi_traps)"
				 : "in th_test_call_timer_fn: cfi-icall check site (trap mode)");
	assert_contains(ev, "landed: yes");
	assert_outcome(TH_FALSE_POSITIVE, classify(&r.obs, 1, ev, sizeof(ev)));
	/* The same trap under a config whose proof does not apply is not proven. */
	r.obs.config = kcfi ? "none" : "cfi-icall-diag";
	assert_outcome(kcfi ? TH_BLOCKED_CFI : TH_CRASHED, classify(&r.obs, 0, ev, sizeof(ev)));
	run_free(&r);
}

static void elf_cfi_good_call(void **state)
{
	char *argv[] = { (char *)arg(0), "good-call", NULL };
	struct run r;
	char ev[256];

	(void)state;
	run_child(&r, arg(1), 10, argv);
	assert_outcome(TH_NO_EFFECT, classify(&r.obs, 1, ev, sizeof(ev)));
	assert_contains(ev, "test_legit_callback on its own timer");
	run_free(&r);
}

static void elf_trap_elsewhere(void **state)
{
	char *argv[] = { (char *)arg(0), "trap-elsewhere", NULL };
	struct run r;
	char ev[512];

	(void)state;
	run_child(&r, arg(1), 10, argv);
	assert_true(r.obs.signaled);
	assert_int_equal(r.obs.signo, SIGILL);
	assert_outcome(TH_CRASHED, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, "not a proven CFI check site");
	assert_contains(ev, "test_not_a_check_site");
	run_free(&r);
}

static void elf_none_bad_call(void **state)
{
	char *argv[] = { (char *)arg(0), "bad-call", NULL };
	struct run r;
	char ev[256];

	(void)state;
	run_child(&r, "none", 10, argv);
	assert_outcome(TH_REDIRECTED, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, "name=test_write_cr4 chosen=0");
	run_free(&r);
}

static void elf_segv(void **state)
{
	char *argv[] = { (char *)arg(0), g_argc > 1 ? g_argv[1] : "segv", NULL };
	struct run r;
	struct th_trap_line t;
	char ev[256];

	(void)state;
	run_child(&r, "none", 10, argv);
	assert_true(r.obs.signaled);
	assert_int_equal(r.obs.signo, SIGSEGV);
	assert_true(th_find_trap(r.obs.out, &t));
	assert_true(t.addr == 0x10);
	assert_int_equal(t.nbytes, 4); /* pc is in .text: readable */
	assert_outcome(TH_CRASHED, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, "SIGSEGV at pc 0x");
	assert_contains(ev, " in main addr 0x10");
	run_free(&r);
}

/* pc itself unmapped: the reporter must read no bytes and not fault again. */
static void elf_wild_jump(void **state)
{
	char *argv[] = { (char *)arg(0), g_argc > 1 ? g_argv[1] : "wild-jump", NULL };
	struct run r;
	struct th_trap_line t;
	char ev[256];

	(void)state;
	run_child(&r, "none", 10, argv);
	assert_true(r.obs.signaled);
	assert_int_equal(r.obs.signo, SIGSEGV);
	assert_true(th_find_trap(r.obs.out, &t));
	assert_true(t.pc == 0x10);
	assert_int_equal(t.nbytes, 0);
	assert_contains(r.obs.out, " bytes=?? ");
	assert_outcome(TH_CRASHED, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, "SIGSEGV at pc 0x10 addr 0x10");
	run_free(&r);
}

static void fortify_field_catches(void **state)
{
	char *argv[] = { (char *)arg(0), "field", "40", NULL };
	struct run r;
	char ev[256];

	(void)state;
	run_child(&r, "fortify", 10, argv);
	assert_true(r.obs.signaled);
	assert_int_equal(r.obs.signo, SIGABRT);
	assert_contains(r.obs.err, "fortify: detected field-spanning write (size 40) of single field "
			       "\"victim.name\" at ");
	assert_contains(r.obs.err, "(size 16)");
	assert_outcome(TH_DETECTED, classify(&r.obs, 0, ev, sizeof(ev)));
	run_free(&r);
}

static void fortify_glibc_misses_field(void **state)
{
	char *argv[] = { (char *)arg(0), "field", "40", NULL };
	struct run r;
	char ev[256];

	(void)state;
	run_child(&r, "fortify", 10, argv);
	assert_true(r.obs.exited);
	assert_int_equal(r.obs.exit_code, 0);
	assert_contains(r.obs.out, "TH-LANDED: yes copied 40 bytes");
	assert_contains(r.obs.out, "field check off");
	assert_outcome(TH_NO_EFFECT, classify(&r.obs, 0, ev, sizeof(ev)));
	run_free(&r);
}

/* The same glibc build does check: past the whole object. */
static void fortify_glibc_catches_object(void **state)
{
	char *argv[] = { (char *)arg(0), "object", "100", NULL };
	struct run r;
	char ev[256];

	(void)state;
	run_child(&r, "fortify", 10, argv);
	assert_true(r.obs.signaled);
	assert_int_equal(r.obs.signo, SIGABRT);
	assert_outcome(TH_DETECTED, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, "*** buffer overflow detected ***");
	run_free(&r);
}

/* probe_judge <check> <config> <expect 0|1> <probe>...: expect 1 = at least one
 * probe shows the feature working (randstruct: two seeds), 0 = none does. */
static void probe_judge(void **state)
{
	const char *check = arg(0), *config = arg(1);
	int expect = atoi(arg(2)), any = 0;

	(void)state;
	for (int i = 3; i < g_argc; i++) {
		char *argv[] = { g_argv[i], (char *)check, NULL };
		struct run r;
		char reason[512];
		int ok;

		run_child(&r, config, 20, argv);
		ok = th_probe_judge(check, &r.obs, reason, sizeof(reason));
		print_message("judge %s %s: %d: %s\n", config, check, ok, reason);
		assert_true(reason[0]);
		assert_non_null(strstr(reason, check));
		if (!ok && !strcmp(check, "function") && !expect && !strcmp(config, "fsanitize-function"))
			assert_contains(reason, "inactive in C on clang");
		any |= ok;
		run_free(&r);
	}
	assert_true(g_argc > 3);
	assert_int_equal(any, expect);
}

#define CASE(name) cmocka_unit_test(name)

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
		CASE(parse_trap_line), CASE(parse_trap_line_malformed), CASE(config_table),
		CASE(x86_trap_insn), CASE(classify_target_unchosen), CASE(classify_target_beats_crash),
		CASE(classify_evidence_truncated), CASE(fortify_macro_in_range),
		CASE(fortify_macro_field_overflow),
		cmocka_unit_test_setup_teardown(skip_case, NULL, NULL), CASE(elf_cfi_bad_call),
		CASE(elf_cfi_good_call), CASE(elf_trap_elsewhere), CASE(elf_none_bad_call),
		CASE(elf_segv), CASE(elf_wild_jump), CASE(fortify_field_catches),
		CASE(fortify_glibc_misses_field), CASE(fortify_glibc_catches_object),
		CASE(probe_judge),
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]),
	       NROWS = sizeof(classify_rows) / sizeof(classify_rows[0]) };
	struct CMUnitTest tests[NFIXED + NROWS];
	const char *name;
	int found = 0, failed;

	memcpy(tests, fixed, sizeof(fixed));
	for (size_t i = 0; i < NROWS; i++)
		tests[NFIXED + i] = (struct CMUnitTest){ classify_rows[i].name, classify_row, NULL,
							 NULL, (void *)&classify_rows[i] };
	if (argc < 2) {
		fprintf(stderr, "usage: %s <case>|skip [args...]; cases:\n", argv[0]);
		for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			fprintf(stderr, "  %s\n", tests[i].name);
		return 2;
	}
	name = !strcmp(argv[1], "skip") ? "skip_case" : argv[1];
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		found |= !strcmp(tests[i].name, name);
	if (!found) {
		fprintf(stderr, "%s: no case \"%s\" (run without arguments for the list)\n", argv[0],
			argv[1]);
		return 2;
	}
	g_argc = argc - 2;
	g_argv = argv + 2;
	cmocka_set_test_filter(name);
	failed = cmocka_run_group_tests_name("cfi", tests, NULL, NULL);
	return failed ? 1 : g_skipped ? 77 : 0;
}
