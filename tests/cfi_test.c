/* SPDX-License-Identifier: MIT */
/*
 * Tests of cfi/ and runner/: `th-cfi-test <case> [args...]` runs one cmocka
 * case (one CTest test each, tests/cfi.cmake). Cases on real binaries get
 * their paths as args. `th-cfi-test skip <reason>` and any case calling
 * th_skip() exit 77 (CTest SKIP_RETURN_CODE): what this toolchain cannot build
 * shows as skipped.
 *
 * The forgery cases run tests/cfi_forge.c through the runner and the
 * classifier, as the matrix runs a cell: each forges what a payload could
 * print (a trap line, a CFI diagnostic, " chosen=1", a clean end) or does a
 * real thing the old proofs misnamed (a trap elsewhere, the legitimate
 * callback trapping, a lost timer, a CR4 write without a target).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

/* The field check is tested in this file too, whatever this file's flags:
 * defined before any header of ours, since some include fortify_field.h
 * (cfi/obs_text.h, through cfi/evidence.h), whose guard then keeps the
 * first inclusion's setting. */
#undef TH_FORTIFY_FIELD
#define TH_FORTIFY_FIELD 1
#include "cfi/fortify_field.h"

#include "runner/x86_cr4.h"
#include "binread/binread.h"
#include "cfi/classify.h"
#include "cfi/evidence.h"
#include "cfi/config_table.h"
#include "cfi/probe_judge.h"
#include "runner/child.h"


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

#define assert_outcome(expected, got) \
	assert_string_equal(th_outcome_name(expected), th_outcome_name(got))
#define assert_contains(hay, needle)                                                 \
	do {                                                                         \
		if (!strstr((hay), (needle)))                                        \
			fail_msg("\"%s\" does not contain \"%s\"", (hay), (needle)); \
	} while (0)
#define assert_not_contains(hay, needle)                                             \
	do {                                                                         \
		if (strstr((hay), (needle)))                                         \
			fail_msg("\"%s\" contains \"%s\"", (hay), (needle));         \
	} while (0)

/* ---- running a child ------------------------------------------------------------------ */

struct run {
	struct th_child_obs obs;
	struct th_child child;
};

/* Run argv (NULL-terminated) as the matrix runs a cell (runner/child.h):
 * traced, call_timer_fn watched, the state map read; fill r->obs. */
static void run_traced(struct run *r, const char *config, const char *site, char *const argv[])
{
	const struct th_child_opts o = { .timeout = 20, .trace = true, .site_func = site,
					 .state_map = site && !strcmp(site, TH_CFI_SITE_FUNC) ?
							      TH_STATE_MAP_SYMBOL : NULL };

	memset(r, 0, sizeof(*r));
	/* Deliberate: execv()'s argv type; the strings are not written. */
	if (th_child_run(&r->child, (const char *const *)argv, &o))
		fail_msg("cannot run %s: %s", argv[0], strerror(errno));
	th_child_observe(&r->obs, &r->child, config, "this-toolchain");
	/* Not print_message(): it truncates at 1 KiB. */
	printf("[child %s %s] %s %d, trap %d (%s at 0x%" PRIx64 "), %u dispatches, harness '%s'\n"
	       "--- stdout\n%.3000s\n--- stderr\n%.2000s\n---\n",
	       argv[0], argv[1] ? argv[1] : "", r->obs.signaled ? "signal" : "exit",
	       r->obs.signaled ? r->obs.signo : r->obs.exit_code, r->obs.have_trap,
	       r->obs.have_trap ? (r->obs.trap.sig == SIGILL ? "SIGILL" : "sig") : "-",
	       r->obs.trap.vaddr, r->obs.ndispatch, r->obs.harness_error, r->obs.out, r->obs.err);
	fflush(stdout);
}

static void run_free(struct run *r)
{
	th_child_free(&r->child);
}

static enum th_outcome classify(const struct th_child_obs *o, int control, char *ev, size_t n)
{
	enum th_outcome r = th_classify(o, control, ev, n);

	print_message("%s: %s\n", th_outcome_name(r), ev);
	/* Whatever it decides, in the words the gate holds that outcome's
	 * evidence to (cfi/evidence.h): a sentence changed here without its
	 * form there fails here (a cut evidence aside). */
	if (strlen(ev) + 1 < n && !th_evidence_form_ok(r, TH_EVIDENCE_MODEL, 1, ev))
		fail_msg("%s's evidence is in no form of cfi/evidence.c: %s", th_outcome_name(r), ev);
	return r;
}

/* Run tests/cfi_forge.c in <mode> [arg] under <config>; classify as an attack. */
static enum th_outcome forge(struct run *r, const char *mode, const char *extra, char *ev, size_t n)
{
	char *argv[] = { (char *)arg(0), (char *)mode, (char *)extra, NULL };

	run_traced(r, g_argc > 1 ? arg(1) : "none", TH_CFI_SITE_FUNC, argv);
	return classify(&r->obs, 0, ev, n);
}

/* ---- canned observations -------------------------------------------------------------- */

#define TOK "0123456789abcdef"
#define SAN 99

/* What the runner would have seen of an untraced child: text and exit. */
static struct th_child_obs canned(const char *config, int exited, int code, const char *out,
				  const char *err)
{
	struct th_child_obs o;

	memset(&o, 0, sizeof(o));
	o.config = config;
	o.exited = exited;
	o.exit_code = exited ? code : 0;
	o.signaled = !exited;
	o.signo = exited ? 0 : code;
	o.out = out;
	o.err = err;
	o.out_len = strlen(out);
	o.err_len = strlen(err);
	o.pid = 4242;
	o.san_exitcode = SAN;
	memcpy(o.token, TOK, sizeof(o.token));
	return o;
}

/* The classification the row does not ask for. */
#define NOT_RUN TH_OUTCOME_INVALID

struct classify_row {
	const char *name; /* the case: th-cfi-test <name> */
	const char *config;
	int exited, code; /* exited with code, or killed by signal code */
	const char *out, *err;
	enum th_outcome attack;  /* classified as an attack run: expected outcome, or NOT_RUN */
	enum th_outcome control; /* classified as a control run: expected outcome, or NOT_RUN */
	const char *has[3];	 /* the evidence contains each of these */
	const char *is;		 /* is exactly this (NULL: not checked) */
	const char *lacks;	 /* does not contain this (NULL: not checked) */
};

