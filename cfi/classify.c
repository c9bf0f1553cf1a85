/* SPDX-License-Identifier: MIT */
#include "classify.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_table.h"
#include "elf_traps.h"
#include "obs_text.h"
#include "trap_report.h"

#define LINE_MAX_ 1024

const char *th_signal_name(int sig, char *buf, size_t n)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGILL, "SIGILL" },   { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" },
		{ SIGTRAP, "SIGTRAP" }, { SIGFPE, "SIGFPE" },   { SIGABRT, "SIGABRT" },
		{ SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" }, { SIGSYS, "SIGSYS" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGINT, "SIGINT" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig) {
			snprintf(buf, n, "%s", names[i].name);
			return buf;
		}
	snprintf(buf, n, "SIG%d", sig);
	return buf;
}

/* "key=value" field of a TH-TRAP line; value copied up to the next blank. */
static int trap_field(const char *line, const char *key, char *val, size_t n)
{
	size_t klen = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p += klen) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			size_t len = strcspn(p + klen + 1, " \t\r\n");

			if (len >= n)
				return -1;
			memcpy(val, p + klen + 1, len);
			val[len] = 0;
			return 0;
		}
	}
	return -1;
}

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (strncmp(s, "0x", 2))
		return -1;
	*v = strtoull(s + 2, &end, 16);
	return (end == s + 2 || *end) ? -1 : 0;
}

int th_parse_trap_line(const char *line, struct th_trap_line *t)
{
	char v[64];
	char *end;

	memset(t, 0, sizeof(*t));
	if (strncmp(line, TH_TRAP_PREFIX, TH_TRAP_PREFIX_LEN))
		return -1;
	if (trap_field(line, "sig", v, sizeof(v)))
		return -1;
	t->sig = (int)strtol(v, &end, 10);
	if (end == v || *end || t->sig <= 0)
		return -1;
	if (trap_field(line, "name", t->name, sizeof(t->name)))
		return -1;
	if (trap_field(line, "pc", v, sizeof(v)) || parse_hex(v, &t->pc))
		return -1;
	if (trap_field(line, "ehdr", v, sizeof(v)) || parse_hex(v, &t->ehdr))
		return -1;
	if (trap_field(line, "addr", v, sizeof(v)) || parse_hex(v, &t->addr))
		return -1;
	if (trap_field(line, "bytes", v, sizeof(v)))
		return -1;
	if (strcmp(v, "??")) {
		size_t len = strlen(v);

		if (len % 2 || len > 8 || !len)
			return -1;
		for (size_t i = 0; i < len / 2; i++) {
			char byte[3] = { v[2 * i], v[2 * i + 1], 0 };

			t->bytes[i] = (unsigned char)strtoul(byte, &end, 16);
			if (*end)
				return -1;
		}
		t->nbytes = len / 2;
	}
	return 0;
}

int th_find_trap(const char *out, struct th_trap_line *t)
{
	const char *pos = out;
	char line[LINE_MAX_];

	while (th_next_line(&pos, line, sizeof(line)))
		if (!strncmp(line, TH_TRAP_PREFIX, TH_TRAP_PREFIX_LEN) &&
		    !th_parse_trap_line(line, t))
			return 1;
	return 0;
}

/* What the child said on stdout. */
struct scan {
	int target, chosen;
	char target_detail[256];
	int landed;
	char landed_detail[160];
	int legit;
	char legit_detail[160];
	int legit_wrong;	/* the legitimate callback ran on something else */
	char legit_wrong_detail[160];
	int done;
	char done_detail[160];
	char last[160]; /* last protocol line, for a hang */
	int have_trap;	/* the first well-formed TH-TRAP line (as th_find_trap) */
	struct th_trap_line trap;
};

