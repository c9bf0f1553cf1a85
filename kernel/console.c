// SPDX-License-Identifier: MIT
/*
 * Console classification (console.h). One pass collects the facts, in
 * console order; then the rules below decide, most severe first. Every rule
 * names the line it rests on in the evidence.
 */
#include "kernel/console.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TH_LINE_MAX	1024

struct facts {
	long cell_line, write_line, end_line;	/* line numbers; -1: not seen */
	bool cell_mismatch, unknown, setup_failed, missed, none_write;
	char setup[TH_LINE_MAX], write[TH_LINE_MAX];
	/* The first call_timer_fn call after the write, and its return. */
	long call_line, return_line;
	char call[TH_LINE_MAX];
	char legit[96];
	bool woken;			/* the sleeper woke: nothing but the payload wakes it */
	char woken_line[TH_LINE_MAX];
	bool uid_changed;
	char cred_line[TH_LINE_MAX];
	bool released;
	char state[TH_LINE_MAX];
	int pending;			/* from STATE: -1 unknown */
	int calls;
	/* The kernel's own, after the write. */
	long cfi_line, oops_line, panic_line;
	char cfi[TH_LINE_MAX], oops[TH_LINE_MAX], rip[96];
	bool userspace;
	char last[TH_LINE_MAX];		/* the last non-empty line, for HARNESS_ERROR */
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

/* "[    1.234567] " (CONFIG_PRINTK_TIME) before a kernel line. */
static const char *skip_time(const char *s)
{
	const char *p = s;

	if (*p != '[')
		return s;
	for (p++; *p == ' ' || (*p >= '0' && *p <= '9') || *p == '.'; p++)
		;
	if (*p != ']')
		return s;
	return p[1] == ' ' ? p + 2 : p + 1;
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

static void unit_line(struct facts *f, const char *s, long ln, const struct th_console_cell *c)
{
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
		f->write_line = ln;
		snprintf(f->write, sizeof(f->write), "%s", s);
	} else if (starts(s, "WRITE missed")) {
		f->missed = true;
		snprintf(f->write, sizeof(f->write), "%s", s);
	} else if (starts(s, "WRITE none")) {
		f->write_line = ln;
		f->none_write = true;
		snprintf(f->write, sizeof(f->write), "%s", s);
	} else if (starts(s, "CALL call_timer_fn -> ")) {
		f->calls++;
		if (f->call_line < 0 && f->write_line >= 0) {
			f->call_line = ln;
			snprintf(f->call, sizeof(f->call), "%s", s + strlen("CALL call_timer_fn -> "));
		}
	} else if (starts(s, "RETURN call_timer_fn")) {
		if (f->call_line >= 0 && f->return_line < 0)
			f->return_line = ln;
	} else if (starts(s, "EFFECT th-sleeper woken")) {
		f->woken = true;
		snprintf(f->woken_line, sizeof(f->woken_line), "%s", s);
	} else if (starts(s, "EFFECT cred ")) {
		const char *u = strstr(s, " uid=");

		snprintf(f->cred_line, sizeof(f->cred_line), "%s", s);
		f->uid_changed = u && strncmp(u + 5, "1000 ", 5);
	} else if (starts(s, "STATE neighbour ")) {
		f->released = strstr(s, " released=1") != NULL;
	} else if (starts(s, "STATE calls=")) {
		const char *p = strstr(s, " pending=");

		snprintf(f->state, sizeof(f->state), "%s", s);
		f->pending = p ? (p[9] == '1') : -1;
	} else if (starts(s, "END ")) {
		if (f->end_line < 0)
			f->end_line = ln;
	}
}

static void kernel_line(struct facts *f, const char *s, long ln)
{
	const char *p;

	if (starts(s, "timerharness-init: userspace reached"))
		f->userspace = true;
	if (f->write_line < 0)
		return;		/* before the write, nothing is the attack's */
	if ((p = strstr(s, "CFI failure at ")) && f->cfi_line < 0) {
		f->cfi_line = ln;
		snprintf(f->cfi, sizeof(f->cfi), "%s", p);
	} else if (f->oops_line < 0 && is_oops(s)) {
		f->oops_line = ln;
		snprintf(f->oops, sizeof(f->oops), "%s", s);
	} else if (f->oops_line >= 0 && !f->rip[0] && (p = strstr(s, "RIP: 0010:"))) {
		symbol_at(f->rip, sizeof(f->rip), p + strlen("RIP: 0010:"));
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
		s = skip_time(line);
		if (!*s)
			continue;
		snprintf(f->last, sizeof(f->last), "%s", s);
		if (c->token[0] && !strncmp(s, prefix, plen))
			unit_line(f, s + plen, ln, c);
		else if (!starts(s, "timerharness "))
			kernel_line(f, s, ln);
	}
}

static void say(struct th_console_verdict *v, enum th_outcome o, const char *fmt, ...)
{
	va_list ap;

	v->outcome = o;
	va_start(ap, fmt);
	vsnprintf(v->evidence, sizeof(v->evidence), fmt, ap);
	va_end(ap);
}

void th_console_classify(const char *log, size_t n, const struct th_console_cell *cell,
			 enum th_boot_end end, const char *qemu_error,
			 struct th_console_verdict *v)
{
	struct facts f;
	bool attacker_call;

