/* SPDX-License-Identifier: MIT */
/*
 * The words of each proof: the formats the classifiers print a cell's
 * evidence with (the model's, cfi/classify.c; a real kernel's console,
 * kernel/console.c), one macro per form, and th_evidence_forms[], the
 * forms each outcome's evidence may take, built from the same macros. The
 * gate (report/check.c) holds a cell's evidence to its outcome's forms:
 * a cell that claims HIJACKED must say what the classifier says of a
 * hijack ("target ran: name=write_cr4 chosen=1 ..."), one that claims
 * BLOCKED_CFI the trap or the runtime's diagnostic at the dispatch's
 * check. A classifier that changes its words changes them here, and the
 * gate follows: the two cannot drift.
 *
 * A form is a printf format as the classifier passes it; it matches the
 * start of the evidence (what the classifier adds after it, "; landed:
 * ...", a kernel cell's "; console: PATH", is not held), each %s one or
 * more characters (consecutive ones one run), %u/%d digits, %x hex digits,
 * %f a decimal number, any precision or length as printf reads it.
 */
#ifndef TH_CFI_EVIDENCE_H
#define TH_CFI_EVIDENCE_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>

#include "results/outcome.h"
#include "obs_text.h"

/* ---- the model's classifier (cfi/classify.c) ---------------------------------------- */

/* The protocol's target line, TH-TARGET: run=T name=<fn> chosen=<0|1> ... */
#define TH_PROTO_TARGET_NAME "name="
#define TH_PROTO_TARGET_CHOSEN " chosen="
/* A target ran: the rest of its TH-TARGET line (name=... chosen=...). */
#define TH_EV_TARGET_RAN "target ran: "
/* The privileged state at exit against the binary's initial values: one
 * change each, ", " between them. */
#define TH_EV_PRIV_CHANGED "privileged state changed at exit: "
#define TH_EV_STATE_CHANGE "%s.%s 0x%" PRIx64 " -> 0x%" PRIx64
/* A soft lockup the runner proved; a run that never exited. */
#define TH_EV_LOCKUP "soft lockup: spinning in %s (%s) after %.1f s: "
#define TH_EV_NO_EXIT "no exit after %.1f s; last: "
/* A CFI check's trap at the dispatch's call site (th_cfi_prove()). */
#define TH_EV_CFI_TRAP "%s %s at 0x%" PRIx64 " guarding %s's call at 0x%" PRIx64 " (%s%s), call target %s"
/* A sanitizer runtime's diagnostic at a guard's source location, the
 * file's base name onwards (th_diag_at()), and where the check was. */
#define TH_EV_DIAG_LOC "%s:%u:%u" TH_REPORT_RUNTIME_ERROR
#define TH_EV_CFI_DIAG_AT " (%s's check at 0x%" PRIx64 ", call target %s)"
/* The check stopped the victim's own callback; a control run stopped. */
#define TH_EV_CFI_LEGIT "CFI stopped the legitimate callback: "
#define TH_EV_CONTROL_CFI "control run stopped by CFI: "
#define TH_EV_CONTROL_MEM "control run stopped by a memory-safety check: "
/* A memory-safety report (memory_report()). */
#define TH_EV_ASAN "AddressSanitizer: "
/* The dispatch function never entered. */
#define TH_EV_TIMER_LOST "finished, and %s was never entered: the timer never fired (%s)"
/* A randstruct cell's evidence: of its first most severe run, by seed
 * (loops/matrix.c). */
#define TH_EV_SEED "seed %s: "

/* ---- a real kernel's console (kernel/console.c) ------------------------------------- */