static void scan_out(const char *out, struct scan *s)
{
	const char *pos = out;
	char line[LINE_MAX_];

	memset(s, 0, sizeof(*s));
	while (th_next_line(&pos, line, sizeof(line))) {
		if (!strncmp(line, "TH-", 3))
			th_trim_copy(s->last, sizeof(s->last), line);
		if (!strncmp(line, "TH-TARGET: ", 11)) {
			int chosen = !!strstr(line, " chosen=1");

			/* The most severe target line decides: any chosen=1. */
			if (!s->target || (chosen && !s->chosen))
				th_trim_copy(s->target_detail, sizeof(s->target_detail), line + 11);
			s->target = 1;
			s->chosen |= chosen;
		} else if (!strncmp(line, "TH-LANDED: ", 11) && !s->landed) {
			s->landed = 1;
			th_trim_copy(s->landed_detail, sizeof(s->landed_detail), line + 11);
		} else if (!strncmp(line, "TH-LEGIT: intended=1", 20) && !s->legit) {
			s->legit = 1;
			th_trim_copy(s->legit_detail, sizeof(s->legit_detail), line + 10);
		} else if (!strncmp(line, "TH-LEGIT: intended=0", 20) && !s->legit_wrong) {
			s->legit_wrong = 1;
			th_trim_copy(s->legit_wrong_detail, sizeof(s->legit_wrong_detail), line + 10);
		} else if (!strncmp(line, "TH-DONE:", 8)) {
			s->done = 1;
			th_trim_copy(s->done_detail, sizeof(s->done_detail), line + 8);
		} else if (!s->have_trap && !strncmp(line, TH_TRAP_PREFIX, TH_TRAP_PREFIX_LEN)) {
			s->have_trap = !th_parse_trap_line(line, &s->trap);
		}
	}
}

/* "/long/path/file.c:12:3: runtime error: X" -> "file.c:12:3: runtime error: X". */
static void trim_diag(char *dst, size_t n, const char *line)
{
	const char *re = strstr(line, ": runtime error: ");
	const char *base = line;

	if (re)
		for (const char *p = line; p < re; p++)
			if (*p == '/')
				base = p + 1;
	th_trim_copy(dst, n, base);
}

static int cfi_diagnostic(const char *err, char *ev, size_t n)
{
	static const char *const needles[] = {
		TH_REPORT_CFI_DIAG,
		TH_REPORT_FUNCTION,
	};
	char line[LINE_MAX_];

	for (size_t i = 0; i < sizeof(needles) / sizeof(needles[0]); i++)
		if (th_find_line(err, needles[i], 0, line, sizeof(line))) {
			trim_diag(ev, n, line);
			return 1;
		}
	return 0;
}

/* ASan kinds that are a crash it caught, not an overflow it detected. */
static int asan_crash_kind(const char *kind)
{
	static const char *const kinds[] = { "SEGV", "BUS", "ILL", "FPE", "TRAP", "ABRT",
					     "stack-overflow", "deadly" };
	size_t len = strcspn(kind, " ");

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (len == strlen(kinds[i]) && !strncmp(kind, kinds[i], len))
			return 1;
	return 0;
}

