/* SPDX-License-Identifier: MIT */
#include "probe_judge.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_table.h"
#include "obs_text.h"

static void how_it_ended(const struct th_child_obs *obs, char *buf, size_t n)
{
	char sig[16];

	if (obs->harness_error[0])
		snprintf(buf, n, "harness: %s", obs->harness_error);
	else if (obs->timed_out)
		snprintf(buf, n, "timed out after %.1f s", obs->seconds);
	else if (obs->signaled)
		snprintf(buf, n, "killed by %s", th_signal_name(obs->signo, sig, sizeof(sig)));
	else if (obs->exited)
		snprintf(buf, n, "exit %d", obs->exit_code);
	else
		snprintf(buf, n, "no exit status");
}

/* A `TH-PROBE: run=<token> <what>` line of this run; the rest after `what`
 * into rest (may be NULL). */
static int probe_line(const struct th_child_obs *obs, const char *what, char *rest, size_t n)
{
	const char *pos = obs->out, *end = obs->out ? obs->out + obs->out_len : NULL, *r;
	size_t rl, wl = strlen(what);
	struct th_line l;

	while (th_line_next(&pos, end, &l)) {
		if (!th_protocol_line(obs, &l, "PROBE", &r, &rl) || rl < wl || memcmp(r, what, wl) ||
		    (rl > wl && r[wl] != ' '))
			continue;
		if (rest) {
			struct th_line t = { r + wl, rl - wl, 1, 0 };

			th_line_text(&t, rest, n);
		}
		return 1;
	}
	return 0;
}

/* Offsets after "layout offsets=": strictly increasing = declared order. */
static int judge_randstruct(const struct th_child_obs *obs, char *reason, size_t n)
{
	char line[512];
	const char *p;
	long prev = -1;
	int count = 0, ordered = 1;

	if (!probe_line(obs, "layout", line, sizeof(line)) || !(p = strstr(line, "offsets="))) {
		snprintf(reason, n, "probe randstruct: no \"TH-PROBE: layout\" line of this run");
		return 0;
	}
	for (p += 8; *p;) {
		char *end;
		long off = strtol(p, &end, 10);

		if (end == p)
			break;
		ordered &= off > prev;
		prev = off;
		count++;
		p = *end == ',' ? end + 1 : end;
	}
	if (count < 2) {
		snprintf(reason, n, "probe randstruct: unreadable layout: %s", line);
		return 0;
	}
	snprintf(reason, n, "probe randstruct: layout %s: %s", line,
		 ordered ? "fields in declaration order, layout not randomized"
			 : "fields out of declaration order (layout randomized)");
	return !ordered;
}

/* A CFI check guarding probe_call stopped the call, of the scheme and kind expected. */
static int judge_cfi(const char *check, const struct th_child_obs *obs, enum th_cfi_scheme scheme,
		     enum th_guard_kind kind, char *reason, size_t n)
{
	struct th_cfi_proof p;
	char end[300];

	th_cfi_prove(obs, &p);
	if (!p.proven) {
		how_it_ended(obs, end, sizeof(end));
		snprintf(reason, n, "probe %s: %s: %s", check, end,
			 p.ev[0] ? p.ev : "no check guarding probe_call stopped it");
		return 0;
	}
	if (p.scheme != scheme || p.kind != kind) {
		snprintf(reason, n, "probe %s: stopped by a %s %s, not the %s %s this check needs: %s",
			 check, th_cfi_scheme_name(p.scheme), p.kind == TH_GUARD_TRAP ? "trap" : "handler",
			 th_cfi_scheme_name(scheme), kind == TH_GUARD_TRAP ? "trap" : "handler", p.ev);
		return 0;
	}
	snprintf(reason, n, "probe %s: %s", check, p.ev);
	return 1;
}

/* Pointer generalisation: the mismatched pointer call completed, through a
 * cfi-icall check on a generalized type id. */
static int judge_generalized(const struct th_child_obs *obs, char *reason, size_t n)
{
	char err[256], end[300], desc[400];
	struct th_bin *b;
	const struct th_func_sites *fs;
	const struct th_sym *target;
	const struct th_call_site *s;

	how_it_ended(obs, end, sizeof(end));
	if (!probe_line(obs, "after cfi-generalized", NULL, 0) || !obs->exited || obs->exit_code) {
		snprintf(reason, n, "probe cfi-generalized: the pointer-generalized call did not complete (%s)",
			 end);
		return 0;
	}
	b = th_bin_cached(obs->binary, err, sizeof(err));
	fs = b ? th_bin_call_sites(b, TH_PROBE_PTR_SITE_FUNC, err, sizeof(err)) : NULL;
	if (!fs) {
		snprintf(reason, n, "probe cfi-generalized: %s", err);
		return 0;
	}
	if (fs->nsites != 1 || th_bin_find_syms(b, TH_PROBE_GEN_TARGET, &target, 1) != 1) {
		snprintf(reason, n, "probe cfi-generalized: %s has %zu indirect calls (1 expected) or no %s",
			 TH_PROBE_PTR_SITE_FUNC, fs->nsites, TH_PROBE_GEN_TARGET);
		return 0;
	}
	s = &fs->sites[0];
	th_site_describe(s, desc, sizeof(desc));
	if (s->scheme != TH_CFI_ICALL || !strstr(s->icall.type_id, ".generalized") ||
	    th_site_admits(s, target->addr, NULL) != 1) {
		snprintf(reason, n, "probe cfi-generalized: the call completed, but %s's check is not a generalized cfi-icall check admitting %s: %s",
			 TH_PROBE_PTR_SITE_FUNC, TH_PROBE_GEN_TARGET, desc);
		return 0;
	}
	snprintf(reason, n, "probe cfi-generalized: void (struct probe_b *) called through void (*)(struct probe_a *) and admitted by %s",
		 desc);
	return 1;
}

