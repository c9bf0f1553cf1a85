/* SPDX-License-Identifier: MIT */
/*
 * th_reach_collect_vmlinux() (cfi/reach_collect.h), the kernel command's way
 * into results.json's reach section, on tests/reach_kernel_like.c (a binary
 * laid out as a vmlinux): `th-reach-collect-test <binary> <results.json>`.
 * The kernel's entry goes on its platform (linux-<release>) beside the
 * model's entry of the same toolchain, variant and config; a second one on
 * that platform is refused. It is checked, written with th_results_write(),
 * loaded back (strictly) and compared; tests/reach_cli.py schema validates
 * the file against docs/schema.
 *
 * `th-reach-collect-test model <config> <scheme> <legacy> <transitional>
 * <modern> <results.json>` (scheme: the check the config puts there with
 * this toolchain, th_config_scheme): th_reach_collect() on the three attack binaries of a
 * config, every family's dispatch (results/api.def): the timer's entry per
 * variant, and the tasklet's calls as each generation makes them, legacy
 * func only, transitional callback and func (one `call rax` behind two
 * checks under cfi-icall: two entries, each its own check's set), modern
 * callback only; the func call admits write_cr4, the callback call never.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cfi/reach_collect.h"
#include "results/reach.h"
#include "results/results.h"
#include "runner/privileged.h"

static const char *binary, *out;
static const char *model_config, *model_scheme, *model_bins[TH_VARIANT_COUNT];

#define KERNEL "linux-6.1.192"

static const struct th_reach_entry *entry(const struct th_results *r)
{
	const struct th_reach_entry *e = th_reach_find_on(r, KERNEL, "clang-22", TH_VARIANT_MODERN,
							  "kcfi-vmlinux");

	assert_non_null(e);
	assert_string_equal(e->platform, KERNEL);
	assert_true(th_reach_is_kernel(e));
	return e;
}

/* The model's entry of the same toolchain, variant and config: untouched. */
static void check_model(const struct th_results *r)
{
	const struct th_reach_entry *m = th_reach_find(r, "clang-22", TH_VARIANT_MODERN, "kcfi-vmlinux");

	assert_non_null(m);
	assert_string_equal(m->platform, TH_PLATFORM_MODEL);
	assert_false(th_reach_is_kernel(m));
	assert_string_equal(m->binary, "/b/th-attack-modern-kcfi");
	assert_ptr_equal(th_reach_find_on(r, NULL, "clang-22", TH_VARIANT_MODERN, "kcfi-vmlinux"), m);
}

static void check(const struct th_reach_entry *e)
{
	bool wake = false, hop = false;

	assert_string_equal(e->scheme, "kcfi");
	assert_string_equal(e->function, "call_timer_fn");
	assert_string_equal(e->binary, binary);
	assert_int_equal(e->nmembers, 3);
	assert_null(e->verify);
	for (size_t i = 0; i < e->nuses; i++)
		wake |= !strcmp(e->uses[i].via, "process_timeout") &&
			!strcmp(e->uses[i].call, "wake_up_process(rdi = *(arg0 + 40))") &&
			!e->uses[i].indirect && !*e->uses[i].check;
	/* The kernel's privileged names by default: commit_creds one call on. */
	for (size_t i = 0; i < e->nhops; i++)
		hop |= !strcmp(e->hops[i].via, "delayed_fn") && !strcmp(e->hops[i].reaches, "commit_creds");
	assert_true(wake);
	assert_true(hop);
}

/* The kernel's tasklet_action_common (variant transitional: 5.9+ has both
 * calls): callback(t) admits the tasklet callback, func(data)
 * native_write_cr4, privileged by the kernel's names. */
static void check_tasklet_kernel(const struct th_results *r)
{
	const struct th_reach_entry *cb = th_reach_find_site(r, KERNEL, TH_API_TASKLET, "callback", "clang-22",
							     TH_VARIANT_TRANSITIONAL, "kcfi-vmlinux");
	const struct th_reach_entry *fn = th_reach_find_site(r, KERNEL, TH_API_TASKLET, "func", "clang-22",
							     TH_VARIANT_TRANSITIONAL, "kcfi-vmlinux");
	bool kl = false, cr4 = false;

	assert_non_null(cb);
	assert_non_null(fn);
	assert_string_equal(cb->function, "tasklet_action_common");
	assert_string_equal(cb->scheme, "kcfi");
	assert_string_equal(fn->scheme, "kcfi");
	for (size_t i = 0; i < cb->nmembers; i++) {
		kl |= !strcmp(th_reach_member_name(&cb->members[i]), "kl_tasklet_fn");
		assert_string_not_equal(th_reach_member_name(&cb->members[i]), "native_write_cr4");
	}
	for (size_t i = 0; i < fn->nmembers; i++)
		cr4 |= !strcmp(th_reach_member_name(&fn->members[i]), "native_write_cr4") &&
		       fn->members[i].privileged;
	assert_true(kl);
	assert_true(cr4);
}

