/* SPDX-License-Identifier: MIT */
/*
 * The static target set, proven by behaviour:
 *   th-reach-agree-test <binary> <config>
 * For the timer dispatch of one attack binary, cfi/target_set.h computes which
 * functions its check admits. Each is then attacked for real: the binary's
 * own heap-neighbour overwrite of a pending timer, aimed with --aim NAME
 * (attacks/attack_main.c) at that function, run and classified exactly as a matrix
 * cell (runner/child.h, traced; cfi/classify.h), the payload's other bytes as ATTACK says:
 *  - every member the binary can name (a unique symbol) must NOT come out
 *    BLOCKED_CFI; where the set is "everything" (no check, or functions the
 *    function sanitizer skips) an even sample of them is run;
 *  - an even sample of the functions outside the set, plus every raw body
 *    (`f.cfi`) and every privileged function outside it, must come out
 *    BLOCKED_CFI.
 * Each run must have landed (TH-LANDED: yes): a write that missed proves
 * nothing either way. Every disagreement is printed with the child's
 * evidence and fails the test: it is a finding to explain, not to hide.
 *
 * Not run: the process entry points (_start, _init, _fini, main): aiming the
 * timer at them restarts the harness itself, which says nothing about CFI.
 *
 *   th-reach-agree-test <binary> <config> tasklet <variant>
 * The same for tasklet_action_common's call an aimed tasklet overwrite goes
 * through (TASKLET_MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 --aim NAME writes the
 * func/callback word only, use_callback as the victim left it): legacy's
 * t->func(t->data), transitional's and modern's t->callback(t); on
 * transitional that call's own check's set, where cfi-icall merges both
 * calls into one instruction (th_site_calls), is what is attacked.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/privileged.h"
#include "cfi/classify.h"
#include "cfi/target_set.h"
#include "runner/child.h"
#include "loops/matrix.h"

/* The overwrite that is aimed: heap-neighbour on a pending timer, whose
 * payload also plants the word after the timer (the attacker's task, for
 * process_timeout's from_timer() container): what happens after the
 * dispatch let a member through is not what is tested, only that the
 * dispatch's check let it through (the classifier of main at the time once
 * credited a member's own later check to the dispatch: issue 6). */
#define ATTACK	"HEAP_NEIGHBOUR_PENDING_FUNC_FOREIGN_CALLBACK"
#define SAMPLE	6
/* A member the check lets through may then spin where no lockup proof
 * looks (prb_retire_rx_blk_timer_expired() on another object: af_packet.c's
 * spin_lock(), inlined), HANG once LIMIT runs out; a run otherwise takes
 * milliseconds, and a check's stop is a trap at once. 2 s, as the matrix
 * cuts' --timeout (tests/matrix_cut.cmake): each such member cost 5 s. */
#define LIMIT	2.0

static int g_argc;
static char **g_argv;
/* The dispatch attacked and its aimed overwrite: the timer's, or with
 * "tasklet <variant>" the tasklet's. */
static const char *g_func = TH_CFI_SITE_FUNC, *g_attack = ATTACK;
static enum th_call_arg g_arg = TH_CALL_ARG_OTHER;	/* the call: OTHER = the only one */

static const char *const privileged[] = { TH_VICTIM_PRIVILEGED };
#define NPRIV (sizeof(privileged) / sizeof(privileged[0]))

static int entry_point(const char *name)
{
	return !strcmp(name, "_start") || !strcmp(name, "_init") || !strcmp(name, "_fini") ||
	       !strcmp(name, "main");
}

/* A name --aim resolves to exactly this address: one FUNC symbol of that name. */
static int nameable(const struct th_bin *b, const char *name)
{
	const struct th_sym *s[2];

	return name && !entry_point(name) && th_bin_find_syms(b, name, s, 2) == 1 &&
	       s[0]->type == STT_FUNC;
}

struct target {
	const char *name;	/* a symbol name of the open binary */
	int in_set;
};

struct plan {
	struct target *v;
	size_t n, cap;
};

static void add(struct plan *p, const char *name, int in_set)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 32;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		assert_non_null(p->v);
	}
	p->v[p->n].name = name;
	p->v[p->n++].in_set = in_set;
}

