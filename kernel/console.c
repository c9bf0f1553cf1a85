// SPDX-License-Identifier: MIT
/*
 * Console classification (console.h). One pass collects the facts, in
 * console order; then the rules below decide, most severe first. Every rule
 * names the line it rests on in the evidence, and every CFI report that is
 * not this cell's block is said after it.
 */
#include "kernel/console.h"
#include "cfi/evidence.h"
#include "lib/fs.h"
#include "results/results.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TH_LINE_MAX	1024
#define TH_REPORTS	8

enum report_kind {
	R_KCFI,		/* "CFI failure at <caller>+off (target: ...)" */
	R_FINEIBT,	/* "CFI failure at __cfi_<callee>+0xd (target: <callee>+0x0)" */
	R_POISONED,	/* FineIBT at a sealed callee: an invalid opcode, RIP __cfi_<callee> */
	R_IBT,		/* "Missing ENDBR: <landing>" (the CPU's check, kernel/cet.c) */
};

/* What came first after a report. */
enum report_end {
	E_OPEN,		/* nothing yet */
	E_OOPS,		/* an oops: the kernel stopped (if at the check) */
	E_WARNED,	/* a WARNING at the report's own address: it went on */
	E_RETURNED,	/* the watched call returned: it went on */
	E_UNIT,		/* the unit printed on (its wait ended): it went on */
	E_CLOSED,	/* the unit's write came first: before the attack */
};

struct report {
	enum report_kind kind;
	long line;
	char text[300];		/* from "CFI failure at", verbatim */
	char site[96];		/* the check's address, as %pS */
	char target[96];	/* the call's target it names, "" none */
	enum report_end end;
	bool want_rip;
	char oops[200], rip[96];	/* the oops that ended it */
};

struct facts {
	long cell_line, write_line, end_line;	/* line numbers; -1: not seen */
	bool cell_mismatch, unknown, setup_failed, missed, none_write;
	char setup[TH_LINE_MAX], write[TH_LINE_MAX];
	char written[96];		/* WRITE landed's .function= */
	/* The first call the unit saw after the write, and its return. */
	long call_line, return_line;
	char site[64], call[TH_LINE_MAX];
	char legit[96];
	bool woken;			/* the sleeper woke: nothing but the payload wakes it */
	char woken_line[TH_LINE_MAX];
	bool uid_changed;
	char cred_line[TH_LINE_MAX];
	bool released;
	char state[TH_LINE_MAX];
	/* The tasklet's call (kernel/unit/tasklet.c): which branch of
	 * tasklet_action_common() it took and the argument it passed (CALL),
	 * CR4 around it (CALL, RETURN), and what the write left in the
	 * tasklet (WRITE landed); "" or -1 when not said. */
	int call_cb, written_cb;
	char call_arg[32], written_data[32], cr4_before[32], cr4_after[32];
	char pinned[TH_LINE_MAX];	/* "pinned CR4 bits changed: ..." after the write */
	int pending;			/* from STATE: -1 unknown */
	int calls;
	/* The kernel's own. CFI reports from the start; the rest after the write. */
	struct report reports[TH_REPORTS];
	int nreports;
	long oops_line, panic_line;
	char oops[TH_LINE_MAX], rip[96];
	bool userspace;
	char last[TH_LINE_MAX];		/* the last non-empty line, for HARNESS_ERROR */
	char notes[600];		/* what is said after the rule's evidence */
};

/* Printable ASCII only; everything else as \xNN (or cut). */
static void clean(char *dst, size_t n, const char *src, size_t len)
{
	size_t o = 0, i;

	if (!n)
		return;
	for (i = 0; i < len && o + 1 < n; i++) {
		unsigned char ch = (unsigned char)src[i];

		if (ch >= 0x20 && ch < 0x7f) {
			dst[o++] = (char)ch;
		} else if (ch == '\t') {
			dst[o++] = ' ';
		} else {
			if (o + 5 >= n)
				break;
			o += (size_t)snprintf(dst + o, n - o, "\\x%02x", ch);
		}
	}
	dst[o] = '\0';
}

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "[    1.234567] " (CONFIG_PRINTK_TIME) before a kernel line. */
static const char *skip_time(const char *s)
{
	const char *p = s;

	if (*p != '[')
		return s;
	for (p++; *p == ' ' || digit(*p) || *p == '.'; p++)
		;
	if (*p != ']')
		return s;
	return p[1] == ' ' ? p + 2 : p + 1;
}

/*
 * What a capture puts before the kernel's line, read through so that a
 * console from anywhere is read as QEMU's serial port gives it:
 * /dev/kmsg's "6,339,5140900,-;", dmesg -r's "<6>", the time stamp,
 * CONFIG_PRINTK_CALLER's "[    T1] " or "[    C0] ", and journalctl -k's or
 * syslog's "Dec 06 04:00:00 host kernel: ". None of them makes a line the
 * unit's: that takes the token right after.
 */