static const struct classify_row classify_rows[] = {
	/* A fault after the target ran (no check's trap): an oops in the timer
	 * softirq panics, so the attacker keeps nothing: CRASHED, not HIJACKED. */
	{ .name = "classify_fault_after_target", .config = "none", .exited = 0, .code = SIGSEGV,
	  .out = "TH-TARGET: run=" TOK " name=write_cr4 chosen=1 val=0x407f0\n",
	  .err = "", .control = NOT_RUN, .attack = TH_CRASHED,
	  .has = { "target ran: name=write_cr4 chosen=1", "then killed by SIGSEGV",
		   "the kernel does not survive it" } },
	/* ... and ASan's report of that fault (its SEGV handler exits). */
	{ .name = "classify_asan_fault_after_target", .config = "asan", .exited = 1, .code = SAN,
	  .out = "TH-TARGET: run=" TOK " name=process_timeout chosen=1 task=0x1000\n",
	  .err = "==4242==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000004\n",
	  .control = NOT_RUN, .attack = TH_CRASHED,
	  .has = { "then AddressSanitizer: SEGV on unknown address", "name=process_timeout chosen=1" } },
	/* A clean exit after the target: its effect stood. */
	{ .name = "classify_target_then_exit", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-TARGET: run=" TOK " name=process_timeout chosen=1 task=0x1000\n"
		 "TH-DONE: run=" TOK " fired=1\n",
	  .err = "", .control = NOT_RUN, .attack = TH_HIJACKED, .has = { "target ran: name=process_timeout" } },
	{ .name = "classify_target_chosen", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-NOTE: run=" TOK " overwriting\n"
		 "TH-LANDED: run=" TOK " yes function=write_cr4 data=0x407f0\n"
		 "TH-TARGET: run=" TOK " name=write_cr4 chosen=1 cr4=0x407f0 (SMEP, SMAP off)\n"
		 "TH-DONE: run=" TOK " end\n",
	  .err = "", .control = NOT_RUN, .attack = TH_HIJACKED,
	  .has = { "name=write_cr4 chosen=1 cr4=0x407f0", "landed: yes function=write_cr4" } },
	/* The fields in order: chosen=1 elsewhere on the line is not the field. */
	{ .name = "classify_chosen_in_argument", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-TARGET: run=" TOK " name=call_usermodehelper_stub chosen=0 path=\" chosen=1\"\n"
		 "TH-TARGET: run=" TOK " chosen=1 name=write_cr4\n"
		 "TH-DONE: run=" TOK " end\n",
	  .err = "", .control = NOT_RUN, .attack = TH_REDIRECTED, .has = { "name=call_usermodehelper_stub chosen=0" } },
	{ .name = "classify_foreign_token", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-TARGET: run=fedcba9876543210 name=write_cr4 chosen=1 val=0x407f0\n"
		 "TH-TARGET: name=write_cr4 chosen=1 val=0x407f0\n"
		 "TH-LEGIT: run=" TOK " intended=1 on its own ring\n"
		 "TH-DONE: run=" TOK " end\n",
	  .err = "", .control = NOT_RUN, .attack = TH_NO_EFFECT,
	  .has = { "legitimate callback ran", "2 TH- lines without this run's token ignored" } },
	{ .name = "classify_timeout", .config = "none", .exited = 0, .code = SIGKILL,
	  .out = "TH-NOTE: run=" TOK " armed\nTH-NOTE: run=" TOK " waiting for expiry\n", .err = "",
	  .control = NOT_RUN, .attack = TH_HANG, .has = { "waiting for expiry" } },
	{ .name = "classify_asan_overflow", .config = "asan", .exited = 1, .code = SAN,
	  .out = "TH-NOTE: run=" TOK " overflowing\n",
	  .err = "=================================================================\n"
		 "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address "
		 "0x606000000058 at pc 0x55d0 bp 0x7ffc sp 0x7ffc\n"
		 "WRITE of size 40 at 0x606000000058 thread T0\n",
	  .control = NOT_RUN, .attack = TH_DETECTED,
	  .has = { "AddressSanitizer: heap-buffer-overflow on address 0x606000000058",
		   "(WRITE of size 40)" },
	  .lacks = " at pc " },
	/* The same report without the runtime's exit code, or of another pid:
	 * printed by something else. */
	{ .name = "classify_asan_wrong_exit", .config = "asan", .exited = 1, .code = 1,
	  .out = "", .err = "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n",
	  .control = NOT_RUN, .attack = TH_CRASHED, .has = { "exit 1 without TH-DONE" } },
	{ .name = "classify_asan_wrong_pid", .config = "asan", .exited = 1, .code = SAN,
	  .out = "", .err = "==17==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n",
	  .control = NOT_RUN, .attack = TH_CRASHED },
	/* A crash is not a defence: a control run that crashes is not a false positive. */
	{ .name = "classify_asan_segv", .config = "asan", .exited = 1, .code = SAN,
	  .out = "TH-LANDED: run=" TOK " yes\n",
	  .err = "AddressSanitizer:DEADLYSIGNAL\n"
		 "==4242==ERROR: AddressSanitizer: SEGV on unknown address 0x000000407f0\n",
	  .attack = TH_CRASHED, .control = TH_CRASHED },
	{ .name = "classify_ubsan_bounds", .config = "bounds", .exited = 1, .code = SAN,
	  .out = "TH-NOTE: run=" TOK " index write\n",
	  .err = "/work/main/attacks/victim.c:88:19: runtime error: index 24 out of "
		 "bounds for type 'char[16]'\n"
		 "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior\n",
	  .control = NOT_RUN, .attack = TH_DETECTED,
	  .is = "victim.c:88:19: runtime error: index 24 out of bounds for type 'char[16]'" },
	{ .name = "classify_fortify_field", .config = "fortify", .exited = 0, .code = SIGABRT,
	  .out = "TH-NOTE: run=" TOK " memcpy into name\n",
	  .err = "fortify: detected field-spanning write (size 40) of single field "
		 "\"obj->name\" at attacks/victim.c:70 (size 16)\n",
	  .control = NOT_RUN, .attack = TH_DETECTED, .has = { "fortify: detected field-spanning write (size 40)" } },
	{ .name = "classify_glibc_fortify", .config = "fortify", .exited = 0, .code = SIGABRT,
	  .out = "", .err = "*** buffer overflow detected ***: terminated\n",
	  .control = NOT_RUN, .attack = TH_DETECTED, .is = "*** buffer overflow detected ***: terminated" },
	{ .name = "classify_detected_control", .config = "none", .exited = 0, .code = SIGABRT,
	  .out = "", .err = "*** buffer overflow detected ***: terminated\n",
	  .attack = NOT_RUN, .control = TH_FALSE_POSITIVE, .has = { "control run stopped by a memory-safety check" } },
	/* The CFI diagnostic alone proves nothing: not traced, no handler call. */
	{ .name = "classify_cfi_diag_untraced", .config = "cfi-icall-diag", .exited = 1, .code = SAN,
	  .out = "",
	  .err = "/w/timer_core/legacy.c:22:2: runtime error: control flow integrity check for "
		 "type 'void (unsigned long)' failed during indirect function call\n",
	  .attack = TH_CRASHED, .control = TH_CRASHED },
	{ .name = "classify_exit_nonzero", .config = "none", .exited = 1, .code = 3,
	  .out = "TH-NOTE: run=" TOK " trigger\n", .err = "",
	  .control = NOT_RUN, .attack = TH_CRASHED, .has = { "exit 3 without TH-DONE" } },
	{ .name = "classify_exit0_no_done", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-NOTE: run=" TOK " trigger\nTH-DONE: no token\n", .err = "",
	  .control = NOT_RUN, .attack = TH_CRASHED, .has = { "exit 0 without TH-DONE; last: TH-NOTE: run=" TOK " trigger" } },
	{ .name = "classify_done_legit", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-LANDED: run=" TOK " no canary intact\n"
		 "TH-LEGIT: run=" TOK " intended=1 retire_blk_timer on its own ring\n"
		 "TH-DONE: run=" TOK " end\n",
	  .err = "", .attack = TH_NO_EFFECT, .control = TH_NO_EFFECT,
	  .has = { "legitimate callback ran: intended=1 retire_blk_timer on its own ring",
		   "landed: no canary intact" } },
	{ .name = "classify_done_legit_wrong", .config = "none", .exited = 1, .code = 0,
	  .out = "TH-LEGIT: run=" TOK " intended=0 data=0x41 (not a live ring)\nTH-DONE: run=" TOK " end\n",
	  .err = "", .control = NOT_RUN, .attack = TH_NO_EFFECT,
	  .has = { "legitimate callback ran on a corrupted argument", "not a live ring" } },
	{ .name = "classify_done_nonzero_exit", .config = "none", .exited = 1, .code = 23,
	  .out = "TH-LEGIT: run=" TOK " intended=1 x\nTH-DONE: run=" TOK " end\n", .err = "",
	  .control = NOT_RUN, .attack = TH_CRASHED, .has = { "exit 23 after TH-DONE" } },
	/* Robustness: a report line that ends where its kind should be. */
	{ .name = "classify_asan_line_ends", .config = "asan", .exited = 1, .code = SAN,
	  .out = "", .err = "x ERROR: AddressSanitizer: \n==4242==ERROR: AddressSanitizer: ",
	  .attack = TH_CRASHED, .control = TH_CRASHED },
	{ .name = "classify_asan_line_ends_cut", .config = "asan", .exited = 1, .code = SAN,
	  .out = "", .err = "==4242==ERROR: AddressSanitizer: \n",
	  .control = NOT_RUN, .attack = TH_CRASHED },
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
	struct th_child_obs o = canned(c->config, c->exited, c->code, c->out, c->err);
	char ev[512];

	if (!strcmp(c->name, "classify_timeout")) {
		o.timed_out = 1;
		o.seconds = 5.0;
	}
	if (c->attack != NOT_RUN) {
		assert_outcome(c->attack, classify(&o, 0, ev, sizeof(ev)));
		check_evidence(c, ev);
	}
	if (c->control != NOT_RUN) {
		assert_outcome(c->control, classify(&o, 1, ev, sizeof(ev)));
		check_evidence(c, ev);
	}
}

