/* SPDX-License-Identifier: MIT */
/*
 * Tests of CFI's reach (cfi/reach.h) on this toolchain's attack binaries:
 * `th-reach-test <case> [args...]`, one CTest test per case and binary
 * (tests/reach.cmake). The set is computed by executing the call site's
 * check on every function entry; each case checks it against what the
 * scheme's own tables say, read here independently of the check:
 *  - cfi-icall: __typeid_<T>_size_m1 + 1 entries, each `f` forwarding to
 *    `f.cfi`;
 *  - kcfi: every `__cfi_<f>` preamble ends in `movl $HASH, %eax` (b8 imm32
 *    right before f): f is in the set iff that imm32 is the call site's hash;
 *  - -fsanitize=function: f passes iff the words before it are the signature
 *    and the hash, or it has no signature;
 *  - none: every function;
 * and against the C types: which victim functions have the call site's type
 * (attacks/victim.h).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "attacks/privileged.h"
#include "cfi/reach.h"

static int g_argc;
static char **g_argv;

static const char *arg(int i)
{
	if (i >= g_argc)
		fail_msg("missing argument %d (see tests/reach.cmake)", i);
	return g_argv[i];
}

static const char *const privileged[] = { TH_VICTIM_PRIVILEGED };
#define NPRIV (sizeof(privileged) / sizeof(privileged[0]))

static struct th_bin *open_bin(const char *path)
{
	struct th_bin *b;
	char err[512];

	if (th_bin_open(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	return b;
}

static const struct th_reach_site *timer_site(struct th_bin *b, struct th_reach **r)
{
	char err[512];

	if (th_reach_compute(b, "call_timer_fn", privileged, NPRIV, r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal((*r)->nsites, 1);
	assert_true((*r)->complete);
	return &(*r)->sites[0];
}

static const struct th_reach_member *member(const struct th_reach_site *s, const char *name)
{
	for (size_t i = 0; i < s->nmembers; i++)
		if (s->members[i].name && !strcmp(s->members[i].name, name))
			return &s->members[i];
	return NULL;
}

static uint32_t word_at(const struct th_bin *b, uint64_t addr, int *ok)
{
	uint32_t v = 0;

	*ok = !th_bin_read(b, addr, &v, 4);
	return v;
}

static int in_set(const struct th_reach_site *s, uint64_t addr)
{
	for (size_t i = 0; i < s->nmembers; i++)
		if (s->members[i].addr == addr)
			return 1;
	return 0;
}

static void print_set(const char *what, const struct th_reach *r, const struct th_reach_site *s)
{
	size_t shown = 0;

	print_message("%s: %zu of %zu functions (%zu privileged, %zu unchecked, %zu undecided, %zu elsewhere):",
		      what, s->nmembers, r->nfunctions, s->nprivileged, s->nunchecked, s->undecided,
		      s->other_admitted);
	for (size_t i = 0; i < s->nmembers && shown < 12; i++)
		if (!s->members[i].unchecked && s->scheme != TH_CFI_NONE) {
			print_message(" %s%s", s->members[i].name, s->members[i].privileged ? "*" : "");
			shown++;
		}
	print_message("\n");
}

/* Which victim functions have the call site's C type (attacks/victim.h):
 * legacy and transitional call fn(unsigned long), modern fn(struct
 * timer_list *). The transitional shim's legitimate callback is a
 * struct timer_list * function: not of the call site's type. */
static void victim_types(const struct th_reach_site *s, const char *variant, const char *config)
{
	bool found = false;

	int legacy_type = strcmp(variant, "modern") != 0;
	int generalized = strstr(config, "generalized") != NULL;
	const struct th_reach_member *m;

	assert_int_equal(member(s, "write_cr4") != NULL, legacy_type);
	assert_non_null(member(s, "ring_force_close"));
	assert_int_equal(member(s, "prb_retire_rx_blk_timer_expired") != NULL,
			 strcmp(variant, "transitional") != 0);
	/* void (struct cred *) is a pointer function: only generalized
	 * cfi-icall on modern merges it with void (struct timer_list *). */
	assert_int_equal(member(s, "commit_creds_stub") != NULL, !legacy_type && generalized);
	assert_null(member(s, "call_usermodehelper_stub"));	/* returns int */
	/* Another subsystem's callback of the call site's type, in every variant. */
	assert_non_null(member(s, "deferred_timer_fn"));
	/* Of the legacy type, its address never taken: out of cfi-icall's
	 * jump table; kcfi and -fsanitize=function check its type only. */
	assert_int_equal(member(s, "write_cr4_direct") != NULL,
			 legacy_type && strcmp(th_cfi_scheme_name(s->scheme), "cfi-icall"));
	if ((m = member(s, "write_cr4")))
		assert_true(m->privileged);
	if ((m = member(s, "ring_force_close")))
		assert_false(m->privileged);
	/* One call further: deferred_timer_fn calls what lies 16 bytes in front
	 * of the timer it gets (its from_timer() container's func), and that
	 * call's check admits write_cr4 (attacks/victim.c). On the 4.14
	 * layout its argument is .data, not the timer: no origin is claimed. */
	for (size_t i = 0; i < s->nhops; i++) {
		const struct th_reach_hop *h = &s->hops[i];

		if (strcmp(h->via, "deferred_timer_fn"))
			continue;
		assert_non_null(strstr(h->reaches, "write_cr4"));
		if (!strcmp(variant, "modern"))
			assert_string_equal(h->origin, "*(arg0 - 16)");
		found = true;
	}
	assert_true(found);
}

