/* SPDX-License-Identifier: MIT */
/*
 * binread: the binary reader (binread/binread_elf.c, binread/binread_x86.c) and the
 * target sets of a function's indirect calls (cfi/target_set.c) on any file, as
 * `timerharness reach --binary FILE` reads one a user brings.
 *
 * Input: the bytes of the file (seeds, fuzz/corpora/binread/: the project's
 * own attack and probe binaries of several configs, a kernel-like kcfi
 * binary, a system binary; debug sections stripped).
 * Oracle: th_bin_open() opens it or says why in a message that names the
 * file; an opened one answers for call_timer_fn (the attack binaries'
 * dispatch), probe_call (the probes') and main: a refusal names the file;
 * an answer holds together: each call site's members strictly by address
 * (every entry put through the check once), each marked privileged,
 * legitimate or unchecked exactly as often as the site counts, no more
 * container-confusion candidates than members, every use naming a member
 * in member order, every hop naming its member, strings terminated inside
 * their arrays. Beyond that: no sanitizer report, no leak (LeakSanitizer),
 * no input slower than the options' timeout and no more memory than the
 * engine's limit (the reader's budgets: decode bounded by what the file
 * holds, work bounded per function).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binread/binread.h"
#include "cfi/target_set.h"
#include "fuzz.h"

#define TH_FUZZ_TARGET "binread"

static char path[4096];

/* The simulated kernel's privileged functions and the victim's callback. */
static const char *const privileged[] = { "write_cr4", "write_cr4_direct", "commit_creds",
					  "call_usermodehelper" };
static const char *const legitimate[] = { "retire_blk_timer" };

TH_FUZZ_ORACLE static void check_error(const char *what, const char *err)
{
	size_t plen = strlen(path);

	if (!*err)
		TH_FUZZ_FAIL("%s failed without saying why", what);
	if (strncmp(err, path, plen) || err[plen] != ':')
		TH_FUZZ_FAIL("%s: '%s' does not name the file", what, err);
	if (!memchr(err, 0, 1024))
		TH_FUZZ_FAIL("%s: the message is not terminated", what);
}

TH_FUZZ_ORACLE static void check_terminated(const char *field, const char *s, size_t n)
{
	if (!memchr(s, 0, n))
		TH_FUZZ_FAIL("%s is not terminated inside its %zu bytes", field, n);
}

TH_FUZZ_ORACLE static void check_reach(const char *func, const struct th_reach *r)
{
	check_terminated("binary", r->binary, sizeof(r->binary));
	check_terminated("func", r->func, sizeof(r->func));
	if (r->nsites && !r->sites)
		TH_FUZZ_FAIL("%s: %zu sites and no array", func, r->nsites);
	for (size_t i = 0; i < r->nsites; i++) {
		const struct th_reach_site *s = &r->sites[i];
		size_t priv = 0, legit = 0, unchecked = 0, confusing = 0;

		check_terminated("insn", s->insn, sizeof(s->insn));
		check_terminated("check", s->check, sizeof(s->check));
		if (s->nmembers && !s->members)
			TH_FUZZ_FAIL("%s: site %zu: %zu members and no array", func, i, s->nmembers);
		for (size_t k = 0; k < s->nmembers; k++) {
			const struct th_reach_member *m = &s->members[k];

			if (k && m->addr <= s->members[k - 1].addr)
				TH_FUZZ_FAIL("%s: site 0x%llx: member %zu at 0x%llx after 0x%llx: not strictly "
					     "by address", func, (unsigned long long)s->addr, k,
					     (unsigned long long)m->addr,
					     (unsigned long long)s->members[k - 1].addr);
			if (m->name)
				(void)strlen(m->name);	/* inside the mapping (ASan) */
			if (m->body)
				(void)strlen(m->body);
			priv += m->privileged != 0;
			legit += m->legitimate != 0;
			unchecked += m->unchecked != 0;
			confusing += s->scheme != TH_CFI_NONE && !m->privileged && !m->legitimate &&
				     !m->unchecked;
		}
		if (priv != s->nprivileged || legit != s->nlegitimate || unchecked != s->nunchecked ||
		    confusing != s->nconfusing)
			TH_FUZZ_FAIL("%s: site 0x%llx counts %zu privileged, %zu legitimate, %zu unchecked, "
				     "%zu candidates; its members are %zu, %zu, %zu, %zu", func,
				     (unsigned long long)s->addr, s->nprivileged, s->nlegitimate,
				     s->nunchecked, s->nconfusing, priv, legit, unchecked, confusing);
		for (size_t u = 0; u < s->nuses; u++) {
			const struct th_reach_use *x = &s->uses[u];

			if (x->member >= s->nmembers || (u && x->member < s->uses[u - 1].member))
				TH_FUZZ_FAIL("%s: site 0x%llx: use %zu names member %zu of %zu, after %zu", func,
					     (unsigned long long)s->addr, u, x->member, s->nmembers,
					     u ? s->uses[u - 1].member : 0);
			check_terminated("use.call", x->call, sizeof(x->call));
			check_terminated("use.check", x->check, sizeof(x->check));
			if (x->via)
				(void)strlen(x->via);
		}
		for (size_t h = 0; h < s->nhops; h++) {
			check_terminated("hop.reaches", s->hops[h].reaches, sizeof(s->hops[h].reaches));
			check_terminated("hop.origin", s->hops[h].origin, sizeof(s->hops[h].origin));
			if (!s->hops[h].via)
				TH_FUZZ_FAIL("%s: site 0x%llx: hop %zu names no member", func,
					     (unsigned long long)s->addr, h);
			(void)strlen(s->hops[h].via);
		}
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	th_fuzz_scratch_path("binary", path, sizeof(path));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const funcs[] = { "call_timer_fn", "probe_call", "main" };
	struct th_reach_opts o = { .privileged = privileged,
				   .npriv = sizeof(privileged) / sizeof(privileged[0]),
				   .legitimate = legitimate,
				   .nlegit = sizeof(legitimate) / sizeof(legitimate[0]), .uses = 1 };
	struct th_bin *b = NULL;
	char err[1024] = "";

	th_fuzz_write_file(path, data, size);
	if (th_bin_open(path, &b, err, sizeof(err))) {
		if (b)
			TH_FUZZ_FAIL("th_bin_open failed and returned a binary");
		check_error("th_bin_open", err);
		return 0;
	}
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		struct th_reach *r = NULL;

		err[0] = 0;
		if (th_reach_compute_opts(b, funcs[i], &o, &r, err, sizeof(err))) {
			if (r)
				TH_FUZZ_FAIL("th_reach_compute_opts(%s) failed and returned a reach", funcs[i]);
			check_error(funcs[i], err);
			continue;
		}
		check_reach(funcs[i], r);
		th_reach_free(r);
	}
	(void)th_bin_cfi_schemes(b);
	th_bin_close(b);
	return 0;
}