/* ---- the classifier: cases that change the observation between runs ---------------------- */

static void classify_target_unchosen(void **state)
{
	char ev[256];
	struct th_child_obs o = canned("none", 1, 0,
				       "TH-TARGET: run=" TOK " name=write_cr4 chosen=0 cr4=timer address\n"
				       "TH-DONE: run=" TOK " end\n", "");

	(void)state;
	assert_outcome(TH_REDIRECTED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "chosen=0");
	/* Any chosen=1 line decides. */
	o.out = "TH-TARGET: run=" TOK " name=a chosen=0 x\nTH-TARGET: run=" TOK " name=b chosen=1 y\n";
	o.out_len = strlen(o.out);
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "name=b chosen=1 y");
	/* A line cut (no newline: the process died writing it, or the cap) is no line. */
	o.out = "TH-TARGET: run=" TOK " name=b chosen=1";
	o.out_len = strlen(o.out);
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
}

/* A fault after the target ran is an oops after it: the kernel does not
 * survive it, so the run is CRASHED, naming what ran; a hang (the timeout's
 * kill) leaves the target's effect standing. */
static void classify_crash_after_target(void **state)
{
	char ev[256];
	struct th_child_obs o = canned("none", 0, SIGSEGV,
				       "TH-TARGET: run=" TOK " name=write_cr4 chosen=1 cr4=0x407f0\n", "");

	(void)state;
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "target ran: name=write_cr4 chosen=1");
	o.signo = SIGKILL;
	o.timed_out = 1;
	assert_outcome(TH_HIJACKED, classify(&o, 1, ev, sizeof(ev)));
}