/* Return: 1 memory-safety report (DETECTED), 2 an ASan crash report, 0 none. */
static int memory_report(const char *err, char *ev, size_t n)
{
	char line[LINE_MAX_], access[128];

	if (th_find_line(err, TH_REPORT_ASAN, 0, line, sizeof(line))) {
		/* p: "AddressSanitizer: <kind> ...", without "ERROR: ". */
		const char *p = strstr(line, TH_REPORT_ASAN) + strlen("ERROR: ");
		char *at = strstr(line, " at pc "); /* addresses of no interest */

		if (at)
			*at = 0;
		if (asan_crash_kind(p + strlen("AddressSanitizer: "))) {
			th_trim_copy(ev, n, p);
			return 2;
		}
		/* "WRITE of size 40 at 0x... thread T0": the access that was stopped. */
		if ((th_find_line(err, "WRITE of size ", 1, access, sizeof(access)) ||
		     th_find_line(err, "READ of size ", 1, access, sizeof(access))) &&
		    (at = strstr(access, " at ")))
			*at = 0;
		else
			access[0] = 0;
		snprintf(ev, n, "%s%s%s%s", p, access[0] ? " (" : "", access,
			 access[0] ? ")" : "");
		th_trim_copy(ev, n, ev);
		return 1;
	}
	if (th_find_line(err, TH_REPORT_BOUNDS, 0, line, sizeof(line)) &&
	    strstr(line, TH_REPORT_BOUNDS_ALSO)) {
		trim_diag(ev, n, line);
		return 1;
	}
	if (th_find_line(err, TH_REPORT_FIELD_SPANNING, 0, line, sizeof(line)) ||
	    th_find_line(err, TH_REPORT_GLIBC_FORTIFY, 0, line, sizeof(line))) {
		th_trim_copy(ev, n, line);
		return 1;
	}
	return 0;
}

/* A trap with a pc: proven CFI site (1, ev says which) or not (0, ev says what). */
static int prove_trap(const struct th_child_obs *obs, const struct th_trap_line *t, char *ev,
		      size_t n)
{
	const struct th_config_info *c = th_config_find(obs->config);
	unsigned proofs = TH_PROOF_KCFI;
	struct th_trap_proof pr;

	if (th_config_cfi_icall_trap_mode(c))
		proofs |= TH_PROOF_CFI_ICALL;
	if (th_elf_prove_cfi_site(obs->binary, t->pc, t->ehdr, proofs, TH_CFI_SITE_FUNC, t->bytes,
				  t->nbytes, &pr)) {
		snprintf(ev, n, "%s %s at 0x%" PRIx64 " in %s: %s", t->name,
			 pr.insn[0] ? pr.insn : "trap", pr.vaddr, pr.func[0] ? pr.func : "?",
			 pr.kind == TH_SITE_KCFI ? "kcfi check site (.kcfi_traps)"
						 : "cfi-icall check site (trap mode)");
		return 1;
	}
	snprintf(ev, n, "%s at pc 0x%" PRIx64 " (0x%" PRIx64 "%s%s), not a proven CFI check site: %s",
		 t->name, t->pc, pr.vaddr, pr.func[0] ? " in " : "", pr.func, pr.why);
	return 0;
}

/* The decided outcome: ev, with "; landed: <detail>" when the child said whether
 * its write landed, into evidence. In a control run a defence that stopped the
 * run (BLOCKED_CFI, DETECTED) stopped a legitimate call: FALSE_POSITIVE. */
static enum th_outcome decide(enum th_outcome o, const struct scan *s, int is_control, char *ev,
			      size_t evn, char *evidence, size_t n)
{
	size_t len = strlen(ev);

	if (s->landed && len + 12 < evn)
		snprintf(ev + len, evn - len, "; landed: %s", s->landed_detail);
	th_trim_copy(evidence, n, ev);
	if (is_control && (o == TH_BLOCKED_CFI || o == TH_DETECTED)) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "control run stopped by %s: %s",
			 o == TH_BLOCKED_CFI ? "CFI" : "a memory-safety check", evidence);
		th_trim_copy(evidence, n, tmp);
		return TH_FALSE_POSITIVE;
	}
	return o;
}