static const char *skip_capture(const char *s)
{
	const char *p = s, *k;

	if (digit(*p)) {		/* /dev/kmsg: prio,seq,usec,flags;text */
		int commas = 0;

		for (k = p; *k && *k != ';' && (digit(*k) || *k == ',' || *k == '-' ||
						 (*k >= 'a' && *k <= 'z')); k++)
			commas += *k == ',';
		if (*k == ';' && commas >= 3)
			p = k + 1;
	}
	if (*p == '<') {		/* dmesg -r: <prio> */
		for (k = p + 1; digit(*k); k++)
			;
		if (*k == '>' && k > p + 1)
			p = k + 1;
	}
	/* journalctl -k, syslog: a date, a host, "kernel: " within 64 bytes */
	if ((k = strstr(p, " kernel: ")) && k - p < 64 && k > p && p[0] != '[' &&
	    (digit(p[0]) || (p[0] >= 'A' && p[0] <= 'Z' && p[3] == ' ')))
		p = k + strlen(" kernel: ");
	p = skip_time(p);
	if (p[0] == '[' && (p[1] == ' ' || p[1] == 'T' || p[1] == 'C')) {
		for (k = p + 1; *k == ' '; k++)
			;
		if ((*k == 'T' || *k == 'C') && digit(k[1])) {
			for (k++; digit(*k); k++)
				;
			if (*k == ']')
				p = k[1] == ' ' ? k + 2 : k + 1;
		}
	}
	return p;
}

/* The value of " @key" (e.g. " arg=") in @s, up to a blank, into @dst ("" none). */
static void key_value(char *dst, size_t n, const char *s, const char *key)
{
	const char *p = strstr(s, key);

	if (!p) {
		dst[0] = '\0';
		return;
	}
	p += strlen(key);
	snprintf(dst, n, "%.*s", (int)strcspn(p, " "), p);
}

/* " @key" as 0 or 1; -1 when not said. */
static int key_flag(const char *s, const char *key)
{
	char v[8];

	key_value(v, sizeof(v), s, key);
	return !strcmp(v, "0") ? 0 : !strcmp(v, "1") ? 1 : -1;
}

/* Copy the symbol at s (up to a space, ';' or ')') into dst. */
static void symbol_at(char *dst, size_t n, const char *s)
{
	size_t i = 0;

	while (s[i] && s[i] != ' ' && s[i] != ';' && s[i] != ')' && i + 1 < n) {
		dst[i] = s[i];
		i++;
	}
	dst[i] = '\0';
}

/* The function's name of a %pS ("native_write_cr4+0x0/0x7c"). */
static void sym_name(char *dst, size_t n, const char *s)
{
	size_t l = strcspn(s, "+/");

	snprintf(dst, n, "%.*s", (int)l, s);
}

/* Is %pS @s at its function's entry ("+0x0/", or no offset)? */
static bool at_entry(const char *s)
{
	const char *p = s + strcspn(s, "+/");

	return *p != '+' || starts(p, "+0x0/") || !strcmp(p, "+0x0");
}

/*
 * FineIBT's caller calls target-16 (arch/x86/kernel/alternative.c,
 * cfi_rewrite_callers()): a %pS target less than 16 bytes into its
 * function ("native_write_cr4+0x4/0x90") is a call that lands inside that
 * function's own 16-byte __cfi_ preamble, and runs the rest of its check.
 */
static bool within_preamble_reach(const char *s)
{
	const char *p = s + strcspn(s, "+/");
	char *end;
	unsigned long off;

	if (*p != '+')
		return true;
	off = strtoul(p + 1, &end, 16);
	return end != p + 1 && (*end == '/' || !*end) && off < 16;
}

/*
 * Do two %pS name the same place? Name and offset; and the size, when both
 * give it (the same kernel prints the same size for a function).
 */
static bool same_place(const char *a, const char *b)
{
	size_t la = strcspn(a, "/"), lb = strcspn(b, "/");

	if (!*a || !*b || la != lb || strncmp(a, b, la))
		return false;
	return !a[la] || !b[lb] || !strcmp(a + la, b + lb);
}

/* Is %pS @site in the preamble FineIBT puts before @target ("__cfi_<name>")? */
static bool in_preamble_of(const char *site, const char *target)
{
	char name[96], pre[112];

	sym_name(name, sizeof(name), target);
	snprintf(pre, sizeof(pre), "__cfi_%s", name);
	sym_name(name, sizeof(name), site);
	return *target && !strcmp(name, pre);
}

static bool is_oops(const char *s)
{
	static const char *const marks[] = {
		"general protection fault", "BUG: kernel NULL pointer dereference",
		"BUG: unable to handle page fault", "BUG: unable to handle kernel",
		"invalid opcode:", "kernel BUG at", "Oops:", "BUG: stack guard page",
		"double fault", "BUG: kernel",
	};
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(s, marks[i]))
			return true;
	return false;
}

static void note(struct facts *f, const char *fmt, ...)
{
	size_t o = strlen(f->notes);
	va_list ap;

	if (o + 8 >= sizeof(f->notes))
		return;
	if (o)
		o += (size_t)snprintf(f->notes + o, sizeof(f->notes) - o, "; ");
	va_start(ap, fmt);
	vsnprintf(f->notes + o, sizeof(f->notes) - o, fmt, ap);
	va_end(ap);
}

/* Every report still open ends with @e (the first thing after it). */
static void end_reports(struct facts *f, enum report_end e, const char *oops)
{
	for (int i = 0; i < f->nreports; i++) {
		struct report *r = &f->reports[i];

		if (r->end != E_OPEN)
			continue;
		r->end = e;
		if (e == E_OOPS) {
			snprintf(r->oops, sizeof(r->oops), "%s", oops);
			r->want_rip = true;
		}
	}
}

static bool open_report(const struct facts *f)
{
	for (int i = 0; i < f->nreports; i++)
		if (f->reports[i].end == E_OPEN)
			return true;
	return false;
}

static struct report *add_report(struct facts *f, enum report_kind k, long ln, const char *text)
{
	struct report *r;

