/* SPDX-License-Identifier: MIT */
/*
 * Tests of CFI's reach (cfi/target_set.h) on this toolchain's attack binaries:
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
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/privileged.h"
#include "cfi/target_set.h"

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
	int legacy_type = strcmp(variant, "modern") != 0;
	const struct th_reach_member *m;

	(void)config;

	assert_int_equal(member(s, "write_cr4") != NULL, legacy_type);
	assert_non_null(member(s, "ring_force_close"));
	assert_int_equal(member(s, "prb_retire_rx_blk_timer_expired") != NULL,
			 strcmp(variant, "transitional") != 0);
	/* commit_creds and call_usermodehelper return int (kernel/cred.c,
	 * kernel/umh.c): no call site of a void callback admits them, pointers
	 * generalised or not. */
	assert_null(member(s, "commit_creds"));
	assert_null(member(s, "call_usermodehelper"));
	/* Another subsystem's callback of the call site's type, in every variant. */
	assert_non_null(member(s, "process_timeout"));
	/* Of the legacy type, its address never taken: out of cfi-icall's
	 * jump table; kcfi and -fsanitize=function check its type only. */
	assert_int_equal(member(s, "write_cr4_direct") != NULL,
			 legacy_type && strcmp(th_cfi_scheme_name(s->scheme), "cfi-icall"));
	if ((m = member(s, "write_cr4")))
		assert_true(m->privileged);
	if ((m = member(s, "ring_force_close")))
		assert_false(m->privileged);
	/* One call further: process_timeout's only call is wake_up_process(), a
	 * direct one (kernel/time/timer.c): no hop goes through it. */
	for (size_t i = 0; i < s->nhops; i++)
		assert_string_not_equal(s->hops[i].via, "process_timeout");
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

/* prefetch <binary> <copy>: the tool's output fetched ahead is what
 * th_cfiv_run() reads, once, and the same as a run of its own; a file
 * changed since is run again; a path that is not there is left out. */
static void same_cfiv(const struct th_cfiv *a, const struct th_cfiv *b)
{
	assert_string_equal(a->tool, b->tool);
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->ninsns, b->ninsns);
	assert_int_equal(a->disagreements, b->disagreements);
	for (size_t i = 0; i < a->ninsns; i++) {
		assert_int_equal(a->insns[i].addr, b->insns[i].addr);
		assert_string_equal(a->insns[i].status, b->insns[i].status);
		assert_string_equal(a->insns[i].ours, b->insns[i].ours);
	}
}

static void prefetch(void **state)
{
	const char *copy = arg(1);
	char cmd[8192], err[512];
	const char *paths[] = { copy, "/nonexistent/th-no-binary" };
	struct th_cfiv direct, ahead, again;
	struct th_bin *b;
	struct timespec later[2] = { { 0, UTIME_OMIT }, { 1000000000, 0 } };
	int rc;

	(void)state;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", arg(0), copy);
	assert_int_equal(system(cmd), 0);
	b = open_bin(copy);
	rc = th_cfiv_run(b, NULL, &direct, err, sizeof(err));
	if (rc < 0)
		fail_msg("%s", err);
	if (rc == 0) {
		th_bin_close(b);
		skip();
	}
	th_cfiv_prefetch(paths, 2, 2);
	assert_int_equal(th_cfiv_prefetched(), 1);
	assert_int_equal(th_cfiv_run(b, NULL, &ahead, err, sizeof(err)), 1);
	assert_int_equal(th_cfiv_prefetched(), 0);
	same_cfiv(&direct, &ahead);
	/* Fetched, then the file's time changes: not read, run again. */
	th_cfiv_prefetch(paths, 2, 1);
	assert_int_equal(th_cfiv_prefetched(), 1);
	assert_int_equal(utimensat(AT_FDCWD, copy, later, 0), 0);
	assert_int_equal(th_cfiv_run(b, NULL, &again, err, sizeof(err)), 1);
	assert_int_equal(th_cfiv_prefetched(), 1);
	same_cfiv(&direct, &again);
	th_cfiv_prefetch_drop();
	assert_int_equal(th_cfiv_prefetched(), 0);
	th_cfiv_free(&direct);
	th_cfiv_free(&ahead);
	th_cfiv_free(&again);
	th_bin_close(b);
	unlink(copy);
}

/* ---- a binary laid out as a vmlinux (tests/reach_kernel_like.c) -------------------- */

static const char *const kernel_priv[] = { "native_write_cr4", "commit_creds" };