static int judge_stderr(const char *check, const struct th_child_obs *obs, int ok, int found,
			const char *line, char *reason, size_t n)
{
	char end[300];

	if (ok && found) {
		/* The same reason every run: no pid, address or directory. */
		const char *asan = strstr(line, "AddressSanitizer: "), *re = strstr(line, ": runtime error: ");
		const char *from = asan ? asan : line;
		size_t len;

		for (const char *p = line; re && p < re; p++)
			if (*p == '/')
				from = p + 1;
		len = strcspn(from, "\n");
		if (asan && strstr(from, " on address "))
			len = (size_t)(strstr(from, " on address ") - from);
		snprintf(reason, n, "probe %s: %.*s", check, (int)len, from);
		return 1;
	}
	how_it_ended(obs, end, sizeof(end));
	snprintf(reason, n, "probe %s: %s, %s", check, end,
		 found ? "a report, but not the runtime's own exit" : "no report on stderr");
	return 0;
}

/* The first complete stderr line containing needle (after prefix at its start). */
static int err_line(const struct th_child_obs *obs, const char *prefix, const char *needle,
		    char *buf, size_t n)
{
	const char *pos = obs->err, *end = obs->err ? obs->err + obs->err_len : NULL;
	struct th_line l;

	while (th_line_next(&pos, end, &l))
		if (l.complete && (!prefix || th_line_starts(&l, prefix)) && th_line_find(&l, needle)) {
			th_line_text(&l, buf, n);
			return 1;
		}
	return 0;
}

int th_probe_judge(const char *check, const struct th_child_obs *obs, char *reason, size_t n)
{
	char marker[64], line[512], head[64];
	const struct th_config_info *c = th_config_find(obs->config);

	if (!n)
		return 0;
	if (obs->harness_error[0]) {
		snprintf(reason, n, "probe %s: harness: %s", check, obs->harness_error);
		return 0;
	}
	if (!strcmp(check, "randstruct"))
		return judge_randstruct(obs, reason, n);
	if (!strcmp(check, "cfi-generalized"))
		return judge_generalized(obs, reason, n);

	snprintf(marker, sizeof(marker), "before %s", check);
	if (!probe_line(obs, marker, NULL, 0)) {
		how_it_ended(obs, line, sizeof(line));
		snprintf(reason, n, "probe %s: never reached the check (%s, no \"%s\" of this run)", check,
			 line, marker);
		return 0;
	}
	snprintf(marker, sizeof(marker), "after %s", check);
	if (probe_line(obs, marker, NULL, 0)) {
		snprintf(reason, n, "probe %s: the bad %s completed (\"after\" printed): %s%s%s", check,
			 !strcmp(check, "asan") || !strcmp(check, "bounds") || !strcmp(check, "fortify") ? "write" : "call",
			 c && !th_config_has_probe(c, check) ? "not a check this config claims" : "not stopped by ",
			 c && !th_config_has_probe(c, check) ? "" : obs->toolchain ? obs->toolchain : "this toolchain",
			 c && !th_config_has_probe(c, check) ? "" : "'s build of it");
		return 0;
	}

	if (!strcmp(check, "cfi"))
		return judge_cfi(check, obs, TH_CFI_ICALL, TH_GUARD_TRAP, reason, n);
	if (!strcmp(check, "kcfi"))
		return judge_cfi(check, obs, TH_CFI_KCFI, TH_GUARD_TRAP, reason, n);
	if (!strcmp(check, "cfi-diag"))
		return judge_cfi(check, obs, TH_CFI_ICALL, TH_GUARD_HANDLER, reason, n);
	if (!strcmp(check, "function"))
		return judge_cfi(check, obs, TH_CFI_FUNCTION, TH_GUARD_HANDLER, reason, n);
	if (!strcmp(check, "asan")) {
		snprintf(head, sizeof(head), "==%d==", (int)obs->pid);
		return judge_stderr(check, obs, obs->exited && obs->exit_code == obs->san_exitcode,
				    err_line(obs, head, TH_REPORT_ASAN "heap-buffer-overflow", line, sizeof(line)),
				    line, reason, n);
	}
	if (!strcmp(check, "bounds"))
		return judge_stderr(check, obs, obs->exited && obs->exit_code == obs->san_exitcode,
				    err_line(obs, NULL, TH_REPORT_RUNTIME_ERROR TH_REPORT_BOUNDS, line, sizeof(line)) &&
					    strstr(line, TH_REPORT_BOUNDS_ALSO),
				    line, reason, n);
	if (!strcmp(check, "fortify"))
		return judge_stderr(check, obs, obs->signaled && obs->signo == SIGABRT,
				    err_line(obs, TH_REPORT_FIELD_SPANNING, TH_REPORT_FIELD_SPANNING, line, sizeof(line)),
				    line, reason, n);
	snprintf(reason, n, "probe %s: unknown check (cfi, cfi-generalized, cfi-diag, kcfi, function, asan, "
		 "bounds, fortify, randstruct)", check);
	return 0;
}