	if (f->nreports >= TH_REPORTS)
		return NULL;
	r = &f->reports[f->nreports++];
	memset(r, 0, sizeof(*r));
	r->kind = k;
	r->line = ln;
	r->end = E_OPEN;
	snprintf(r->text, sizeof(r->text), "%s", text);
	return r;
}

static void unit_line(struct facts *f, const char *s, long ln, const struct th_console_cell *c)
{
	/* The unit's run went on past its wait: a report before this did
	 * not stop the kernel. */
	if (starts(s, "EFFECT ") || starts(s, "STATE ") || starts(s, "END "))
		end_reports(f, E_UNIT, NULL);
	if (starts(s, "CELL ")) {
		size_t idl = strlen(c->attack);

		if (f->cell_line < 0) {
			f->cell_line = ln;
			if (strncmp(s + 5, c->attack, idl) || (s[5 + idl] != ' ' && s[5 + idl]))
				f->cell_mismatch = true;
		}
	} else if (starts(s, "UNKNOWN cell")) {
		f->unknown = true;
	} else if (starts(s, "SETUP failed") || starts(s, "TARGET missing")) {
		if (!f->setup_failed)
			snprintf(f->setup, sizeof(f->setup), "%s", s);
		f->setup_failed = true;
	} else if (starts(s, "VICTIM ")) {
		const char *l = strstr(s, " legit=");

		if (l && !f->legit[0])
			symbol_at(f->legit, sizeof(f->legit), l + 7);
	} else if (starts(s, "WRITE landed")) {
		const char *w = strstr(s, ".function=");

		f->write_line = ln;
		snprintf(f->write, sizeof(f->write), "%s", s);
		if (w)
			symbol_at(f->written, sizeof(f->written), w + strlen(".function="));
		/* A tasklet's: the branch and the data the write left. */
		f->written_cb = key_flag(s, " use_callback=");
		key_value(f->written_data, sizeof(f->written_data), s, " data=");
		end_reports(f, E_CLOSED, NULL);
	} else if (starts(s, "WRITE missed")) {
		f->missed = true;
		snprintf(f->write, sizeof(f->write), "%s", s);
	} else if (starts(s, "WRITE none")) {
		f->write_line = ln;
		f->none_write = true;
		snprintf(f->write, sizeof(f->write), "%s", s);
		end_reports(f, E_CLOSED, NULL);
	} else if (starts(s, "CALL ")) {
		/* "CALL call_timer_fn -> fn+0x0/0x4 (timer ...)": the site the
		 * unit watches, at the kernel's own tracepoint before its call;
		 * a tasklet's also says the branch, the argument and CR4:
		 * "CALL tasklet_action_common -> fn+0x0/0x7c (tasklet ...)
		 * use_callback=0 arg=0x407f0 func(data) cr4=0x3506f0". */
		const char *arrow = strstr(s + 5, " -> ");

		f->calls++;
		if (arrow && f->call_line < 0 && f->write_line >= 0) {
			f->call_line = ln;
			snprintf(f->site, sizeof(f->site), "%.*s", (int)(arrow - s - 5), s + 5);
			snprintf(f->call, sizeof(f->call), "%s", arrow + 4);
			f->call_cb = key_flag(s, " use_callback=");
			key_value(f->call_arg, sizeof(f->call_arg), s, " arg=");
			key_value(f->cr4_before, sizeof(f->cr4_before), s, " cr4=");
		}
	} else if (starts(s, "RETURN ")) {
		if (f->call_line >= 0 && f->return_line < 0) {
			f->return_line = ln;
			key_value(f->cr4_after, sizeof(f->cr4_after), s, " cr4=");
			end_reports(f, E_RETURNED, NULL);
		}
	} else if (starts(s, "EFFECT th-sleeper woken")) {
		f->woken = true;
		snprintf(f->woken_line, sizeof(f->woken_line), "%s", s);
	} else if (starts(s, "EFFECT cred ")) {
		const char *u = strstr(s, " uid=");

		snprintf(f->cred_line, sizeof(f->cred_line), "%s", s);
		f->uid_changed = u && strncmp(u + 5, "1000 ", 5);
	} else if (starts(s, "STATE cred ")) {
		/* Pending list:hlist-del: the cred as the victim's call found
		 * it, its detach done (kernel/unit/list.c); the machine dies
		 * next, so this is what shows the write landed. */
		note(f, "%.300s", s);
	} else if (starts(s, "STATE neighbour ")) {
		f->released = strstr(s, " released=1") != NULL;
	} else if (starts(s, "STATE tasklet-neighbour ")) {
		/* th_tasklet_force_close() marks its container closed. */
		f->released = strstr(s, " closed=1") != NULL;
	} else if (starts(s, "STATE calls=")) {
		const char *p = strstr(s, " pending=");

		snprintf(f->state, sizeof(f->state), "%s", s);
		f->pending = p ? (p[9] == '1') : -1;
	} else if (starts(s, "END ")) {
		if (f->end_line < 0)
			f->end_line = ln;
	}
}

/*
 * "CFI failure at <site> (target: <target>; expected type: 0x...)" or
 * "(no target information)": report_cfi_failure(), kernel/cfi.c, for kCFI
 * (site: the caller's check) and FineIBT (site: "__cfi_<callee>+0xd", the
 * callee's preamble: arch/x86/kernel/alternative.c).
 */