/* The kernel's own CFI report (report_cfi_failure(), kernel/cfi.c), verbatim. */
#define TH_KEV_CFI_FAILURE "CFI failure at "
#define TH_KEV_CFI_TARGET "(target: "
#define TH_KEV_KCFI_CONTROL "control run, yet kCFI stopped a call: "
#define TH_KEV_KCFI_LEGIT "kCFI stopped the legitimate call: "
#define TH_KEV_FINEIBT "FineIBT, which reports at the callee's preamble, stopped %.60s's call to %.100s: %.300s"
#define TH_KEV_FINEIBT_POISONED "FineIBT, which reports at the callee's preamble, stopped %.60s's call to %.100s at its poisoned preamble (a sealed function: no \"CFI failure\" line): %.300s"
#define TH_KEV_IBT "IBT, which reports where the call lands, stopped %.60s's call to %.100s: %.200s, then: %.200s"
#define TH_KEV_CRED "no call redirected; the wheel's own list code wrote the cred: %.200s"
#define TH_KEV_WOKE "%.60s called %.100s, which woke the task the attacker wrote after the timer: %.200s"
#define TH_KEV_RETURNED "%.60s called %.100s with the timer, and it returned"
#define TH_KEV_OWN_CHECK "%.60s called %.100s with the timer; CFI then stopped the target's own indirect call: %.250s"
#define TH_KEV_NEVER_RETURNED "%.60s called %.100s, which never returned: no line, oops or panic from the kernel after it"
#define TH_KEV_TIMER_LOST "the timer left the wheel without a call: %.200s"
/* A tasklet's call (tasklet_action_common()): its legacy branch, func(data)
 * with the data the write set; its callback branch, callback(t); func(data)
 * with data the write did not leave. */
#define TH_KEV_TASKLET_ARG "%.60s called %.100s with the attacker's argument %.30s (func(data): use_callback 0)"
#define TH_KEV_TASKLET_CALLBACK "%.60s called %.100s with the tasklet (callback(t)), and it returned"
#define TH_KEV_TASKLET_OTHER_DATA "%.60s called %.100s with data the write did not leave (func(data)), and it returned"
/* What the kernel leg adds: the console log the cell was judged from
 * (loops/kernel_leg.c). */
#define TH_KEV_CONSOLE "; console: "

/* ---- the forms ----------------------------------------------------------------------- */

enum th_evidence_source {
	TH_EVIDENCE_MODEL,	/* cfi/classify.c */
	TH_EVIDENCE_KERNEL,	/* kernel/console.c */
};

struct th_evidence_form {
	enum th_outcome outcome;
	enum th_evidence_source source;
	const char *form;	/* the format's head the evidence starts with */
	/* Another outcome's proof follows the head (a control run stopped by
	 * CFI: a BLOCKED_CFI's words), or TH_OUTCOME_INVALID. */
	enum th_outcome then;
};

extern const struct th_evidence_form th_evidence_forms[];
extern const size_t th_evidence_nforms;

/* Is @o's evidence held to a form (a defence's, an attack's proof)? The
 * outcomes the classifiers prove: BLOCKED_CFI, HIJACKED, PRIVILEGED_WRITE,
 * REDIRECTED, DETECTED, HANG, TIMER_LOST, FALSE_POSITIVE. */
bool th_evidence_held(enum th_outcome o);

/*
 * Does @evidence take one of the forms of @o's proof from @src? A model
 * cell of more than one run (@runs) may start with its seed (TH_EV_SEED).
 * Return: true (or @o is not held to a form).
 */
bool th_evidence_form_ok(enum th_outcome o, enum th_evidence_source src, unsigned runs,
			 const char *evidence);

/* @o's forms from @src for a message: the first as the classifier's words,
 * its conversions as "<...>", and how many others ("target ran: name=<...>
 * chosen=1"; "CFI failure at <...> (target: <...>, or 3 other forms of
 * cfi/evidence.c"). */
void th_evidence_forms_text(enum th_outcome o, enum th_evidence_source src, char *buf, size_t n);

/*
 * The defence a model cell's evidence names, as the compiler flag its
 * config must build it with (cfi/configs.tsv's cflags): a CFI trap's
 * scheme ("... (kcfi, listed in .kcfi_traps) ..." -> "-fsanitize=kcfi"),
 * the cfi-icall or -fsanitize=function runtime's diagnostic, ASan's and
 * UBSan's reports, the fortified copies' aborts. A block or a detection
 * under a config that does not build its defence was never observed.
 * Return: the flag (a static string, or @buf), NULL when the evidence
 * names no defence.
 */
const char *th_evidence_defence(const char *evidence, char *buf, size_t n);

/* Does @f (a printf format) print the start of @s? (The matcher above.) */
bool th_evidence_format_matches(const char *f, const char *s);

#endif
