/* SPDX-License-Identifier: MIT */
#include "evidence.h"

#include <string.h>

#define M TH_EVIDENCE_MODEL
#define K TH_EVIDENCE_KERNEL
#define NONE TH_OUTCOME_INVALID

/* The kernel's own CFI report: "CFI failure at <site> (target: <fn>...". */
#define KCFI_REPORT TH_KEV_CFI_FAILURE "%s " TH_KEV_CFI_TARGET "%s"

const struct th_evidence_form th_evidence_forms[] = {
	/* cfi/classify.c th_classify(): what each step of its decision prints. */
	{ TH_HIJACKED, M, TH_EV_TARGET_RAN TH_PROTO_TARGET_NAME "%s" TH_PROTO_TARGET_CHOSEN "1", NONE },
	{ TH_PRIVILEGED_WRITE, M, TH_EV_PRIV_CHANGED TH_EV_STATE_CHANGE, NONE },
	{ TH_REDIRECTED, M, TH_EV_TARGET_RAN TH_PROTO_TARGET_NAME "%s" TH_PROTO_TARGET_CHOSEN "0", NONE },
	{ TH_HANG, M, TH_EV_LOCKUP, NONE },
	{ TH_HANG, M, TH_EV_NO_EXIT, NONE },
	{ TH_TIMER_LOST, M, TH_EV_TIMER_LOST, NONE },
	/* th_cfi_prove(): the trap at the dispatch's check, or the runtime's
	 * diagnostic (cfi-icall diag, -fsanitize=function) at its guard. */
	{ TH_BLOCKED_CFI, M, TH_EV_CFI_TRAP, NONE },
	{ TH_BLOCKED_CFI, M, TH_EV_DIAG_LOC TH_REPORT_CFI_DIAG "%s" TH_EV_CFI_DIAG_AT, NONE },
	{ TH_BLOCKED_CFI, M, TH_EV_DIAG_LOC TH_REPORT_FUNCTION "%s" TH_REPORT_FUNCTION_ALSO "%s" TH_EV_CFI_DIAG_AT,
	  NONE },
	/* memory_report(): ASan's, UBSan's bounds, a fortified copy's abort. */
	{ TH_DETECTED, M, TH_EV_ASAN "%s", NONE },
	{ TH_DETECTED, M, TH_EV_DIAG_LOC TH_REPORT_BOUNDS "%s" TH_REPORT_BOUNDS_ALSO, NONE },
	{ TH_DETECTED, M, TH_REPORT_FIELD_SPANNING, NONE },
	{ TH_DETECTED, M, TH_REPORT_GLIBC_FORTIFY, NONE },
	/* The check stopped the victim's own callback; decide(): a control
	 * run a defence stopped. */
	{ TH_FALSE_POSITIVE, M, TH_EV_CFI_LEGIT, TH_BLOCKED_CFI },
	{ TH_FALSE_POSITIVE, M, TH_EV_CONTROL_CFI, TH_BLOCKED_CFI },
	{ TH_FALSE_POSITIVE, M, TH_EV_CONTROL_MEM, TH_DETECTED },

	/* kernel/console.c judge(): a real kernel's console. */
	{ TH_PRIVILEGED_WRITE, K, TH_KEV_CRED, NONE },
	{ TH_BLOCKED_CFI, K, KCFI_REPORT, NONE },
	{ TH_BLOCKED_CFI, K, TH_KEV_FINEIBT, NONE },
	{ TH_BLOCKED_CFI, K, TH_KEV_FINEIBT_POISONED, NONE },
	{ TH_BLOCKED_CFI, K, TH_KEV_IBT, NONE },
	{ TH_FALSE_POSITIVE, K, TH_KEV_KCFI_CONTROL KCFI_REPORT, NONE },
	{ TH_FALSE_POSITIVE, K, TH_KEV_KCFI_LEGIT KCFI_REPORT, NONE },
	{ TH_FALSE_POSITIVE, K, TH_KEV_FINEIBT, NONE },
	{ TH_FALSE_POSITIVE, K, TH_KEV_FINEIBT_POISONED, NONE },
	{ TH_FALSE_POSITIVE, K, TH_KEV_IBT, NONE },
	{ TH_HIJACKED, K, TH_KEV_WOKE, NONE },
	{ TH_HIJACKED, K, TH_KEV_TASKLET_ARG, NONE },
	{ TH_REDIRECTED, K, TH_KEV_RETURNED, NONE },
	{ TH_REDIRECTED, K, TH_KEV_TASKLET_ARG, NONE },
	{ TH_REDIRECTED, K, TH_KEV_TASKLET_CALLBACK, NONE },
	{ TH_REDIRECTED, K, TH_KEV_TASKLET_OTHER_DATA, NONE },
	{ TH_REDIRECTED, K, TH_KEV_OWN_CHECK, NONE },
	{ TH_HANG, K, TH_KEV_NEVER_RETURNED, NONE },
	{ TH_TIMER_LOST, K, TH_KEV_TIMER_LOST, NONE },
	/* judge()'s tasklet calls (kernel/unit/tasklet.c, issue 28): func(data)
	 * with the data the write left, its effect kept or not; callback(t),
	 * or data the write did not leave. As kernel/console.c prints them. */
	{ TH_HIJACKED, K,
	  "%.60s called %.100s with the attacker's argument %.30s (func(data): use_callback 0)%s"
	  " at its return (the value was loaded)", NONE },
	{ TH_REDIRECTED, K,
	  "%.60s called %.100s with the attacker's argument %.30s (func(data): use_callback 0)%s"
	  " at its return (not the value written): the target ran with the chosen argument, but its"
	  " effect did not stay", NONE },
	{ TH_REDIRECTED, K, "%.60s called %.100s with the tasklet (callback(t)), and it returned", NONE },
	{ TH_REDIRECTED, K, "%.60s called %.100s with data the write did not leave (func(data)), and it returned",
	  NONE },
};
const size_t th_evidence_nforms = sizeof(th_evidence_forms) / sizeof(th_evidence_forms[0]);

