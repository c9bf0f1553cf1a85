/* SPDX-License-Identifier: MIT */
#include "classify.h"

#include <elf.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/x86_cr4.h"
#include "binread/binread.h"
#include "evidence.h"
#include "obs_text.h"

#define EV 512

int th_protocol_line(const struct th_child_obs *obs, const struct th_line *l, const char *kind,
		     const char **rest, size_t *rest_len)
{
	char head[64];
	int len = snprintf(head, sizeof(head), "TH-%s: run=%s", kind, obs->token);

	if (!l->complete || l->has_nul || len < 0 || (size_t)len >= sizeof(head) ||
	    !obs->token[0] || !th_line_starts(l, head))
		return 0;
	if (l->len > (size_t)len && l->p[len] != ' ')
		return 0;
	*rest = l->p + len + (l->len > (size_t)len);
	*rest_len = l->len - (size_t)len - (l->len > (size_t)len);
	return 1;
}

int th_is_legit_callback(const char *name)
{
	return name && (!strcmp(name, TH_LEGIT_CALLBACK) || !strcmp(name, TH_LEGIT_CALLBACK_NEIGHBOUR) ||
			!strcmp(name, TH_LEGIT_TASKLET_NEIGHBOUR) || !strcmp(name, TH_LEGIT_TASKLET_HSO));
}

/* ---- stdout: the protocol ---------------------------------------------------------------- */

struct scan {
	int target, chosen;
	char target_detail[256];
	int landed;
	char landed_detail[200];
	int legit;
	char legit_detail[160];
	int legit_wrong;		/* the legitimate callback ran on something else */
	char legit_wrong_detail[160];
	int done;
	char done_detail[160];
	char last[160];			/* the last protocol line, for a hang */
	char last_note[200];		/* the last TH-NOTE's text, for a BUG() */
	unsigned foreign;		/* TH- lines without this run's token */
};