static int in_set(const struct th_reach_site *s, uint64_t addr)
{
	for (size_t i = 0; i < s->nmembers; i++)
		if (s->members[i].addr == addr)
			return 1;
	return 0;
}

/* Up to SAMPLE of @names (count @n), evenly spread, deterministic. */
static void sample(struct plan *p, const char **names, size_t n, int member)
{
	size_t step = n > SAMPLE ? n / SAMPLE : 1;

	for (size_t i = 0; i < n && i / step < SAMPLE; i += step)
		add(p, names[i], member);
}

static void build_plan(struct th_bin *b, const struct th_reach_site *s, const struct th_call_site *cs,
		       struct plan *p)
{
	size_t nsyms = th_bin_nsyms(b), nall = 0, nout = 0;
	const char **all = calloc(s->nmembers + 1, sizeof(*all));
	const char **out = calloc(nsyms + 1, sizeof(*out));

	assert_true(all && out);
	for (size_t i = 0; i < s->nmembers; i++) {
		const struct th_reach_member *m = &s->members[i];

		if (!nameable(b, m->name))
			continue;
		if (s->scheme == TH_CFI_NONE || m->unchecked)
			all[nall++] = m->name;
		else
			add(p, m->name, 1);	/* every checked member */
	}
	sample(p, all, nall, 1);
	for (size_t i = 0; i < nsyms; i++) {
		const struct th_sym *y = th_bin_sym(b, i);
		size_t len = strlen(y->name);

		if (y->type != STT_FUNC || y->absolute || !th_bin_is_exec(b, y->addr) ||
		    !strncmp(y->name, "__typeid_", 9) || !strncmp(y->name, "__cfi_", 6) ||
		    !nameable(b, y->name) || in_set(s, y->addr) || th_site_admits(cs, y->addr, NULL) != 0)
			continue;
		/* Raw bodies and privileged functions outside the set: always. */
		if ((len > 4 && !strcmp(y->name + len - 4, ".cfi")) ||
		    th_reach_is_privileged(y->name, privileged, NPRIV))
			add(p, y->name, 0);
		else
			out[nout++] = y->name;
	}
	sample(p, out, nout, 0);
	free(all);
	free(out);
}

/* Did a TH-LANDED line say yes? ("TH-LANDED: [run=<token> ]yes ...") */
static int landed_yes(const char *out)
{
	for (const char *p = out; p && (p = strstr(p, "TH-LANDED: ")); p++) {
		p += strlen("TH-LANDED: ");
		if (!strncmp(p, "run=", 4))
			p += strcspn(p, " \n") + (p[strcspn(p, " \n")] == ' ');
		if (!strncmp(p, "yes ", 4))
			return 1;
	}
	return 0;
}

/* One aimed run, classified as the matrix would. Return: 1 agrees. */
static int attack(const char *binary, const char *config, const struct target *t)
{
	const char *argv[] = { binary, "--run", g_attack, "--aim", t->name, NULL };
	/* As loops/matrix.c runs a cell, a spin in lock_timer_base() proven
	 * in TH_MATRIX_LOCKUP_MS. */
	const struct th_child_opts opts = {
		.timeout = LIMIT, .cap_memory = strcmp(config, "asan") != 0, .trace = true,
		.site_func = g_func, .state_map = TH_STATE_MAP_SYMBOL,
		.lockup_func = TH_MATRIX_LOCKUP_FUNC, .lockup_ms = TH_MATRIX_LOCKUP_MS,
	};
	struct th_child c;
	struct th_child_obs obs;
	enum th_outcome o;
	char ev[1024];
	int landed, agrees;

	memset(&c, 0, sizeof(c));
	if (th_child_run(&c, argv, &opts))
		fail_msg("cannot run %s: %s", binary, strerror(errno));
	th_child_observe(&obs, &c, config, NULL);
	o = th_classify(&obs, 0, ev, sizeof(ev));
	landed = landed_yes(obs.out);
	/* Stopped by the check: BLOCKED_CFI, or FALSE_POSITIVE when the function
	 * aimed at is the legitimate callback (the classifier names a stopped
	 * call to it so: transitional's callback is outside its own set). */
	agrees = landed && (o == TH_BLOCKED_CFI ||
			    (o == TH_FALSE_POSITIVE && th_is_legit_callback(t->name))) == !t->in_set;
	printf("%-9s %-44s -> %-14s %s%s\n", t->in_set ? "in set" : "outside", t->name,
	       th_outcome_name(o), agrees ? "agrees" : landed ? "DISAGREES: " : "DID NOT LAND: ",
	       agrees ? "" : ev);
	if (!agrees)
		printf("--- stdout\n%s--- stderr\n%.2000s\n---\n", obs.out ? obs.out : "",
		       obs.err ? obs.err : "");
	fflush(stdout);
	th_child_free(&c);
	return agrees;
}