/* The CPU's rules for MOV to CR4 (runner/x86_cr4.h, Intel SDM Vol. 3A 2.5). */
static void cr4_gp_rules(void **state)
{
	char why[160];
	int reg = -1;

	(void)state;
	assert_int_equal(th_x86_cr4_gp(0x3407f0, why, sizeof(why)), 0);	/* the boot value */
	assert_int_equal(th_x86_cr4_gp(0x407f0, why, sizeof(why)), 0);		/* CVE-2017-7308's */
	assert_int_equal(th_x86_cr4_gp(0x3407f0 | (1UL << 22), why, sizeof(why)), 0);	/* PKE */
	assert_int_equal(th_x86_cr4_gp(0x55d0c0a8e000UL, why, sizeof(why)), 1);	/* an address */
	assert_contains(why, "reserved bits 63:32 set (0x55d000000000)");
	assert_int_equal(th_x86_cr4_gp((1UL << 32) | 0x407f0, why, sizeof(why)), 1);
	assert_int_equal(th_x86_cr4_gp(0x347872, why, sizeof(why)), 1);		/* UMIP, LA57 */
	assert_contains(why, "reserved bits 0x1800 set");
	assert_int_equal(th_x86_cr4_gp(0x3407f0 | (1UL << 15), why, sizeof(why)), 1);
	assert_int_equal(th_x86_cr4_gp(0x3407f0 | (1UL << 23), why, sizeof(why)), 1);	/* CET */
	assert_int_equal(th_x86_cr4_gp(0x3407d0, why, sizeof(why)), 1);		/* PAE clear */
	assert_contains(why, "CR4.PAE clear");
	assert_int_equal(th_x86_cr4_gp(0, NULL, 0), 1);
	/* The instruction: 0F 22 /4, REX.B extends r/m, REX.R would be CR12. */
	assert_int_equal(th_x86_mov_to_cr4((const unsigned char *)"\x0f\x22\xe3", 3, &reg), 3);
	assert_int_equal(reg, TH_RBX);
	assert_int_equal(th_x86_mov_to_cr4((const unsigned char *)"\x41\x0f\x22\xe0", 4, &reg), 4);
	assert_int_equal(reg, TH_R8);
	assert_int_equal(th_x86_mov_to_cr4((const unsigned char *)"\x44\x0f\x22\xe0", 4, &reg), 0);
	assert_int_equal(th_x86_mov_to_cr4((const unsigned char *)"\x0f\x22\xd8", 3, &reg), 0);	/* CR3 */
	assert_int_equal(th_x86_mov_to_cr4((const unsigned char *)"\x0f\x20\xe0", 3, &reg), 0);	/* from CR4 */
	assert_int_equal(th_x86_mov_to_cr4((const unsigned char *)"\x0f\x22", 2, &reg), 0);
}

/* A SIGSEGV the kernel raised for #GP at the victim's MOV to CR4: CRASHED,
 * the value read from the instruction's source register, the rule named. */
static void classify_gp_mov_cr4(void **state)
{
	char ev[512];
	struct th_child_obs o = canned("none", 0, SIGSEGV,
				       "TH-LANDED: run=" TOK " yes function ok (0x5555 write_cr4); changed: function\n",
				       "");

	(void)state;
	o.binary = "/nonexistent/th-attack";
	o.have_trap = 1;
	o.trap.sig = SIGSEGV;
	o.trap.code = SI_KERNEL;
	o.trap.pc = 0x55d0c0a8b9dd;
	o.trap.file_bytes_match = 1;
	memcpy(o.trap.bytes, "\x0f\x22\xe3\x0f\x0b\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90", 16);
	o.trap.nbytes = 16;
	o.trap.regs[TH_RBX] = 0x55d0c0a8e000UL;
	o.state_read = 1;
	o.nstate = 1;
	o.state[0] = (struct th_state_obs){ "cpu_regs", "cr4", 0x3407f0, 0x3407f0 };
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "#GP(0) at pc 0x55d0c0a8b9dd");
	assert_contains(ev, "mov %rbx,%cr4 of 0x55d0c0a8e000, reserved bits 63:32 set");
	assert_contains(ev, "CR4 unchanged");
	/* PAE cleared, through r8. */
	memcpy(o.trap.bytes, "\x41\x0f\x22\xe0", 4);
	o.trap.regs[TH_R8] = 0x3407d0;
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "mov %r8,%cr4 of 0x3407d0, CR4.PAE clear");
	/* Not the binary's bytes, or not the kernel's #GP: no such claim. */
	o.trap.file_bytes_match = 0;
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_not_contains(ev, "#GP");
	o.trap.file_bytes_match = 1;
	o.trap.code = SI_USER;
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_not_contains(ev, "#GP");
	/* Another instruction faulting: the plain SIGSEGV. */
	o.trap.code = SI_KERNEL;
	memcpy(o.trap.bytes, "\x48\x89\x18\x90", 4);
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "SIGSEGV at pc 0x55d0c0a8b9dd");
	/* A value the CPU loads, faulting anyway: the mov ran outside the model's check. */
	memcpy(o.trap.bytes, "\x0f\x22\xe3", 3);
	o.trap.regs[TH_RBX] = 0x407f0;
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "a value the CPU loads");
	/* CR4 read at exit changed, then the fault: an oops after the write,
	 * which the kernel does not survive. */
	o.state[0].after = 0x407f0;
	assert_outcome(TH_CRASHED, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "privileged state changed at exit: cpu_regs.cr4 0x3407f0 -> 0x407f0; then #GP(0)");
}

/* The privileged state read at exit decides over what the child said. */
static void classify_privileged_state(void **state)
{
	char ev[512];
	struct th_child_obs o = canned("none", 1, 0,
				       "TH-TARGET: run=" TOK " name=commit_creds_stub chosen=0 uid=0\n"
				       "TH-DONE: run=" TOK " uid=1000 cr4=0x3407f0\n", "");

	(void)state;
	o.state_read = 1;
	o.nstate = 2;
	o.state[0] = (struct th_state_obs){ "sim_cpu", "cr4", 0x3407f0, 0x3407f0 };
	o.state[1] = (struct th_state_obs){ "current_cred", "uid", 1000, 0 };
	assert_outcome(TH_PRIVILEGED_WRITE, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "current_cred.uid 0x3e8 -> 0x0");
	assert_contains(ev, "name=commit_creds_stub chosen=0");
	/* A chosen call is worse. */
	o.out = "TH-TARGET: run=" TOK " name=commit_creds_stub chosen=1 uid=0\n";
	o.out_len = strlen(o.out);
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	/* Unchanged state: what the child says decides. */
	o.state[1].after = 1000;
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	o.out = "TH-TARGET: run=" TOK " name=commit_creds_stub chosen=0 uid=0\n";
	o.out_len = strlen(o.out);
	assert_outcome(TH_REDIRECTED, classify(&o, 0, ev, sizeof(ev)));
}