static void cfi_report(struct facts *f, const char *p, long ln)
{
	struct report *r = add_report(f, R_KCFI, ln, p);
	const char *t;

	if (!r)
		return;
	symbol_at(r->site, sizeof(r->site), p + strlen(TH_KEV_CFI_FAILURE));
	if ((t = strstr(p, TH_KEV_CFI_TARGET)))
		symbol_at(r->target, sizeof(r->target), t + strlen(TH_KEV_CFI_TARGET));
	if (starts(r->site, "__cfi_"))
		r->kind = R_FINEIBT;
}

static void kernel_line(struct facts *f, const char *s, long ln)
{
	const char *p;
	struct report *r;

	if (starts(s, "timerharness-init: userspace reached"))
		f->userspace = true;
	/* A report is a line of its own (printk starts a record), never
	 * text inside another line, which anything may print. */
	if (starts(s, TH_KEV_CFI_FAILURE)) {
		cfi_report(f, s, ln);
		return;
	}
	if (starts(s, "Missing ENDBR: ")) {
		p = s;
		/* arch/x86/kernel/cet.c: the CPU's IBT found no ENDBR where an
		 * indirect call landed; BUG(), or a WARNING under ibt=warn. */
		if ((r = add_report(f, R_IBT, ln, p))) {
			symbol_at(r->site, sizeof(r->site), p + strlen("Missing ENDBR: "));
			snprintf(r->target, sizeof(r->target), "%s", r->site);
		}
		return;
	}
	if (starts(s, "WARNING: CPU: ") && (p = strstr(s, " at "))) {
		/* __warn(): "at <sym>" or "at <file>:<line> <sym>". A WARNING
		 * at a report's own address is the report going on. */
		char at[96];
		const char *sp;

		p += 4;
		sp = strchr(p, ' ');
		symbol_at(at, sizeof(at), sp && memchr(p, ':', (size_t)(sp - p)) ? sp + 1 : p);
		for (int i = 0; i < f->nreports; i++)
			if (f->reports[i].end == E_OPEN && same_place(f->reports[i].site, at))
				f->reports[i].end = E_WARNED;
		return;
	}
	if (f->write_line < 0)
		return;		/* before the write, no oops is the attack's */
	/* native_write_cr4() (arch/x86/kernel/cpu/common.c, 5.3+): CR4
	 * pinning put the pinned bits back after the mov, and says so. */
	if (!f->pinned[0] && strstr(s, "pinned CR4 bits changed"))
		snprintf(f->pinned, sizeof(f->pinned), "%s", s);
	if (is_oops(s)) {
		/* FineIBT at a callee whose preamble the kernel poisoned
		 * (a sealed function): no report, only the trap; kept as a
		 * report if its RIP is such a preamble (read below). */
		if (!open_report(f) && strstr(s, "invalid opcode"))
			add_report(f, R_POISONED, ln, s);
		end_reports(f, E_OOPS, s);
		if (f->oops_line < 0) {
			f->oops_line = ln;
			snprintf(f->oops, sizeof(f->oops), "%s", s);
		}
	} else if ((p = strstr(s, "RIP: 0010:"))) {
		char rip[96];

		symbol_at(rip, sizeof(rip), p + strlen("RIP: 0010:"));
		for (int i = 0; i < f->nreports; i++)
			if (f->reports[i].want_rip) {
				snprintf(f->reports[i].rip, sizeof(f->reports[i].rip), "%s", rip);
				f->reports[i].want_rip = false;
			}
		if (f->oops_line >= 0 && !f->rip[0])
			snprintf(f->rip, sizeof(f->rip), "%s", rip);
	} else if (f->panic_line < 0 && strstr(s, "Kernel panic - not syncing")) {
		f->panic_line = ln;
		if (f->oops_line < 0) {
			f->oops_line = ln;
			snprintf(f->oops, sizeof(f->oops), "%s", s);
		}
	}
}

static void collect(struct facts *f, const char *log, size_t n, const struct th_console_cell *c)
{
	char prefix[96];
	size_t plen, i = 0;
	long ln = 0;

	snprintf(prefix, sizeof(prefix), "timerharness %s: ", c->token);
	plen = strlen(prefix);
	while (i < n) {
		size_t j = i, len;
		char raw[TH_LINE_MAX], line[TH_LINE_MAX];
		const char *s;

		while (j < n && log[j] != '\n')
			j++;
		len = j - i;
		while (len && (log[i + len - 1] == '\r'))
			len--;
		if (len >= sizeof(raw))
			len = sizeof(raw) - 1;
		memcpy(raw, log + i, len);
		raw[len] = '\0';
		/* A NUL inside a line ends what is read of it. */
		clean(line, sizeof(line), raw, strlen(raw));
		ln++;
		i = j + 1;
		s = skip_capture(line);
		if (!*s)
			continue;
		snprintf(f->last, sizeof(f->last), "%s", s);
		if (c->token[0] && !strncmp(s, prefix, plen))
			unit_line(f, s + plen, ln, c);
		else if (!starts(s, "timerharness "))
			kernel_line(f, s, ln);
	}
	/* A poisoned-preamble trap is a report only at such a preamble. */
	for (int k = 0; k < f->nreports; k++) {
		struct report *r = &f->reports[k];

		if (r->kind == R_POISONED) {
			size_t o = strlen(r->text);

			snprintf(r->site, sizeof(r->site), "%s", r->rip);
			snprintf(r->text + o, sizeof(r->text) - o, " at %s", r->rip);
			if (!starts(r->rip, "__cfi_")) {
				memmove(r, r + 1, (size_t)(f->nreports - k - 1) * sizeof(*r));
				f->nreports--;
				k--;
			}
		}
	}
}