/* "name=<ident> chosen=<0|1>" then the end or a blank: exactly, in order. */
static int parse_target(const char *p, size_t n, int *chosen)
{
	size_t i = 5, start;

	if (n < 5 || memcmp(p, TH_PROTO_TARGET_NAME, 5))
		return -1;
	start = i;
	while (i < n && (p[i] == '_' || p[i] == '.' || (p[i] >= 'a' && p[i] <= 'z') ||
			 (p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9')))
		i++;
	if (i == start || n - i < 9 || memcmp(p + i, TH_PROTO_TARGET_CHOSEN, 8))
		return -1;
	i += 8;
	if (p[i] != '0' && p[i] != '1')
		return -1;
	*chosen = p[i] == '1';
	i++;
	return i == n || p[i] == ' ' ? 0 : -1;
}

static void copy_rest(char *dst, size_t n, const char *p, size_t len)
{
	struct th_line l = { p, len, 1, 0 };

	th_line_text(&l, dst, n);
}

static void scan_out(const struct th_child_obs *obs, struct scan *s)
{
	const char *pos = obs->out, *end = obs->out ? obs->out + obs->out_len : NULL, *r;
	struct th_line l;
	size_t rl;

	memset(s, 0, sizeof(*s));
	while (th_line_next(&pos, end, &l)) {
		int chosen;

		if (!th_line_starts(&l, "TH-"))
			continue;
		if (th_protocol_line(obs, &l, "TARGET", &r, &rl)) {
			if (parse_target(r, rl, &chosen))
				continue;
			/* The most severe target line decides: any chosen=1. */
			if (!s->target || (chosen && !s->chosen))
				copy_rest(s->target_detail, sizeof(s->target_detail), r, rl);
			s->target = 1;
			s->chosen |= chosen;
		} else if (th_protocol_line(obs, &l, "LANDED", &r, &rl)) {
			if (!s->landed)
				copy_rest(s->landed_detail, sizeof(s->landed_detail), r, rl);
			s->landed = 1;
		} else if (th_protocol_line(obs, &l, "LEGIT", &r, &rl)) {
			int intended = rl >= 10 && !memcmp(r, "intended=", 9) &&
				       (rl == 10 || r[10] == ' ') ? r[9] - '0' : -1;

			if (intended == 1 && !s->legit) {
				s->legit = 1;
				copy_rest(s->legit_detail, sizeof(s->legit_detail), r, rl);
			} else if (intended == 0 && !s->legit_wrong) {
				s->legit_wrong = 1;
				copy_rest(s->legit_wrong_detail, sizeof(s->legit_wrong_detail), r, rl);
			}
		} else if (th_protocol_line(obs, &l, "DONE", &r, &rl)) {
			s->done = 1;
			copy_rest(s->done_detail, sizeof(s->done_detail), r, rl);
		} else if (th_protocol_line(obs, &l, "NOTE", &r, &rl)) {
			copy_rest(s->last_note, sizeof(s->last_note), r, rl);
		} else if (!th_protocol_line(obs, &l, "TRAP", &r, &rl)) {
			s->foreign++;
			continue;
		}
		th_line_text(&l, s->last, sizeof(s->last));
	}
}

/* ---- stderr: the sanitizer runtimes --------------------------------------------------- */

int th_diag_at(const struct th_child_obs *obs, const struct th_guard *g, const char *what,
	       char *line, size_t n)
{
	char loc[400];
	const char *pos = obs->err, *end = obs->err ? obs->err + obs->err_len : NULL;
	struct th_line l;

	if (!g->file[0])
		return 0;
	snprintf(loc, sizeof(loc), TH_EV_DIAG_LOC, g->file, g->line, g->column);
	while (th_line_next(&pos, end, &l)) {
		const char *w = l.complete && th_line_starts(&l, loc) ? th_line_find(&l, what) : NULL;

		if (w && (size_t)(w - l.p) == strlen(loc)) {
			/* "legacy.c:22:2: runtime error: ..." without the directories. */
			const char *base = strrchr(g->file, '/');
			struct th_line t = l;

			if (base) {
				t.p += base + 1 - g->file;
				t.len -= (size_t)(base + 1 - g->file);
			}
			th_line_text(&t, line, n);
			return 1;
		}
	}
	return 0;
}

/* ASan kinds that are a crash it caught, not an overflow it detected. */
static int asan_crash_kind(const char *kind, size_t len)
{
	static const char *const kinds[] = { "SEGV", "BUS", "ILL", "FPE", "TRAP", "ABRT",
					     "stack-overflow", "deadly" };
	size_t k = 0;

	while (k < len && kind[k] != ' ')
		k++;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (k == strlen(kinds[i]) && !memcmp(kind, kinds[i], k))
			return 1;
	return 0;
}

/* Is the line "<file>:<line>:<col>: runtime error: <what>..."? */
static int runtime_error(const struct th_line *l, const char *what)
{
	const char *re = th_line_find(l, TH_REPORT_RUNTIME_ERROR);
	const char *p;
	int colons = 0;

	if (!re || re == l->p || (size_t)(l->p + l->len - re) < strlen(TH_REPORT_RUNTIME_ERROR) + strlen(what) ||
	    memcmp(re + strlen(TH_REPORT_RUNTIME_ERROR), what, strlen(what)))
		return 0;
	/* ":<line>:<col>" right before it, digits only. */
	for (p = re - 1; p > l->p && colons < 2; p--) {
		if (*p == ':')
			colons++;
		else if (*p < '0' || *p > '9')
			return 0;
	}
	return colons == 2;
}

/* The evidence form of a diagnostic: the source file's base name onwards. */
static void diag_text(const struct th_line *l, char *ev, size_t n)
{
	const char *re = th_line_find(l, TH_REPORT_RUNTIME_ERROR), *base = l->p;
	struct th_line t = *l;

	for (const char *p = l->p; re && p < re; p++)
		if (*p == '/')
			base = p + 1;
	t.p = base;
	t.len = l->len - (size_t)(base - l->p);
	th_line_text(&t, ev, n);
}

/* ASan's report of a fault it caught (SEGV, ILL, ...: a crash, not an
 * overflow it detected), tied to this run: its kind line into @ev.
 * Return: 1 if there is one. */
static int asan_crash(const struct th_child_obs *obs, char *ev, size_t n)
{
	const char *pos = obs->err, *end = obs->err ? obs->err + obs->err_len : NULL;
	char head[48];
	struct th_line l;

	if (!obs->exited || obs->exit_code != obs->san_exitcode)
		return 0;
	snprintf(head, sizeof(head), "==%d==" TH_REPORT_ASAN, (int)obs->pid);
	while (th_line_next(&pos, end, &l)) {
		struct th_line k;

		if (!l.complete || !th_line_starts(&l, head))
			continue;
		k.p = l.p + strlen(head);
		k.len = l.len - strlen(head);
		k.complete = 1;
		k.has_nul = 0;
		if (!k.len || !asan_crash_kind(k.p, k.len))
			return 0;
		th_line_text(&k, ev, n);
		return 1;
	}
	return 0;
}

/* Return: 1 a memory-safety report tied to this run (DETECTED), 0 none. */
static int memory_report(const struct th_child_obs *obs, char *ev, size_t n)
{
	const char *pos = obs->err, *end = obs->err ? obs->err + obs->err_len : NULL;
	char head[48], line[400], access[160] = "";
	struct th_line l;
	int asan = obs->exited && obs->exit_code == obs->san_exitcode, ubsan = asan;
	int abrt = obs->signaled && obs->signo == SIGABRT;

	snprintf(head, sizeof(head), "==%d==" TH_REPORT_ASAN, (int)obs->pid);
	while (asan && th_line_next(&pos, end, &l)) {
		const char *kind;
		size_t klen;

		if (!l.complete || !th_line_starts(&l, head))
			continue;
		kind = l.p + strlen(head);
		klen = l.len - strlen(head);
		if (!klen || asan_crash_kind(kind, klen))
			return 0;
		/* "WRITE of size 40 at 0x... thread T0": the access that was stopped. */
		if (th_find_line(obs->err, obs->err_len, "WRITE of size ", 1, access, sizeof(access)) ||
		    th_find_line(obs->err, obs->err_len, "READ of size ", 1, access, sizeof(access))) {
			char *at = strstr(access, " at ");

			if (at)
				*at = 0;
		}
		l.p = kind;
		l.len = klen;
		th_line_text(&l, line, sizeof(line));
		if (strstr(line, " at pc "))
			*strstr(line, " at pc ") = 0;
		snprintf(ev, n, TH_EV_ASAN "%s%s%s%s", line, access[0] ? " (" : "", access,
			 access[0] ? ")" : "");
		return 1;
	}
	for (pos = obs->err; ubsan && th_line_next(&pos, end, &l);)
		if (l.complete && runtime_error(&l, TH_REPORT_BOUNDS) &&
		    th_line_find(&l, TH_REPORT_BOUNDS_ALSO)) {
			diag_text(&l, ev, n);
			return 1;
		}
	if (abrt && (th_find_line(obs->err, obs->err_len, TH_REPORT_FIELD_SPANNING, 1, line, sizeof(line)) ||
		     th_find_line(obs->err, obs->err_len, TH_REPORT_GLIBC_FORTIFY, 1, line, sizeof(line)))) {
		th_trim_copy(ev, n, line);
		return 1;
	}
	return 0;
}

/* ---- the process, through ptrace -------------------------------------------------------- */

void th_name_target(const struct th_bin *b, uint64_t vaddr, char *buf, size_t n, int *exact)
{
	const struct th_sym *f = b ? th_bin_func_at(b, vaddr) : NULL;

	*exact = f != NULL;
	if (f) {
		snprintf(buf, n, "%s", f->name);
		return;
	}
	f = b ? th_bin_func_containing(b, vaddr) : NULL;
	if (f) {
		snprintf(buf, n, "%s+0x%" PRIx64, f->name, vaddr - f->addr);
		return;
	}
	for (size_t i = 0; b && i < th_bin_nsyms(b); i++) {
		const struct th_sym *s = th_bin_sym(b, i);

		if (s->type == STT_OBJECT && !s->absolute && vaddr >= s->addr && vaddr - s->addr < s->size) {
			if (vaddr == s->addr)
				snprintf(buf, n, "%s (data)", s->name);
			else
				snprintf(buf, n, "%s+0x%" PRIx64 " (data)", s->name, vaddr - s->addr);
			return;
		}
	}
	snprintf(buf, n, "0x%" PRIx64, vaddr);
}

/*
 * A SIGSEGV the kernel raised for #GP (si_code SI_KERNEL) at a MOV to CR4 of
 * the binary itself: the victim's native_write_cr4 refused a value
 * (attacks/victim.c), named from what the process held, the instruction's
 * bytes at pc and its source register, never from what it printed.
 */
static int gp_at_mov_cr4(const struct th_child_obs *obs, const char *where, char *ev, size_t n)
{
	static const char *const reg_name[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp",
						  "rsi", "rdi", "r8",  "r9",  "r10", "r11",
						  "r12", "r13", "r14", "r15" };
	const struct th_trap_obs *t = &obs->trap;
	char why[160];
	uint64_t v;
	int reg;

	if (t->sig != SIGSEGV || t->code != SI_KERNEL || t->file_bytes_match != 1 ||
	    !th_x86_mov_to_cr4(t->bytes, t->nbytes, &reg))
		return 0;
	v = t->regs[reg];
	if (th_x86_cr4_gp(v, why, sizeof(why)))
		snprintf(ev, n, "#GP(0) at pc 0x%" PRIx64 " (%s): mov %%%s,%%cr4 of 0x%" PRIx64 ", %s "
			 "(Intel SDM Vol. 3A 2.5, MOV to CR4's #GP(0)): native_write_cr4 oopses, in the "
			 "timer softirq a panic; CR4 unchanged", t->pc, where, reg_name[reg], v, why);
	else
		snprintf(ev, n, "#GP(0) at pc 0x%" PRIx64 " (%s): mov %%%s,%%cr4 of 0x%" PRIx64 ", a value "
			 "the CPU loads: the model's check was jumped over (user mode cannot load CR4)",
			 t->pc, where, reg_name[reg], v);
	return 1;
}

/*
 * A SIGILL at a ud2 of the binary itself that no check guards: the victim's
 * BUG() (attacks/victim.c th_bug(), as include/asm-generic/bug.h's: an
 * invalid opcode, the kernel's oops). Named from the trap and the bytes at
 * pc; @note, the program's last TH-NOTE, is quoted as its narration of
 * which BUG it was, never as the proof.
 */
static int is_bug_ud2(const struct th_child_obs *obs)
{
	const struct th_trap_obs *t = &obs->trap;
	char err[256];
	struct th_bin *b;

	if (!obs->have_trap || t->sig != SIGILL || t->file_bytes_match != 1 || t->nbytes < 2 ||
	    t->bytes[0] != 0x0f || t->bytes[1] != 0x0b)
		return 0;
	/* kcfi's checks trap with ud2 too: one .kcfi_traps lists is a check. */
	b = th_bin_cached(obs->binary, err, sizeof(err));
	return b && !th_bin_is_kcfi_trap(b, t->vaddr);
}

static int bug_at_ud2(const struct th_child_obs *obs, const char *where, const char *note,
		      char *ev, size_t n)
{
	const struct th_trap_obs *t = &obs->trap;

	if (!is_bug_ud2(obs))
		return 0;
	snprintf(ev, n, "invalid opcode: ud2 at pc 0x%" PRIx64 " (%s), not a check%s%s%s: a BUG(), the "
		 "kernel's oops%s%s", t->pc, where, obs->site_func ? " guarding " : "",
		 obs->site_func ? obs->site_func : "", obs->site_func ? "'s indirect call" : "",
		 note[0] ? "; the program's last note: " : "", note);
	return 1;
}

/* What a trap that no defence owns was, named from the process: a BUG()'s
 * ud2, a MOV to CR4's #GP(0), or the signal at its pc. */
static void trap_text(const struct th_child_obs *obs, const char *note, char *ev, size_t n)
{
	char err[256], where[160], sig[16];
	struct th_bin *b = th_bin_cached(obs->binary, err, sizeof(err));
	int exact;

	th_name_target(b, obs->trap.vaddr, where, sizeof(where), &exact);
	if (!bug_at_ud2(obs, where, note, ev, n) && !gp_at_mov_cr4(obs, where, ev, n))
		snprintf(ev, n, "%s at pc 0x%" PRIx64 " (%s), address 0x%" PRIx64,
			 th_signal_name(obs->trap.sig, sig, sizeof(sig)), obs->trap.pc, where,
			 obs->trap.addr);
}

/* A fault that ended the process after a target ran or the privileged state
 * changed, with no defence's proof: in a kernel, an oops in the timer
 * softirq (die() panics in interrupt context) or in the switch after it. */
static int oops_after(const struct th_child_obs *obs)
{
	char ev[8];

	return (obs->signaled && (obs->signo == SIGSEGV || obs->signo == SIGBUS ||
				  obs->signo == SIGILL || obs->signo == SIGFPE ||
				  obs->signo == SIGTRAP)) ||
	       asan_crash(obs, ev, sizeof(ev));
}

/* The privileged state at exit against the binary's initial values. */
static int privileged_write(const struct th_child_obs *obs, char *ev, size_t n)
{
	size_t len = 0;
	int changed = 0;

	if (!obs->state_read)
		return 0;
	ev[0] = 0;
	for (size_t i = 0; i < obs->nstate; i++) {
		const struct th_state_obs *s = &obs->state[i];

		if (s->before == s->after)
			continue;
		len += (size_t)snprintf(ev + len, len < n ? n - len : 0, "%s" TH_EV_STATE_CHANGE,
					changed++ ? ", " : "", s->object, s->field, s->before, s->after);
		if (len >= n)
			len = n - 1;
	}
	return changed;
}

/*
 * Is the legitimate callback, stopped at guard g of site s, admitted by
 * another check of the same dispatch? Then the stop is not the check's
 * mistake but the attack's doing: the dispatch has a path of the
 * callback's type, and the write sent the call down another (6.1's
 * tasklet_action_common() with use_callback cleared calls a tasklet_setup()
 * callback as func(data)): BLOCKED_CFI, not FALSE_POSITIVE. A dispatch of
 * one path (call_timer_fn) has no other check: a stopped legitimate
 * callback is the check's own false positive there, as under the rc3 shim.
 */
static int another_check_admits(const struct th_func_sites *fs, const struct th_call_site *s,
				const struct th_guard *g, uint64_t file_target)
{
	for (size_t i = 0; i < fs->nsites; i++)
		for (size_t k = 0; k < fs->sites[i].nguards; k++) {
			const struct th_guard *o = &fs->sites[i].guards[k];

			if ((&fs->sites[i] == s && o == g) || (o->addr == g->addr && o->branch == g->branch))
				continue;
			if (th_guard_admits(&fs->sites[i], o, file_target, NULL) == 1)
				return 1;
		}
	return 0;
}

void th_cfi_prove(const struct th_child_obs *obs, struct th_cfi_proof *p)
{
	char err[256], sig[16], diag[300];
	const char *site_func = obs->site_func;
	const struct th_trap_obs *t = &obs->trap;
	const struct th_func_sites *fs;
	const struct th_call_site *s;
	const struct th_guard *g;
	struct th_bin *b;
	int exact = 0;
	size_t n = sizeof(p->ev);

	memset(p, 0, sizeof(*p));
	if (!obs->traced ||
	    (!obs->handler_hit && (!obs->have_trap || (t->sig != SIGILL && t->sig != SIGTRAP))))
		return; /* nothing that could be a check */
	if (!obs->site_func) {
		snprintf(p->ev, n, "%s at 0x%" PRIx64 ": no dispatch function was watched",
			 th_signal_name(t->sig, sig, sizeof(sig)), t->vaddr);
		return;
	}
	b = th_bin_cached(obs->binary, err, sizeof(err));
	fs = b ? th_bin_call_sites(b, site_func, err, sizeof(err)) : NULL;
	if (!fs) {
		snprintf(p->ev, n, "cannot read the check sites: %s", err);
		return;
	}
	snprintf(p->target, sizeof(p->target), "?");
	if (obs->handler_hit) {
		/* Diag mode: the guard's handler call, the runtime's own exit,
		 * its diagnostic at the guard's source location. */
		s = &fs->sites[obs->handler_site];
		g = &s->guards[obs->handler_guard];
		p->scheme = s->scheme;
		p->kind = g->kind;
		if (!obs->exited || obs->exit_code != obs->san_exitcode) {
			snprintf(p->ev, n, "%s called from %s at 0x%" PRIx64 ", but the process did not exit with the runtime's code %d",
				 g->handler, site_func, g->addr, obs->san_exitcode);
			return;
		}
		if (!th_diag_at(obs, g, s->scheme == TH_CFI_FUNCTION ? TH_REPORT_FUNCTION : TH_REPORT_CFI_DIAG,
				diag, sizeof(diag))) {
			snprintf(p->ev, n, "%s called from %s at 0x%" PRIx64 ", but no diagnostic at %s:%u:%u on stderr",
				 g->handler, site_func, g->addr, g->file, g->line, g->column);
			return;
		}
		if (obs->handler_target_known) {
			th_name_target(b, obs->handler_target - obs->bias, p->target, sizeof(p->target), &exact);
			p->legit = exact && th_is_legit_callback(p->target) &&
				   !another_check_admits(fs, s, g, obs->handler_target - obs->bias);
		}
		snprintf(p->ev, n, "%s" TH_EV_CFI_DIAG_AT, diag, site_func,
			 s->addr, p->target);
		p->proven = 1;
		return;
	}
	th_signal_name(t->sig, sig, sizeof(sig));
	s = t->site >= 0 && (size_t)t->site < fs->nsites ? &fs->sites[t->site] : NULL;
	g = s && t->guard >= 0 ? th_site_guard_at(s, t->vaddr) : NULL;
	if (!g) {
		const struct th_sym *f = th_bin_func_containing(b, t->vaddr);

		snprintf(p->ev, n, "%s at 0x%" PRIx64 " in %s: not a check guarding %s's indirect call",
			 sig, t->vaddr, f ? f->name : "no function", site_func);
		return;
	}
	p->scheme = s->scheme;
	p->kind = g->kind;
	if (g->kind != TH_GUARD_TRAP || t->file_bytes_match != 1) {
		snprintf(p->ev, n, "%s at 0x%" PRIx64 ": the bytes there differ from %s's: not the binary that ran",
			 sig, t->vaddr, obs->binary);
		return;
	}
	if (!obs->signaled || obs->signo != t->sig) {
		snprintf(p->ev, n, "%s at %s's check 0x%" PRIx64 ", but the process did not die by it",
			 sig, site_func, t->vaddr);
		return;
	}
	if (t->target_known) {
		th_name_target(b, t->target - obs->bias, p->target, sizeof(p->target), &exact);
		p->legit = exact && th_is_legit_callback(p->target) &&
			   !another_check_admits(fs, s, g, t->target - obs->bias);
		if (t->admits == 1) {
			snprintf(p->ev, n, "%s at %s's check 0x%" PRIx64 " although the check admits its target %s",
				 sig, site_func, t->vaddr, p->target);
			return;
		}
	}
	snprintf(p->ev, n, TH_EV_CFI_TRAP,
		 sig, g->insn, g->addr, site_func, s->addr, th_cfi_scheme_name(s->scheme),
		 g->kcfi_listed ? ", listed in .kcfi_traps" : "", p->target);
	p->proven = 1;
}

/* ---- the decision ---------------------------------------------------------------------- */

/* The decided outcome: ev, with "; landed: <detail>" when the child said
 * whether its write landed, into evidence. In a control run a defence that
 * stopped the run (BLOCKED_CFI, DETECTED) stopped a legitimate call. */
static enum th_outcome decide(enum th_outcome o, const struct scan *s, int is_control,
			      const char *ev, char *evidence, size_t n)
{
	char tmp[2 * EV];
	size_t len;

	snprintf(tmp, sizeof(tmp), "%s", ev);
	len = strlen(tmp);
	if (s->landed && len + 12 < sizeof(tmp))
		snprintf(tmp + len, sizeof(tmp) - len, "; landed: %s", s->landed_detail);
	len = strlen(tmp);
	if (s->foreign && len + 60 < sizeof(tmp))
		snprintf(tmp + len, sizeof(tmp) - len, "; %u TH- lines without this run's token ignored",
			 s->foreign);
	if (is_control && (o == TH_BLOCKED_CFI || o == TH_DETECTED)) {
		char ctl[2 * EV + 64];

		snprintf(ctl, sizeof(ctl), "%s%s", o == TH_BLOCKED_CFI ? TH_EV_CONTROL_CFI : TH_EV_CONTROL_MEM,
			 tmp);
		th_trim_copy(evidence, n, ctl);
		return TH_FALSE_POSITIVE;
	}
	th_trim_copy(evidence, n, tmp);
	return o;
}

/* include/linux/timer.h (v4.14): set by __mod_timer() between its two
 * locks; lock_timer_base() waits while the flags it reads have it. */
#define TIMER_MIGRATING_BIT 0x00040000u

/* A soft lockup the runner proved (runner/child.h): where the turn starts,
 * how long it is, what it reads; kernel/watchdog.c's watchdog_timer_fn()
 * reports "BUG: soft lockup - CPU#N stuck for 22s!" for the same spin. */
static void lockup_evidence(const struct th_child_obs *obs, const char *last, char *ev, size_t n)
{
	char reads[192] = "";
	size_t len = 0;

	for (size_t i = 0; i < obs->lockup_nloads && i < TH_LOCKUP_MAX_LOADS; i++) {
		const struct th_lockup_load *l = &obs->lockup_load[i];
		int w = snprintf(reads + len, sizeof(reads) - len, "%s0x%0*" PRIx64 " (%u bytes at 0x%" PRIx64 "%s)",
				 i ? ", " : "; it reads ", (int)(2 * (l->size ? l->size : 1)), l->value,
				 l->size, l->addr,
				 l->size == 4 && (l->value & TIMER_MIGRATING_BIT) ? ": TIMER_MIGRATING set" : "");

		if (w < 0 || (size_t)w >= sizeof(reads) - len)
			break;
		len += (size_t)w;
	}
	snprintf(ev, n,
		 TH_EV_LOCKUP "a turn of its loop, %u instruction%s "
		 "single-stepped, writes no memory and leaves every register as it was, so it never "
		 "ends (v4.14 lock_timer_base() waits for TIMER_MIGRATING to clear, or for the base's "
		 "lock, and nothing else runs to change either)%s; last: %s",
		 obs->lockup_where, obs->lockup_insn, obs->lockup_seconds, obs->lockup_insns,
		 obs->lockup_insns == 1 ? "" : "s", reads, last[0] ? last : "(no protocol line)");
}

enum th_outcome th_classify(const struct th_child_obs *obs, int is_control, char *evidence,
			    size_t n)
{
	char ev[EV], state[EV], sig[16];
	struct th_cfi_proof cfi;
	struct scan s;
	int changed;

	if (!n)
		return TH_OUTCOME_INVALID;
	if (obs->harness_error[0]) {
		snprintf(ev, sizeof(ev), "harness: %s", obs->harness_error);
		th_trim_copy(evidence, n, ev);
		return TH_HARNESS_ERROR;
	}
	scan_out(obs, &s);
	/* What a target did is the attacker's only if the kernel survived it:
	 * a fault after it (no CFI check's, which is judged below) is an oops
	 * that ends the machine, and the run is CRASHED with what ran named. */
	changed = privileged_write(obs, state, sizeof(state));
	if ((s.target || changed) && oops_after(obs)) {
		th_cfi_prove(obs, &cfi);
		if (!cfi.proven) {
			char crash[EV];

			if (!obs->signaled && asan_crash(obs, crash + 18, sizeof(crash) - 18))
				memcpy(crash, "AddressSanitizer: ", 18);
			else if (!obs->have_trap)
				snprintf(crash, sizeof(crash), "killed by %s",
					 th_signal_name(obs->signo, sig, sizeof(sig)));
			else
				trap_text(obs, s.last_note, crash, sizeof(crash));
			snprintf(ev, sizeof(ev), "%s%s%s%s; then %s: the kernel does not survive it",
				 s.target ? TH_EV_TARGET_RAN : TH_EV_PRIV_CHANGED,
				 s.target ? s.target_detail : state,
				 s.target && changed ? "; privileged state changed: " : "",
				 s.target && changed ? state : "", crash);
			return decide(TH_CRASHED, &s, is_control, ev, evidence, n);
		}
	}
	if (s.target && s.chosen) {
		snprintf(ev, sizeof(ev), TH_EV_TARGET_RAN "%s", s.target_detail);
		return decide(TH_HIJACKED, &s, is_control, ev, evidence, n);
	}
	if (changed) {
		snprintf(ev, sizeof(ev), TH_EV_PRIV_CHANGED "%s%s%s", state,
			 s.target ? "; " TH_EV_TARGET_RAN : "", s.target ? s.target_detail : "");
		return decide(TH_PRIVILEGED_WRITE, &s, is_control, ev, evidence, n);
	}
	if (s.target) {
		snprintf(ev, sizeof(ev), TH_EV_TARGET_RAN "%s", s.target_detail);
		return decide(TH_REDIRECTED, &s, is_control, ev, evidence, n);
	}
	if (obs->lockup) {
		lockup_evidence(obs, s.last, ev, sizeof(ev));
		th_trim_copy(evidence, n, ev);
		return TH_HANG;
	}
	if (obs->timed_out) {
		snprintf(ev, sizeof(ev), TH_EV_NO_EXIT "%s", obs->seconds,
			 s.last[0] ? s.last : "(no protocol line)");
		th_trim_copy(evidence, n, ev);
		return TH_HANG;
	}
	th_cfi_prove(obs, &cfi);
	if (cfi.proven && cfi.legit) {
		snprintf(ev, sizeof(ev), TH_EV_CFI_LEGIT "%s", cfi.ev);
		return decide(TH_FALSE_POSITIVE, &s, 0, ev, evidence, n);
	}
	if (cfi.proven)
		return decide(TH_BLOCKED_CFI, &s, is_control, cfi.ev, evidence, n);
	if (memory_report(obs, ev, sizeof(ev)))
		return decide(TH_DETECTED, &s, is_control, ev, evidence, n);

	/* From here: no defence named itself. */
	if (cfi.ev[0] && !(obs->signaled && is_bug_ud2(obs))) {
		snprintf(ev, sizeof(ev), "%s", cfi.ev);
	} else if (obs->signaled && obs->have_trap) {
		trap_text(obs, s.last_note, ev, sizeof(ev));
	} else if (obs->signaled) {
		snprintf(ev, sizeof(ev), "killed by %s", th_signal_name(obs->signo, sig, sizeof(sig)));
	} else if (!obs->exited) {
		snprintf(ev, sizeof(ev), "no exit status observed");
	} else if (!s.done) {
		snprintf(ev, sizeof(ev), "exit %d without TH-DONE; last: %s", obs->exit_code,
			 s.last[0] ? s.last : "(no protocol line)");
	} else if (obs->exit_code != 0) {
		snprintf(ev, sizeof(ev), "exit %d after TH-DONE", obs->exit_code);
	} else {
		enum th_outcome o = TH_NO_EFFECT;

		if (obs->traced && obs->site_func && !obs->ndispatch) {
			o = TH_TIMER_LOST;
			snprintf(ev, sizeof(ev), TH_EV_TIMER_LOST, obs->site_func,
				 s.done_detail[0] ? s.done_detail : "TH-DONE");
		} else if (s.legit) {
			snprintf(ev, sizeof(ev), "legitimate callback ran: %s", s.legit_detail);
		} else if (s.legit_wrong) {
			/* Not the attacker's target, not a defence: the callback ran on
			 * a corrupted argument and the process survived. */
			snprintf(ev, sizeof(ev), "the attacker's target did not run; the legitimate callback ran on a corrupted argument: %s",
				 s.legit_wrong_detail);
		} else {
			snprintf(ev, sizeof(ev), "finished, but the legitimate callback did not run: %s",
				 s.done_detail[0] ? s.done_detail : "(TH-DONE without detail)");
		}
		return decide(o, &s, is_control, ev, evidence, n);
	}
	return decide(TH_CRASHED, &s, is_control, ev, evidence, n);
}
