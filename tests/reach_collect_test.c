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

static const char *binary, *out;

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
	assert_int_equal(r->reach->n, 2);
	if (th_results_write(r, out, err, sizeof(err)))
		fail_msg("%s", err);
	if (th_results_load(out, &back, err, sizeof(err)))
		fail_msg("%s", err);
	check(entry(back));
	check_model(back);
	assert_int_equal(back->reach->n, 2);
	assert_int_equal(entry(back)->nuses, entry(r)->nuses);
	th_results_free(back);
	th_results_free(r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest t[] = { cmocka_unit_test(collect) };

	if (argc != 3) {
		fprintf(stderr, "usage: %s <kernel-like binary> <results.json>\n", argv[0]);
		return 2;
	}
	binary = argv[1];
	out = argv[2];
	return cmocka_run_group_tests(t, NULL, NULL);
}