/*
 * Why report @r is not the block of the call the unit watched to @want,
 * or NULL when it is that call's report: after the write, after the unit's
 * CALL line for that call and before its return, at that site (kCFI) or
 * at @want's own preamble (FineIBT, IBT), naming @want.
 */
static const char *not_this_call(const struct facts *f, const struct report *r,
				 const char *want, char *buf, size_t n)
{
	char name[96], call[96];

	if (r->end == E_CLOSED || r->line < f->write_line)
		return "before the unit's write";
	if (f->call_line < 0 || r->line < f->call_line)
		return "before the unit saw the watched call";
	if (f->return_line >= 0 && r->line > f->return_line)
		return "after the watched call returned";
	if (!want[0])
		return "the unit did not say what it wrote";
	symbol_at(call, sizeof(call), f->call);
	if (!same_place(call, want)) {
		snprintf(buf, n, "the watched call went to %s, not to the %s written", call, want);
		return buf;
	}
	switch (r->kind) {
	case R_KCFI:
		sym_name(name, sizeof(name), r->site);
		if (strcmp(name, f->site)) {
			snprintf(buf, n, "at another call site than the %s the unit watched", f->site);
			return buf;
		}
		break;
	case R_FINEIBT:
	case R_POISONED:
		/* At the entry, or less than 16 bytes past it: the call to
		 * target-16 landed in that same preamble and its check ran. */
		if (!within_preamble_reach(want) || !in_preamble_of(r->site, want)) {
			snprintf(buf, n, "FineIBT reports at the callee, and this is not %s's preamble", want);
			return buf;
		}
		break;
	case R_IBT:
		if (!same_place(r->site, want) && !(at_entry(want) && in_preamble_of(r->site, want))) {
			snprintf(buf, n, "IBT reports where the call landed, and this is not %s", want);
			return buf;
		}
		break;
	}
	if (r->kind == R_POISONED)
		return NULL;	/* the preamble names the target */
	if (!r->target[0])
		return "it names no target";
	if (!same_place(r->target, want) && r->kind != R_IBT) {
		snprintf(buf, n, "it names another target than the %s the unit wrote", want);
		return buf;
	}
	return NULL;
}

/* Did the kernel stop at @r's check (an oops there), not go on? */
static bool stopped_at(const struct report *r)
{
	if (r->end != E_OOPS)
		return false;
	switch (r->kind) {
	case R_KCFI:
		return same_place(r->rip, r->site);
	case R_FINEIBT:
		/* The trap is the ud2 in the preamble; decode_fineibt_insn()
		 * may move the registers' ip on to the target before die(). */
		return same_place(r->rip, r->site) || same_place(r->rip, r->target);
	case R_POISONED:
		return true;
	case R_IBT:
		/* cet.c's BUG() right after its report. */
		return strstr(r->oops, "kernel BUG at arch/x86/kernel/") != NULL;
	}
	return false;
}

static void say(struct th_console_verdict *v, enum th_outcome o, const char *fmt, ...)
{
	va_list ap;

	v->outcome = o;
	va_start(ap, fmt);
	vsnprintf(v->evidence, sizeof(v->evidence), fmt, ap);
	va_end(ap);
}