/* set <binary> <variant> <config> <scheme> */
static void set(void **state)
{
	const char *path = arg(0), *variant = arg(1), *config = arg(2), *scheme = arg(3);
	struct th_bin *b = open_bin(path);
	struct th_reach *r;
	const struct th_reach_site *s = timer_site(b, &r);
	size_t nsyms = th_bin_nsyms(b), priv = 0;
	char what[256];

	(void)state;
	snprintf(what, sizeof(what), "%s %s %s", variant, config, scheme);
	print_set(what, r, s);
	assert_string_equal(th_cfi_scheme_name(s->scheme), scheme);
	for (size_t i = 0; i < s->nmembers; i++) {
		const struct th_reach_member *m = &s->members[i];

		/* Sorted, distinct, executable, marked from the names. */
		if (i)
			assert_true(s->members[i - 1].addr < m->addr);
		assert_true(th_bin_is_exec(b, m->addr));
		assert_non_null(m->name);
		assert_int_equal(m->privileged, th_reach_is_privileged(m->name, privileged, NPRIV) ||
						       (m->body && th_reach_is_privileged(m->body, privileged, NPRIV)));
		priv += (size_t)m->privileged;
	}
	assert_int_equal(priv, s->nprivileged);

	if (!strcmp(scheme, "none")) {
		/* No check: every function entry, nothing undecided. */
		assert_int_equal(s->nmembers, r->nfunctions);
		assert_int_equal(s->undecided, 0);
		assert_true(s->nprivileged >= 3);
	} else if (!strcmp(scheme, "cfi-icall")) {
		char name[256] = "";
		const struct th_sym *m1;

		/* The type's table: __typeid_<T>_size_m1 + 1 entries, all members,
		 * nothing else; each entry f forwards to its body f.cfi. */
		for (size_t i = 0; i < nsyms; i++) {
			const struct th_sym *y = th_bin_sym(b, i);
			size_t len = strlen(y->name);

			if (!strncmp(y->name, "__typeid_", 9) && len > 17 &&
			    !strcmp(y->name + len - 8, "_size_m1") && y->absolute) {
				char ga[256];
				const struct th_sym *g;

				snprintf(ga, sizeof(ga), "%.*s_global_addr", (int)(len - 8), y->name);
				assert_int_equal(th_bin_find_syms(b, ga, &g, 1), 1);
				if (in_set(s, g->addr))
					snprintf(name, sizeof(name), "%s", y->name);
			}
		}
		assert_int_equal(th_bin_find_syms(b, name, &m1, 1), 1);
		assert_int_equal(s->nmembers, m1->addr + 1);
		for (size_t i = 0; i < s->nmembers; i++) {
			const struct th_reach_member *m = &s->members[i];
			char body[160];

			snprintf(body, sizeof(body), "%s.cfi", m->name);
			assert_non_null(m->body);
			assert_string_equal(m->body, body);
			if (i)
				assert_int_equal(m->addr - s->members[i - 1].addr, 8);
		}
		victim_types(s, variant, config);
	} else if (!strcmp(scheme, "kcfi")) {
		char err[512];
		const struct th_func_sites *fs = th_bin_call_sites(b, "call_timer_fn", err, sizeof(err));
		const struct th_call_site *site = fs ? &fs->sites[0] : NULL;
		size_t preambles = 0;

		assert_non_null(site);
		/* Every __cfi_<f> preamble: in the set iff its imm32 is the hash. */
		for (size_t i = 0; i < nsyms; i++) {
			const struct th_sym *p = th_bin_sym(b, i), *f;
			unsigned char op;
			int ok;
			uint32_t h;

			if (strncmp(p->name, "__cfi_", 6) || p->type != STT_FUNC)
				continue;
			if (th_bin_find_syms(b, p->name + 6, &f, 1) != 1)
				continue;
			assert_int_equal(f->addr, p->addr + p->size);
			assert_int_equal(th_bin_read(b, f->addr - 5, &op, 1), 0);
			assert_int_equal(op, 0xb8);	/* movl $imm32, %eax */
			h = word_at(b, f->addr - 4, &ok);
			assert_true(ok);
			assert_int_equal(in_set(s, f->addr), h == site->kcfi.hash);
			preambles++;
		}
		assert_true(preambles > 0);
		victim_types(s, variant, config);
	} else if (!strcmp(scheme, "function")) {
		char err[512];
		const struct th_func_sites *fs = th_bin_call_sites(b, "call_timer_fn", err, sizeof(err));
		const struct th_call_site *site = fs ? &fs->sites[0] : NULL;
		size_t unchecked = 0;

		/* Every function: in the set iff signature and hash match, or no
		 * signature at all (the check is skipped). */
		assert_non_null(site);
		for (size_t i = 0; i < nsyms; i++) {
			const struct th_sym *f = th_bin_sym(b, i);
			int ok8, ok4;
			uint32_t sig, h;

			if (f->type != STT_FUNC || f->absolute || !th_bin_is_exec(b, f->addr) ||
			    !strncmp(f->name, "__typeid_", 9))
				continue;
			sig = word_at(b, f->addr - 8, &ok8);
			h = word_at(b, f->addr - 4, &ok4);
			if (!ok8 || !ok4)
				continue;	/* undecided: the check would read outside the image */
			if (sig != site->function.signature) {
				assert_true(in_set(s, f->addr));
				unchecked++;
			} else {
				assert_int_equal(in_set(s, f->addr), h == site->function.hash);
			}
		}
		assert_true(unchecked > 0);
		victim_types(s, variant, config);
	}
	th_reach_free(r);
	th_bin_close(b);
}