static void classify_harness_error(void **state)
{
	char ev[512];
	struct th_child_obs o = canned("none", 1, 0, "TH-DONE: run=" TOK " x\n", "");

	(void)state;
	snprintf(o.harness_error, sizeof(o.harness_error), "exec /x/th-attack: No such file or directory");
	assert_outcome(TH_HARNESS_ERROR, classify(&o, 0, ev, sizeof(ev)));
	assert_contains(ev, "No such file");
}

static void classify_evidence_truncated(void **state)
{
	char ev[24];
	struct th_child_obs o = canned("none", 1, 0,
				       "TH-TARGET: run=" TOK " name=write_cr4 chosen=1 a very long detail\n", "");

	(void)state;
	assert_outcome(TH_HIJACKED, classify(&o, 0, ev, sizeof(ev)));
	assert_int_equal(strlen(ev), sizeof(ev) - 1);
	assert_string_equal(ev + sizeof(ev) - 4, "...");
}

/*
 * Fuzz-style: random and mutated output never crashes the classifier, and the
 * evidence is one NUL-terminated line of printable bytes. The seed is logged;
 * TH_SEED in the environment replays one.
 */
static void classify_fuzz(void **state)
{
	static const char *const pieces[] = {
		"TH-TARGET: run=" TOK " name=", "chosen=1", "chosen=", " ", "\n", "\r\n", "\0",
		"TH-LEGIT: run=" TOK " intended=", "TH-DONE: run=" TOK, "TH-LANDED: run=" TOK " ",
		"==4242==ERROR: AddressSanitizer: ", "ERROR: AddressSanitizer: ",
		": runtime error: ", "index ", " out of bounds for type ", "WRITE of size ", " at ",
		TH_FORTIFY_FIELD_REPORT, "*** buffer overflow detected ***", "TH-", "run=", TOK,
		"\xff\xfe", "\x1b[31m", ":1:2: runtime error: control flow integrity check for type",
	};
	const char *env = getenv("TH_SEED");
	unsigned seed = env ? (unsigned)strtoul(env, NULL, 0) : (unsigned)time(NULL);
	static char out[1 << 14], err[1 << 14];
	char ev[256];

	(void)state;
	print_message("classify_fuzz: TH_SEED=%u\n", seed);
	srand(seed);
	for (int iter = 0; iter < 20000; iter++) {
		size_t lens[2] = { 0, 0 };
		char *bufs[2] = { out, err };
		struct th_child_obs o;

		for (int k = 0; k < 2; k++) {
			int parts = rand() % 24;

			for (int p = 0; p < parts; p++) {
				size_t room = sizeof(out) - 1 - lens[k], n;

				if (rand() % 3) {
					const char *s = pieces[rand() % (sizeof(pieces) / sizeof(pieces[0]))];

					n = s[0] ? strlen(s) : 1;
					if (n > room)
						break;
					memcpy(bufs[k] + lens[k], s, n);
				} else {
					n = (size_t)(rand() % 64);
					if (n > room)
						break;
					for (size_t i = 0; i < n; i++)
						bufs[k][lens[k] + i] = (char)(rand() % 256);
				}
				lens[k] += n;
			}
			bufs[k][lens[k]] = '\0';
		}
		o = canned(rand() % 2 ? "asan" : "none", rand() % 2, rand() % 2 ? SAN : rand() % 130,
			   out, err);
		o.out_len = lens[0];
		o.err_len = lens[1];
		o.timed_out = rand() % 16 == 0;
		{
			enum th_outcome r = th_classify(&o, rand() % 2, ev, 1 + (size_t)(rand() % (int)sizeof(ev)));

			assert_true(r >= 0 && r < TH_OUTCOME_COUNT);
			for (const char *p = ev; *p; p++)
				if ((unsigned char)*p < 0x20 || *p == 0x7f)
					fail_msg("seed %u, iteration %d: control byte 0x%02x in the evidence",
						 seed, iter, (unsigned char)*p);
		}
	}
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

static void config_table(void **state)
{
	const struct th_config_info *c;

	(void)state;
	/* The rows as configs.tsv has them: the baseline first, each name once,
	 * each scheme the one its flags build (the column is what every reader
	 * asks, the flags what the compiler is given). */
	assert_true(th_config_count > 0);
	assert_string_equal(th_configs[0].name, "none");
	for (size_t i = 0; i < th_config_count; i++) {
		const struct th_config_info *r = &th_configs[i];
		const char *flag = !strcmp(r->scheme, "cfi-icall") ? "-fsanitize=cfi-icall" :
				   !strcmp(r->scheme, "kcfi")      ? "-fsanitize=kcfi" :
				   !strcmp(r->scheme, "function")  ? "-fsanitize=function" : NULL;

		assert_ptr_equal(th_config_find(r->name), r);
		assert_true(flag || !strcmp(r->scheme, "none"));
		assert_int_equal(th_config_type_cfi(r), flag != NULL);
		if (flag)
			assert_true(th_config_has_cflag(r, flag));
		else
			assert_false(th_config_has_cflag(r, "-fsanitize=cfi-icall") ||
				     th_config_has_cflag(r, "-fsanitize=kcfi") ||
				     th_config_has_cflag(r, "-fsanitize=function"));
	}
	assert_true(th_config_type_cfi_alone(th_config_find("cfi-icall")));
	assert_true(th_config_type_cfi_alone(th_config_find("kcfi")));
	assert_false(th_config_type_cfi_alone(th_config_find("defence-in-depth")));
	assert_false(th_config_type_cfi_alone(th_config_find("none")));
	assert_false(th_config_type_cfi(NULL));
	c = th_config_find("defence-in-depth");
	assert_non_null(c);
	assert_true(th_config_has_probe(c, "cfi"));
	assert_true(th_config_has_probe(c, "bounds"));
	assert_true(th_config_has_probe(c, "fortify"));
	assert_false(th_config_has_probe(c, "for"));
	/* Generalisation has a probe of its own, beside the non-pointer trap. */
	assert_true(th_config_has_probe(th_config_find("cfi-icall-generalized"), "cfi"));
	assert_true(th_config_has_probe(th_config_find("cfi-icall-generalized"), "cfi-generalized"));
	assert_false(th_config_has_probe(th_config_find("cfi-icall"), "cfi-generalized"));
	assert_true(th_config_cfi_icall_trap_mode(c));
	assert_false(th_config_cfi_icall_trap_mode(th_config_find("cfi-icall-diag")));
	assert_false(th_config_cfi_icall_trap_mode(th_config_find("kcfi")));
	assert_false(th_config_cfi_icall_trap_mode(NULL));
	assert_true(th_config_has_cflag(th_config_find("fsanitize-function"), "-fsanitize=function"));
	assert_false(th_config_has_cflag(th_config_find("fsanitize-function"), "-fsanitize=func"));
	assert_false(th_config_has_cflag(NULL, "-O2"));
	assert_null(th_config_find("cfi"));
	assert_false(th_config_has_probe(th_config_find("none"), "cfi"));
	/* The verdict card's configs: the rows whose card column says so, in
	 * table order, each type-based CFI (configs.cmake refuses the rest). */
	{
		const struct th_config_info *card[64];
		size_t n = th_configs_on_card(card, 64), seen = 0;

		assert_true(n >= 1 && n <= 64);
		assert_int_equal(th_configs_on_card(NULL, 0), n);
		for (size_t i = 0; i < th_config_count; i++) {
			const struct th_config_info *r = &th_configs[i];

			if (!th_config_on_card(r)) {
				assert_string_equal(r->card, "");
				continue;
			}
			assert_string_equal(r->card, "card");
			assert_true(th_config_type_cfi(r));
			assert_ptr_equal(card[seen], r);
			seen++;
		}
		assert_int_equal(seen, n);
		assert_false(th_config_on_card(NULL));
	}
}

/* ---- real children: the forgeries ------------------------------------------------------ */

static void skip_case(void **state)
{
	(void)state;
	th_skip("%s", arg(0));
}

/* Not forged: a real check of the dispatch stops a wrong-type target. */
static void forge_bad_call(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_BLOCKED_CFI, forge(&r, "bad-call", NULL, ev, sizeof(ev)));
	assert_contains(ev, "call_timer_fn");
	assert_contains(ev, "call target forge_commit_creds");
	assert_true(r.obs.traced);
	assert_int_equal(r.obs.ndispatch, 1);
	assert_true(r.obs.dispatch[0].known);
	assert_int_equal(r.obs.dispatch[0].admits, 0);
	assert_outcome(TH_FALSE_POSITIVE, classify(&r.obs, 1, ev, sizeof(ev)));
	run_free(&r);
}