/* The rules, once the boot, the unit and the write happened as planned. */
static void judge(struct facts *f, enum th_boot_end end, struct th_console_verdict *v)
{
	const struct report *proof = NULL, *went_on = NULL, *open = NULL, *own = NULL;
	const char *want = f->none_write ? f->legit : f->written;
	bool attacker_call, legit_call;
	char name[96];

	attacker_call = f->call_line >= 0 && strcmp(v->call_target, f->legit) != 0;
	legit_call = !strcmp(want, f->legit);
	sym_name(name, sizeof(name), v->call_target);
	for (int i = 0; i < f->nreports; i++) {
		const struct report *r = &f->reports[i];
		char buf[200], tname[96];
		const char *why = not_this_call(f, r, want, buf, sizeof(buf));

		if (r->line > f->write_line) {
			v->cfi_failure = true;
			sym_name(tname, sizeof(tname), r->site);
			/* A check inside the target itself: it ran. */
			if (attacker_call && !own && r->line > f->call_line && name[0] &&
			    !strcmp(tname, name))
				own = r;
		}
		if (why) {
			if (r != own || !stopped_at(r))	/* else the evidence says it */
				note(f, "a CFI report that is not this cell's block (%s): %.200s", why, r->text);
		} else if (stopped_at(r)) {
			if (!proof)
				proof = r;
		} else if (r->end == E_OPEN) {
			open = r;
		} else {
			went_on = r;
			note(f, "the kernel reported this call and went on (%s): %.200s",
			     r->end == E_WARNED ? "a WARNING, not an oops: CONFIG_CFI_PERMISSIVE or ibt=warn" :
			     r->end == E_RETURNED ? "the call returned" :
			     r->end == E_UNIT ? "the unit's run went on after it" :
			     "the oops after it is not at the check",
			     r->text);
		}
	}
	v->cfi_block = proof != NULL;
	v->cfi_went_on = went_on != NULL;

	/* ---- what the kernel did, most severe first ---- */
	if (f->uid_changed) {
		say(v, TH_PRIVILEGED_WRITE, TH_KEV_CRED "%s%.100s",
		    f->cred_line, f->oops_line >= 0 ? "; then: " : "", f->oops_line >= 0 ? f->oops : "");
		return;
	}
	if (proof) {
		enum th_outcome o = legit_call ? TH_FALSE_POSITIVE : TH_BLOCKED_CFI;

		if (proof->kind == R_KCFI && f->none_write)
			say(v, o, TH_KEV_KCFI_CONTROL "%.300s", proof->text);
		else if (proof->kind == R_KCFI && legit_call)
			say(v, o, TH_KEV_KCFI_LEGIT "%.300s", proof->text);
		else if (proof->kind == R_KCFI)
			say(v, o, "%.400s", proof->text);
		else if (proof->kind == R_FINEIBT)
			say(v, o, TH_KEV_FINEIBT, f->site, want, proof->text);
		else if (proof->kind == R_POISONED)
			say(v, o, TH_KEV_FINEIBT_POISONED, f->site, want, proof->text);
		else
			say(v, o, TH_KEV_IBT, f->site, want, proof->text, proof->oops);
		return;
	}
	if (open) {
		/* die() prints the oops at KERN_DEFAULT: "quiet" hides it. */
		say(v, TH_HARNESS_ERROR, "a CFI report names this cell's call, but the console shows neither the kernel stopping at its check (an oops there) nor going on (cut off, or a console loglevel that hides the oops: boot with loglevel=7): %.300s",
		    open->text);
		return;
	}
	/*
	 * A tasklet's legacy branch (use_callback 0: t->func(t->data),
	 * kernel/softirq.c tasklet_action_common()) passes .data, which the
	 * write set: the target ran with the attacker's argument. Its effect
	 * for the attacker (a CR4 write: CR4 loaded with that value, read at
	 * the return), and whether the kernel outlived it, decide: a fault
	 * after it is CRASHED, as an oops after any target (docs/outcomes.md).
	 */
	if (attacker_call && f->call_cb == 0 && f->written_cb == 0 && f->written_data[0] &&
	    !strcmp(f->call_arg, f->written_data) && f->return_line >= 0) {
		char steps[600];
		bool loaded = f->cr4_after[0] && !strcmp(f->cr4_after, f->call_arg);

		snprintf(steps, sizeof(steps), TH_KEV_TASKLET_ARG "%s%.200s; CR4 %.30s before the call, %.30s at its return (%s)",
			 f->site, v->call_target, f->call_arg, f->pinned[0] ? "; " : "", f->pinned,
			 f->cr4_before[0] ? f->cr4_before : "?", f->cr4_after[0] ? f->cr4_after : "?",
			 loaded ? "the value was loaded" : "not the value written");
		if (f->oops_line > f->return_line)
			say(v, TH_CRASHED, "%s; then: %.200s%s%s", steps, f->oops, f->rip[0] ? " at " : "",
			    f->rip);
		else if (loaded)
			say(v, TH_HIJACKED, "%s", steps);
		else
			say(v, TH_REDIRECTED, "%s: the target ran with the chosen argument, but its effect did not stay",
			    steps);
		return;
	}
	/* Any other tasklet call: its callback branch (callback(t)) passes
	 * the victim's tasklet, and a func(data) whose data is not what the
	 * write left is no argument of the attacker's. */
	if (attacker_call && f->call_cb >= 0 && f->return_line >= 0) {
		say(v, TH_REDIRECTED, f->call_cb ? TH_KEV_TASKLET_CALLBACK "%s" : TH_KEV_TASKLET_OTHER_DATA "%s",
		    f->site, v->call_target, f->released ? " (it marked the neighbour closed)" : "");
		return;
	}
	if (attacker_call && (f->return_line >= 0 || (own && stopped_at(own)))) {
		if (f->woken)
			say(v, TH_HIJACKED, TH_KEV_WOKE,
			    f->site, v->call_target, f->woken_line);
		else if (f->return_line >= 0)
			say(v, TH_REDIRECTED, TH_KEV_RETURNED "%s",
			    f->site, v->call_target, f->released ? " (it marked the neighbour released)" : "");
		else
			say(v, TH_REDIRECTED, TH_KEV_OWN_CHECK,
			    f->site, v->call_target, own->text);
		return;
	}
	if (f->oops_line >= 0) {
		if (attacker_call)
			say(v, TH_CRASHED, "%.60s called %.100s, then: %.200s%s%s",
			    f->site, v->call_target, f->oops, f->rip[0] ? " at " : "", f->rip);
		else
			say(v, TH_CRASHED, "%.300s%s%s", f->oops, f->rip[0] ? " at " : "", f->rip);
		return;
	}
	if (attacker_call && end == TH_BOOT_TIMEOUT) {
		/* The kernel's own tracepoint saw the attacker's target entered;
		 * then nothing, not even an oops, until the host's time limit. */
		say(v, TH_HANG, TH_KEV_NEVER_RETURNED " (10 s of silence, or the time limit)",
		    f->site, v->call_target);
		return;
	}
	if (attacker_call) {
		say(v, TH_HARNESS_ERROR, "%.60s called %.100s, which never returned, and the boot ended with no oops",
		    f->site, v->call_target);
		return;
	}
	if (f->end_line < 0) {
		say(v, TH_HARNESS_ERROR, "the unit never finished the cell (%s); last line: %.200s",
		    end == TH_BOOT_TIMEOUT ? "time limit reached" : "boot ended", f->last);
		return;
	}
	if (f->call_line >= 0) {
		say(v, TH_NO_EFFECT, "%.60s called the legitimate %.100s", f->site, v->call_target);
		return;
	}
	if (f->pending == 0)
		say(v, TH_TIMER_LOST, TH_KEV_TIMER_LOST, f->state);
	else
		say(v, TH_NO_EFFECT, "the timer was never called within the unit's wait: %.200s", f->state);
}

