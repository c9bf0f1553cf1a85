/* SPDX-License-Identifier: MIT */
/*
 * attacks/: the registry, the declared expectations and their loader.
 *   th-attacks-test <case>            run one case (CTest: one add_test each)
 *   th-attacks-test --list            the case names
 *   th-attacks-test list_same BIN...  every BIN --list prints the same lines
 * Built by tests/attacks.cmake with TH_EXPECTED_TSV (attacks/expected.tsv),
 * TH_TEST_CONFIGS (every config, comma-separated) and TH_TEST_TOOLCHAIN.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "expect.h"
#include "kernel_plan.h"
#include "registry.h"
#include "report/check.h"
#include "results/outcome.h"

static const char *const variants[] = { "legacy", "transitional", "modern" };
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))
/* The build's toolchain and the versions whose support differs by rule. */
static const char *const toolchains[] = { TH_TEST_TOOLCHAIN, "clang-9", "clang-14", "clang-15",
					  "clang-16", "clang-17", "clang-22" };
#define NTOOLCHAINS (sizeof(toolchains) / sizeof(toolchains[0]))

static char configs_buf[1024];
static const char *configs[64];
static size_t nconfigs;

static void split_configs(void)
{
	char *save = NULL;

	snprintf(configs_buf, sizeof(configs_buf), "%s", TH_TEST_CONFIGS);
	nconfigs = 0;
	for (char *t = strtok_r(configs_buf, ",", &save); t && nconfigs < 64;
	     t = strtok_r(NULL, ",", &save))
		configs[nconfigs++] = t;
}

/* "func+data:write_cr4" -> "FUNC_DATA_WRITE_CR4" */
static void derive(char *out, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < n; i++)
		out[i] = isalnum((unsigned char)name[i]) ? (char)toupper((unsigned char)name[i]) : '_';
	out[i] = 0;
}

/* ---- registry ----------------------------------------------------------- */

static void registry_ids_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < th_attack_count; i++)
		for (size_t j = i + 1; j < th_attack_count; j++)
			if (!strcmp(th_attacks[i].id, th_attacks[j].id))
				fail_msg("duplicate attack ID %s (rows %zu and %zu)", th_attacks[i].id, i, j);
}