/* The check that stopped the legitimate callback stopped no attack. */
static void forge_legit_trap(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_FALSE_POSITIVE, forge(&r, "legit-trap", NULL, ev, sizeof(ev)));
	assert_contains(ev, "CFI stopped the legitimate callback");
	assert_contains(ev, "call target prb_retire_rx_blk_timer_expired");
	run_free(&r);
}

static void forge_legit(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_NO_EFFECT, forge(&r, "legit", NULL, ev, sizeof(ev)));
	assert_contains(ev, "legitimate callback ran");
	assert_int_equal(r.obs.ndispatch, 1);
	assert_true(r.obs.state_read);
	run_free(&r);
}

/* A TH-TRAP line for a real check's address, then raise(SIGILL): no trap
 * the kernel raised, so nothing to prove. */
static void forge_fake_trap_line(void **state)
{
	struct th_bin *b;
	const struct th_func_sites *fs;
	char err[256], vaddr[32], ev[512];
	struct run r;

	(void)state;
	assert_int_equal(th_bin_open(arg(0), &b, err, sizeof(err)), 0);
	fs = th_bin_call_sites(b, TH_CFI_SITE_FUNC, err, sizeof(err));
	assert_non_null(fs);
	assert_true(fs->nsites == 1 && fs->sites[0].nguards >= 1);
	snprintf(vaddr, sizeof(vaddr), "0x%" PRIx64, fs->sites[0].guards[0].addr);
	th_bin_close(b);
	assert_outcome(TH_CRASHED, forge(&r, "fake-trap-line", vaddr, ev, sizeof(ev)));
	assert_true(r.obs.signaled && r.obs.signo == SIGILL);
	assert_false(r.obs.have_trap); /* raise(3) is not a trap */
	assert_contains(r.obs.out, "TH-TRAP: run=");
	assert_contains(ev, "killed by SIGILL");
	run_free(&r);
}

/* The diagnostic text on stderr, from a build with no CFI runtime. */
static void forge_fake_diag(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_NO_EFFECT, forge(&r, "fake-diag", NULL, ev, sizeof(ev)));
	assert_contains(r.obs.err, "control flow integrity check");
	run_free(&r);
}

static void forge_fake_chosen(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_REDIRECTED, forge(&r, "fake-chosen", NULL, ev, sizeof(ev)));
	assert_contains(ev, "chosen=0");
	run_free(&r);
}

static void forge_fake_token(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_NO_EFFECT, forge(&r, "fake-token", NULL, ev, sizeof(ev)));
	assert_contains(ev, "1 TH- lines without this run's token ignored");
	run_free(&r);
}

static void forge_nul_line(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_NO_EFFECT, forge(&r, "nul-line", NULL, ev, sizeof(ev)));
	run_free(&r);
}

static void forge_fake_asan(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_CRASHED, forge(&r, "fake-asan", NULL, ev, sizeof(ev)));
	assert_contains(ev, "exit 1 without TH-DONE");
	run_free(&r);
}

static void forge_asan_cut(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_CRASHED, forge(&r, "asan-cut", NULL, ev, sizeof(ev)));
	assert_int_equal(r.obs.exit_code, r.obs.san_exitcode);
	run_free(&r);
}

static void forge_huge(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_NO_EFFECT, forge(&r, "huge", NULL, ev, sizeof(ev)));
	assert_true(r.obs.out_cut);
	assert_true(r.obs.err_cut);
	assert_int_equal(r.obs.out_len, TH_CHILD_OUT_CAP);
	run_free(&r);
}