/* Every __cfi_<f> preamble read with no help from the check: f's address
 * when its `movl $imm32, %eax` holds @hash. The members must be exactly
 * those (kcfi admits by the word at f-4 alone). */
static void preambles_agree(struct th_bin *b, const struct th_reach_site *s, uint32_t hash)
{
	size_t nsyms = th_bin_nsyms(b), with_hash = 0, preambles = 0;

	for (size_t i = 0; i < nsyms; i++) {
		const struct th_sym *p = th_bin_sym(b, i);
		unsigned char op;
		uint32_t h;
		int ok;

		if (strncmp(p->name, "__cfi_", 6) || p->type != STT_FUNC)
			continue;
		assert_int_equal(th_bin_read(b, p->addr + p->size - 5, &op, 1), 0);
		assert_int_equal(op, 0xb8);
		h = word_at(b, p->addr + p->size - 4, &ok);
		assert_true(ok);
		assert_int_equal(in_set(s, p->addr + p->size), h == hash);
		with_hash += h == hash;
		preambles++;
	}
	assert_true(preambles >= 3);
	assert_int_equal(with_hash, s->nmembers);
}

static const struct th_reach_use *use_of(const struct th_reach_site *s, const char *member)
{
	for (size_t i = 0; i < s->nuses; i++)
		if (!strcmp(s->uses[i].via, member))
			return &s->uses[i];
	return NULL;
}

/* kernel_like <binary> <plain|retpoline>: read as a vmlinux would be. */
static void kernel_like(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	int retpoline = !strncmp(arg(1), "retpoline", 9), labels = !strcmp(arg(1), "retpoline-labels");
	const struct th_reach_opts o = { kernel_priv, 2, NULL, 0, 1 };
	const struct th_reach_opts legit = { kernel_priv, 2, (const char *const[]){ "process_timeout" },
					     1, 1 };
	const struct th_reach_site *s;
	const struct th_reach_use *u;
	struct th_reach *r;
	char err[512];
	int hop = 0;

	(void)state;
	/* No PT_LOAD maps the header: the address offset 0 would have. */
	assert_int_equal(th_bin_is_pie(b), 0);
	assert_true(th_bin_load_vaddr(b) >= 0xffffffff80000000ULL);
	assert_true(th_bin_kcfi_trap_count(b) > 0);
	assert_int_equal(th_reach_compute_opts(b, "call_timer_fn", &o, &r, err, sizeof(err)), 0);
	assert_int_equal(r->nsites, 1);
	s = &r->sites[0];
	print_set(arg(1), r, s);
	assert_string_equal(th_cfi_scheme_name(s->scheme), "kcfi");
	assert_non_null(strstr(s->check, "(.kcfi_traps)"));
	if (retpoline)
		assert_non_null(strstr(s->insn, labels ? "<retpoline thunk: " : "__x86_indirect_thunk_"));
	preambles_agree(b, s, (uint32_t)strtoul(strstr(s->check, "hash ") + 5, NULL, 16));
	assert_non_null(member(s, "process_timeout"));
	assert_non_null(member(s, "delayed_fn"));
	assert_non_null(member(s, "plain_timer_fn"));
	assert_null(member(s, "native_write_cr4"));
	assert_int_equal(s->nconfusing, s->nmembers);
	/* What each container gives: the task 40 bytes behind the timer, the
	 * pointer and argument in front of it. */
	assert_non_null(u = use_of(s, "process_timeout"));
	assert_string_equal(u->call, "wake_up_process(rdi = *(arg0 + 40))");
	assert_false(u->indirect);
	assert_non_null(u = use_of(s, "delayed_fn"));
	assert_string_equal(u->call, "(*(arg0 - 16))(rdi = *(arg0 - 8))");
	assert_true(u->indirect);
	for (size_t i = 0; i < s->nhops; i++)
		if (!strcmp(s->hops[i].via, "delayed_fn")) {
			assert_string_equal(s->hops[i].reaches, "commit_creds");
			assert_string_equal(s->hops[i].origin, "*(arg0 - 16)");
			hop = 1;
		}
	assert_true(hop);
	th_reach_free(r);
	/* The victim's own callback named: the others are the candidates. */
	assert_int_equal(th_reach_compute_opts(b, "call_timer_fn", &legit, &r, err, sizeof(err)), 0);
	assert_true(member(&r->sites[0], "process_timeout")->legitimate);
	assert_int_equal(r->sites[0].nlegitimate, 1);
	assert_int_equal(r->sites[0].nconfusing, r->sites[0].nmembers - 1);
	assert_null(use_of(&r->sites[0], "process_timeout"));
	th_reach_free(r);
	/* tasklet_action_common: t->callback(t) and t->func(t->data), two
	 * kcfi checks, each its own set; native_write_cr4 has func's type. */
	assert_int_equal(th_reach_compute_opts(b, "tasklet_action_common", &o, &r, err, sizeof(err)), 0);
	assert_int_equal(r->nsites, 2);
	for (size_t i = 0; i < 2; i++) {
		s = &r->sites[i];
		print_set(s->arg == TH_CALL_ARG_FIELD ? "tasklet func" : "tasklet callback", r, s);
		assert_string_equal(th_cfi_scheme_name(s->scheme), "kcfi");
		assert_int_equal(s->ncalls, 1);
		assert_int_equal(s->target_off, 24);
		if (retpoline)
			assert_non_null(strstr(s->insn, labels ? "<retpoline thunk: r11>" : "__x86_indirect_thunk_"));
		preambles_agree(b, s, (uint32_t)strtoul(strstr(s->check, "hash ") + 5, NULL, 16));
		if (s->arg == TH_CALL_ARG_FIELD) {
			assert_int_equal(s->arg_off, 32);
			assert_non_null(member(s, "native_write_cr4"));
			assert_true(member(s, "native_write_cr4")->privileged);
			assert_null(member(s, "kl_tasklet_fn"));
		} else {
			assert_int_equal(s->arg, TH_CALL_ARG_OBJECT);
			assert_int_equal(s->arg_off, 0);
			assert_non_null(member(s, "kl_tasklet_fn"));
			assert_null(member(s, "native_write_cr4"));
		}
	}
	assert_int_not_equal(r->sites[0].arg, r->sites[1].arg);
	th_reach_free(r);
	th_bin_close(b);
}

