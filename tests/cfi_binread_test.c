/* SPDX-License-Identifier: MIT */
/*
 * Tests of the binary reader (binread/binread.h) on the real attack binaries of
 * this toolchain: `th-binread-test <case> [args...]`, one CTest test per case
 * and binary (tests/cfi.cmake). Every expectation is derived from what the
 * source says, not from what the reader printed:
 *  - the check's kind from the config (cfi-icall traps with ud1, diag mode
 *    calls __ubsan_handle_cfi_check_fail_abort, kcfi traps with ud2 listed
 *    in .kcfi_traps, -fsanitize=function calls its handler);
 *  - which callbacks pass from the C types: legacy's call site is
 *    void (*)(unsigned long), so the legacy callback and write_cr4 pass;
 *    modern's is void (*)(struct timer_list *), so write_cr4 does not; the
 *    transitional shim stores a struct timer_list * callback and calls it as
 *    unsigned long, so its own callback fails (the false positive);
 *  - tasklet_action_common's calls: t->func(t->data) admits write_cr4,
 *    t->callback(t) never, each call its own check where cfi-icall merges
 *    the two into one instruction (tasklet_site);
 *  - the numbers against the binary's own tables: __typeid_<T>_size_m1 + 1
 *    jump-table entries, the kcfi hash in the callee's preamble, the
 *    function sanitizer's words before the callee, the diagnostic's line
 *    being the line of `fn(...)` in timer_core/.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "binread/binread.h"

static int g_argc;
static char **g_argv;

static const char *arg(int i)
{
	if (i >= g_argc)
		fail_msg("missing argument %d (see tests/cfi.cmake)", i);
	return g_argv[i];
}

#define assert_contains(hay, needle)                                                 \
	do {                                                                         \
		if (!strstr((hay), (needle)))                                        \
			fail_msg("\"%s\" does not contain \"%s\"", (hay), (needle)); \
	} while (0)

static struct th_bin *open_bin(const char *path)
{
	struct th_bin *b;
	char err[512];

	if (th_bin_open(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	return b;
}

static const struct th_sym *sym(const struct th_bin *b, const char *name)
{
	const struct th_sym *s;

	if (th_bin_find_syms(b, name, &s, 1) != 1)
		fail_msg("%s: no single symbol %s", th_bin_path(b), name);
	return s;
}

static uint32_t word_at(const struct th_bin *b, uint64_t addr)
{
	uint32_t v;

	if (th_bin_read(b, addr, &v, 4))
		fail_msg("cannot read 0x%lx", (unsigned long)addr);
	return v;
}

/* The line of `needle` in a source file: 1-based, 0 if absent. */
static unsigned source_line(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned n = 0;

	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, needle) && !strstr(line, "*")) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return 0;
}