/* ud2 in a function whose name contains call_timer_fn: not the dispatch. */
static void forge_trap_elsewhere(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_CRASHED, forge(&r, "trap-elsewhere", NULL, ev, sizeof(ev)));
	assert_true(r.obs.have_trap);
	/* A ud2 no check guards: the program's own BUG(), named as such. */
	assert_contains(ev, "ud2 at pc");
	assert_contains(ev, "(call_timer_fn_prepare");
	assert_contains(ev, "not a check guarding call_timer_fn's indirect call: a BUG()");
	run_free(&r);
}

/* A real CFI check of another function (kcfi: a .kcfi_traps entry). */
static void forge_cfi_elsewhere(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_CRASHED, forge(&r, "cfi-elsewhere", NULL, ev, sizeof(ev)));
	if (r.obs.have_trap) {
		char err[256];
		struct th_bin *b = th_bin_cached(arg(0), err, sizeof(err));

		assert_non_null(b);
		if (!strcmp(arg(1), "kcfi"))
			assert_true(th_bin_is_kcfi_trap(b, r.obs.trap.vaddr));
		assert_contains(ev, "in other_dispatch: not a check guarding call_timer_fn");
	} else {
		/* diag mode: the runtime reported a check elsewhere and exited. */
		assert_int_equal(r.obs.exit_code, r.obs.san_exitcode);
		assert_contains(r.obs.err, "runtime error: control flow integrity check");
		assert_false(r.obs.handler_hit);
	}
	run_free(&r);
}

static void forge_lost_timer(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_TIMER_LOST, forge(&r, "lost-timer", NULL, ev, sizeof(ev)));
	assert_int_equal(r.obs.ndispatch, 0);
	assert_contains(ev, "call_timer_fn was never entered");
	run_free(&r);
}

static void forge_cr4_write(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_PRIVILEGED_WRITE, forge(&r, "cr4-write", NULL, ev, sizeof(ev)));
	assert_contains(ev, "sim_cpu.cr4 0x3407f0 -> 0x407f0");
	run_free(&r);
}

static void forge_segv(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_CRASHED, forge(&r, "segv", NULL, ev, sizeof(ev)));
	assert_true(r.obs.have_trap);
	assert_int_equal(r.obs.trap.sig, SIGSEGV);
	assert_true(r.obs.trap.addr == 0x10);
	assert_true(r.obs.trap.nbytes > 0); /* pc is in .text */
	assert_int_equal(r.obs.trap.file_bytes_match, 1);
	assert_contains(ev, "SIGSEGV at pc 0x");
	/* The in-process reporter still speaks for a person reading the output. */
	assert_contains(r.obs.out, "TH-TRAP: run=");
	assert_contains(r.obs.out, " name=SIGSEGV ");
	run_free(&r);
}

/* pc itself unmapped: no bytes, no second fault. */
static void forge_wild_jump(void **state)
{
	struct run r;
	char ev[512];

	(void)state;
	assert_outcome(TH_CRASHED, forge(&r, "wild-jump", NULL, ev, sizeof(ev)));
	assert_true(r.obs.have_trap);
	assert_true(r.obs.trap.pc == 0x10);
	assert_int_equal(r.obs.trap.nbytes, 0);
	assert_int_equal(r.obs.ndispatch, 1);
	assert_true(r.obs.dispatch[0].target == 0x10);
	assert_contains(ev, "SIGSEGV at pc 0x10");
	assert_contains(r.obs.out, " bytes=?? ");
	run_free(&r);
}

/*
 * The reader against the binary's behaviour: every attack of an attack binary,
 * run traced; at each entry into call_timer_fn the runner evaluates the check
 * the reader decoded on the live target (th_site_admits, the process's own
 * memory for kcfi's and the function sanitizer's loads). It must say "fails"
 * exactly when the run then stopped at one of that check's guards.
 */
static void reader_agrees(void **state)
{
	const char *bin = arg(0);
	char *list_argv[] = { (char *)bin, "--list", NULL };
	struct run l;
	char *ids, *save = NULL;
	int checked = 0;

	(void)state;
	run_traced(&l, "-", NULL, list_argv);
	ids = strdup(l.obs.out);
	run_free(&l);
	assert_non_null(ids);
	for (char *line = strtok_r(ids, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char id[128], ok[8];
		char *argv[] = { (char *)bin, "--run", id, NULL };
		struct run r;
		int stopped;

		if (sscanf(line, "%127[^\t]\t%*[^\t]\t%*[^\t]\t%*[^\t]\t%7[^\t]", id, ok) != 2 ||
		    strcmp(ok, "ok"))
			continue;
		run_traced(&r, "-", TH_CFI_SITE_FUNC, argv);
		stopped = (r.obs.have_trap && r.obs.trap.guard >= 0) || r.obs.handler_hit;
		/* Every dispatch of the run (list:forged-timer's expiry calls the
		 * ring's callback, then the forged timer's): each one the check
		 * admits goes on; the first it rejects must be the last, and the
		 * run stops there; a run whose checks all admit does not stop. */
		if (r.obs.ndispatch && r.obs.ndispatch <= TH_CHILD_MAX_DISPATCH) {
			unsigned n = r.obs.ndispatch, known = 1, fails = n;

			for (unsigned d = 0; d < n && known; d++) {
				known = r.obs.dispatch[d].known;
				if (known && r.obs.dispatch[d].admits < 0)
					fail_msg("%s %s: dispatch %u: the check could not be evaluated on 0x%" PRIx64,
						 bin, id, d, r.obs.dispatch[d].target);
				if (known && !r.obs.dispatch[d].admits && fails == n)
					fails = d;
			}
			if (known) {
				if ((fails < n) != stopped || (fails < n && fails != n - 1))
					fail_msg("%s %s: the check rejects dispatch %u of %u (target 0x%" PRIx64
						 "), but the run %s at a guard", bin, id, fails, n,
						 r.obs.dispatch[fails < n ? fails : n - 1].target,
						 stopped ? "stopped" : "did not stop");
				checked++;
			}
		}
		run_free(&r);
	}
	free(ids);
	print_message("%s: %d dispatches, check and behaviour agree\n", bin, checked);
	assert_true(checked > 10);
}

/* A program that cannot be run is the harness's failure, not a crash. */
static void runner_exec_fails(void **state)
{
	char *argv[] = { "/nonexistent/th-attack", "--run", "X", NULL };
	struct run r;
	char ev[512];

	(void)state;
	run_traced(&r, "none", TH_CFI_SITE_FUNC, argv);
	assert_outcome(TH_HARNESS_ERROR, classify(&r.obs, 0, ev, sizeof(ev)));
	assert_contains(ev, "/nonexistent/th-attack");
	run_free(&r);
	{
		const struct th_child_opts o = { .timeout = 5 };

		assert_int_equal(th_child_run(&r.child, (const char *const *)argv, &o), 0);
		th_child_observe(&r.obs, &r.child, "none", NULL);
		assert_outcome(TH_HARNESS_ERROR, classify(&r.obs, 0, ev, sizeof(ev)));
		run_free(&r);
	}
}

/* Where ptrace is denied (a container's seccomp profile, Yama's
 * ptrace_scope 3), no cell is judged from its output alone: each is a
 * harness error saying so. Here: a seccomp filter in a helper process. */
static void runner_ptrace_denied(void **state)
{
	int status, p[2];
	pid_t pid;
	char ev[512] = "";

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sock_filter filter[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };
		char *argv[] = { "/bin/true", NULL };
		struct run r;
		enum th_outcome o;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
			_exit(4);
		run_traced(&r, "none", TH_CFI_SITE_FUNC, argv);
		o = th_classify(&r.obs, 0, ev, sizeof(ev));
		if (write(p[1], ev, strlen(ev)) < 0)
			_exit(5);
		_exit(o == TH_HARNESS_ERROR ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], ev, sizeof(ev) - 1) < 0)
		ev[0] = 0;
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	print_message("%s\n", ev);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_contains(ev, "never traced");
	assert_contains(ev, "PTRACE_TRACEME");
}

