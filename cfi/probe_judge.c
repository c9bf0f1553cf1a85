/* SPDX-License-Identifier: MIT */
#include "probe_judge.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_table.h"
#include "elf_traps.h"
#include "obs_text.h"

/* A stderr line containing needle, trimmed into buf. */
static int err_line(const struct th_child_obs *obs, const char *needle, char *buf, size_t n)
{
	return th_find_line(obs->err ? obs->err : "", needle, 0, buf, n);
}

static void how_it_ended(const struct th_child_obs *obs, char *buf, size_t n)
{
	char sig[16];

	if (obs->timed_out)
		snprintf(buf, n, "timed out after %.1f s", obs->seconds);
	else if (obs->signaled)
		snprintf(buf, n, "killed by %s", th_signal_name(obs->signo, sig, sizeof(sig)));
	else if (obs->exited)
		snprintf(buf, n, "exit %d", obs->exit_code);
	else
		snprintf(buf, n, "no exit status");
}

/* Why the bad thing was allowed to complete: the one documented gap named. */
static const char *inactive_why(const char *check, const struct th_child_obs *obs, char *buf,
				size_t n)
{
	const struct th_config_info *c = th_config_find(obs->config);

	if (!strcmp(check, "function") && th_config_has_cflag(c, "-fsanitize=function")) {
#if defined(__clang_major__) && __clang_major__ < 17
		/* The judge is built by the same clang as the probes it judges. */
		snprintf(buf, n, "-fsanitize=function accepted but inactive in C on clang %d",
			 __clang_major__);
		return buf;
#endif
	}
	if (c && !th_config_has_probe(c, check))
		return "not a check this config claims";
	(void)buf;
	(void)n;
	return "the check did not stop it";
}

/* Offsets after "TH-PROBE: layout offsets=": strictly increasing = declared order. */
static int judge_randstruct(const struct th_child_obs *obs, char *reason, size_t n)
{
	char line[512];
	const char *p;
	long prev = -1;
	int count = 0, ordered = 1;

	if (!th_find_line(obs->out ? obs->out : "", "TH-PROBE: layout ", 1, line, sizeof(line)) ||
	    !(p = strstr(line, "offsets="))) {
		snprintf(reason, n, "probe randstruct: no \"TH-PROBE: layout\" line");
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
		snprintf(reason, n, "probe randstruct: unreadable layout: %s", line + 10);
		return 0;
	}
	snprintf(reason, n, "probe randstruct: %s: %s", line + 10,
		 ordered ? "fields in declaration order, layout not randomized"
			 : "fields out of declaration order (layout randomized)");
	return !ordered;
}

static int judge_trap(const char *check, const struct th_child_obs *obs, unsigned proofs,
		      char *reason, size_t n)
{
	struct th_trap_line t;
	struct th_trap_proof pr;
	char end[64];

	how_it_ended(obs, end, sizeof(end));
	if (!obs->signaled || (obs->signo != SIGILL && obs->signo != SIGTRAP)) {
		snprintf(reason, n, "probe %s: %s, not a trap (SIGILL/SIGTRAP)", check, end);
		return 0;
	}
	if (!th_find_trap(obs->out, &t) || t.sig != obs->signo) {
		snprintf(reason, n, "probe %s: %s without a matching TH-TRAP line: site not proven",
			 check, end);
		return 0;
	}
	if (!th_elf_prove_cfi_site(obs->binary, t.pc, t.ehdr, proofs, TH_PROBE_SITE_FUNC, t.bytes,
				   t.nbytes, &pr)) {
		snprintf(reason, n, "probe %s: %s at pc 0x%" PRIx64 ": %s", check, t.name, t.pc,
			 pr.why);
		return 0;
	}
	snprintf(reason, n, "probe %s: %s %s in %s at 0x%" PRIx64 " (%s)", check, t.name,
		 pr.insn[0] ? pr.insn : "trap", pr.func[0] ? pr.func : "?", pr.vaddr,
		 pr.kind == TH_SITE_KCFI ? "listed in .kcfi_traps" : "cfi check site");
	return 1;
}

static int judge_stderr(const char *check, const struct th_child_obs *obs, const char *needle,
			const char *also, char *reason, size_t n)
{
	char line[512], end[64];

	if (err_line(obs, needle, line, sizeof(line)) && (!also || strstr(line, also))) {
		const char *re = strstr(line, "runtime error: ");
		const char *er = strstr(line, "ERROR: ");
		char *at = strstr(line, " at pc "); /* ASan: addresses of no interest */

		if (at)
			*at = 0;

		snprintf(reason, n, "probe %s: %s", check, re ? re : er ? er : line);
		th_trim_copy(reason, n, reason);
		return 1;
	}
	how_it_ended(obs, end, sizeof(end));
	snprintf(reason, n, "probe %s: %s, no \"%s\" report on stderr", check, end, needle);
	return 0;
}

int th_probe_judge(const char *check, const struct th_child_obs *obs, char *reason, size_t n)
{
	char marker[64], line[64], why[96];
	const char *out = obs->out ? obs->out : "";

	if (!n)
		return 0;
	if (!strcmp(check, "randstruct"))
		return judge_randstruct(obs, reason, n);

	snprintf(marker, sizeof(marker), "TH-PROBE: before %s", check);
	if (!th_find_line(out, marker, 1, line, sizeof(line))) {
		how_it_ended(obs, line, sizeof(line));
		snprintf(reason, n, "probe %s: never reached the check (%s, no \"%s\")", check, line,
			 marker);
		return 0;
	}
	snprintf(marker, sizeof(marker), "TH-PROBE: after %s", check);
	if (th_find_line(out, marker, 1, line, sizeof(line))) {
		snprintf(reason, n, "probe %s: call completed (\"after\" printed): %s", check,
			 inactive_why(check, obs, why, sizeof(why)));
		return 0;
	}

	if (!strcmp(check, "cfi"))
		return judge_trap(check, obs, TH_PROOF_CFI_ICALL, reason, n);
	if (!strcmp(check, "kcfi"))
		return judge_trap(check, obs, TH_PROOF_KCFI, reason, n);
	if (!strcmp(check, "cfi-diag"))
		return judge_stderr(check, obs, TH_REPORT_CFI_DIAG, NULL, reason, n);
	if (!strcmp(check, "function"))
		return judge_stderr(check, obs, TH_REPORT_FUNCTION, NULL, reason, n);
	if (!strcmp(check, "asan"))
		return judge_stderr(check, obs, TH_REPORT_ASAN "heap-buffer-overflow", NULL, reason,
				    n);
	if (!strcmp(check, "bounds"))
		return judge_stderr(check, obs, TH_REPORT_BOUNDS, TH_REPORT_BOUNDS_ALSO, reason, n);
	if (!strcmp(check, "fortify")) {
		if (!judge_stderr(check, obs, TH_REPORT_FIELD_SPANNING, NULL, reason, n))
			return 0;
		if (!obs->signaled || obs->signo != SIGABRT) {
			how_it_ended(obs, line, sizeof(line));
			snprintf(reason, n, "probe fortify: report printed but %s, not SIGABRT "
				 "(blocking mode expected)", line);
			return 0;
		}
		return 1;
	}
	snprintf(reason, n, "probe %s: unknown check (cfi, cfi-diag, kcfi, function, asan, "
		 "bounds, fortify, randstruct)", check);
	return 0;
}