/* site <binary> <variant> <config> <scheme> <timer_core dir> */
static void site(void **state)
{
	const char *path = arg(0), *variant = arg(1), *config = arg(2), *scheme = arg(3);
	struct th_bin *b = open_bin(path);
	const struct th_func_sites *fs;
	const struct th_call_site *s;
	const struct th_sym *legit = sym(b, "prb_retire_rx_blk_timer_expired");
	const struct th_sym *cr4 = sym(b, "write_cr4");
	int legacy_type = strcmp(variant, "modern") != 0;
	int legit_passes = strcmp(variant, "transitional") != 0;
	char err[512], desc[512];

	(void)state;
	fs = th_bin_call_sites(b, "call_timer_fn", err, sizeof(err));
	if (!fs)
		fail_msg("%s", err);
	assert_true(fs->complete);
	/* One indirect call: fn(data) or fn(timer), reached from the entry. */
	assert_int_equal(fs->nsites, 1);
	s = &fs->sites[0];
	th_site_describe(s, desc, sizeof(desc));
	print_message("%s %s %s: %s at 0x%lx, target in %s: %s\n", variant, config, scheme, s->insn,
		      (unsigned long)s->addr, th_reg_name(s->target_reg), desc);
	assert_true(s->reached);
	assert_false(s->from_table);
	assert_true(s->target_reg >= 0);
	assert_string_equal(th_cfi_scheme_name(s->scheme), scheme);
	/* The call is the function's last jump or call: inside it. */
	assert_true(s->addr >= fs->start && s->addr < fs->start + fs->size);

	if (!strcmp(scheme, "none")) {
		assert_int_equal(s->nguards, 0);
		assert_int_equal(th_site_admits(s, legit->addr, NULL), 1);
		assert_int_equal(th_site_admits(s, cr4->addr + 4, NULL), 1);
		th_bin_close(b);
		return;
	}
	assert_int_equal(s->nguards, 1);
	for (size_t i = 0; i < s->nguards; i++) {
		const struct th_guard *g = &s->guards[i];
		int diag = strstr(config, "diag") || !strcmp(scheme, "function");

		assert_int_equal(g->kind, diag ? TH_GUARD_HANDLER : TH_GUARD_TRAP);
		assert_true(g->addr >= fs->start && g->addr < fs->start + fs->size);
		assert_true(g->branch >= fs->start && g->branch < g->addr + 1);
		assert_true(g->target_reg >= 0);
		assert_ptr_equal(th_site_guard_at(s, g->addr), g);
		assert_int_equal(g->kcfi_listed, !strcmp(scheme, "kcfi"));
		if (!strcmp(scheme, "kcfi"))
			assert_string_equal(g->insn, "ud2");
		else if (!diag)
			assert_string_equal(g->insn, "ud1");
		if (diag) {
			/* The runtime will report the call at the line of fn(...). */
			char src[512];
			const char *call = legacy_type ? "\tfn(data);" : "\tfn(timer);";

			snprintf(src, sizeof(src), "%s/%s.c", arg(4), legacy_type ? "legacy" : "modern");
			assert_contains(g->handler, !strcmp(scheme, "function") ? "function_type_mismatch"
									       : "cfi_check_fail");
			assert_contains(g->file, legacy_type ? "legacy.c" : "modern.c");
			assert_int_equal(g->line, source_line(src, call));
			assert_contains(g->type, legacy_type ? "unsigned long" : "modern_timer_list *");
		}
	}
	/* Which targets pass, from the C types. */
	assert_int_equal(th_site_admits(s, legit->addr, NULL), legit_passes);
	assert_int_equal(th_site_admits(s, cr4->addr, NULL), legacy_type);
	/* The middle of a function is never a valid target. */
	assert_int_equal(th_site_admits(s, cr4->addr + 4, NULL) == 1, !strcmp(scheme, "function"));

	if (!strcmp(scheme, "cfi-icall")) {
		char name[256];
		const struct th_sym *m1;
		int generalized = strstr(config, "generalized") != NULL;
		const char *type = legacy_type ? (generalized ? "_ZTSFvmE.generalized" : "_ZTSFvmE")
				   : generalized ? "_ZTSFvPvE.generalized"
						 : "_ZTSFvP17modern_timer_listE";

		assert_string_equal(s->icall.type_id, type);
		snprintf(name, sizeof(name), "__typeid_%s_global_addr", type);
		assert_int_equal(s->icall.global_addr, sym(b, name)->addr);
		snprintf(name, sizeof(name), "__typeid_%s_size_m1", type);
		m1 = sym(b, name);
		assert_int_equal(s->icall.entries, m1->addr + 1);
		assert_int_equal(s->icall.entry_size, 8);
		/* Every entry admitted, nothing either side. */
		for (unsigned k = 0; k < s->icall.entries; k++)
			assert_int_equal(th_site_admits(s, s->icall.table + 8 * k, NULL), 1);
		assert_int_equal(th_site_admits(s, s->icall.table - 8, NULL), 0);
		assert_int_equal(th_site_admits(s, s->icall.table + 8 * s->icall.entries, NULL), 0);
		assert_int_equal(th_site_admits(s, s->icall.table + 1, NULL), 0);
	} else if (!strcmp(scheme, "kcfi")) {
		/* The call site's hash is the one in the preamble of a callback of
		 * its type (__cfi_<f>: movl $hash, %eax right before f). */
		assert_true(s->kcfi.known);
		assert_int_equal(s->kcfi.offset, -4);
		assert_int_equal(s->kcfi.hash, word_at(b, (legit_passes ? legit : cr4)->addr - 4));
		assert_int_equal(th_bin_is_kcfi_trap(b, s->guards[0].addr), 1);
	} else if (!strcmp(scheme, "function")) {
		const struct th_sym *same = legit_passes ? legit : cr4;

		assert_true(s->function.known);
		assert_int_equal(s->function.signature, word_at(b, same->addr - 8));
		assert_int_equal(s->function.hash, word_at(b, same->addr - 4));
	}
	th_bin_close(b);
}