/* verify <binary> <protected|unprotected>: llvm-cfi-verify beside binread.
 * Every instruction the tool lists is read again; the timer dispatch is
 * what the config makes it; a switch is never called a pointer call. */
static void verify(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	const char *want = arg(1);
	struct th_cfiv v;
	char err[512];
	int rc = th_cfiv_run(b, NULL, &v, err, sizeof(err)), dispatch = 0;
	unsigned disagree = 0;

	(void)state;
	if (rc < 0)
		fail_msg("%s", err);
	if (rc == 0) {
		th_bin_close(b);
		skip();
	}
	print_message("%s: %u indirect CF instructions; tool: %u protected, %u unprotected; "
		      "binread: %u protected, %u switch, %u unprotected; %u disagreements\n",
		      v.tool, v.total, v.expected_protected + v.unexpected_protected,
		      v.expected_unprotected + v.unexpected_unprotected, v.ours_protected,
		      v.ours_switch, v.ours_unprotected, v.disagreements);
	assert_int_equal(v.total, v.ninsns);
	assert_int_equal(v.ours_protected + v.ours_switch + v.ours_unprotected, v.ninsns);
	for (size_t i = 0; i < v.ninsns; i++) {
		const struct th_cfiv_insn *in = &v.insns[i];

		print_message("  0x%lx %s: tool %s, binread %s%s%s\n", (unsigned long)in->addr, in->func,
			      in->status, in->ours, in->disagree ? ": " : "", in->disagree ? in->why : "");
		assert_int_equal(in->disagree, in->tool_protected != !strcmp(in->ours, "protected") ||
						       !strcmp(in->ours, "switch"));
		disagree += (unsigned)in->disagree;
		if (!strcmp(in->func, "call_timer_fn")) {
			assert_string_equal(in->ours, want);
			dispatch++;
		}
		if (!strcmp(in->ours, "switch"))
			assert_false(in->tool_protected);
	}
	assert_int_equal(disagree, v.disagreements);
	assert_int_equal(dispatch, 1);
	th_cfiv_free(&v);
	th_bin_close(b);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} cases[] = {
		{ "set", set }, { "verify", verify },
	};

	if (argc >= 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "skip")) {
		printf("SKIP: %s\n", argc > 2 ? argv[2] : "");
		return 77;
	}
	for (size_t i = 0; argc >= 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(argv[1], cases[i].name)) {
			const struct CMUnitTest t[] = { { cases[i].name, cases[i].fn, NULL, NULL, NULL } };

			g_argc = argc - 2;
			g_argv = argv + 2;
			return cmocka_run_group_tests_name(cases[i].name, t, NULL, NULL);
		}
	fprintf(stderr, "usage: %s <case> [args] | --list\n", argv[0]);
	return 2;
}