	memset(v, 0, sizeof(*v));
	memset(&f, 0, sizeof(f));
	f.cell_line = f.write_line = f.end_line = f.call_line = f.return_line = -1;
	f.cfi_line = f.oops_line = f.panic_line = -1;
	f.pending = -1;
	if (log && n)
		collect(&f, log, n, cell);
	v->unit_seen = f.cell_line >= 0;
	v->write_landed = f.write_line >= 0 && !f.none_write;
	v->cfi_failure = f.cfi_line >= 0;
	v->oops = f.oops_line >= 0;
	v->userspace = f.userspace;
	snprintf(v->legit, sizeof(v->legit), "%s", f.legit);
	snprintf(v->rip, sizeof(v->rip), "%s", f.rip);
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

	attacker_call = f.call_line >= 0 && strcmp(v->call_target, f.legit) != 0;

	/* ---- what the kernel did, most severe first ---- */
	if (f.uid_changed) {
		say(v, TH_PRIVILEGED_WRITE, "no call redirected; the wheel's own list code wrote the cred: %.200s%s%.100s",
		    f.cred_line, f.oops_line >= 0 ? "; then: " : "", f.oops_line >= 0 ? f.oops : "");
		return;
	}
	if (attacker_call && (f.return_line >= 0 || (f.cfi_line > f.call_line &&
						    !strstr(f.cfi, "CFI failure at call_timer_fn")))) {
		if (f.woken)
			say(v, TH_HIJACKED, "call_timer_fn called %.100s, which woke the task the attacker wrote after the timer: %.200s",
			    v->call_target, f.woken_line);
		else if (f.return_line >= 0)
			say(v, TH_REDIRECTED, "call_timer_fn called %.100s with the timer, and it returned%s",
			    v->call_target, f.released ? " (it marked the neighbour released)" : "");
		else
			say(v, TH_REDIRECTED, "call_timer_fn called %.100s with the timer; kCFI then stopped its own indirect call: %.250s",
			    v->call_target, f.cfi);
		return;
	}
	if (f.cfi_line >= 0) {
		if (f.none_write)
			say(v, TH_FALSE_POSITIVE, "control run, yet kCFI stopped a call: %.300s", f.cfi);
		else
			say(v, TH_BLOCKED_CFI, "%.400s", f.cfi);
		return;
	}
	if (f.oops_line >= 0) {
		if (attacker_call)
			say(v, TH_CRASHED, "call_timer_fn called %.100s, then: %.200s%s%s",
			    v->call_target, f.oops, f.rip[0] ? " at " : "", f.rip);
		else
			say(v, TH_CRASHED, "%.300s%s%s", f.oops, f.rip[0] ? " at " : "", f.rip);
		return;
	}
	if (attacker_call && end == TH_BOOT_TIMEOUT) {
		/* The kernel's own tracepoint saw the attacker's target entered;
		 * then nothing, not even an oops, until the host's time limit. */
		say(v, TH_HANG, "call_timer_fn called %.100s, which never returned: no line, oops or panic from the kernel after it (10 s of silence, or the time limit)",
		    v->call_target);
		return;
	}
	if (attacker_call) {
		say(v, TH_HARNESS_ERROR, "call_timer_fn called %.100s, which never returned, and the boot ended with no oops",
		    v->call_target);
		return;
	}
	if (f.end_line < 0) {
		say(v, TH_HARNESS_ERROR, "the unit never finished the cell (%s); last line: %.200s",
		    end == TH_BOOT_TIMEOUT ? "time limit reached" : "boot ended", f.last);
		return;
	}
	if (f.call_line >= 0) {
		say(v, TH_NO_EFFECT, "call_timer_fn called the legitimate %.100s", v->call_target);
		return;
	}
	if (f.pending == 0)
		say(v, TH_TIMER_LOST, "the timer left the wheel without a call: %.200s", f.state);
	else
		say(v, TH_NO_EFFECT, "the timer was never called within the unit's wait: %.200s", f.state);
}