static void collect(void **state)
{
	struct th_platform_in pin = { KERNEL, "Debian linux-source-6.1 6.1.192-3", "clang version 22.1.8",
				      "QEMU emulator version 7.2.15", "max", 1.6 };
	struct th_results *r = th_results_create("test"), *back;
	struct th_reach_entry *m;
	char err[1024];

	(void)state;
	assert_non_null(r);
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22.1", "/usr/bin/clang-22", err, sizeof(err)), 0);
	/* Declared first, or refused. */
	assert_int_equal(th_reach_collect_vmlinux(r, KERNEL, "clang-22", "kcfi-vmlinux", binary, NULL, 0,
						  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "must be declared"));
	assert_int_equal(th_results_add_config(r, "kcfi-vmlinux", "CONFIG_CFI_CLANG=y",
					       "Linux 6.1 with kCFI", err, sizeof(err)), 0);
	/* The platform too; and never the model's. */
	assert_int_equal(th_reach_collect_vmlinux(r, KERNEL, "clang-22", "kcfi-vmlinux", binary, NULL, 0,
						  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "platform '" KERNEL "' must be a real kernel's"));
	assert_int_equal(th_reach_collect_vmlinux(r, TH_PLATFORM_MODEL, "clang-22", "kcfi-vmlinux",
						  binary, NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "platform 'model' must be a real kernel's"));
	if (th_results_add_platform(r, &pin, err, sizeof(err)) ||
	    th_results_add_platform_config(r, KERNEL, "kcfi-vmlinux", "CONFIG_CFI_CLANG=y", err,
					   sizeof(err)))
		fail_msg("%s", err);
	/* The model's entry of that toolchain/variant/config, as the matrix adds it. */
	m = th_reach_add_entry(r, "clang-22", TH_VARIANT_MODERN, "kcfi-vmlinux",
			       "/b/th-attack-modern-kcfi", "call_timer_fn");
	assert_non_null(m);
	assert_int_equal(th_reach_set_text(&m->scheme, "kcfi"), 0);
	assert_int_equal(th_reach_set_text(&m->check, "kcfi 0x12345678"), 0);
	m->functions_total = 40;
	assert_int_equal(th_reach_add_member(m, "write_cr4", NULL, true, false), 0);
	/* Beside it on the kernel's platform: added. */
	if (th_reach_collect_vmlinux(r, KERNEL, "clang-22", "kcfi-vmlinux", binary, NULL, 0, err,
				     sizeof(err)))
		fail_msg("%s", err);
	check(entry(r));
	check_model(r);
	/* Never a second entry on the same platform. */
	assert_int_equal(th_reach_collect_vmlinux(r, KERNEL, "clang-22", "kcfi-vmlinux", binary, NULL, 0,
						  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "already"));
	assert_non_null(strstr(err, "on " KERNEL));
	/* The model's, the kernel's call_timer_fn and its tasklet_action_common's two. */
	assert_int_equal(r->reach->n, 4);
	check_tasklet_kernel(r);
	if (th_results_write(r, out, err, sizeof(err)))
		fail_msg("%s", err);
	if (th_results_load(out, &back, err, sizeof(err)))
		fail_msg("%s", err);
	check(entry(back));
	check_model(back);
	assert_int_equal(back->reach->n, 4);
	check_tasklet_kernel(back);
	assert_int_equal(entry(back)->nuses, entry(r)->nuses);
	th_results_free(back);
	th_results_free(r);
}

static const struct th_reach_member_r *has_member(const struct th_reach_entry *e, const char *name)
{
	for (size_t i = 0; i < e->nmembers; i++) {
		const struct th_reach_member_r *m = &e->members[i];

		if ((m->name && !strcmp(m->name, name)) || (m->body && !strncmp(m->body, name, strlen(name)) &&
							   m->body[strlen(name)] == '.'))
			return m;
	}
	return NULL;
}

/* The tasklet's entries of one results model, as each generation makes
 * its calls. */