bool th_evidence_held(enum th_outcome o)
{
	switch (o) {
	case TH_BLOCKED_CFI:
	case TH_HIJACKED:
	case TH_PRIVILEGED_WRITE:
	case TH_REDIRECTED:
	case TH_DETECTED:
	case TH_HANG:
	case TH_TIMER_LOST:
	case TH_FALSE_POSITIVE:
		return true;
	default:
		return false;
	}
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool xdigit(char c)
{
	return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* One conversion at *f (past its '%'): its letter, *f moved past it. */
static char conversion(const char **f)
{
	const char *p = *f;

	while (*p && strchr("-+ #0", *p))
		p++;
	while (*p == '*' || digit(*p))
		p++;
	if (*p == '.')
		for (p++; *p == '*' || digit(*p); p++)
			;
	while (*p && strchr("hlLqjzt", *p))
		p++;
	*f = *p ? p + 1 : p;
	return *p;
}

/* The matcher, with a budget of steps: a %s tries each length, so a
 * hostile evidence string cannot make it run long. */
static bool match(const char *f, const char *s, unsigned long *budget)
{
	while (*f) {
		char c;

		if (!*budget)
			return false;
		(*budget)--;
		if (*f != '%') {
			if (*s++ != *f++)
				return false;
			continue;
		}
		f++;
		if (*f == '%') {
			if (*s++ != '%')
				return false;
			f++;
			continue;
		}
		c = conversion(&f);
		switch (c) {
		case 's':
			/* Consecutive %s are one run of one or more characters. */
			while (f[0] == '%') {
				const char *g = f + 1;

				if (conversion(&g) != 's')
					break;
				f = g;
			}
			if (!*s)
				return false;
			if (!*f)
				return true;
			for (const char *t = s + 1; *t && *budget; t++)
				if (match(f, t, budget))
					return true;
			return false;
		case 'd':
		case 'i':
			if (*s == '-')
				s++;
			/* fall through */
		case 'u':
			if (!digit(*s))
				return false;
			while (digit(*s))
				s++;
			break;
		case 'x':
		case 'X':
			if (!xdigit(*s))
				return false;
			while (xdigit(*s))
				s++;
			break;
		case 'f':
			if (*s == '-')
				s++;
			if (!digit(*s))
				return false;
			while (digit(*s))
				s++;
			if (*s == '.')
				for (s++; digit(*s); s++)
					;
			break;
		default:
			return false;	/* a conversion no form uses */
		}
	}
	return true;	/* the form's end: what follows is the classifier's addition */
}

bool th_evidence_format_matches(const char *f, const char *s)
{
	unsigned long budget = 1000000;

	return f && s && match(f, s, &budget);
}

static bool form_ok(enum th_outcome o, enum th_evidence_source src, const char *e, int depth)
{
	for (size_t i = 0; i < th_evidence_nforms; i++) {
		const struct th_evidence_form *fm = &th_evidence_forms[i];

		if (fm->outcome != o || fm->source != src)
			continue;
		if (fm->then == TH_OUTCOME_INVALID) {
			if (th_evidence_format_matches(fm->form, e))
				return true;
		} else if (depth < 2 && !strncmp(e, fm->form, strlen(fm->form)) &&
			   form_ok(fm->then, src, e + strlen(fm->form), depth + 1)) {
			return true;
		}
	}
	return false;
}

bool th_evidence_form_ok(enum th_outcome o, enum th_evidence_source src, unsigned runs,
			 const char *evidence)
{
	const char *e = evidence ? evidence : "";

	if (!th_evidence_held(o))
		return true;
	/* "seed 3: " before a randstruct cell's (one of several runs). */
	if (src == TH_EVIDENCE_MODEL && runs > 1 && !strncmp(e, "seed ", 5)) {
		const char *sep = strstr(e + 5, ": ");

		if (sep && sep > e + 5 && (size_t)(sep - e - 5) == strcspn(e + 5, " :") &&
		    th_evidence_format_matches(TH_EV_SEED, e))
			e = sep + 2;
	}
	return form_ok(o, src, e, 0);
}

/* A form as words: conversions as "<...>". */
static size_t form_text(const char *f, char *buf, size_t n, size_t o)
{
	while (*f && o + 1 < n) {
		if (*f == '%' && f[1] == '%') {
			buf[o++] = '%';
			f += 2;
		} else if (*f == '%') {
			f++;
			conversion(&f);
			o += (size_t)snprintf(buf + o, n - o, "<...>");
		} else {
			buf[o++] = *f++;
		}
	}
	if (o >= n)
		o = n - 1;
	buf[o] = '\0';
	return o;
}

void th_evidence_forms_text(enum th_outcome o, enum th_evidence_source src, char *buf, size_t n)
{
	size_t len = 0, more = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < th_evidence_nforms && len + 1 < n; i++) {
		const struct th_evidence_form *fm = &th_evidence_forms[i];

		if (fm->outcome != o || fm->source != src)
			continue;
		if (len) {
			more++;
			continue;
		}
		len = form_text(fm->form, buf, n, len);
		if (fm->then != TH_OUTCOME_INVALID && len + 1 < n)
			len += (size_t)snprintf(buf + len, n - len, "<%s's proof>",
						th_outcome_name(fm->then) ? th_outcome_name(fm->then) : "?");
		if (len >= n)
			len = n - 1;
	}
	if (len && more && len + 1 < n)
		snprintf(buf + len, n - len, ", or %zu other form%s of cfi/evidence.c", more,
			 more == 1 ? "" : "s");
	if (!len)
		snprintf(buf, n, "none: no %s of this platform proves %s",
			 src == TH_EVIDENCE_MODEL ? "run" : "console",
			 th_outcome_name(o) ? th_outcome_name(o) : "?");
}

/* The head of each defence's own words, and the flag that builds it. */
static const struct {
	const char *form, *flag;
} defences[] = {
	{ TH_EV_DIAG_LOC TH_REPORT_CFI_DIAG, "-fsanitize=cfi-icall" },
	{ TH_EV_DIAG_LOC TH_REPORT_FUNCTION, "-fsanitize=function" },
	{ TH_EV_ASAN, "-fsanitize=address" },
	{ TH_EV_DIAG_LOC TH_REPORT_BOUNDS, "-fsanitize=array-bounds" },
	{ TH_REPORT_FIELD_SPANNING, "-DTH_FORTIFY_FIELD" },
	{ TH_REPORT_GLIBC_FORTIFY, "-D_FORTIFY_SOURCE" },
};

const char *th_evidence_defence(const char *evidence, char *buf, size_t n)
{
	static const char *const wrappers[] = { TH_EV_CFI_LEGIT, TH_EV_CONTROL_CFI, TH_EV_CONTROL_MEM };
	const char *e = evidence ? evidence : "", *p, *q;

	if (!strncmp(e, "seed ", 5) && (p = strstr(e + 5, ": ")) &&
	    (size_t)(p - e - 5) == strcspn(e + 5, " :"))
		e = p + 2;
	for (size_t i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++)
		if (!strncmp(e, wrappers[i], strlen(wrappers[i]))) {
			e += strlen(wrappers[i]);
			break;
		}
	for (size_t i = 0; i < sizeof(defences) / sizeof(defences[0]); i++)
		if (th_evidence_format_matches(defences[i].form, e))
			return defences[i].flag;
	/* A trap at the dispatch's check: "... 's call at 0x.. (SCHEME[, ...]),". */
	if (th_evidence_format_matches(TH_EV_CFI_TRAP, e) && (p = strstr(e, "'s call at 0x")) &&
	    (p = strstr(p, " (")) && (q = p + 2 + strcspn(p + 2, ",)")) > p + 2 && n) {
		snprintf(buf, n, "-fsanitize=%.*s", (int)(q - p - 2), p + 2);
		return buf;
	}
	return NULL;
}