static void agree(void **state)
{
	const char *binary = g_argv[0], *config = g_argv[1];
	struct th_bin *b = NULL;
	struct th_reach *r = NULL;
	const struct th_func_sites *fs = NULL;
	struct plan p = { 0 };
	char err[512];
	size_t bad = 0, ins = 0;

	const struct th_reach_site *rs = NULL;
	struct th_site_call calls[3];
	size_t nc = 0, ci = 0;

	(void)state;
	if (th_bin_open(binary, &b, err, sizeof(err)) ||
	    th_reach_compute(b, g_func, privileged, NPRIV, &r, err, sizeof(err)) ||
	    !(fs = th_bin_call_sites(b, g_func, err, sizeof(err))))
		fail_msg("%s", err);
	if (g_arg == TH_CALL_ARG_OTHER) {
		assert_int_equal(r->nsites, 1);
		rs = &r->sites[0];
	}
	/* The call attacked: its reach site, and its own check (the
	 * instruction's copy reduced to that call's paths). */
	for (size_t i = 0; !rs && i < r->nsites; i++)
		if (r->sites[i].arg == g_arg)
			rs = &r->sites[i];
	assert_non_null(rs);
	for (size_t k = 0; k < fs->nsites && !nc; k++)
		if (fs->sites[k].addr == rs->addr)
			nc = th_site_calls(&fs->sites[k], calls, 3);
	assert_true(nc >= 1);
	while (ci + 1 < nc && calls[ci].arg != rs->arg)
		ci++;
	build_plan(b, rs, calls[ci].site, &p);
	printf("%s: %s's call at 0x%llx (%s), %s, %zu of %zu functions in the set; running %zu aimed "
	       "attacks\n", binary, g_func, (unsigned long long)rs->addr, th_call_arg_name(rs->arg),
	       rs->check, rs->nmembers, r->nfunctions, p.n);
	for (size_t i = 0; i < p.n; i++) {
		ins += (size_t)p.v[i].in_set;
		bad += (size_t)!attack(binary, config, &p.v[i]);
	}
	/* Both sides exercised: members, and (under a check) non-members. */
	assert_true(ins > 0);
	if (rs->scheme != TH_CFI_NONE)
		assert_true(p.n > ins);
	if (bad)
		fail_msg("%zu of %zu aimed attacks disagree with the static set (see above)", bad, p.n);
	for (size_t k = 0; k < nc; k++)
		th_site_call_free(&calls[k]);
	free(p.v);
	th_reach_free(r);
	th_bin_close(b);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(agree) };

	if (argc >= 2 && !strcmp(argv[1], "skip")) {
		printf("SKIP: %s\n", argc > 2 ? argv[2] : "");
		return 77;
	}
	if (argc == 5 && !strcmp(argv[3], "tasklet")) {
		g_func = "tasklet_action_common";
		g_attack = "TASKLET_MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4";
		g_arg = !strcmp(argv[4], "legacy") ? TH_CALL_ARG_FIELD : TH_CALL_ARG_OBJECT;
		argc = 3;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s <attack binary> <config> [tasklet <variant>] | skip <why>\n",
			argv[0]);
		return 2;
	}
	g_argc = argc - 1;
	g_argv = argv + 1;
	return cmocka_run_group_tests_name("agree", t, NULL, NULL);
}