enum th_outcome th_classify(const struct th_child_obs *obs, int is_control, char *evidence,
			    size_t n)
{
	const char *out = obs->out ? obs->out : "", *err = obs->err ? obs->err : "";
	char ev[512], trap_ev[512], sig[16];
	struct scan s;
	const struct th_trap_line *t = &s.trap;
	enum th_outcome o = TH_CRASHED;
	int death_trap, ill_trap, mem;

	if (!n)
		return TH_OUTCOME_INVALID;
	ev[0] = trap_ev[0] = 0;
	scan_out(out, &s);
	/* A TH-TRAP line for the signal that killed the child; SIGILL/SIGTRAP: maybe a check. */
	death_trap = obs->signaled && s.have_trap && t->sig == obs->signo;
	ill_trap = death_trap && (t->sig == SIGILL || t->sig == SIGTRAP);

	if (s.target) {
		snprintf(ev, sizeof(ev), "target ran: %s", s.target_detail);
		return decide(s.chosen ? TH_HIJACKED : TH_REDIRECTED, &s, is_control, ev, sizeof(ev),
			      evidence, n);
	}
	if (obs->timed_out) {
		snprintf(ev, sizeof(ev), "no exit after %.1f s; last: %s", obs->seconds,
			 s.last[0] ? s.last : "(no protocol line)");
		th_trim_copy(evidence, n, ev);
		return TH_HANG;
	}
	if (cfi_diagnostic(err, ev, sizeof(ev)))
		return decide(TH_BLOCKED_CFI, &s, is_control, ev, sizeof(ev), evidence, n);
	/* The binary is read once: trap_ev says which site, or why it is not proven. */
	if (ill_trap && prove_trap(obs, t, trap_ev, sizeof(trap_ev)))
		return decide(TH_BLOCKED_CFI, &s, is_control, trap_ev, sizeof(trap_ev), evidence,
			      n);
	mem = memory_report(err, ev, sizeof(ev));
	if (mem == 1)
		return decide(TH_DETECTED, &s, is_control, ev, sizeof(ev), evidence, n);

	/* From here: no defence named itself. */
	if (mem == 2) {
		/* ev: the ASan crash line. */
	} else if (ill_trap) {
		snprintf(ev, sizeof(ev), "%s", trap_ev);
	} else if (death_trap) {
		struct th_trap_proof pr;

		/* Not a proof attempt: only the function name for the evidence. */
		th_elf_prove_cfi_site(obs->binary, t->pc, t->ehdr, 0, NULL, NULL, 0, &pr);
		snprintf(ev, sizeof(ev), "%s at pc 0x%" PRIx64 "%s%s addr 0x%" PRIx64, t->name,
			 t->pc, pr.func[0] ? " in " : "", pr.func, t->addr);
	} else if (obs->signaled && s.have_trap) {
		snprintf(ev, sizeof(ev), "killed by %s after a TH-TRAP line for %s",
			 th_signal_name(obs->signo, sig, sizeof(sig)), t->name);
	} else if (obs->signaled) {
		snprintf(ev, sizeof(ev), "killed by %s (no TH-TRAP line)",
			 th_signal_name(obs->signo, sig, sizeof(sig)));
	} else if (!obs->exited) {
		snprintf(ev, sizeof(ev), "no exit status observed");
	} else if (!s.done) {
		snprintf(ev, sizeof(ev), "exit %d without TH-DONE; last: %s", obs->exit_code,
			 s.last[0] ? s.last : "(no protocol line)");
	} else if (obs->exit_code != 0) {
		snprintf(ev, sizeof(ev), "exit %d after TH-DONE", obs->exit_code);
	} else if (s.legit) {
		o = TH_NO_EFFECT;
		snprintf(ev, sizeof(ev), "legitimate callback ran: %s", s.legit_detail);
	} else if (s.legit_wrong) {
		/* Not the attacker's target, not a defence: the callback ran on a
		 * corrupted argument and the process survived. Said as it is. */
		o = TH_NO_EFFECT;
		snprintf(ev, sizeof(ev), "the attacker's target did not run; the legitimate callback ran on a corrupted argument: %s",
			 s.legit_wrong_detail);
	} else {
		o = TH_NO_EFFECT;
		snprintf(ev, sizeof(ev), "finished, but the legitimate callback did not run: %s",
			 s.done_detail[0] ? s.done_detail : "(TH-DONE without detail)");
	}
	return decide(o, &s, is_control, ev, sizeof(ev), evidence, n);
}