/* big_segment <binary>: the executable segment's memory size is 64 GiB,
 * its file size a page: kcfi's scan for the hash elsewhere reads the file's
 * bytes (a scan of the memory size does not end within the test's time). */
static void big_segment(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	struct th_reach *r;
	char err[512];

	(void)state;
	assert_int_equal(th_reach_compute(b, "call_timer_fn", kernel_priv, 2, &r, err, sizeof(err)), 0);
	assert_string_equal(th_cfi_scheme_name(r->sites[0].scheme), "kcfi");
	assert_int_equal(r->sites[0].nmembers, 3);
	assert_int_equal(r->sites[0].other_admitted, 0);
	th_reach_free(r);
	th_bin_close(b);
}

/* doubled <binary>: the check reads rdi doubled 40 times, one DAG node per
 * doubling; walked without memory, 2^40 steps. */
static void doubled(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	struct th_reach *r;
	char err[512];

	(void)state;
	assert_int_equal(th_reach_compute(b, "doubled", kernel_priv, 2, &r, err, sizeof(err)), 0);
	assert_int_equal(r->nsites, 1);
	assert_true(r->complete);
	assert_int_not_equal(r->sites[0].scheme, TH_CFI_NONE);
	/* 2^40 * T == 5 has no solution: nothing passes, all decided. */
	assert_int_equal(r->sites[0].nmembers, 0);
	assert_int_equal(r->sites[0].undecided, 0);
	th_reach_free(r);
	th_bin_close(b);
}

/* traps_twice <binary with two trap sections> <the same with one>: the
 * traps of both are kept (the second section's entries were written past
 * the end of an array sized for it alone). */
static void traps_twice(void **state)
{
	struct th_bin *two = open_bin(arg(0)), *one = open_bin(arg(1));
	const struct th_func_sites *fs;
	char err[512];

	(void)state;
	assert_true(th_bin_kcfi_trap_count(one) > 0);
	assert_int_equal(th_bin_kcfi_trap_count(two), 2 * th_bin_kcfi_trap_count(one));
	fs = th_bin_call_sites(two, "call_timer_fn", err, sizeof(err));
	assert_non_null(fs);
	assert_int_equal(fs->nsites, 1);
	assert_true(fs->sites[0].nguards > 0 && fs->sites[0].guards[0].kcfi_listed);
	assert_string_equal(th_cfi_scheme_name(fs->sites[0].scheme), "kcfi");
	th_bin_close(two);
	th_bin_close(one);
}

/* flags <binary>: tests/reach_flags.c. A je on flags the function did not
 * set (at its entry; rewritten by a shift after the compare) guards
 * nothing: the call is unchecked, never a cfi-icall check; the compare on
 * the target, the control, is one. Run by the sanitized reader too: the
 * unknown flags once reached eval_cond's 1ULL << (0 - 1). */