/* The pump sleeps until something happens, never a fixed slice: a child
 * that closes its output and then lives on for 300 ms costs a handful of
 * wake-ups (the pipes' ends, its exit; traced: its execs and exit stop, each
 * maybe with one spurious wake-up of the SIGCHLD pipe), not
 * one every 20 ms (counted, not timed). */
static void runner_no_idle(void **state)
{
	char *argv[] = { "/bin/sh", "-c", "exec >&- 2>&-; exec sleep 0.3", NULL };

	(void)state;
	for (int trace = 0; trace < 2; trace++) {
		const struct th_child_opts o = { .timeout = 10, .trace = trace };
		struct th_child c;
		int pumps = 0;

		assert_int_equal(th_child_spawn(&c, (const char *const *)argv, &o), 0);
		while (!th_child_done(&c)) {
			th_child_pump(&c, 1);
			pumps++;
		}
		print_message("%s: done after %d wake-ups\n", trace ? "traced" : "untraced", pumps);
		assert_true(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
		/* 20 ms slices would be >= 15. */
		assert_true(pumps <= (trace ? 12 : 6));
		th_child_free(&c);
	}
}

static void fortify_field_catches(void **state)
{
	char *argv[] = { (char *)arg(0), "field", "40", NULL };
	struct run r;
	char ev[256];

	(void)state;
	run_traced(&r, "fortify", NULL, argv);
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
	run_traced(&r, "fortify", NULL, argv);
	assert_true(r.obs.exited);
	assert_int_equal(r.obs.exit_code, 0);
	assert_contains(r.obs.out, " yes copied 40 bytes");
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
	run_traced(&r, "fortify", NULL, argv);
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

		run_traced(&r, config, TH_PROBE_SITE_FUNC, argv);
		ok = th_probe_judge(check, &r.obs, reason, sizeof(reason));
		print_message("judge %s %s: %d: %s\n", config, check, ok, reason);
		assert_true(reason[0]);
		assert_non_null(strstr(reason, check));
		/* A gap names the toolchain probed, not the judge's own compiler. */
		if (!ok && !strcmp(check, "function") && !expect && !strcmp(config, "fsanitize-function"))
			assert_contains(reason, "not stopped by this-toolchain's build");
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
		CASE(config_table), CASE(classify_target_unchosen), CASE(classify_crash_after_target),
		CASE(classify_privileged_state), CASE(classify_harness_error),
		CASE(cr4_gp_rules), CASE(classify_gp_mov_cr4),
		CASE(classify_evidence_truncated), CASE(classify_fuzz), CASE(fortify_macro_in_range),
		CASE(fortify_macro_field_overflow),
		cmocka_unit_test_setup_teardown(skip_case, NULL, NULL),
		CASE(forge_bad_call), CASE(forge_legit_trap), CASE(forge_legit),
		CASE(forge_fake_trap_line), CASE(forge_fake_diag), CASE(forge_fake_chosen),
		CASE(forge_fake_token), CASE(forge_nul_line), CASE(forge_fake_asan),
		CASE(forge_asan_cut), CASE(forge_huge), CASE(forge_trap_elsewhere),
		CASE(forge_cfi_elsewhere), CASE(forge_lost_timer), CASE(forge_cr4_write),
		CASE(forge_segv), CASE(forge_wild_jump), CASE(reader_agrees), CASE(runner_exec_fails), CASE(runner_ptrace_denied), CASE(runner_no_idle),
		CASE(fortify_field_catches), CASE(fortify_glibc_misses_field),
		CASE(fortify_glibc_catches_object), CASE(probe_judge),
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
	if (argc >= 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s <case>|skip|--list [args...]\n", argv[0]);
		return 2;
	}
	name = !strcmp(argv[1], "skip") ? "skip_case" : argv[1];
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		found |= !strcmp(tests[i].name, name);
	if (!found) {
		fprintf(stderr, "%s: no case \"%s\" (--list shows them)\n", argv[0], argv[1]);
		return 2;
	}
	g_argc = argc - 2;
	g_argv = argv + 2;
	cmocka_set_test_filter(name);
	failed = cmocka_run_group_tests_name("cfi", tests, NULL, NULL);
	return failed ? 1 : g_skipped ? 77 : 0;
}