/*
 * tasklet_site <binary> <variant> <config> <scheme>: tasklet_action_common's
 * calls (th_site_calls). legacy makes t->func(t->data) only (the argument a
 * word of the tasklet), modern t->callback(t) only (the tasklet itself),
 * transitional both: two sites under kcfi, one instruction behind two checks
 * under cfi-icall (and with no CFI), told apart into two calls, each with its
 * own guard, jump table or hash and admits. From the C types: write_cr4 is
 * func's type, never callback's; the generation's own callback
 * (neighbour_tasklet_fn) is func's on legacy (tasklet_init()), callback's
 * after (tasklet_setup()).
 */
static void tasklet_site(void **state)
{
	const char *path = arg(0), *variant = arg(1), *config = arg(2), *scheme = arg(3);
	struct th_bin *b = open_bin(path);
	const struct th_sym *cr4 = sym(b, "write_cr4"), *own = sym(b, "neighbour_tasklet_fn");
	int legacy = !strcmp(variant, "legacy"), checked = strcmp(scheme, "none") != 0;
	size_t ncalls = 0, nfunc = 0, ncb = 0;
	const struct th_func_sites *fs;
	char err[512], desc[512];

	(void)state;
	fs = th_bin_call_sites(b, "tasklet_action_common", err, sizeof(err));
	if (!fs)
		fail_msg("%s", err);
	for (size_t i = 0; i < fs->nsites; i++) {
		const struct th_call_site *s = &fs->sites[i];
		struct th_site_call calls[3];
		size_t n = th_site_calls(s, calls, 3), guards = 0;

		assert_true(n >= 1 && n <= 2);
		for (size_t k = 0; k < n; k++) {
			const struct th_call_site *c = calls[k].site;
			int func = calls[k].arg == TH_CALL_ARG_FIELD;

			th_site_describe(c, desc, sizeof(desc));
			print_message("%s %s: 0x%lx %s, call %zu of %zu, %s: %s\n", variant, config,
				      (unsigned long)c->addr, c->insn, k + 1, n, th_call_arg_name(calls[k].arg),
				      desc);
			assert_true(calls[k].arg != TH_CALL_ARG_OTHER);
			assert_int_equal(calls[k].target_off, 24);
			/* func(data): data is the word after the func/callback union. */
			if (func)
				assert_int_equal(calls[k].arg_off, 32);
			assert_string_equal(th_cfi_scheme_name(c->scheme), scheme);
			assert_true(c->reached);
			nfunc += (size_t)func;
			ncb += (size_t)!func;
			guards += c->nguards;
			if (!checked) {
				assert_int_equal(c->nguards, 0);
				continue;
			}
			assert_int_equal(c->nguards, 1);
			assert_int_equal(th_site_admits(c, cr4->addr, NULL), func);
			assert_int_equal(th_site_admits(c, own->addr, NULL), func == legacy);
			/* The check behind this call's guard answers alike. */
			assert_int_equal(th_guard_admits(s, &c->guards[0], cr4->addr, NULL), func);
			assert_int_equal(th_guard_admits(s, &c->guards[0], own->addr, NULL), func == legacy);
			if (!strcmp(scheme, "cfi-icall")) {
				int generalized = strstr(config, "generalized") != NULL;

				if (func)
					assert_string_equal(c->icall.type_id, generalized ? "_ZTSFvmE.generalized"
											  : "_ZTSFvmE");
				else
					assert_contains(c->icall.type_id, generalized ? "_ZTSFvPvE.generalized"
										     : "_tasklet_structE");
			} else if (!strcmp(scheme, "kcfi")) {
				assert_int_equal(c->kcfi.hash, word_at(b, (func ? cr4 : own)->addr - 4));
			}
		}
		/* The calls' guards are the instruction's, each on one call. */
		assert_int_equal(guards, s->nguards);
		for (size_t k = 0; k < n; k++)
			th_site_call_free(&calls[k]);
		ncalls += n;
	}
	assert_int_equal(ncalls, legacy || !strcmp(variant, "modern") ? 1 : 2);
	assert_int_equal(nfunc, strcmp(variant, "modern") != 0);
	assert_int_equal(ncb, !legacy);
	/* kcfi keeps transitional's two calls apart; cfi-icall and none merge
	 * them into one instruction (clang 14 and 22 alike). */
	if (!strcmp(variant, "transitional"))
		assert_int_equal(fs->nsites, !strcmp(scheme, "kcfi") ? 2 : 1);
	th_bin_close(b);
}