static void check_tasklet(const struct th_results *r, bool print)
{
	static const char *const sites[] = { "callback", "func" };
	bool none = !strcmp(model_scheme, "none");

	for (int v = 0; v < TH_VARIANT_COUNT; v++) {
		const struct th_reach_entry *t = th_reach_find(r, "clang", (enum th_variant)v, model_config);
		const struct th_reach_entry *e[2];

		/* The timer's entry, as before the tasklet. */
		assert_non_null(t);
		assert_int_equal(t->api, TH_API_TIMER);
		assert_null(t->site);
		assert_null(th_reach_find_site(r, NULL, TH_API_TASKLET, NULL, "clang", (enum th_variant)v,
					       model_config));
		for (int k = 0; k < 2; k++) {
			e[k] = th_reach_find_site(r, NULL, TH_API_TASKLET, sites[k], "clang",
						  (enum th_variant)v, model_config);
			if (!e[k])
				continue;
			assert_string_equal(e[k]->function, "tasklet_action_common");
			assert_string_equal(e[k]->platform, TH_PLATFORM_MODEL);
			/* llvm-cfi-verify's verdicts are the binary's: on the timer's entry. */
			assert_null(e[k]->verify);
			if (print) {
				print_message("%s %s tasklet %s: %s %zu of %zu, %zu privileged:", model_config,
					      th_variant_name((enum th_variant)v), sites[k], e[k]->scheme,
					      e[k]->nmembers, e[k]->functions_total,
					      th_reach_privileged_count(e[k]));
				for (size_t i = 0; i < e[k]->nmembers; i++)
					if (e[k]->members[i].privileged)
						print_message(" %s", th_reach_member_name(&e[k]->members[i]));
				print_message("\n");
			}
			assert_string_equal(e[k]->scheme, model_scheme);
			if (none) {
				assert_int_equal(e[k]->nmembers, e[k]->functions_total);
				continue;
			}
			assert_true(th_reach_checked(e[k]));
			assert_true(e[k]->nmembers < e[k]->functions_total);
		}
		/* legacy: func(data) only; modern: callback(t) only; transitional both. */
		assert_int_equal(e[0] != NULL, v != TH_VARIANT_LEGACY);
		assert_int_equal(e[1] != NULL, v != TH_VARIANT_MODERN);
		if (none)
			continue;
		/* The func call admits every function of the legacy type the check
		 * lets through, write_cr4 among them; the callback call never. */
		if (e[1]) {
			assert_non_null(has_member(e[1], "write_cr4"));
			assert_true(has_member(e[1], "write_cr4")->privileged);
		}
		if (e[0]) {
			assert_null(has_member(e[0], "write_cr4"));
			assert_non_null(has_member(e[0], "neighbour_tasklet_fn"));
			assert_non_null(has_member(e[0], "hso_unthrottle_tasklet"));
		}
		/* legacy's callbacks have the func type (tasklet_init()). */
		if (v == TH_VARIANT_LEGACY)
			assert_non_null(has_member(e[1], "neighbour_tasklet_fn"));
		/* Two checks, two sets: no checked member in both (each its own
		 * type), so neither is the union. */
		if (e[0] && e[1])
			for (size_t i = 0; i < e[0]->nmembers; i++) {
				const struct th_reach_member_r *m = &e[0]->members[i], *o;

				if (m->unchecked)
					continue;
				o = has_member(e[1], th_reach_member_name(m));
				assert_true(!o || o->unchecked);
			}
	}
}

static void model(void **state)
{
	static const char *const priv[] = { TH_VICTIM_PRIVILEGED };
	struct th_results *r = th_results_create("test"), *back;
	char err[1024];

	(void)state;
	assert_non_null(r);
	if (th_results_add_toolchain(r, "clang", "22.1", "/usr/bin/clang", err, sizeof(err)) ||
	    th_results_add_config(r, model_config, "", "", err, sizeof(err)))
		fail_msg("%s", err);
	for (int v = 0; v < TH_VARIANT_COUNT; v++)
		if (th_reach_collect(r, "clang", th_variant_name((enum th_variant)v), model_config,
				     model_bins[v], priv, sizeof(priv) / sizeof(priv[0]), err, sizeof(err)))
			fail_msg("%s", err);
	/* Per variant: the timer's, and 1 + 2 + 1 tasklet calls. */
	assert_int_equal(r->reach->n, 3 + 4);
	check_tasklet(r, true);
	/* Never a second entry of the same key. */
	assert_int_equal(th_reach_collect(r, "clang", "transitional", model_config,
					  model_bins[TH_VARIANT_TRANSITIONAL], priv,
					  sizeof(priv) / sizeof(priv[0]), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "already"));
	assert_int_equal(r->reach->n, 3 + 4);
	if (th_results_write(r, out, err, sizeof(err)))
		fail_msg("%s", err);
	if (th_results_load(out, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(back->reach->n, 3 + 4);
	check_tasklet(back, false);
	th_results_free(back);
	th_results_free(r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(collect) };
	const struct CMUnitTest m[] = { cmocka_unit_test(model) };

	if (argc == 8 && !strcmp(argv[1], "model")) {
		model_config = argv[2];
		model_scheme = argv[3];
		for (int v = 0; v < TH_VARIANT_COUNT; v++)
			model_bins[v] = argv[4 + v];
		out = argv[7];
		return cmocka_run_group_tests(m, NULL, NULL);
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s <kernel-like binary> <results.json>\n", argv[0]);
		return 2;
	}
	binary = argv[1];
	out = argv[2];
	return cmocka_run_group_tests(t, NULL, NULL);
}