void th_console_classify(const char *log, size_t n, const struct th_console_cell *cell,
			 enum th_boot_end end, const char *qemu_error,
			 struct th_console_verdict *v)
{
	struct facts f;

	memset(v, 0, sizeof(*v));
	memset(&f, 0, sizeof(f));
	f.cell_line = f.write_line = f.end_line = f.call_line = f.return_line = -1;
	f.oops_line = f.panic_line = -1;
	f.pending = -1;
	f.call_cb = f.written_cb = -1;
	if (log && n)
		collect(&f, log, n, cell);
	v->unit_seen = f.cell_line >= 0;
	v->write_landed = f.write_line >= 0 && !f.none_write;
	v->oops = f.oops_line >= 0;
	v->userspace = f.userspace;
	snprintf(v->legit, sizeof(v->legit), "%s", f.legit);
	snprintf(v->rip, sizeof(v->rip), "%s", f.rip);
	snprintf(v->site, sizeof(v->site), "%s", f.site);
	snprintf(v->written, sizeof(v->written), "%s", f.written);
	if (f.call_line >= 0)
		symbol_at(v->call_target, sizeof(v->call_target), f.call);

	/* ---- the boot, the unit and the write happened as planned, or the
	 * cell says nothing about the attack ---- */
	if (end == TH_BOOT_FAILED) {
		say(v, TH_HARNESS_ERROR, "QEMU failed: %s", qemu_error ? qemu_error : "unknown error");
		return;
	}
	if (f.unknown || f.cell_mismatch) {
		say(v, TH_HARNESS_ERROR, "the kernel's unit does not have cell %s (rebuild it: kernel/build, or kernel/install-unit into your tree)",
		    cell->attack);
		return;
	}
	if (f.cell_line < 0) {
		say(v, TH_HARNESS_ERROR, "%s: no line of the timerharness unit with this boot's token (a kernel without CONFIG_TIMERHARNESS, or a boot that never reached late initcalls); last line: %.200s",
		    end == TH_BOOT_TIMEOUT ? "time limit reached" : "boot ended", f.last[0] ? f.last : "(none)");
		return;
	}
	if (f.setup_failed) {
		say(v, TH_HARNESS_ERROR, "the unit could not set the cell up: %.300s", f.setup);
		return;
	}
	if (f.missed) {
		say(v, TH_HARNESS_ERROR, "the write did not land: %.300s", f.write);
		return;
	}
	if (f.write_line < 0) {
		say(v, TH_HARNESS_ERROR, "%s before the unit's write; last line: %.200s",
		    end == TH_BOOT_TIMEOUT ? "time limit reached" : "boot ended", f.last);
		return;
	}
	judge(&f, end, v);
	if (f.notes[0]) {
		size_t o = strlen(v->evidence);

		snprintf(v->evidence + o, sizeof(v->evidence) - o, "; %s", f.notes);
	}
}

/* The value of " @key=" in a command line, into dst. Return: found. */
static bool boot_arg(const char *line, const char *key, char *dst, size_t n)
{
	size_t kl = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p += kl)
		if (p == line || p[-1] == ' ') {
			size_t l = strcspn(p + kl, " ");

			snprintf(dst, n, "%.*s", (int)l, p + kl);
			return l > 0;
		}
	return false;
}

/* One value of a boot argument across the console's boots. */
static int one_value(const char *key, char *have, size_t n, const char *found, char *err,
		     size_t en)
{
	if (!have[0]) {
		snprintf(have, n, "%s", found);
		return 0;
	}
	if (strcmp(have, found)) {
		snprintf(err, en, "the console holds boots with %s%s and %s%s: name the one to classify (--%s)",
			 key, have, key, found, strstr(key, "token") ? "token" : "cell");
		return -1;
	}
	return 0;
}

int th_console_boot_args(const char *log, size_t n, char *cell, size_t cn, char *token, size_t tn,
			 char *err, size_t en)
{
	char fcell[96] = "", ftoken[96] = "";
	size_t i = 0;

	while (log && i < n) {
		size_t j = i, len;
		char raw[TH_LINE_MAX], line[TH_LINE_MAX], v[96];
		const char *s;

		while (j < n && log[j] != '\n')
			j++;
		len = j - i;
		while (len && log[i + len - 1] == '\r')
			len--;
		if (len >= sizeof(raw))
			len = sizeof(raw) - 1;
		memcpy(raw, log + i, len);
		raw[len] = '\0';
		i = j + 1;
		clean(line, sizeof(line), raw, strlen(raw));
		s = skip_capture(line);
		if (!starts(s, "Kernel command line: "))
			continue;
		s += strlen("Kernel command line: ");
		/* Only what was not named: one boot's may be in a log of many. */
		if (!cell[0] && boot_arg(s, "timerharness.cell=", v, sizeof(v)) &&
		    one_value("timerharness.cell=", fcell, sizeof(fcell), v, err, en))
			return -1;
		if (!token[0] && boot_arg(s, "timerharness.token=", v, sizeof(v)) &&
		    one_value("timerharness.token=", ftoken, sizeof(ftoken), v, err, en))
			return -1;
	}
	if ((!cell[0] && !fcell[0]) || (!token[0] && !ftoken[0])) {
		snprintf(err, en, "no \"Kernel command line:\" with timerharness.%s= on the console: name it (--%s)",
			 !token[0] && !ftoken[0] ? "token" : "cell", !token[0] && !ftoken[0] ? "token" : "cell");
		return -1;
	}
	if (!cell[0])
		snprintf(cell, cn, "%s", fcell);
	if (!token[0])
		snprintf(token, tn, "%s", ftoken);
	return 0;
}