/* Bad input: each says which file and what is wrong. */
static void not_elf(void **state)
{
	char path[] = "/tmp/th-binread-XXXXXX", err[512];
	struct th_bin *b;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("#!/bin/sh\necho not an ELF file\n", f);
	fclose(f);
	assert_int_equal(th_bin_open(path, &b, err, sizeof(err)), -1);
	print_message("%s\n", err);
	assert_contains(err, path);
	assert_contains(err, "not an ELF file");
	unlink(path);
	assert_int_equal(th_bin_open("/nonexistent/th-binary", &b, err, sizeof(err)), -1);
	assert_contains(err, "/nonexistent/th-binary: cannot open");
}

static void stripped(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	char err[512];

	(void)state;
	assert_null(th_bin_call_sites(b, "main", err, sizeof(err)));
	print_message("%s\n", err);
	assert_contains(err, arg(0));
	assert_contains(err, "stripped");
	th_bin_close(b);
}

static void no_function(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	char err[512];

	(void)state;
	/* Exact names only: a prefix of call_timer_fn is not it. */
	assert_null(th_bin_call_sites(b, "call_timer", err, sizeof(err)));
	print_message("%s\n", err);
	assert_contains(err, "no function named exactly 'call_timer'");
	th_bin_close(b);
}

static void duplicate(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	char err[512];

	(void)state;
	assert_null(th_bin_call_sites(b, "th_dup_dispatch", err, sizeof(err)));
	print_message("%s\n", err);
	assert_contains(err, "2 functions are named 'th_dup_dispatch'");
	th_bin_close(b);
}

/* A binary without CFI: the site is there, unguarded, and the binary says
 * it has no CFI tables. */
static void no_cfi(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	const struct th_func_sites *fs;
	char err[512];

	(void)state;
	assert_int_equal(th_bin_cfi_schemes(b), 0);
	fs = th_bin_call_sites(b, "call_timer_fn", err, sizeof(err));
	assert_non_null(fs);
	assert_int_equal(fs->nsites, 1);
	assert_int_equal(fs->sites[0].scheme, TH_CFI_NONE);
	assert_contains(fs->sites[0].why, "no check");
	th_bin_close(b);
}

/* A switch's `jmp *reg` is a jump through a table, not a call through a
 * pointer: said so, and no check is invented for it. */
static void switch_table(void **state)
{
	struct th_bin *b = open_bin(arg(0));
	const struct th_func_sites *fs;
	char err[512];

	(void)state;
	fs = th_bin_call_sites(b, "th_switch", err, sizeof(err));
	if (!fs)
		fail_msg("%s", err);
	assert_int_equal(fs->nsites, 1);
	assert_true(fs->sites[0].is_jump);
	assert_true(fs->sites[0].from_table);
	assert_int_equal(fs->sites[0].nguards, 0);
	th_bin_close(b);
}

/* The cache hands back the same binary until the file changes. */
static void cache(void **state)
{
	char err[512];
	struct th_bin *a = th_bin_cached(arg(0), err, sizeof(err)), *b;

	(void)state;
	assert_non_null(a);
	b = th_bin_cached(arg(0), err, sizeof(err));
	assert_ptr_equal(a, b);
	assert_null(th_bin_cached("/nonexistent/x", err, sizeof(err)));
	assert_contains(err, "/nonexistent/x");
	th_bin_cache_clear();
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} cases[] = {
		{ "site", site }, { "not_elf", not_elf }, { "stripped", stripped },
		{ "no_function", no_function }, { "duplicate", duplicate }, { "no_cfi", no_cfi },
		{ "switch_table", switch_table }, { "cache", cache }, { "tasklet_site", tasklet_site },
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