static void registry_ids_derived(void **state)
{
	(void)state;
	for (size_t i = 0; i < th_attack_count; i++) {
		const struct th_attack *a = &th_attacks[i];
		char t[64], w[64], p[64], want[200];

		for (const char *c = a->id; *c; c++)
			if (!(isupper((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_'))
				fail_msg("%s: not upper-case [A-Z0-9_]", a->id);
		derive(t, sizeof(t), th_technique_name(a->technique));
		derive(w, sizeof(w), th_timing_name(a->timing));
		derive(p, sizeof(p), th_payload_name(a->payload));
		snprintf(want, sizeof(want), "%s_%s_%s", t, w, p);
		if (strcmp(a->id, want))
			fail_msg("ID %s is not derived from its names (%s)", a->id, want);
		assert_ptr_equal(th_attack_find(a->id), a);
	}
	assert_null(th_attack_find("NO_SUCH_ATTACK"));
	assert_null(th_attack_find(NULL));
}

/* The public names of docs/attacks.md, spelled out here on purpose (not from the table). */
static void registry_design_names(void **state)
{
	static const char *const techniques[] = { "memcpy-intra", "index-intra", "strcpy-intra",
						  "heap-neighbour", "uaf-realloc",
						  "ring-block-overflow",
						  /* The tasklet family (issue 28). */
						  "tasklet-memcpy-intra", "hso-index" };
	static const char *const timings[] = { "before-arm", "pending" };
	static const char *const payloads[] = {
		"none", "func+data:write_cr4", "func:write_cr4", "func:same-class", "func:ptr-class",
		"func:other-proto", "func:mid-function", "func:data-address", "data:fake-object",
		/* Inside CFI's reach (cfi/target_set.h). */
		"func:foreign-callback", "func:not-address-taken", "func:raw-body",
		/* The pending timer's list pointers (fuzz/ found them). */
		"list:forged-timer", "list:hlist-del",
		/* The tasklet's own (attacks/tasklet_attack.c). */
		"use-callback:write_cr4", "list:forged-tasklet",
	};

	(void)state;
	assert_int_equal(TH_TECH_COUNT, 8);
	assert_int_equal(TH_TIMING_COUNT, 2);
	assert_int_equal(TH_PAYLOAD_COUNT, 16);
	for (size_t t = 0; t < 8; t++) {
		int found = 0;

		for (int e = 0; e < TH_TECH_COUNT; e++)
			found |= !strcmp(th_technique_name((enum th_technique)e), techniques[t]);
		if (!found)
			fail_msg("technique %s missing", techniques[t]);
	}
	for (size_t t = 0; t < 2; t++)
		assert_string_equal(th_timing_name((enum th_timing)t), timings[t]);
	for (size_t p = 0; p < sizeof(payloads) / sizeof(payloads[0]); p++) {
		int found = 0;

		for (int e = 0; e < TH_PAYLOAD_COUNT; e++)
			found |= !strcmp(th_payload_name((enum th_payload)e), payloads[p]);
		if (!found)
			fail_msg("payload %s missing", payloads[p]);
	}
	assert_null(th_technique_name(TH_TECH_COUNT));
	assert_null(th_payload_name(TH_PAYLOAD_COUNT));
}

/* Every technique x timing x payload that can exist, once: uaf-realloc only pending. */
static void registry_complete(void **state)
{
	size_t n = 0;

	(void)state;
	for (int t = 0; t < TH_TECH_COUNT; t++)
		for (int w = 0; w < TH_TIMING_COUNT; w++)
			for (int p = 0; p < TH_PAYLOAD_COUNT; p++) {
				/* A freed timer is refilled while pending; CVE-2017-7308's
				 * exploit armed the timer first. */
				int found = 0, should = !((t == TH_TECH_UAF_REALLOC ||
							   t == TH_TECH_RING_BLOCK_OVERFLOW) &&
							  w == TH_TIMING_BEFORE_ARM);

				for (size_t i = 0; i < th_attack_count; i++)
					found += th_attacks[i].technique == (enum th_technique)t &&
						 th_attacks[i].timing == (enum th_timing)w &&
						 th_attacks[i].payload == (enum th_payload)p;
				if (found != should)
					fail_msg("%s %s %s: registered %d times, expected %d",
						 th_technique_name((enum th_technique)t),
						 th_timing_name((enum th_timing)w),
						 th_payload_name((enum th_payload)p), found, should);
				n += (size_t)found;
			}
	assert_int_equal(n, th_attack_count);
	/* The timer's 4 techniques x 2 timings, its 2 pending-only ones, and
	 * the tasklet's 2 x 2, each with every payload. */
	assert_int_equal(th_attack_count, 4 * 2 * 16 + 2 * 16 + 2 * 2 * 16);
}

/* NOT_APPLICABLE exactly where the attack's family lacks what it writes:
 * .data on modern, the other family's payloads, what hso_serial has not. */
static void registry_not_applicable(void **state)
{
	size_t na = 0;

	(void)state;
	for (size_t i = 0; i < th_attack_count; i++) {
		const struct th_attack *a = &th_attacks[i];
		enum th_payload p = a->payload;
		int data = p == TH_PAYLOAD_FUNC_DATA_WRITE_CR4 || p == TH_PAYLOAD_DATA_FAKE_OBJECT;
		int tasklet = !strcmp(th_technique_api(a->technique), "tasklet");
		int timer_only = p == TH_PAYLOAD_DATA_FAKE_OBJECT ||
				 p == TH_PAYLOAD_FUNC_FOREIGN_CALLBACK ||
				 p == TH_PAYLOAD_LIST_FORGED_TIMER || p == TH_PAYLOAD_LIST_HLIST_DEL;
		int tasklet_only = p == TH_PAYLOAD_USE_CALLBACK_WRITE_CR4 ||
				   p == TH_PAYLOAD_LIST_FORGED_TASKLET;
		int hso_lacks = a->technique == TH_TECH_HSO_INDEX &&
				(p == TH_PAYLOAD_FUNC_SAME_CLASS || p == TH_PAYLOAD_FUNC_RAW_BODY ||
				 p == TH_PAYLOAD_FUNC_PTR_CLASS || p == TH_PAYLOAD_FUNC_OTHER_PROTO);
		int never = tasklet ? timer_only || hso_lacks : tasklet_only;

		assert_int_equal(th_payload_needs_data(p), data);
		assert_int_equal(th_attack_na_reason(a, "legacy") != NULL, never);
		assert_int_equal(th_attack_na_reason(a, "transitional") != NULL, never);
		assert_int_equal(th_attack_na_reason(a, "modern") != NULL, never || data);
		na += !never && data;
		assert_non_null(th_attack_na_reason(a, "bogus"));
		assert_non_null(th_attack_na_reason(a, NULL));
	}
	/* On modern alone: 10 timer technique x timing rows x 2 .data payloads,
	 * and 4 tasklet rows x func+data (data:fake-object is the timer's). */
	assert_int_equal(na, 10 * 2 + 4);
}

/* ---- expected.tsv ---------------------------------------------------------- */

static void load_real(void)
{
	char err[512];

	if (th_expect_load(TH_EXPECTED_TSV, err, sizeof(err)))
		fail_msg("%s", err);
}

static void expect_loads(void **state)
{
	(void)state;
	load_real();
	assert_true(th_expect_count() > 10);
}

/* Every registry attack x variant x config x toolchain has a valid outcome;
 * NOT_APPLICABLE exactly where the registry says so; controls never worse
 * than FALSE_POSITIVE. */
static void expect_covers_every_cell(void **state)
{
	(void)state;
	load_real();
	split_configs();
	assert_true(nconfigs >= 11);
	for (size_t i = 0; i < th_attack_count; i++)
		for (size_t v = 0; v < NVARIANTS; v++)
			for (size_t c = 0; c < nconfigs; c++)
				for (size_t t = 0; t < NTOOLCHAINS; t++) {
					const struct th_attack *a = &th_attacks[i];
					const char *reason = NULL;
					const char *o = th_expect_lookup(a->id, variants[v], configs[c],
									 toolchains[t], &reason);
					enum th_outcome oc;
					int na = th_attack_na_reason(a, variants[v]) != NULL;

					if (!o)
						fail_msg("no rule for %s %s %s %s", a->id, variants[v],
							 configs[c], toolchains[t]);
					/* One outcome, or a probabilistic cell's set:
					 * judged by its most severe. */
					th_outcome_set set;
					char why[300];

					if (th_outcome_set_parse(o, &set, why, sizeof(why)))
						fail_msg("%s: outcome '%s' unknown to report/: %s",
							 th_expect_where(a->id, variants[v], configs[c],
									 toolchains[t]), o, why);
					oc = th_outcome_set_worst(set);
					/* Only randstruct's layout makes a cell's outcome
					 * depend on its build (a seed each). */
					if (th_outcome_set_size(set) > 1 && strcmp(configs[c], "randstruct"))
						fail_msg("%s: a set of outcomes '%s' for %s, which is no "
							 "probabilistic config",
							 th_expect_where(a->id, variants[v], configs[c],
									 toolchains[t]), o, configs[c]);
					assert_non_null(reason);
					if (na != (oc == TH_NOT_APPLICABLE))
						fail_msg("%s %s %s: expected %s but registry says %s",
							 a->id, variants[v], configs[c], o,
							 na ? "na" : "ok");
					if (a->payload == TH_PAYLOAD_NONE && oc < TH_FALSE_POSITIVE)
						fail_msg("control %s %s %s expected %s (worse than FALSE_POSITIVE)",
							 a->id, variants[v], configs[c], o);
				}
}

/* Every rule is the first match of some cell: no rule is shadowed or a typo. */
static void expect_no_dead_rules(void **state)
{
	char **used;
	size_t nused = 0, cap;

	(void)state;
	load_real();
	split_configs();
	/* The model's rules (those under @platform are a real kernel's). */
	cap = th_expect_count_on("model");
	used = calloc(cap ? cap : 1, sizeof(*used));
	assert_non_null(used);
	/* The registry's attacks, then the runner's self-test cells. */
	for (size_t i = 0; i < th_attack_count + 2; i++)
		for (size_t v = 0; v < NVARIANTS; v++)
			for (size_t c = 0; c < nconfigs; c++)
				for (size_t t = 0; t < NTOOLCHAINS; t++) {
					const char *id = i < th_attack_count ? th_attacks[i].id
						: i == th_attack_count ? "SELFTEST_HANG" : "SELFTEST_SEGV";
					const char *w = th_expect_where(id, variants[v],
									configs[c], toolchains[t]);
					size_t k;

					if (!w)
						continue;
					for (k = 0; k < nused && strcmp(used[k], w); k++)
						;
					if (k == nused && nused < cap)
						used[nused++] = strdup(w);
				}
	if (nused != cap) {
		char msg[4096] = "";
		FILE *f = fopen(TH_EXPECTED_TSV, "r");
		char line[2048];
		unsigned long ln = 0;

		int model = 1;

		for (; f && fgets(line, sizeof(line), f);) {
			char where[1200];
			size_t k;

			ln++;
			if (!strncmp(line, "@platform", 9)) {
				model = !strncmp(line + 10, "model", 5) && (line[15] == '\n' || !line[15]);
				continue;
			}
			if (line[0] == '#' || line[0] == '\n' || line[0] == '@' || !model)
				continue;
			snprintf(where, sizeof(where), "%s:%lu", TH_EXPECTED_TSV, ln);
			for (k = 0; k < nused && strcmp(used[k], where); k++)
				;
			if (k == nused && strlen(msg) + strlen(where) + 3 < sizeof(msg)) {
				strcat(msg, where);
				strcat(msg, "; ");
			}
		}
		if (f)
			fclose(f);
		fail_msg("%zu of %zu rules never match first: %s", cap - nused, cap, msg);
	}
	for (size_t k = 0; k < nused; k++)
		free(used[k]);
	free(used);
}

/* A few cells whose expectation is the story itself (docs/README.md). */
static void expect_story_cells(void **state)
{
	static const struct {
		const char *attack, *variant, *config, *outcome;
	} cells[] = {
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4", "legacy", "cfi-icall", "HIJACKED" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "modern", "cfi-icall", "BLOCKED_CFI" },
		/* write_cr4 has the 4.14 type: it runs, on the victim's argument, an
		 * address whose bits 63:32 are reserved in CR4: #GP(0) at its mov. */
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "legacy", "cfi-icall", "CRASHED" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "modern", "none", "CRASHED" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4", "legacy", "none", "HIJACKED" },
		{ "HEAP_NEIGHBOUR_PENDING_FUNC_WRITE_CR4", "modern", "cfi-icall", "BLOCKED_CFI" },
		{ "HEAP_NEIGHBOUR_PENDING_FUNC_WRITE_CR4", "modern", "kcfi", "BLOCKED_CFI" },
		{ "UAF_REALLOC_PENDING_NONE", "transitional", "cfi-icall", "FALSE_POSITIVE" },
		{ "UAF_REALLOC_PENDING_NONE", "transitional", "kcfi", "FALSE_POSITIVE" },
		{ "UAF_REALLOC_PENDING_FUNC_SAME_CLASS", "modern", "cfi-icall", "REDIRECTED" },
		{ "UAF_REALLOC_PENDING_FUNC_PTR_CLASS", "modern", "cfi-icall-generalized", "BLOCKED_CFI" },
		/* The shim's check stops the legitimate callback: not a block. */
		{ "MEMCPY_INTRA_BEFORE_ARM_DATA_FAKE_OBJECT", "transitional", "cfi-icall", "FALSE_POSITIVE" },
		{ "MEMCPY_INTRA_BEFORE_ARM_DATA_FAKE_OBJECT", "transitional", "kcfi", "FALSE_POSITIVE" },
		{ "UAF_REALLOC_PENDING_FUNC_PTR_CLASS", "modern", "cfi-icall", "BLOCKED_CFI" },
		{ "MEMCPY_INTRA_PENDING_FUNC_DATA_WRITE_CR4", "legacy", "asan", "HIJACKED" },
		{ "HEAP_NEIGHBOUR_BEFORE_ARM_FUNC_DATA_WRITE_CR4", "legacy", "asan", "DETECTED" },
		{ "INDEX_INTRA_PENDING_FUNC_WRITE_CR4", "modern", "bounds", "DETECTED" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4", "legacy", "fortify", "DETECTED" },
		/* 5 shuffled members: some seeds keep the default offsets. */
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4", "legacy", "randstruct",
		  "HIJACKED|PRIVILEGED_WRITE|REDIRECTED|CRASHED|HANG|TIMER_LOST|NO_EFFECT" },
		/* Inside CFI's reach: the 4.15 call site still gets to write_cr4. */
		{ "HEAP_NEIGHBOUR_PENDING_FUNC_FOREIGN_CALLBACK", "modern", "cfi-icall", "HIJACKED" },
		{ "HEAP_NEIGHBOUR_PENDING_FUNC_FOREIGN_CALLBACK", "modern", "kcfi", "HIJACKED" },
		{ "MEMCPY_INTRA_PENDING_FUNC_NOT_ADDRESS_TAKEN", "legacy", "cfi-icall", "BLOCKED_CFI" },
		{ "MEMCPY_INTRA_PENDING_FUNC_NOT_ADDRESS_TAKEN", "legacy", "kcfi", "CRASHED" },
		{ "MEMCPY_INTRA_PENDING_FUNC_RAW_BODY", "legacy", "cfi-icall", "BLOCKED_CFI" },
		{ "MEMCPY_INTRA_PENDING_FUNC_RAW_BODY", "legacy", "kcfi", "REDIRECTED" },
		/* CVE-2017-7308 as it happened: type-based CFI does not stop it on 4.14. */
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4", "legacy", "cfi-icall", "HIJACKED" },
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4", "legacy", "asan", "HIJACKED" },
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_WRITE_CR4", "modern", "kcfi", "BLOCKED_CFI" },
		/* Its 32 sockets and its own ring fire first: under the rc3 shim
		 * their legitimate callbacks trap before the overwritten one. */
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4", "transitional", "cfi-icall", "FALSE_POSITIVE" },
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4", "transitional", "kcfi", "FALSE_POSITIVE" },
		/* tpacket_kbdq_core: ring state in front of the timer, not a buffer. */
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_FOREIGN_CALLBACK", "modern", "kcfi", "CRASHED" },
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_FOREIGN_CALLBACK", "legacy", "none", "HIJACKED" },
		{ "RING_BLOCK_OVERFLOW_PENDING_FUNC_PTR_CLASS", "legacy", "none", "CRASHED" },
		/* A forged timer behind the pending one: fn(data) on 4.14, fn(timer) on 4.15. */
		{ "MEMCPY_INTRA_PENDING_LIST_FORGED_TIMER", "legacy", "cfi-icall", "HIJACKED" },
		{ "MEMCPY_INTRA_PENDING_LIST_FORGED_TIMER", "transitional", "kcfi", "FALSE_POSITIVE" },
		{ "MEMCPY_INTRA_PENDING_LIST_FORGED_TIMER", "modern", "kcfi", "BLOCKED_CFI" },
		{ "MEMCPY_INTRA_PENDING_LIST_FORGED_TIMER", "modern", "none", "CRASHED" },
		{ "HEAP_NEIGHBOUR_BEFORE_ARM_LIST_FORGED_TIMER", "legacy", "none", "NO_EFFECT" },
		/* __hlist_del() through planted pointers: no prototype removes it. */
		{ "UAF_REALLOC_PENDING_LIST_HLIST_DEL", "modern", "cfi-icall", "CRASHED" },
		{ "UAF_REALLOC_PENDING_LIST_HLIST_DEL", "transitional", "kcfi", "PRIVILEGED_WRITE" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_PTR_CLASS", "legacy", "none", "CRASHED" },
		{ "MEMCPY_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO", "legacy", "none", "CRASHED" },
		{ "INDEX_INTRA_BEFORE_ARM_LIST_HLIST_DEL", "modern", "kcfi", "PRIVILEGED_WRITE" },
		{ "STRCPY_INTRA_PENDING_LIST_HLIST_DEL", "legacy", "none", "CRASHED" },
	};

	(void)state;
	load_real();
	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		const char *o = th_expect_lookup(cells[i].attack, cells[i].variant, cells[i].config,
						 "clang-22", NULL);

		if (!o || strcmp(o, cells[i].outcome) != 0)
			fail_msg("%s %s %s: expected %s, rule says %s", cells[i].attack,
				 cells[i].variant, cells[i].config, cells[i].outcome, o ? o : "(none)");
	}
	assert_string_equal(th_expect_lookup("MEMCPY_INTRA_BEFORE_ARM_NONE", "legacy", "kcfi",
					     "clang-14", NULL),
			    "UNSUPPORTED");
}

/* ---- the loader on bad input -------------------------------------------------- */

static char tmpdir[] = "/tmp/th-expect-XXXXXX";
static int tmpdir_made;

static const char *write_tmp(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	if (!tmpdir_made) {
		assert_non_null(mkdtemp(tmpdir));
		tmpdir_made = 1;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void expect_error(const char *name, const char *text, const char *want_line,
			 const char *want_what)
{
	char err[512], prefix[300];
	const char *path = write_tmp(name, text);

	assert_int_equal(th_expect_load(path, err, sizeof(err)), -1);
	snprintf(prefix, sizeof(prefix), "%s:%s: ", path, want_line);
	if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, want_what))
		fail_msg("%s: got '%s', want '%s...%s'", name, err, prefix, want_what);
	assert_int_equal(th_expect_count(), 0);
	unlink(path);
}

static void expect_loader_errors(void **state)
{
	char err[512];

	(void)state;
	expect_error("fields.tsv", "# c\n*\t*\t*\t*\tHIJACKED\tok\n*\t*\t*\tHIJACKED\twhy\n", "3",
		     "5 TAB-separated fields, expected 6 (attack variant config toolchain outcome "
		     "reason)");
	expect_error("outcome.tsv", "\n*\t*\t*\t*\tPWNED\twhy\n", "2", "unknown outcome 'PWNED'");
	expect_error("reason.tsv", "*\t*\t*\t*\tHIJACKED\t\n", "1", "empty reason");
	expect_error("glob.tsv", "*\t\t*\t*\tHIJACKED\twhy\n", "1", "empty variant glob");
	expect_error("comma.tsv", "*\tlegacy,\t*\t*\tHIJACKED\twhy\n", "1", "empty variant glob");
	expect_error("extra.tsv", "*\t*\t*\t*\tHIJACKED\twhy\textra\n", "1",
		     "7 TAB-separated fields, expected 6");
	expect_error("empty.tsv", "# only a comment\n\n", "2", "no rules");
	/* A probabilistic cell's set of outcomes. */
	expect_error("setorder.tsv", "*\t*\t*\t*\tHIJACKED\tok\n*\t*\t*\t*\tCRASHED|HIJACKED\twhy\n", "2",
		     "list its outcomes most severe first (HIJACKED|CRASHED)");
	expect_error("setempty.tsv", "*\t*\t*\t*\tHIJACKED||CRASHED\twhy\n", "1", "an empty outcome");
	expect_error("settwice.tsv", "*\t*\t*\t*\tCRASHED|CRASHED\twhy\n", "1", "CRASHED twice");
	expect_error("setname.tsv", "*\t*\t*\t*\tHIJACKED|PWNED\twhy\n", "1",
		     "unknown outcome 'PWNED' (one of HIJACKED");
	expect_error("setna.tsv", "*\t*\t*\t*\tCRASHED|NOT_APPLICABLE\twhy\n", "1",
		     "NOT_APPLICABLE in the set");
	expect_error("setdiffers.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "*\tmodern\t*\t*\tCRASHED|HANG\tHANG\twhy\n", "4", "a set of model outcomes");
	assert_int_equal(th_expect_load("/nonexistent/expected.tsv", err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/expected.tsv: No such file or directory");
	/* A failed load leaves nothing behind. */
	assert_null(th_expect_lookup("X", "legacy", "none", "clang-22", NULL));
}

static void expect_first_match_and_alternatives(void **state)
{
	const char *reason = NULL;
	char err[512];
	const char *path = write_tmp("order.tsv",
				     "# first match wins\n"
				     "A_*\tlegacy,modern\tasan\t*\tDETECTED\tfirst\n"
				     "A_*\t*\t*\tclang-1[0-5]\tUNSUPPORTED\tsecond\n"
				     "*\t*\t*\t*\tNO_EFFECT\tlast\n");

	(void)state;
	if (th_expect_load(path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(th_expect_count(), 3);
	assert_string_equal(th_expect_lookup("A_1", "modern", "asan", "clang-14", &reason), "DETECTED");
	assert_string_equal(reason, "first");
	assert_string_equal(th_expect_lookup("A_1", "transitional", "asan", "clang-14", &reason),
			    "UNSUPPORTED");
	assert_string_equal(reason, "second");
	assert_string_equal(th_expect_lookup("A_1", "transitional", "asan", "clang-16", &reason),
			    "NO_EFFECT");
	assert_string_equal(th_expect_lookup("B_1", "legacy", "asan", "clang-14", NULL), "NO_EFFECT");
	{
		char want[300];

		snprintf(want, sizeof(want), "%s:3", path);
		assert_string_equal(th_expect_where("A_1", "legacy", "none", "clang-15"), want);
	}
	th_expect_free();
	assert_null(th_expect_lookup("A_1", "legacy", "asan", "clang-14", NULL));
	unlink(path);
}

/* ---- @platform and @differs: a real kernel's rules and declared differences ---- */

static void expect_outcome_sets(void **state)
{
	char err[512];
	const char *path = write_tmp("sets.tsv",
				     "A_*\tlegacy\trandstruct\t*\tHIJACKED|CRASHED|TIMER_LOST\tper seed\n"
				     "*\t*\t*\t*\tNO_EFFECT\tcontrol\n");

	(void)state;
	if (th_expect_load(path, err, sizeof(err)))
		fail_msg("%s", err);
	/* The column as written; the set as data; one outcome a set of one. */
	assert_string_equal(th_expect_lookup("A_1", "legacy", "randstruct", "clang-22", NULL),
			    "HIJACKED|CRASHED|TIMER_LOST");
	assert_int_equal(th_expect_set_on(NULL, "A_1", "legacy", "randstruct", "clang-22"),
			 TH_OUTCOME_BIT(TH_HIJACKED) | TH_OUTCOME_BIT(TH_CRASHED) |
			 TH_OUTCOME_BIT(TH_TIMER_LOST));
	assert_int_equal(th_expect_set_on("model", "B_1", "legacy", "none", "clang-22"),
			 TH_OUTCOME_BIT(TH_NO_EFFECT));
	assert_int_equal(th_expect_set_on("linux-6.1.1", "A_1", "legacy", "randstruct", "clang-22"), 0);
	th_expect_free();
	unlink(path);
}

static void expect_platform_sections(void **state)
{
	const char *reason = NULL;
	char err[512], want[300];
	const char *path = write_tmp("platform.tsv",
				     "A_*\t*\t*\t*\tBLOCKED_CFI\tthe model's\n"
				     "@platform linux-6.1.*,linux-6.2\n"
				     "A_*\tmodern\tkcfi\t*\tCRASHED\tthe kernel's\n"
				     "@platform\tmodel\n"
				     "*\t*\t*\t*\tNO_EFFECT\tthe model's again\n");

	(void)state;
	if (th_expect_load(path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(th_expect_count(), 3);
	assert_int_equal(th_expect_count_on("model"), 2);
	assert_int_equal(th_expect_count_on("linux-6.1.192"), 1);
	/* Before any directive, rules are the model's: the old lookup keeps
	 * its meaning, and is the model's lookup. */
	assert_string_equal(th_expect_lookup("A_1", "modern", "kcfi", "clang-22", &reason), "BLOCKED_CFI");
	assert_string_equal(reason, "the model's");
	assert_string_equal(th_expect_lookup_on(NULL, "A_1", "modern", "kcfi", "clang-22", NULL),
			    "BLOCKED_CFI");
	assert_string_equal(th_expect_lookup_on("linux-6.1.192", "A_1", "modern", "kcfi", "clang-22",
						&reason), "CRASHED");
	assert_string_equal(reason, "the kernel's");
	assert_string_equal(th_expect_lookup_on("linux-6.2", "A_1", "modern", "kcfi", "clang-22", NULL),
			    "CRASHED");
	snprintf(want, sizeof(want), "%s:3", path);
	assert_string_equal(th_expect_where_on("linux-6.1.192", "A_1", "modern", "kcfi", "clang-22"), want);
	/* No rule of the platform: none, never the model's. */
	assert_null(th_expect_lookup_on("linux-6.1.192", "B_1", "modern", "kcfi", "clang-22", NULL));
	assert_null(th_expect_lookup_on("linux-6.3", "A_1", "modern", "kcfi", "clang-22", NULL));
	assert_string_equal(th_expect_lookup("B_1", "legacy", "none", "clang-14", NULL), "NO_EFFECT");
	snprintf(want, sizeof(want), "%s:5", path);
	assert_string_equal(th_expect_where("B_1", "legacy", "none", "clang-14"), want);
	assert_int_equal(th_expect_difference_count(), 0);
	th_expect_free();
	unlink(path);
}

static void expect_differs_rows(void **state)
{
	const char *reason = NULL, *rule = NULL;
	char err[512], want[300];
	const char *path = write_tmp("differs.tsv",
				     "*\t*\t*\t*\tNO_EFFECT\tmodel\n"
				     "@platform linux-6.1.*\n"
				     "*\t*\t*\t*\tCRASHED\tkernel\n"
				     "@differs\n"
				     "A_1\tmodern\tkcfi\t*\tBLOCKED_CFI\tCRASHED\tthe kernel's check panics\n"
				     "A_*\tmodern\t*\t*\tNO_EFFECT\tTIMER_LOST\tthe general one\n"
				     "@platform linux-6.2\n"
				     "B_1\t*\t*\t*\tHIJACKED\tkernel 6.2\n");
	const struct th_check_difference *d;

	(void)state;
	if (th_expect_load(path, err, sizeof(err)))
		fail_msg("%s", err);
	/* The @differs rows are no rules. */
	assert_int_equal(th_expect_count(), 3);
	assert_int_equal(th_expect_difference_count(), 2);
	d = th_expect_difference(0);
	assert_non_null(d);
	assert_string_equal(d->platforms, "linux-6.1.*");
	assert_string_equal(d->attack, "A_1");
	assert_string_equal(d->model, "BLOCKED_CFI");
	assert_string_equal(d->kernel, "CRASHED");
	assert_string_equal(d->reason, "the kernel's check panics");
	snprintf(want, sizeof(want), "%s:5", path);
	assert_string_equal(d->where, want);
	assert_null(th_expect_difference(2));
	assert_true(th_expect_difference_on(0, "linux-6.1.192"));
	assert_false(th_expect_difference_on(0, "model"));
	/* The first row whose globs match. */
	assert_int_equal(th_expect_differs("linux-6.1.192", "A_1", "modern", "kcfi", "clang-22"), 0);
	assert_int_equal(th_expect_differs("linux-6.1.192", "A_1", "modern", "none", "clang-22"), 1);
	assert_int_equal(th_expect_differs("linux-6.1.192", "C_1", "modern", "none", "clang-22"), -1);
	assert_int_equal(th_expect_differs("model", "A_1", "modern", "kcfi", "clang-22"), -1);
	/* Declared only with exactly its two outcomes. */
	assert_true(th_expect_declared_difference(NULL, "linux-6.1.192", "A_1", "modern", "kcfi",
						  "clang-22", TH_BLOCKED_CFI, TH_CRASHED, &reason, &rule));
	assert_string_equal(reason, "the kernel's check panics");
	assert_string_equal(rule, want);
	assert_false(th_expect_declared_difference(NULL, "linux-6.1.192", "A_1", "modern", "kcfi",
						   "clang-22", TH_BLOCKED_CFI, TH_HANG, &reason, &rule));
	/* The first match decides: the general row does not declare for A_1
	 * under kcfi. */
	assert_false(th_expect_declared_difference(NULL, "linux-6.1.192", "A_1", "modern", "kcfi",
						   "clang-22", TH_NO_EFFECT, TH_TIMER_LOST, &reason,
						   &rule));
	/* A directive ends the section: after it, rules again. */
	assert_string_equal(th_expect_lookup_on("linux-6.2", "B_1", "legacy", "none", "clang-14", NULL),
			    "HIJACKED");
	th_expect_free();
	assert_int_equal(th_expect_difference_count(), 0);
	unlink(path);
}

static void expect_directive_errors(void **state)
{
	(void)state;
	expect_error("dir.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platfrom linux-*\n", "2",
		     "unknown directive '@platfrom' (@platform GLOB, @differs)");
	expect_error("noglob.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platform\n", "2",
		     "@platform needs one glob");
	expect_error("blank.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-6 linux-7\n", "2",
		     "@platform needs one glob");
	expect_error("empty.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-6,\n", "2",
		     "@platform needs one glob");
	expect_error("first.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@differs\n", "2",
		     "@differs before any @platform");
	expect_error("self.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platform *\n@differs\n", "3",
		     "matches the model itself");
	expect_error("arg.tsv", "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs now\n", "3",
		     "@differs takes nothing after it");
	expect_error("six.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\tmodern\tkcfi\t*\tBLOCKED_CFI\twhy\n", "4",
		     "6 TAB-separated fields, expected 7 (attack variant config toolchain "
		     "model_outcome kernel_outcome reason, in a @differs section)");
	expect_error("same.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\tmodern\tkcfi\t*\tCRASHED\tCRASHED\twhy\n", "4", "that is no difference");
	expect_error("kout.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\tmodern\tkcfi\t*\tCRASHED\tBOOM\twhy\n", "4", "unknown kernel outcome 'BOOM'");
	expect_error("mout.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\tmodern\tkcfi\t*\tHARNESS_ERROR\tCRASHED\twhy\n", "4",
		     "unknown model outcome 'HARNESS_ERROR'");
	expect_error("dreason.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\tmodern\tkcfi\t*\tCRASHED\tNO_EFFECT\t\n", "4", "empty reason");
	expect_error("dglob.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\t\tkcfi\t*\tCRASHED\tNO_EFFECT\twhy\n", "4", "empty variant glob");
	expect_error("dextra.tsv",
		     "*\t*\t*\t*\tNO_EFFECT\tok\n@platform linux-*\n@differs\n"
		     "A_1\tmodern\tkcfi\t*\tCRASHED\tNO_EFFECT\twhy\textra\n", "4", "8 TAB-separated fields, expected 7");
	/* A @differs section is not a rule: a file of differences only has none. */
	expect_error("onlydiff.tsv", "@platform linux-*\n@differs\nA\t*\t*\t*\tCRASHED\tNO_EFFECT\twhy\n",
		     "3", "no rules");
}

/* ---- the real kernel's plan (kernel/cells.tsv, kernel/configs/) ---------------- */

static void kernel_plan_loads(void **state)
{
	struct th_kernel_plan p;
	char err[512];

	(void)state;
	if (th_kernel_plan_load(TH_KERNEL_DIR, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(p.ncells >= 1);
	/* kernel/kernels.tsv: 6.1's kcfi, none and kcfi-smp, 6.12's kcfi,
	 * fineibt and none. */
	assert_int_equal(p.nconfigs, 4);
	assert_string_equal(p.configs[0], "fineibt");
	assert_string_equal(p.configs[1], "kcfi");
	assert_string_equal(p.configs[2], "kcfi-smp");
	assert_string_equal(p.configs[3], "none");
	assert_int_equal(p.nbuilds, 6);
	assert_true(th_kernel_plan_config_on(&p, "linux-6.12.118", "fineibt"));
	assert_false(th_kernel_plan_config_on(&p, "linux-6.1.192", "fineibt"));
	assert_true(th_kernel_plan_config_on(&p, "linux-6.1.192", "kcfi-smp"));
	assert_false(th_kernel_plan_config_on(&p, "linux-6.12.118", "kcfi-smp"));
	assert_true(th_kernel_plan_config_on(&p, "linux-6.1.192", "kcfi"));
	/* A release kernels.tsv does not name (your own kernel): any config. */
	assert_true(th_kernel_plan_config_on(&p, "linux-6.6.1", "kcfi"));
	for (size_t i = 0; i < p.ncells; i++) {
		const struct th_attack *a = NULL;

		/* Every cell is an attack of the model's registry, as the kernel's
		 * unit names it: the two platforms meet cell by cell. */
		for (size_t k = 0; k < th_attack_count && !a; k++)
			if (!strcmp(th_attacks[k].id, p.cells[i].attack))
				a = &th_attacks[k];
		if (!a)
			fail_msg("%s (line %u) is not an attack of the registry", p.cells[i].attack,
				 p.cells[i].line);
		assert_string_equal(p.attacks[i], p.cells[i].attack);
		/* Its family is the registry's, and its variant the one the
		 * family has on 6.1 and 6.12: the model's cell it meets. */
		assert_string_equal(p.cells[i].api, th_technique_api(a->technique));
		assert_string_equal(p.variants[i], p.cells[i].variant);
		assert_string_equal(p.cells[i].variant,
				    !strcmp(p.cells[i].api, "tasklet") ? "transitional" : "modern");
	}
	assert_string_equal(th_kernel_variant("timer"), "modern");
	assert_string_equal(th_kernel_variant("tasklet"), "transitional");
	assert_null(th_kernel_variant("hrtimer"));
	th_kernel_plan_free(&p);
}

static void plan_error(const char *cells, const char *const *configs, const char *want)
{
	char dir[300], path[400], err[512];
	struct th_kernel_plan p;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", write_tmp("kp.placeholder", ""));
	*strrchr(dir, '/') = '\0';
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/kplan");
	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/configs", dir);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/cells.tsv", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(cells, f);
	fclose(f);
	for (size_t i = 0; configs && configs[i]; i++) {
		snprintf(path, sizeof(path), "%s/configs/%s", dir, configs[i]);
		assert_non_null(f = fopen(path, "w"));
		fclose(f);
	}
	assert_int_equal(th_kernel_plan_load(dir, &p, err, sizeof(err)), -1);
	if (!strstr(err, want) || strncmp(err, dir, strlen(dir)))
		fail_msg("got '%s', want '%s...%s'", err, dir, want);
	assert_int_equal(p.ncells, 0);
	for (size_t i = 0; configs && configs[i]; i++) {
		snprintf(path, sizeof(path), "%s/configs/%s", dir, configs[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/cells.tsv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/configs", dir);
	rmdir(path);
	rmdir(dir);
}

static void kernel_plan_errors(void **state)
{
	static const char *const both[] = { "base.config", "kcfi.config", NULL };
	static const char *const base_only[] = { "base.config", NULL };
	const char *ok = "# head\nA_1\tmemcpy-intra\tpending\tnone\ttimer\n";

	(void)state;
	plan_error("# head\nA_1\tmemcpy-intra\tpending\tnone\n", both,
		   "cells.tsv:2: 4 TAB-separated fields, expected 5 (attack technique timing payload api)");
	plan_error("a_1\tmemcpy-intra\tpending\tnone\ttimer\n", both, "cells.tsv:1: attack 'a_1' is not");
	plan_error("A_1\tmemcpy-intra\tlater\tnone\ttimer\n", both, "cells.tsv:1: unknown timing 'later'");
	plan_error("A_1\t\tpending\tnone\ttimer\n", both, "cells.tsv:1: empty technique");
	plan_error("A_1\tm\tpending\tnone\twheel\n", both,
		   "cells.tsv:1: unknown api 'wheel' (timer, tasklet)");
	plan_error("A_1\tm\tpending\tnone\ttimer\textra\n", both,
		   "cells.tsv:1: 6 TAB-separated fields, expected 5 (attack technique timing payload api)");
	plan_error("A_1\tm\tpending\tnone\ttimer\n\nA_1\tm\t-\tx\ttasklet\n", both,
		   "cells.tsv:3: A_1 is planned twice (first on line 1)");
	plan_error("# nothing\n", both, "cells.tsv: no cell");
	plan_error(ok, base_only, "/configs: no kernel config");
	plan_error(ok, NULL, "/configs: no kernel config");
}

/* ---- every binary of a variant lists the same registry ---------------------------- */

static char **list_bins;
static int nlist_bins;

static char *slurp_list(const char *bin)
{
	char cmd[1024], *buf = NULL;
	size_t len = 0;
	FILE *p;
	char chunk[4096];
	size_t got;

	snprintf(cmd, sizeof(cmd), "'%s' --list", bin);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	while ((got = fread(chunk, 1, sizeof(chunk), p)) > 0) {
		buf = realloc(buf, len + got + 1);
		memcpy(buf + len, chunk, got);
		len += got;
		buf[len] = 0;
	}
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void list_same(void **state)
{
	char *first;

	(void)state;
	if (nlist_bins < 1)
		skip(); /* only meaningful with the binaries: th-attacks-test list_same BIN... */
	first = slurp_list(list_bins[0]);
	if (!first)
		fail_msg("%s --list failed", list_bins[0]);
	assert_non_null(strstr(first, "\tok\t"));
	assert_null(strstr(first, "SELFTEST"));
	for (int i = 1; i < nlist_bins; i++) {
		char *other = slurp_list(list_bins[i]);

		if (!other)
			fail_msg("%s --list failed", list_bins[i]);
		if (strcmp(first, other))
			fail_msg("%s --list differs from %s", list_bins[i], list_bins[0]);
		free(other);
	}
	{
		size_t lines = 0;

		for (const char *c = first; *c; c++)
			lines += *c == '\n';
		assert_int_equal(lines, th_attack_count);
	}
	free(first);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(registry_ids_unique),
		cmocka_unit_test(registry_ids_derived),
		cmocka_unit_test(registry_design_names),
		cmocka_unit_test(registry_complete),
		cmocka_unit_test(registry_not_applicable),
		cmocka_unit_test(expect_loads),
		cmocka_unit_test(expect_covers_every_cell),
		cmocka_unit_test(expect_no_dead_rules),
		cmocka_unit_test(expect_story_cells),
		cmocka_unit_test(expect_loader_errors),
		cmocka_unit_test(expect_first_match_and_alternatives),
		cmocka_unit_test(expect_outcome_sets),
		cmocka_unit_test(expect_platform_sections),
		cmocka_unit_test(expect_differs_rows),
		cmocka_unit_test(expect_directive_errors),
		cmocka_unit_test(kernel_plan_loads),
		cmocka_unit_test(kernel_plan_errors),
		cmocka_unit_test(list_same),
	};
	const size_t ntests = sizeof(tests) / sizeof(tests[0]);
	int rc;

	if (argc > 1 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < ntests; i++)
			if (strcmp(tests[i].name, "list_same"))
				printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc > 1) {
		size_t i;

		for (i = 0; i < ntests && strcmp(tests[i].name, argv[1]); i++)
			;
		if (i == ntests) {
			fprintf(stderr, "th-attacks-test: no case '%s' (see --list)\n", argv[1]);
			return 2;
		}
		if (!strcmp(argv[1], "list_same")) {
			list_bins = argv + 2;
			nlist_bins = argc - 2;
		}
		cmocka_set_test_filter(argv[1]);
	}
	rc = cmocka_run_group_tests_name("attacks", tests, NULL, NULL);
	if (tmpdir_made)
		rmdir(tmpdir);
	return rc;
}