/* ---- check --consoles: a cell's console classified again ---------------------------- */

#define RECHECK_MAX (64 << 20)

/* The whole of @path (a regular file, at most RECHECK_MAX). Return: the
 * bytes (free them), NULL with why. */
static char *read_log(const char *path, size_t *len, char *why, size_t n)
{
	const char *e;
	FILE *f = th_fopen_read(path, "rb", &e);
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f) {
		snprintf(why, n, "%s: %s", path, e);
		return NULL;
	}
	for (;;) {
		size_t got;

		if (*len >= RECHECK_MAX) {
			snprintf(why, n, "%s: more than %d MiB: not one boot's console", path, RECHECK_MAX >> 20);
			break;
		}
		if (*len + 1 >= cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				snprintf(why, n, "%s: out of memory", path);
				break;
			}
			buf = nb;
		}
		got = fread(buf + *len, 1, cap - *len - 1, f);
		*len += got;
		if (!got) {
			bool bad = ferror(f);

			fclose(f);
			if (bad) {
				snprintf(why, n, "%s: cannot read it", path);
				free(buf);
				return NULL;
			}
			buf[*len] = '\0';
			return buf;
		}
	}
	fclose(f);
	free(buf);
	return NULL;
}

/* Does @path end with @rel, as a path (whole components)? */
static bool path_ends(const char *path, const char *rel)
{
	size_t pl = strlen(path), rl = strlen(rel);

	return pl >= rl && !strcmp(path + pl - rl, rel) && (pl == rl || path[pl - rl - 1] == '/');
}

int th_console_recheck(void *arg, const struct th_cell *c, char *why, size_t n)
{
	const char *dir = arg, *ev = c->evidence ? c->evidence : "", *named = NULL, *p;
	const char *release = c->platform && starts(c->platform, "linux-") ? c->platform + 6 : "";
	char series[64], rel[2][512], path[4096], head[700], token[96] = "", mark[128], got[160];
	struct th_console_verdict v;
	struct th_console_cell cc;
	enum th_boot_end end;
	size_t len, dots = 0, k;
	char *log;
	int which = -1;

	for (p = ev; (p = strstr(p, TH_KEV_CONSOLE)); p += strlen(TH_KEV_CONSOLE))
		named = p + strlen(TH_KEV_CONSOLE);
	if (!named || !*named) {
		snprintf(why, n, "names no console log (\"" TH_KEV_CONSOLE "PATH\"): nothing to classify again");
		return -1;
	}
	/* The series: the release's first two numbers (6.1 of 6.1.192). */
	for (k = 0; release[k] && k + 1 < sizeof(series); k++) {
		if (release[k] == '.' && ++dots == 2)
			break;
		series[k] = release[k];
	}
	series[k] = '\0';
	snprintf(rel[0], sizeof(rel[0]), "%s/%s/%s.log", series, c->config, c->attack);
	snprintf(rel[1], sizeof(rel[1]), "%s/%s.log", c->config, c->attack);
	for (int i = 0; i < 2 && which < 0; i++)
		if (path_ends(named, rel[i]))
			which = i;
	if (which < 0) {
		snprintf(why, n, "the console it names, %.300s, is not this cell's (%s under the consoles)",
			 named, rel[0]);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, rel[which]);
	if (!(log = read_log(path, &len, why, n)))
		return -1;
	/* The run's own first line: this cell, this config, the boot's token
	 * and how it ended. */
	snprintf(head, sizeof(head), "# timerharness kernel: %s on %s (", c->attack, c->config);
	p = strstr(log, ", token ");
	if (strncmp(log, head, strlen(head)) || !p || (size_t)(p - log) > strcspn(log, "\n")) {
		snprintf(why, n, "%s: not the console timerharness kernel wrote for %s on %s (its first line is not \"%s...\")",
			 path, c->attack, c->config, head);
		free(log);
		return -1;
	}
	p += strlen(", token ");
	k = strcspn(p, ", \n");
	snprintf(token, sizeof(token), "%.*s", (int)(k < sizeof(token) ? k : sizeof(token) - 1), p);
	p += k;
	end = starts(p, ", time limit") ? TH_BOOT_TIMEOUT : starts(p, ", QEMU failed") ? TH_BOOT_FAILED :
	      TH_BOOT_EXITED;
	snprintf(mark, sizeof(mark), "Linux version %s ", release);
	if (!*release || !strstr(log, mark)) {
		snprintf(why, n, "%s: the console is not of %s (no \"%s\")", path, c->platform, mark);
		free(log);
		return -1;
	}
	cc = (struct th_console_cell){ c->attack, c->payload, token };
	th_console_classify(log, len, &cc, end, end == TH_BOOT_FAILED ? "as its log says" : NULL, &v);
	free(log);
	if (v.outcome != c->outcome) {
		snprintf(got, sizeof(got), "%s", th_outcome_name(v.outcome) ? th_outcome_name(v.outcome) : "?");
		snprintf(why, n, "%s, classified again, is %s, not %s: %.300s", path, got,
			 th_outcome_name(c->outcome) ? th_outcome_name(c->outcome) : "?", v.evidence);
		return -1;
	}
	return 0;
}