static void flags(void **state)
{
	static const struct { const char *fn; enum th_cfi_scheme scheme; size_t nguards; } want[] = {
		{ "entry_flags", TH_CFI_NONE, 0 },
		{ "clobbered", TH_CFI_NONE, 0 },
		{ "cmp_set", TH_CFI_ICALL, 1 },
	};
	struct th_bin *b = open_bin(arg(0));
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct th_func_sites *fs = th_bin_call_sites(b, want[i].fn, err, sizeof(err));
		struct th_reach *r;

		if (!fs)
			fail_msg("%s: %s", want[i].fn, err);
		assert_int_equal(fs->nsites, 1);
		if (fs->sites[0].scheme != want[i].scheme || fs->sites[0].nguards != want[i].nguards)
			fail_msg("%s: %s with %zu guards, want %s with %zu", want[i].fn,
				 th_cfi_scheme_name(fs->sites[0].scheme), fs->sites[0].nguards,
				 th_cfi_scheme_name(want[i].scheme), want[i].nguards);
		assert_int_equal(th_reach_compute(b, want[i].fn, kernel_priv, 2, &r, err, sizeof(err)), 0);
		assert_int_equal(r->sites[0].scheme, want[i].scheme);
		th_reach_free(r);
	}
	th_bin_close(b);
}

/* The cfi-icall jump table whose __typeid_<T>_global_addr is in @s: its
 * __typeid_<T>_size_m1 + 1, every member of @s (each a table entry). */
static void icall_table_is_set(struct th_bin *b, const struct th_reach_site *s)
{
	size_t nsyms = th_bin_nsyms(b), tables = 0;

	for (size_t i = 0; i < nsyms; i++) {
		const struct th_sym *y = th_bin_sym(b, i), *g, *m1;
		size_t len = strlen(y->name);
		char ga[256];

		if (strncmp(y->name, "__typeid_", 9) || len <= 17 || strcmp(y->name + len - 8, "_size_m1") ||
		    !y->absolute)
			continue;
		snprintf(ga, sizeof(ga), "%.*s_global_addr", (int)(len - 8), y->name);
		assert_int_equal(th_bin_find_syms(b, ga, &g, 1), 1);
		if (!in_set(s, g->addr))
			continue;
		m1 = y;
		tables++;
		assert_int_equal(s->nmembers, m1->addr + 1);
	}
	/* One table: the call's own type's, never the two merged calls' union. */
	assert_int_equal(tables, 1);
}

/* tasklet <binary> <variant> <config> <scheme>: tasklet_action_common's
 * calls as each generation makes them (legacy t->func(t->data), modern
 * t->callback(t), transitional both), each call's set against its scheme's
 * own tables; where the compiler merged the two calls into one instruction
 * (cfi-icall: one `call rax` behind two checks), each call's set is what
 * th_guard_admits() answers for its guard, and their union is what
 * th_site_admits() answers for the instruction. */
static void tasklet(void **state)
{
	const char *path = arg(0), *variant = arg(1), *config = arg(2), *scheme = arg(3);
	struct th_bin *b = open_bin(path);
	const struct th_func_sites *fs;
	struct th_reach *r;
	size_t nsyms = th_bin_nsyms(b), want = strcmp(variant, "transitional") ? 1 : 2;
	char err[512], what[256];
	int seen[3] = { 0 };

	(void)state;
	if (th_reach_compute(b, "tasklet_action_common", privileged, NPRIV, &r, err, sizeof(err)))
		fail_msg("%s", err);
	fs = th_bin_call_sites(b, "tasklet_action_common", err, sizeof(err));
	assert_non_null(fs);
	assert_int_equal(r->nsites, want);
	for (size_t i = 0; i < r->nsites; i++) {
		const struct th_reach_site *s = &r->sites[i];
		const char *name = s->arg == TH_CALL_ARG_FIELD ? "func" : "callback";
		int func = s->arg == TH_CALL_ARG_FIELD;

		snprintf(what, sizeof(what), "%s %s tasklet %s (call %u of %u at 0x%llx)", variant, config,
			 name, s->call, s->ncalls, (unsigned long long)s->addr);
		print_set(what, r, s);
		assert_true(s->arg == TH_CALL_ARG_FIELD || s->arg == TH_CALL_ARG_OBJECT);
		seen[s->arg]++;
		assert_string_equal(th_cfi_scheme_name(s->scheme), scheme);
		/* t->func and t->callback: one word of the struct (the union at
		 * 24 on transitional, func's at 24 on legacy too). */
		assert_int_equal(s->target_off, 24);
		if (!strcmp(scheme, "none")) {
			assert_int_equal(s->nmembers, r->nfunctions);
			continue;
		}
		assert_int_equal(member(s, "write_cr4") != NULL, func);
		if (member(s, "write_cr4"))
			assert_true(member(s, "write_cr4")->privileged);
		assert_null(member(s, "commit_creds"));
		/* The generation's own callbacks: of the func type on legacy
		 * (tasklet_init()), of the callback type after (tasklet_setup()). */
		assert_int_equal(member(s, "neighbour_tasklet_fn") != NULL,
				 func == !strcmp(variant, "legacy"));
		if (!strcmp(scheme, "cfi-icall"))
			icall_table_is_set(b, s);
		if (!strcmp(scheme, "kcfi")) {
			const struct th_call_site *site = NULL;
			size_t preambles = 0;

			for (size_t k = 0; k < fs->nsites; k++)
				if (fs->sites[k].addr == s->addr)
					site = &fs->sites[k];
			assert_non_null(site);
			/* kcfi keeps the calls apart: one site each. */
			assert_int_equal(s->ncalls, 1);
			for (size_t k = 0; k < nsyms; k++) {
				const struct th_sym *p = th_bin_sym(b, k), *f;
				int ok;
				uint32_t h;

				if (strncmp(p->name, "__cfi_", 6) || p->type != STT_FUNC ||
				    th_bin_find_syms(b, p->name + 6, &f, 1) != 1)
					continue;
				h = word_at(b, f->addr - 4, &ok);
				assert_true(ok);
				assert_int_equal(in_set(s, f->addr), h == site->kcfi.hash);
				preambles++;
			}
			assert_true(preambles > 0);
		}
	}
	assert_int_equal(seen[TH_CALL_ARG_FIELD], strcmp(variant, "modern") != 0);
	assert_int_equal(seen[TH_CALL_ARG_OBJECT], strcmp(variant, "legacy") != 0);
	/* A merged instruction: each call's set is its guard's (th_guard_admits),
	 * the instruction's (th_site_admits) their union. */
	for (size_t k = 0; k < fs->nsites; k++) {
		const struct th_call_site *site = &fs->sites[k];
		struct th_site_call calls[3];
		size_t nc = th_site_calls(site, calls, 3);

		assert_true(nc >= 1);
		if (nc == 2 && strcmp(scheme, "none")) {
			/* One guard each, its own. */
			assert_int_equal(calls[0].site->nguards + calls[1].site->nguards, site->nguards);
			assert_true(calls[0].site->nguards >= 1 && calls[1].site->nguards >= 1);
			for (size_t i = 0; i < nsyms; i++) {
				const struct th_sym *f = th_bin_sym(b, i);
				int u, a0, a1, g0, g1;

				if (f->type != STT_FUNC || f->absolute || !th_bin_is_exec(b, f->addr))
					continue;
				u = th_site_admits(site, f->addr, NULL);
				a0 = th_site_admits(calls[0].site, f->addr, NULL);
				a1 = th_site_admits(calls[1].site, f->addr, NULL);
				g0 = th_guard_admits(site, &calls[0].site->guards[0], f->addr, NULL);
				g1 = th_guard_admits(site, &calls[1].site->guards[0], f->addr, NULL);
				if (!strcmp(scheme, "cfi-icall")) {
					assert_int_equal(a0, g0);
					assert_int_equal(a1, g1);
				} else {
					/* -fsanitize=function: a callee without the
					 * signature skips the hash compare (its guard's
					 * branch), admitted on its call's paths all the
					 * same (unchecked). */
					assert_true(g0 != 1 || a0 == 1);
					assert_true(g1 != 1 || a1 == 1);
				}
				if (u >= 0 && a0 >= 0 && a1 >= 0)
					assert_int_equal(u, a0 || a1);
			}
		}
		for (size_t i = 0; i < nc; i++)
			th_site_call_free(&calls[i]);
	}
	th_reach_free(r);
	th_bin_close(b);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} cases[] = {
		{ "set", set }, { "verify", verify }, { "prefetch", prefetch }, { "kernel_like", kernel_like },
		{ "big_segment", big_segment }, { "doubled", doubled }, { "traps_twice", traps_twice },
		{ "flags", flags }, { "tasklet", tasklet },
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
