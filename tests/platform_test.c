/* SPDX-License-Identifier: MIT */
/*
 * A real kernel beside the model (results/results.h, "Platforms"): the
 * platform of a cell and the platforms section through the writer and the
 * strict loader, the key, merge, th_results_replace_platform, the
 * agreement, every renderer, the output set's lock, and `check` judging a
 * real kernel's cells by their @platform rules, their plan and their
 * declared differences (@differs).
 *
 * The results are the gate fixture (tests/data/report/gate.json: three
 * attacks x variants x none, cfi-icall, kcfi on clang-14 and clang-22) with
 * a real kernel's cells added: the plan MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4
 * and MEMCPY_INTRA_BEFORE_ARM_NONE x kcfi, none on clang-22, judged by
 * gate-expected.tsv with a kernel's rules and differences appended (written
 * at run time, so every case can change them).
 *
 * Run one case: platform_test <case>; no argument runs them all.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "check.h"
#include "kernel/console.h"
#include "expect.h"
#include "merge.h"
#include "reach.h"
#include "render.h"
#include "results.h"

#define DATA(f) TH_REPORT_TEST_DATA "/" f
#define LINUX "linux-6.1.192"
#define WCR4 "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4"
#define NONE_A "MEMCPY_INTRA_BEFORE_ARM_NONE"
#define DATA_A "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4"

#define assert_contains(hay, needle)                                           \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (!h_ || !strstr(h_, n_))                                    \
			fail_msg("expected to find\n  %s\nin\n%s", n_,         \
				 h_ ? h_ : "(null)");                          \
	} while (0)
#define assert_not_contains(hay, needle)                                       \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (h_ && strstr(h_, n_))                                      \
			fail_msg("did not expect\n  %s\nin\n%s", n_, h_);      \
	} while (0)

/* ---- scratch files ---- */

static char scratch[] = "/tmp/th_platform_test.XXXXXX";
static bool scratch_made;

static const char *tmp(const char *name)
{
	static char path[4][256];
	static int k;

	if (!scratch_made) {
		assert_non_null(mkdtemp(scratch));
		scratch_made = true;
	}
	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", scratch, name);
	return path[k];
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;
	int c;

	if (!f)
		return NULL;
	FILE *m = open_memstream(&buf, &len);

	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static struct th_results *load_ok(const char *path)
{
	struct th_results *res;
	char err[1024];

	if (th_results_load(path, &res, err, sizeof(err)))
		fail_msg("%s", err);
	return res;
}

/* results.json's text of a model. */
static char *text_of(const struct th_results *r)
{
	const char *path = tmp("text.json");
	char err[1024];

	if (th_results_write(r, path, err, sizeof(err)))
		fail_msg("%s", err);
	char *t = slurp(path);

	unlink(path);
	return t;
}

/* ---- the declaration: gate-expected.tsv with a kernel's sections ---- */

/* The kernel's rules; the difference of WCR4 under none (the model's
 * write_cr4 runs on the victim's argument: REDIRECTED; the real kernel's
 * native_write_cr4 pins SMEP/SMAP and oopses: CRASHED). */
static const char *const kernel_rules =
	"@platform linux-*\n"
	"*_NONE\tmodern\t*\t*\tNO_EFFECT\tcontrol run\n"
	"*_FUNC_WRITE_CR4\tmodern\tkcfi\t*\tBLOCKED_CFI\tkCFI checks the call's type\n"
	"*_FUNC_WRITE_CR4\tmodern\tnone\t*\tREDIRECTED\tthe argument stays the victim's\n";
static const char *const kernel_differs =
	"@differs\n"
	"*_FUNC_WRITE_CR4\tmodern\tnone\t*\tREDIRECTED\tCRASHED\tnative_write_cr4 pins SMEP/SMAP: "
	"the kernel oopses\n";

static const char *expect_file(const char *extra)
{
	char *base = slurp(DATA("gate-expected.tsv")), *all;
	const char *path = tmp("kernel-expected.tsv");

	assert_non_null(base);
	assert_true(asprintf(&all, "%s%s%s", base, kernel_rules, extra ? extra : kernel_differs) > 0);
	spit(path, all);
	free(base);
	free(all);
	return path;
}

static void load_expect(const char *path)
{
	char err[512];

	if (th_expect_load(path, err, sizeof(err)))
		fail_msg("%s", err);
}

/* th_gate_attacks[], th_gate_configs[]: gate.json's (tests/report_fixtures.cmake) */
#include "report_fixtures.inc"
static const char *const gate_selftests[] = { "SELFTEST_HANG" };
static const char *const kernel_attacks[] = { WCR4, NONE_A };
/* The kernel plan's configs: platform.json's platform's, and which of them
 * builds a check that stops a call (th_platform_configs*, report_fixtures.inc). */

static const char *decl_expect(const char *platform, const char *attack, const char *variant,
			       const char *config, const char *toolchain)
{
	return th_expect_lookup_on(platform, attack, variant, config, toolchain, NULL);
}

/* The loaded table as check's declaration; with_plan: the kernel plan too. */
static struct th_check_decl decl(bool with_plan)
{
	return (struct th_check_decl){
		.expect_path = th_expect_path(), .expect_sha256 = th_expect_sha256(),
		.expect = decl_expect, .where = th_expect_where_on,
		.attacks = th_gate_attacks, .nattacks = TH_GATE_NATTACKS,
		.configs = th_gate_configs, .nconfigs = TH_GATE_NCONFIGS,
		.selftests = gate_selftests, .nselftests = 1,
		.differs = th_expect_differs, .ndifferences = th_expect_difference_count(),
		.difference = th_expect_difference, .difference_on = th_expect_difference_on,
		.kernel_attacks = with_plan ? kernel_attacks : NULL, .nkernel_attacks = with_plan ? 2 : 0,
		.kernel_configs = with_plan ? th_platform_configs : NULL,
		.nkernel_configs = with_plan ? TH_PLATFORM_NCONFIGS : 0,
		.kernel_plan = "kernel/cells.tsv", .kernel_plan_error = with_plan ? NULL : "not given",
		.kernel_config_cfi = with_plan ? th_platform_configs_cfi : NULL,
	};
}

/* ---- results with a real kernel ---- */

static void add_platform(struct th_results *r, const char *name)
{
	char err[512];
	struct th_platform_in in = { name, "Debian linux-source-6.1 6.1.192-3", "clang version 22.1.8",
				     "QEMU emulator version 7.2.15", "max", 1.6 };

	if (th_results_add_platform(r, &in, err, sizeof(err)) ||
	    th_results_add_platform_config(r, name, "kcfi", "CONFIG_CFI_CLANG=y", err, sizeof(err)) ||
	    th_results_add_platform_config(r, name, "none", "# CONFIG_CFI_CLANG is not set", err,
					   sizeof(err)))
		fail_msg("%s", err);
}

/* What the console classifier (kernel/console.c) says of each outcome it
 * proves, in its words (cfi/evidence.h): check refuses a cell whose
 * evidence is not its outcome's proof. NULL: free text. */
static const char *kernel_proof(enum th_outcome o)
{
	switch (o) {
	case TH_BLOCKED_CFI:
		return "CFI failure at call_timer_fn+0x47/0xd3 (target: native_write_cr4+0x0/0x7c; "
		       "expected type: 0x91b4a83a)";
	case TH_HIJACKED:
		return "call_timer_fn called process_timeout+0x0/0x9, which woke the task the attacker "
		       "wrote after the timer: EFFECT th-sleeper woken 1 times";
	case TH_REDIRECTED:
		return "call_timer_fn called th_neighbour_release+0x0/0x4 with the timer, and it returned";
	case TH_HANG:
		return "call_timer_fn called native_write_cr4+0x0/0x7c, which never returned: no line, "
		       "oops or panic from the kernel after it (10 s of silence, or the time limit)";
	case TH_TIMER_LOST:
		return "the timer left the wheel without a call: STATE pending=0";
	default:
		return NULL;
	}
}

static struct th_cell *add_kernel_cell(struct th_results *r, const char *platform,
				       const char *attack, const char *config,
				       enum th_outcome o)
{
	char err[512], ev[512];
	struct th_cell *c;

	snprintf(ev, sizeof(ev), "%s%sconsole: %s under %s", kernel_proof(o) ? kernel_proof(o) : "",
		 kernel_proof(o) ? "; " : "", th_outcome_name(o), config);
	struct th_cell_in in = {
		.attack = attack, .technique = "memcpy-intra", .timing = "before-arm",
		.payload = strstr(attack, "_NONE") ? "none" : "func:write_cr4",
		.variant = TH_VARIANT_MODERN, .config = config, .toolchain = "clang-22",
		.outcome = o, .runs = 1, .evidence = ev, .expected = TH_OUTCOME_INVALID,
		.seconds = 2.5, .platform = platform,
	};
	if (!(c = th_results_add_cell(r, &in, err, sizeof(err))))
		fail_msg("%s", err);
	return c;
}

/* The kernel's four cells as declared: WCR4 under none CRASHED (declared
 * different from the model's REDIRECTED), the rest as the model. */
static void add_kernel_run(struct th_results *r, const char *platform)
{
	add_platform(r, platform);
	add_kernel_cell(r, platform, WCR4, "kcfi", TH_BLOCKED_CFI);
	add_kernel_cell(r, platform, WCR4, "none", TH_CRASHED);
	add_kernel_cell(r, platform, NONE_A, "kcfi", TH_NO_EFFECT);
	add_kernel_cell(r, platform, NONE_A, "none", TH_NO_EFFECT);
}

/* gate.json judged by expect (loaded), with the kernel's run. */
static struct th_results *kernel_results(void)
{
	struct th_results *r = load_ok(DATA("gate.json"));
	char err[512];

	if (th_results_set_expectations(r, "kernel-expected.tsv", th_expect_sha256(), err, sizeof(err)))
		fail_msg("%s", err);
	add_kernel_run(r, LINUX);
	return r;
}

static void judge(struct th_results *r)
{
	char err[512];

	if (th_expect_judge_results(r, err, sizeof(err)))
		fail_msg("%s", err);
}

struct run {
	int rc;
	char *out, *err;
};

static struct run check_file(const char *path, const char *baseline, bool with_plan, bool verbose)
{
	struct run g = { 0 };
	size_t lo, le;
	FILE *out = open_memstream(&g.out, &lo), *err = open_memstream(&g.err, &le);
	struct th_check_opts o = { .results = path, .baseline = baseline, .verbose = verbose };
	struct th_check_decl d = decl(with_plan);

	g.rc = th_check_main(&o, &d, out, err);
	fclose(out);
	fclose(err);
	/* Lines check wrapped at 80 columns (continued two spaces in) read as one. */
	char *w = g.out;

	for (const char *p = g.out; *p; p++) {
		if (p[0] == '\n' && p[1] == ' ' && p[2] == ' ') {
			*w++ = ' ';
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return g;
}

static struct run check_model(const struct th_results *r, bool with_plan, bool verbose)
{
	const char *path = tmp("check.json");
	char err[1024];

	if (th_results_write(r, path, err, sizeof(err)))
		fail_msg("%s", err);
	return check_file(path, NULL, with_plan, verbose);
}

static void run_free(struct run *g)
{
	free(g->out);
	free(g->err);
}

/* ---- the model: platform, platforms, the key, the loader ---- */

static void platform_round_trip(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results(), *back;
	char *t1, *t2;
	const char *path = tmp("round.json");
	char err[1024];

	judge(r);
	t1 = text_of(r);
	assert_contains(t1, "\"platform\": \"model\"");
	assert_contains(t1, "\"platform\": \"" LINUX "\"");
	assert_contains(t1, "\"kconfig\": \"CONFIG_CFI_CLANG=y\"");
	assert_contains(t1, "\"boot_seconds_median\": 1.6");
	assert_contains(t1, "\"model_outcome\": \"REDIRECTED\"");
	spit(path, t1);
	back = load_ok(path);
	t2 = text_of(back);
	assert_string_equal(t1, t2);
	assert_int_equal(back->nplatforms, 1);
	const struct th_platform *p = th_results_find_platform(back, LINUX);

	assert_non_null(p);
	assert_string_equal(p->qemu, "QEMU emulator version 7.2.15");
	assert_string_equal(p->cpu, "max");
	assert_int_equal(p->nconfigs, 2);
	assert_string_equal(th_platform_find_config(p, "none")->kconfig, "# CONFIG_CFI_CLANG is not set");
	assert_null(th_results_find_platform(back, "model"));
	assert_true(back->has_agreement);
	assert_int_equal(back->nagreement, 4);
	/* The kernel's cells come after the model's. */
	assert_string_equal(back->cells[back->ncells - 1]->platform, LINUX);
	/* Not recorded: null, and back. */
	struct th_platform_in in = { "linux-6.2", "", "", "", "", -1 };

	assert_int_equal(th_results_add_platform(back, &in, err, sizeof(err)), 0);
	free(t2);
	t2 = text_of(back);
	assert_contains(t2, "\"boot_seconds_median\": null");
	th_results_free(back);
	th_results_free(r);
	free(t1);
	free(t2);
	unlink(path);
	th_expect_free();
}

/* A file of the version before platforms (no "platform", no platforms):
 * its cells are the model's, and it is written with the field. */
static void platform_old_file_is_model(void **state)
{
	struct th_results *r = load_ok(DATA("small.json"));
	char *t;

	(void)state;
	assert_int_equal(r->nplatforms, 0);
	for (size_t i = 0; i < r->ncells; i++)
		assert_string_equal(r->cells[i]->platform, TH_PLATFORM_MODEL);
	t = text_of(r);
	assert_contains(t, "\"platform\": \"model\"");
	assert_not_contains(t, "\"platforms\"");
	assert_not_contains(t, "\"agreement\"");
	free(t);
	th_results_free(r);
}

/* A variation of a good file (jansson): edit(root), then the loader's error. */
static void load_error(const char *good, void (*edit)(json_t *root), const char *want)
{
	json_error_t je;
	json_t *root = json_loads(good, 0, &je);
	const char *path = tmp("bad.json");
	struct th_results *r = (struct th_results *)1;
	char err[1024] = "";

	assert_non_null(root);
	edit(root);
	assert_int_equal(json_dump_file(root, path, JSON_INDENT(2)), 0);
	json_decref(root);
	if (th_results_load(path, &r, err, sizeof(err)) != -1)
		fail_msg("loaded, though it should be refused with '%s'", want);
	assert_null(r);
	/* The file and the place. */
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	assert_contains(err, want);
	unlink(path);
}

static json_t *cells(json_t *root)
{
	return json_object_get(root, "cells");
}

/* The index of the first cell of platform. */
static size_t first_of(json_t *root, const char *platform)
{
	size_t i;
	json_t *c;

	json_array_foreach(cells(root), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "platform")), platform))
			return i;
	fail_msg("no cell of %s", platform);
	return 0;
}

static void e_missing(json_t *root)
{
	json_object_del(json_array_get(cells(root), 0), "platform");
}

static void e_missing_kernel(json_t *root)
{
	json_object_del(json_array_get(cells(root), first_of(root, LINUX)), "platform");
}

static void e_unknown(json_t *root)
{
	json_object_set_new(json_array_get(cells(root), 3), "platform", json_string("linux-6.9"));
}

static void e_bad_name(json_t *root)
{
	json_object_set_new(json_array_get(cells(root), 3), "platform", json_string("windows"));
}

static void e_kernel_config(json_t *root)
{
	json_object_set_new(json_array_get(cells(root), first_of(root, LINUX)), "config",
			    json_string("cfi-icall"));
}

static void e_duplicate(json_t *root)
{
	size_t k = first_of(root, LINUX);

	json_array_append(cells(root), json_array_get(cells(root), k));
}

static json_t *platform0(json_t *root)
{
	return json_array_get(json_object_get(root, "platforms"), 0);
}

static void e_no_qemu(json_t *root)
{
	json_object_del(platform0(root), "qemu");
}

static void e_platform_config(json_t *root)
{
	json_object_set_new(json_array_get(json_object_get(platform0(root), "configs"), 1), "name",
			    json_string("nocfi"));
}

static void e_platform_model(json_t *root)
{
	json_object_set_new(platform0(root), "name", json_string("model"));
}

static void e_boot(json_t *root)
{
	json_object_set_new(platform0(root), "boot_seconds_median", json_string("fast"));
}

static void e_platform_field(json_t *root)
{
	json_object_set_new(platform0(root), "kernel_version", json_string("6.1"));
}

static json_t *row0(json_t *root)
{
	return json_array_get(json_object_get(root, "agreement"), 0);
}

static void e_row_rule(json_t *root)
{
	json_object_set_new(row0(root), "rule", json_null());
}

static void e_row_duplicate(json_t *root)
{
	json_array_append(json_object_get(root, "agreement"), row0(root));
}

static void e_row_model(json_t *root)
{
	json_object_set_new(row0(root), "platform", json_string("model"));
}

static void e_row_outcome(json_t *root)
{
	json_object_set_new(row0(root), "kernel_outcome", json_string("OOPS"));
}

static void e_row_missing(json_t *root)
{
	json_object_del(row0(root), "agrees");
}

static void platform_loader_errors(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();

	judge(r);
	char *good = text_of(r);

	load_error(good, e_missing, "cells[0]: missing field \"platform\"");
	load_error(good, e_missing_kernel, "missing field \"platform\"");
	load_error(good, e_unknown, "cells[3].platform: unknown platform \"linux-6.9\"");
	load_error(good, e_bad_name, "cells[3].platform: unknown platform \"windows\" (\"model\" or "
		   "\"linux-<release>\"");
	load_error(good, e_kernel_config, "config \"cfi-icall\" is not a kernel config of " LINUX
		   " (its configs: kcfi, none)");
	load_error(good, e_duplicate, "on " LINUX " (first at cells[");
	load_error(good, e_no_qemu, "platforms[0]: missing field \"qemu\"");
	load_error(good, e_platform_config, "platforms[0].configs[1]: unknown config \"nocfi\"");
	load_error(good, e_platform_model, "platforms[0].name: \"model\" is the userspace model");
	load_error(good, e_boot, "platforms[0].boot_seconds_median: expected a duration");
	load_error(good, e_platform_field, "platforms[0]: unknown field \"kernel_version\"");
	load_error(good, e_row_rule, "agreement[0]: reason and rule");
	load_error(good, e_row_duplicate, "agreement[4]: duplicate row");
	load_error(good, e_row_model, "agreement[0].platform: \"model\"");
	load_error(good, e_row_outcome, "agreement[0].kernel_outcome: unknown outcome \"OOPS\"");
	load_error(good, e_row_missing, "agreement[0]: missing field \"agrees\"");
	free(good);
	th_results_free(r);
	th_expect_free();
}

/* The same attack, variant, config and toolchain on two platforms: two
 * cells; twice on one platform: refused. */
static void platform_key(void **state)
{
	struct th_results *r = load_ok(DATA("gate.json"));
	struct th_cell *k, *m;
	char err[512];

	(void)state;
	add_platform(r, LINUX);
	k = add_kernel_cell(r, LINUX, WCR4, "kcfi", TH_CRASHED);
	m = th_results_find_cell(r, NULL, WCR4, TH_VARIANT_MODERN, "kcfi", "clang-22");
	assert_non_null(m);
	assert_ptr_not_equal(k, m);
	assert_int_equal(m->outcome, TH_BLOCKED_CFI);
	assert_ptr_equal(th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "kcfi", "clang-22"), k);
	assert_null(th_results_find_cell(r, "linux-6.2", WCR4, TH_VARIANT_MODERN, "kcfi", "clang-22"));
	struct th_cell_in in = { .attack = WCR4, .technique = "memcpy-intra", .payload = "p",
				 .variant = TH_VARIANT_MODERN, .config = "kcfi", .toolchain = "clang-22",
				 .outcome = TH_NO_EFFECT, .runs = 1, .expected = TH_OUTCOME_INVALID,
				 .platform = LINUX };

	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "cell added twice");
	in.platform = "linux-6.2";
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "unknown platform \"linux-6.2\" (add it first)");
	in.platform = LINUX;
	in.config = "cfi-icall";
	assert_null(th_results_add_cell(r, &in, err, sizeof(err)));
	assert_contains(err, "is not a kernel config of platform " LINUX);
	struct th_platform_in bad = { "linux 6", "", "", "", "", -1 };

	assert_int_equal(th_results_add_platform(r, &bad, err, sizeof(err)), -1);
	assert_contains(err, "is not \"linux-<release>\"");
	bad.name = "model";
	assert_int_equal(th_results_add_platform(r, &bad, err, sizeof(err)), -1);
	bad.name = LINUX;
	assert_int_equal(th_results_add_platform(r, &bad, err, sizeof(err)), -1);
	assert_contains(err, "added twice");
	assert_int_equal(th_results_add_platform_config(r, LINUX, "asan", "CONFIG_KASAN=y", err,
							sizeof(err)), -1);
	assert_contains(err, "unknown config \"asan\"");
	/* Only the model's cells are counted in cells_*. */
	assert_int_equal(th_results_set_count_metrics(r, err, sizeof(err)), 0);
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, "cells_total"))
			assert_int_equal(r->metrics[i].i, 54);
	th_results_free(r);
}

/* ---- the agreement ---- */

static bool declare_all(void *ctx, const char *platform, const char *attack, const char *variant,
			const char *config, const char *toolchain, enum th_outcome model,
			enum th_outcome kernel, const char **reason, const char **rule)
{
	(void)ctx, (void)platform, (void)attack, (void)variant, (void)config, (void)toolchain;
	(void)model, (void)kernel;
	*reason = "declared by the test";
	*rule = "test.tsv:1";
	return true;
}

static void agreement_computed(void **state)
{
	struct th_results *r = load_ok(DATA("gate.json"));
	struct th_agreement *rows;
	size_t n;
	char err[512];

	(void)state;
	add_kernel_run(r, LINUX);
	/* A kernel's cell without a model cell of its key: no row. */
	assert_int_equal(th_results_add_toolchain(r, "clang-19", "19.1.7", "", err, sizeof(err)), 0);
	struct th_cell_in alone = { .attack = NONE_A, .technique = "memcpy-intra", .payload = "none",
				    .variant = TH_VARIANT_MODERN, .config = "kcfi", .toolchain = "clang-19",
				    .outcome = TH_NO_EFFECT, .runs = 1, .expected = TH_OUTCOME_INVALID,
				    .platform = LINUX };

	assert_non_null(th_results_add_cell(r, &alone, err, sizeof(err)));
	assert_int_equal(th_results_agreement(r, NULL, NULL, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(rows[i].platform, LINUX);
		assert_string_equal(rows[i].toolchain, "clang-22");
		bool differs = !strcmp(rows[i].attack, WCR4) && !strcmp(rows[i].config, "none");

		assert_int_equal(rows[i].agrees, !differs);
		if (differs) {
			assert_int_equal(rows[i].model, TH_REDIRECTED);
			assert_int_equal(rows[i].kernel, TH_CRASHED);
		}
		/* Nothing stored declares anything. */
		assert_null(rows[i].reason);
		assert_null(rows[i].rule);
	}
	th_agreement_free(rows, n);
	/* Declared: only the difference gets the declaration. */
	assert_int_equal(th_results_set_agreement(r, declare_all, NULL, err, sizeof(err)), 0);
	assert_true(r->has_agreement);
	for (size_t i = 0; i < r->nagreement; i++)
		assert_int_equal(r->agreement[i].reason != NULL, !r->agreement[i].agrees);
	/* Stored declarations count while their outcomes hold... */
	assert_int_equal(th_results_agreement(r, NULL, NULL, &rows, &n, err, sizeof(err)), 0);
	size_t declared = 0;

	for (size_t i = 0; i < n; i++)
		declared += rows[i].reason != NULL;
	assert_int_equal(declared, 1);
	th_agreement_free(rows, n);
	/* ...not once the kernel's cell says otherwise (its runs counted). */
	th_cell_record_run(th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "none", "clang-22"),
			   TH_HIJACKED, err, sizeof(err));
	assert_int_equal(th_results_agreement(r, NULL, NULL, &rows, &n, err, sizeof(err)), 0);
	for (size_t i = 0; i < n; i++)
		assert_null(rows[i].reason);
	th_agreement_free(rows, n);
	th_results_free(r);
}

/* ---- merge keeps platforms apart ---- */

static struct th_results *kernel_only(const struct th_results *like)
{
	struct th_results *k = th_results_create(like->version);
	char err[512];

	assert_non_null(k);
	if (th_results_set_expectations(k, like->expect_path, like->expect_sha256, err, sizeof(err)) ||
	    th_results_set_selection(k, &like->selection, err, sizeof(err)) ||
	    th_results_add_toolchain(k, "clang-22", th_results_find_toolchain(like, "clang-22")->version,
				     "", err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < like->nconfigs; i++)
		if (th_results_add_config(k, like->configs[i].name, like->configs[i].flags,
					  like->configs[i].description, err, sizeof(err)))
			fail_msg("%s", err);
	add_kernel_run(k, LINUX);
	return k;
}

static void merge_keeps_platforms_apart(void **state)
{
	struct th_results *m = load_ok(DATA("gate.json")), *k = kernel_only(m), *out = NULL;
	struct th_results *in[3] = { m, k, k };
	const char *names[3] = { "model.json", "kernel.json", "again.json" };
	char err[1024];

	(void)state;
	if (th_results_merge(in, names, 2, &out, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(out->ncells, 58);
	assert_int_equal(out->nplatforms, 1);
	assert_non_null(th_results_find_cell(out, LINUX, WCR4, TH_VARIANT_MODERN, "none", "clang-22"));
	assert_non_null(th_results_find_cell(out, NULL, WCR4, TH_VARIANT_MODERN, "none", "clang-22"));
	assert_true(out->has_agreement);
	assert_int_equal(out->nagreement, 4);
	th_results_free(out);
	/* The same cell on the same platform in two files: refused. */
	assert_int_equal(th_results_merge(in, names, 3, &out, err, sizeof(err)), -1);
	assert_null(out);
	assert_contains(err, "modern/kcfi/clang-22 on " LINUX " is in kernel.json and in again.json: "
			"the runs overlap");
	/* A platform another file describes otherwise. */
	struct th_results *k2 = kernel_only(m);

	free(k2->platforms[0].qemu);
	k2->platforms[0].qemu = strdup("QEMU emulator version 8.0");
	for (size_t i = 0; i < k2->ncells; i++)
		k2->cells[i]->attack[0] = 'X';	/* no overlap of cells */
	in[2] = k2;
	assert_int_equal(th_results_merge(in, names, 3, &out, err, sizeof(err)), -1);
	assert_contains(err, "platform " LINUX " differs between kernel.json and again.json");
	th_results_free(k2);
	th_results_free(k);
	th_results_free(m);
}

/* ---- replace one platform's cells ---- */

static void replace_platform(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *dst = kernel_results(), *src;
	char err[1024], *before, *after, *model_before;

	/* An earlier run of the platform held a cell this one does not. */
	add_kernel_cell(dst, LINUX, DATA_A, "none", TH_CRASHED);
	judge(dst);
	model_before = text_of(dst);
	src = kernel_only(dst);
	th_cell_record_run(th_results_find_cell(src, LINUX, NONE_A, TH_VARIANT_MODERN, "kcfi",
						"clang-22"), TH_TIMER_LOST, err, sizeof(err));
	if (th_results_replace_platform(dst, src, LINUX, err, sizeof(err)))
		fail_msg("%s", err);
	assert_null(th_results_find_cell(dst, LINUX, DATA_A, TH_VARIANT_MODERN, "none", "clang-22"));
	assert_int_equal(th_results_find_cell(dst, LINUX, NONE_A, TH_VARIANT_MODERN, "kcfi",
					      "clang-22")->outcome, TH_TIMER_LOST);
	assert_int_equal(dst->ncells, 58);
	assert_int_equal(dst->nplatforms, 1);
	/* The model's cells as they were. */
	for (size_t i = 0; i < dst->ncells; i++) {
		const struct th_cell *c = dst->cells[i];
		char key[300];

		if (strcmp(c->platform, "model"))
			continue;
		snprintf(key, sizeof(key), "\"attack\": \"%s\"", c->attack);
		assert_contains(model_before, key);
	}
	/* The agreement follows the cells. */
	assert_true(dst->has_agreement);
	assert_int_equal(dst->nagreement, 4);
	free(model_before);

	/* Refusals leave dst as it was. */
	before = text_of(dst);
	free(src->toolchains[0].version);
	src->toolchains[0].version = strdup("99.0.0");
	assert_int_equal(th_results_replace_platform(dst, src, LINUX, err, sizeof(err)), -1);
	assert_contains(err, "toolchain clang-22 is 22.1.8 in the results and 99.0.0 in the " LINUX " run");
	free(src->toolchains[0].version);
	src->toolchains[0].version = strdup(th_results_find_toolchain(dst, "clang-22")->version);
	free(src->configs[2].flags);
	src->configs[2].flags = strdup("-fsanitize=kcfi -O3");
	assert_int_equal(th_results_replace_platform(dst, src, LINUX, err, sizeof(err)), -1);
	assert_contains(err, "config kcfi: its flags differ between the results and the " LINUX " run");
	free(src->configs[2].flags);
	src->configs[2].flags = strdup(dst->configs[2].flags);
	free(src->expect_sha256);
	src->expect_sha256 = strdup("0000000000000000000000000000000000000000000000000000000000000000");
	assert_int_equal(th_results_replace_platform(dst, src, LINUX, err, sizeof(err)), -1);
	assert_contains(err, "judged by other expectations");
	assert_int_equal(th_results_replace_platform(dst, src, "model", err, sizeof(err)), -1);
	assert_contains(err, "is not a real-kernel platform");
	assert_int_equal(th_results_replace_platform(dst, src, "linux-6.2", err, sizeof(err)), -1);
	assert_contains(err, "declares no platform linux-6.2");
	after = text_of(dst);
	assert_string_equal(before, after);
	free(before);
	free(after);
	th_results_free(src);

	/* An interrupted run of the platform: the results say so, by its name;
	 * the next whole run takes it back. */
	src = kernel_only(dst);
	assert_int_equal(th_results_set_partial(src, true, "SIGINT", err, sizeof(err)), 0);
	if (th_results_replace_platform(dst, src, LINUX, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(dst->partial);
	assert_string_equal(dst->interrupted, LINUX ": SIGINT");
	th_results_free(src);
	src = kernel_only(dst);
	if (th_results_replace_platform(dst, src, LINUX, err, sizeof(err)))
		fail_msg("%s", err);
	assert_false(dst->partial);
	th_results_free(src);

	/* The kernel's reach entry (its vmlinux's call_timer_fn) is the
	 * platform's too: replaced by the new run's, and dropped when the new
	 * run has none; the model's entry of the same toolchain and config
	 * stays beside it. */
	{
		struct th_reach_entry *e;
		const struct th_reach_entry *got;

		assert_non_null(e = th_reach_add_entry_on(dst, LINUX, "clang-22", TH_VARIANT_MODERN, "kcfi",
							  "old/vmlinux", "call_timer_fn"));
		e->functions_total = 10;
		assert_int_equal(th_reach_set_text(&e->scheme, "kcfi"), 0);
		assert_int_equal(th_reach_set_text(&e->check, "kcfi: hash 0x1"), 0);
		assert_int_equal(th_reach_add_member(e, "old_fn", NULL, false, false), 0);
		assert_non_null(e = th_reach_add_entry(dst, "clang-22", TH_VARIANT_MODERN, "kcfi",
						       "model/attack", "call_timer_fn"));
		assert_int_equal(th_reach_set_text(&e->scheme, "kcfi"), 0);
		assert_int_equal(th_reach_set_text(&e->check, "kcfi: hash 0x2"), 0);
		src = kernel_only(dst);
		assert_non_null(e = th_reach_add_entry_on(src, LINUX, "clang-22", TH_VARIANT_MODERN, "kcfi",
							  "new/vmlinux", "call_timer_fn"));
		e->functions_total = 10;
		assert_int_equal(th_reach_set_text(&e->scheme, "kcfi"), 0);
		assert_int_equal(th_reach_set_text(&e->check, "kcfi: hash 0x1"), 0);
		assert_int_equal(th_reach_add_member(e, "new_fn", NULL, false, false), 0);
		if (th_results_replace_platform(dst, src, LINUX, err, sizeof(err)))
			fail_msg("%s", err);
		got = th_reach_find_on(dst, LINUX, "clang-22", TH_VARIANT_MODERN, "kcfi");
		assert_non_null(got);
		assert_string_equal(got->binary, "new/vmlinux");
		assert_int_equal(got->nmembers, 1);
		assert_string_equal(got->members[0].name, "new_fn");
		assert_non_null(got = th_reach_find(dst, "clang-22", TH_VARIANT_MODERN, "kcfi"));
		assert_string_equal(got->binary, "model/attack");
		th_results_free(src);
		src = kernel_only(dst);
		if (th_results_replace_platform(dst, src, LINUX, err, sizeof(err)))
			fail_msg("%s", err);
		assert_null(th_reach_find_on(dst, LINUX, "clang-22", TH_VARIANT_MODERN, "kcfi"));
		assert_non_null(th_reach_find(dst, "clang-22", TH_VARIANT_MODERN, "kcfi"));
		th_results_free(src);
	}

	/* Into empty results (no out/results.json yet): src's toolchains,
	 * configs, expectations and selection are taken. */
	struct th_results *empty = th_results_create("0.1.0");

	src = kernel_only(dst);
	if (th_results_replace_platform(empty, src, LINUX, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(empty->ncells, 4);
	assert_non_null(th_results_find_toolchain(empty, "clang-22"));
	assert_non_null(th_results_find_config(empty, "kcfi"));
	assert_string_equal(empty->expect_sha256, dst->expect_sha256);
	assert_true(empty->has_selection);
	th_results_free(src);
	th_results_free(empty);
	th_results_free(dst);
	th_expect_free();
}

/* ---- every renderer shows the platform ---- */

static char *render(const struct th_results *r, enum th_render_format f)
{
	char *buf = NULL, err[512];
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	if (th_render_format_to(out, f, r, 0, err, sizeof(err)))
		fail_msg("%s: %s", th_render_format_name(f), err);
	fclose(out);
	return buf;
}

static void renderers_show_platform(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results(), *model = load_ok(DATA("gate.json"));
	char err[512];

	/* The same results without the kernel. */
	if (th_results_set_expectations(model, "kernel-expected.tsv", th_expect_sha256(), err,
					sizeof(err)))
		fail_msg("%s", err);
	judge(model);
	judge(r);
	char *md = render(r, TH_RENDER_MARKDOWN), *html = render(r, TH_RENDER_HTML);
	char *junit = render(r, TH_RENDER_JUNIT), *sarif = render(r, TH_RENDER_SARIF);
	char *ktap = render(r, TH_RENDER_KTAP), *grid = render(r, TH_RENDER_MATRIX);
	char *verdict = render(r, TH_RENDER_VERDICT);
	char *junit_model = render(model, TH_RENDER_JUNIT), *grid_model = render(model, TH_RENDER_MATRIX);

	assert_contains(md, "\n## Real kernel\n");
	assert_contains(md, "\n### " LINUX "\n");
	assert_contains(md, "QEMU emulator version 7.2.15");
	assert_contains(md, "| `" WCR4 "` | modern | none | clang-22 | REDIRECTED | CRASHED | declared "
			"difference: native\\_write\\_cr4 pins SMEP/SMAP: the kernel oopses (`");
	assert_contains(md, "4 cells: 3 agree with the model, 1 declared difference, 0 disagree");
	/* After the model's whole report. */
	assert_true(strstr(md, "## Real kernel") > strstr(md, "## Full matrix"));
	assert_contains(html, "<h2 id=\"kernel\">Real kernel</h2>");
	assert_contains(html, "<a href=\"#kernel\">Real kernel</a>");
	assert_contains(html, "declared difference: native_write_cr4 pins");
	assert_contains(junit, "<testsuite name=\"" LINUX "/clang-22\"");
	assert_contains(junit, "classname=\"timerharness." LINUX ".clang-22.timer.modern.none\"");
	assert_contains(junit, "<property name=\"platform\" value=\"" LINUX "\"/>");
	/* The model's suites exactly as without the kernel. */
	junit_model[strstr(junit_model, "</testsuites>") - junit_model] = '\0';
	assert_int_equal(strncmp(junit, junit_model, strlen(junit_model)), 0);
	/* The kernel's cells pass: no result, as for the model's (code scanning
	 * makes an alert of every result). A regressed one says its platform,
	 * in its message, properties and fingerprint. */
	assert_null(strstr(sarif, "\"results\": [\n        {"));
	assert_contains(sarif, "\"results\": []");
	for (size_t i = 0; i < r->ncells; i++)
		if (!th_platform_is_model(r->cells[i]->platform)) {
			r->cells[i]->verdict = TH_VERDICT_REGRESSION;
			break;
		}
	free(sarif);
	sarif = render(r, TH_RENDER_SARIF);
	assert_contains(sarif, "(real kernel " LINUX ")");
	assert_contains(sarif, "\"platform\": \"" LINUX "\"");
	assert_contains(sarif, "\"timerharnessCell/v2\": \"");
	assert_contains(sarif, "/" LINUX "\"");
	assert_contains(ktap, "# Subtest: " LINUX "/clang-22");
	assert_contains(ktap, "\n1..3\n");
	assert_contains(grid, "== " LINUX ", clang-22 (");
	assert_contains(grid, LINUX " beside the model: 3 agree, 1 declared difference, 0 disagree");
	/* The model's tables exactly as without the kernel. */
	grid_model[strstr(grid_model, "legend:") - grid_model] = '\0';
	assert_int_equal(strncmp(grid, grid_model, strlen(grid_model)), 0);
	assert_contains(verdict, "Real kernel (" LINUX ") vs model: 4 cells, 3 agree, 1 declared, 0 "
			"disagree\n");
	assert_contains(verdict, ": 54 cells");
	for (const char *p = verdict; *p;) {
		size_t w = strcspn(p, "\n");

		if (w > TH_VERDICT_WIDTH)
			fail_msg("a verdict line of %zu columns: %.*s", w, (int)w, p);
		p += w + (p[w] == '\n');
	}
	free(md);
	free(html);
	free(junit);
	free(sarif);
	free(ktap);
	free(grid);
	free(verdict);
	free(junit_model);
	free(grid_model);
	th_results_free(model);
	th_results_free(r);
	th_expect_free();
}

/* ---- the output set: one writer at a time ---- */

static void output_set_locked(void **state)
{
	char err[512], warn[512];
	const char *dir = tmp("set");
	int fd, fd2;

	(void)state;
	assert_int_equal(mkdir(dir, 0777), 0);
	fd = th_render_lock_dir(dir, "kernel", err, sizeof(err));
	assert_true(fd >= 0);
	fd2 = th_render_lock_dir(dir, "matrix", err, sizeof(err));
	assert_int_equal(fd2, -1);
	assert_contains(err, "is in use by another kernel run (pid ");
	struct th_results *r = load_ok(DATA("gate.json"));

	assert_int_equal(th_render_write_set(r, dir, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_string_equal(warn, "");
	for (size_t i = 0; th_render_set_name(i); i++) {
		char p[400];

		snprintf(p, sizeof(p), "%s/%s", dir, th_render_set_name(i));
		assert_int_equal(access(p, F_OK), 0);
		unlink(p);
	}
	char p[400];

	snprintf(p, sizeof(p), "%s/.timerharness.lock", dir);
	/* A holder that ended without unlocking (killed): its file is
	 * taken over. */
	close(fd);
	fd2 = th_render_lock_dir(dir, "matrix", err, sizeof(err));
	assert_true(fd2 >= 0);
	/* Unlocked: nothing left behind, and the next writer locks anew. */
	th_render_unlock_dir(fd2, dir);
	assert_int_equal(access(p, F_OK), -1);
	fd = th_render_lock_dir(dir, "matrix", err, sizeof(err));
	assert_true(fd >= 0);
	/* A descriptor of the file opened before its holder let go, locked
	 * after, holds a file no longer there: it excludes no one (the
	 * locker itself sees the path changed and takes it again). */
	fd2 = open(p, O_RDWR);
	assert_true(fd2 >= 0);
	th_render_unlock_dir(fd, dir);
	assert_int_equal(flock(fd2, LOCK_EX | LOCK_NB), 0);	/* the unlinked file: no one's lock */
	fd = th_render_lock_dir(dir, "kernel", err, sizeof(err));
	assert_true(fd >= 0);
	th_render_unlock_dir(fd, dir);
	close(fd2);
	fd = th_render_lock_dir(dir, "matrix", err, sizeof(err));
	assert_true(fd >= 0);
	th_render_unlock_dir(fd, dir);
	th_results_free(r);
	rmdir(dir);
}

/* ---- check: a real kernel's cells ---- */

static void check_kernel_pass(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();

	judge(r);
	struct run g = check_model(r, true, true);

	if (g.rc != TH_CHECK_OK)
		fail_msg("rc %d:\n%s%s", g.rc, g.out, g.err);
	assert_contains(g.out, "check: " LINUX ": 4 cells, 3 agree with the model, 1 declared "
			"difference, 0 disagree\n");
	assert_contains(g.out, "declared difference: " WCR4 " modern/none/clang-22 on " LINUX ": model "
			"REDIRECTED, kernel CRASHED (");
	/* CRASHED is less severe than the kernel's rule: an improvement. */
	assert_contains(g.out, "check: 58 cells: 57 pass, 0 regression, 1 improvement\n");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

/* A real kernel's cell is backed by its boot as a model cell by its runs:
 * one written with no run, count or evidence is doctored, named. */
static void check_kernel_unbacked(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();
	struct th_cell *c = th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "kcfi", "clang-22");
	char err[512];

	assert_non_null(c);
	judge(r);
	memset(c->counts, 0, sizeof(c->counts));
	c->runs = 0;
	if (th_cell_set_evidence(c, "", err, sizeof(err)))
		fail_msg("%s", err);
	struct run g = check_model(r, true, false);

	if (g.rc != TH_CHECK_BAD_INPUT)
		fail_msg("rc %d:\n%s%s", g.rc, g.out, g.err);
	assert_contains(g.out, "doctored: " WCR4 " modern/kcfi/clang-22 on " LINUX ": runs is 0: "
			"BLOCKED_CFI is backed by no run");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

/* Results without a real kernel's cells are judged as they always were,
 * with a kernel plan or without one. */
static void check_model_only_unchanged(void **state)
{
	(void)state;
	load_expect(DATA("gate-expected.tsv"));
	struct run g = check_file(DATA("gate.json"), NULL, true, false);

	assert_int_equal(g.rc, TH_CHECK_OK);
	assert_not_contains(g.out, "linux");
	run_free(&g);
	g = check_file(DATA("gate.json"), NULL, false, false);
	assert_int_equal(g.rc, TH_CHECK_OK);
	run_free(&g);
	th_expect_free();
}

static void check_kernel_undeclared_disagreement(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();
	char err[512];

	/* Less severe than its rule (an improvement), but not the model's. */
	th_cell_record_run(th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "kcfi", "clang-22"),
			   TH_NO_EFFECT, err, sizeof(err));
	struct th_cell *c = th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "kcfi", "clang-22");

	memset(c->counts, 0, sizeof(c->counts));
	c->counts[TH_NO_EFFECT] = 1;
	c->runs = 1;
	c->outcome = TH_NO_EFFECT;
	judge(r);
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "disagreement: " WCR4 " modern/kcfi/clang-22 on " LINUX ": model "
			"BLOCKED_CFI, kernel NO_EFFECT, no @differs row declares it; model evidence: "
			"SIGILL ud1 at 0x1f2a guarding call_timer_fn's call at 0x1f20 (kcfi, listed in "
			".kcfi_traps), call target write_cr4; observed BLOCKED_CFI under kcfi/clang-22; kernel evidence: CFI failure at "
			"call_timer_fn+0x47/0xd3 (target: native_write_cr4+0x0/0x7c; ");
	assert_contains(g.out, "2 agree with the model, 1 declared difference, 1 disagree\n");
	assert_contains(g.out, ", 1 disagrees\n");
	assert_contains(g.out, "check: FAIL (exit 1)");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

static void check_kernel_stale_declaration(void **state)
{
	(void)state;
	/* The kernel now does what the model does: the declaration rotted. */
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();
	struct th_cell *c = th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "none", "clang-22");

	char err[512];

	memset(c->counts, 0, sizeof(c->counts));
	c->counts[TH_REDIRECTED] = 1;
	c->outcome = TH_REDIRECTED;
	assert_int_equal(th_cell_set_evidence(c, kernel_proof(TH_REDIRECTED), err, sizeof(err)), 0);
	judge(r);
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "stale: ");
	assert_contains(g.out, "kernel-expected.tsv:15 declares model REDIRECTED, kernel CRASHED for "
			WCR4 " modern/none/clang-22 on " LINUX ", but both observed REDIRECTED");
	assert_contains(g.out, ", 1 stale declaration\n");
	run_free(&g);
	th_results_free(r);
	th_expect_free();

	/* It declares other outcomes than the ones observed: a disagreement,
	 * and a stale row. */
	load_expect(expect_file(NULL));
	r = kernel_results();
	c = th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "none", "clang-22");
	memset(c->counts, 0, sizeof(c->counts));
	c->counts[TH_HANG] = 1;
	c->outcome = TH_HANG;
	assert_int_equal(th_cell_set_evidence(c, kernel_proof(TH_HANG), err, sizeof(err)), 0);
	judge(r);
	g = check_model(r, true, false);
	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "disagreement: " WCR4 " modern/none/clang-22 on " LINUX ": model "
			"REDIRECTED, kernel HANG, ");
	assert_contains(g.out, "kernel-expected.tsv:15 declares model REDIRECTED, kernel CRASHED (stale)");
	run_free(&g);
	th_results_free(r);
	th_expect_free();

	/* A row no pair of cells uses. */
	load_expect(expect_file("@differs\n"
				"*_FUNC_WRITE_CR4\tmodern\tnone\t*\tREDIRECTED\tCRASHED\tpinned bits\n"
				"UAF_*\tmodern\t*\t*\tREDIRECTED\tCRASHED\tno such cell here\n"));
	r = kernel_results();
	judge(r);
	g = check_model(r, true, false);
	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "kernel-expected.tsv:16 declares model REDIRECTED, kernel CRASHED for "
			"UAF_* modern/*/*, but no pair of " LINUX "'s and the model's cells is such a cell");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

static void check_kernel_missing_coverage(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = load_ok(DATA("gate.json"));
	char err[512];

	if (th_results_set_expectations(r, "k.tsv", th_expect_sha256(), err, sizeof(err)))
		fail_msg("%s", err);
	add_platform(r, LINUX);
	add_kernel_cell(r, LINUX, WCR4, "kcfi", TH_BLOCKED_CFI);
	add_kernel_cell(r, LINUX, WCR4, "none", TH_CRASHED);
	add_kernel_cell(r, LINUX, NONE_A, "none", TH_NO_EFFECT);
	judge(r);
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "missing: " NONE_A " modern/kcfi/clang-22 on " LINUX ": declared "
			"NO_EFFECT, not in the results (coverage lost)\n");
	assert_contains(g.out, ", 1 missing");
	run_free(&g);
	th_results_free(r);

	/* A platform declared, none of its cells there. */
	r = load_ok(DATA("gate.json"));
	if (th_results_set_expectations(r, "k.tsv", th_expect_sha256(), err, sizeof(err)))
		fail_msg("%s", err);
	add_platform(r, LINUX);
	judge(r);
	g = check_model(r, true, false);
	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "missing: every cell of " LINUX ": the results declare the platform but "
			"hold none of its 4 planned cells");
	run_free(&g);
	th_results_free(r);

	/* The baseline had the kernel's cells; the results lost the platform. */
	r = kernel_results();
	judge(r);
	const char *base = tmp("base.json");

	if (th_results_write(r, base, err, sizeof(err)))
		fail_msg("%s", err);
	th_results_free(r);
	r = load_ok(DATA("gate.json"));
	if (th_results_set_expectations(r, "k.tsv", th_expect_sha256(), err, sizeof(err)))
		fail_msg("%s", err);
	judge(r);
	const char *res = tmp("lost.json");

	if (th_results_write(r, res, err, sizeof(err)))
		fail_msg("%s", err);
	g = check_file(res, base, true, false);
	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "missing: " WCR4 " modern/none/clang-22 on " LINUX ": baseline CRASHED, "
			"not in the results (coverage lost)");
	assert_contains(g.out, ", 4 missing");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

static void check_kernel_doctored_agreement(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();

	judge(r);
	/* A stored row that says they agree. */
	for (size_t i = 0; i < r->nagreement; i++) {
		if (r->agreement[i].agrees)
			continue;
		r->agreement[i].kernel = r->agreement[i].model;
		r->agreement[i].agrees = true;
		free(r->agreement[i].reason);
		free(r->agreement[i].rule);
		r->agreement[i].reason = r->agreement[i].rule = NULL;
	}
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, "doctored: agreement: " WCR4 " modern/none/clang-22 on " LINUX ": stored "
			"model REDIRECTED, kernel REDIRECTED (agree), the cells say model REDIRECTED, "
			"kernel CRASHED\n");
	run_free(&g);
	/* No agreement stored at all. */
	r->has_agreement = false;
	g = check_model(r, true, false);
	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, "doctored: agreement: not in the results, though 4 pairs");
	run_free(&g);
	th_results_free(r);

	/* Stored before the difference was declared: another declaration. */
	r = kernel_results();
	char err[512];

	judge(r);
	assert_int_equal(th_results_set_agreement(r, NULL, NULL, err, sizeof(err)), 0);
	for (size_t i = 0; i < r->nagreement; i++) {
		free(r->agreement[i].reason);
		free(r->agreement[i].rule);
		r->agreement[i].reason = r->agreement[i].rule = NULL;
	}
	g = check_model(r, true, false);
	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, ": stored declaration none, declared ");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

static void check_kernel_rules(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();
	struct th_cell *c = th_results_find_cell(r, LINUX, NONE_A, TH_VARIANT_MODERN, "none", "clang-22");

	/* More severe than the platform's own rule. */
	c->counts[TH_NO_EFFECT] = 0;
	c->counts[TH_CRASHED] = 1;
	c->outcome = TH_CRASHED;
	judge(r);
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_REGRESSION);
	assert_contains(g.out, "regression: " NONE_A " modern/none/clang-22 on " LINUX ": expected "
			"NO_EFFECT, observed CRASHED");
	run_free(&g);
	th_results_free(r);
	th_expect_free();

	/* No rule of the platform: new, listed (and the difference stands). */
	load_expect(expect_file("@platform linux-*\n"));
	r = kernel_results();
	add_kernel_cell(r, LINUX, DATA_A, "none", TH_NOT_APPLICABLE);
	/* DATA_A is not in the kernel's plan: unplanned. */
	judge(r);
	g = check_model(r, true, false);
	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, "unplanned: " DATA_A " modern/none/clang-22 on " LINUX ": not an attack "
			"of the kernel plan\n");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

/* A real kernel's cell is of the variant its family has on the planned
 * kernels (attacks/kernel_plan.h: the timer's modern, the tasklet's
 * transitional); another variant of a planned attack is outside the plan. */
static void check_kernel_variant(void **state)
{
	char err[512];

	(void)state;
	load_expect(expect_file("@platform linux-*\n"));
	struct th_results *r = kernel_results();
	struct th_cell_in in = {
		.attack = WCR4, .technique = "memcpy-intra", .timing = "before-arm",
		.payload = "func:write_cr4", .variant = TH_VARIANT_TRANSITIONAL, .config = "kcfi",
		.toolchain = "clang-22", .outcome = TH_BLOCKED_CFI, .runs = 1,
		.evidence = "CFI failure at call_timer_fn+0x47/0xd3 (target: native_write_cr4+0x0/0x7c; "
			    "expected type: 0x91b4a83a)",
		.expected = TH_OUTCOME_INVALID, .seconds = 2.5, .platform = LINUX,
	};

	if (!th_results_add_cell(r, &in, err, sizeof(err)))
		fail_msg("%s", err);
	judge(r);
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, "unplanned: " WCR4 " transitional/kcfi/clang-22 on " LINUX ": not the "
			"variant its family has on the real kernels");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

static void check_kernel_without_plan(void **state)
{
	(void)state;
	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();

	judge(r);
	struct run g = check_model(r, false, false);

	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, "unplanned: the results hold a real kernel's platform but there is no "
			"kernel plan to judge it by (kernel/cells.tsv and kernel/configs/: not given)");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

/* One case; tests/report.cmake registers every TH_CASE line with CTest. */
#define TH_CASE(name) cmocka_unit_test(name)

/* A real kernel's block under a kernel config that builds no check (its
 * .config sets neither CONFIG_CFI_CLANG nor CONFIG_X86_KERNEL_IBT): the CFI
 * line was copied from another cell. */
static void check_kernel_block_without_cfi(void **state)
{
	(void)state;
	char err[512];

	load_expect(expect_file(NULL));
	struct th_results *r = kernel_results();
	struct th_cell *c = th_results_find_cell(r, LINUX, WCR4, TH_VARIANT_MODERN, "none", "clang-22");

	memset(c->counts, 0, sizeof(c->counts));
	c->counts[TH_BLOCKED_CFI] = 1;
	c->outcome = TH_BLOCKED_CFI;
	assert_int_equal(th_cell_set_evidence(c, kernel_proof(TH_BLOCKED_CFI), err, sizeof(err)), 0);
	judge(r);
	struct run g = check_model(r, true, false);

	assert_int_equal(g.rc, TH_CHECK_BAD_INPUT);
	assert_contains(g.out, "doctored: " WCR4 " modern/none/clang-22 on " LINUX ": evidence is a CFI "
			"report, but kernel config none builds no check that stops a call (its .config sets "
			"neither CONFIG_CFI_CLANG nor CONFIG_X86_KERNEL_IBT): CFI failure at call_timer_fn");
	run_free(&g);
	th_results_free(r);
	th_expect_free();
}

/* A file's bytes copied to @dst (made with its folders). */
static void copy_to(const char *src, const char *dst)
{
	char dir[4096], *slash;
	FILE *in = fopen(src, "rb"), *out;
	char buf[65536];
	size_t got;

	snprintf(dir, sizeof(dir), "%s", dst);
	for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
	}
	assert_non_null(in);
	out = fopen(dst, "wb");
	assert_non_null(out);
	while ((got = fread(buf, 1, sizeof(buf), in)))
		assert_int_equal(fwrite(buf, 1, got, out), got);
	fclose(in);
	fclose(out);
}

/* check --consoles (kernel/console.h th_console_recheck()): a real kernel's
 * cell's console log, where timerharness kernel put it, classified again,
 * gives the cell's outcome; a log that gives another, another cell's log,
 * no log, a FIFO where the log should be, or a console of another kernel
 * is refused, said why. */
static void check_consoles_recheck(void **state)
{
#define RK_ATTACK "MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4"
#define RK_LOGS TH_TEST_SOURCE_DIR "/tests/data/kernel/console/"
	char dir[] = "/tmp/th_consoles.XXXXXX", path[4096], why[600];
	struct th_cell c = {
		.attack = (char *)RK_ATTACK, .technique = (char *)"memcpy-intra", .timing = (char *)"pending",
		.payload = (char *)"func:write_cr4", .variant = TH_VARIANT_MODERN, .config = (char *)"kcfi",
		.toolchain = (char *)"clang-22", .outcome = TH_BLOCKED_CFI, .runs = 1,
		.evidence = (char *)"CFI failure at call_timer_fn+0x47/0xd3 (target: native_write_cr4+0x0/0x7c; "
				    "expected type: 0x91b4a83a); console: out/kernel/6.1/kcfi/" RK_ATTACK ".log",
		.platform = (char *)"linux-6.1.192",
	};

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/6.1/kcfi/%s.log", dir, RK_ATTACK);
	copy_to(RK_LOGS "kcfi-" RK_ATTACK ".log", path);
	if (th_console_recheck(dir, &c, why, sizeof(why)))
		fail_msg("the cell's own console: %s", why);

	/* Relabelled: the console says otherwise. */
	c.outcome = TH_HANG;
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, ", classified again, is BLOCKED_CFI, not HANG: CFI failure at call_timer_fn");
	c.outcome = TH_BLOCKED_CFI;

	/* Another cell's console named (the kcfi one for the none cell). */
	c.config = (char *)"none";
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, "is not this cell's (6.1/none/" RK_ATTACK ".log under the consoles)");

	/* Its own path named, but the log there is another cell's. */
	c.evidence = (char *)"CFI failure at x (target: y); console: out/kernel/6.1/none/" RK_ATTACK ".log";
	snprintf(path, sizeof(path), "%s/6.1/none/%s.log", dir, RK_ATTACK);
	copy_to(RK_LOGS "kcfi-" RK_ATTACK ".log", path);
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, "not the console timerharness kernel wrote for " RK_ATTACK " on none");

	/* No log there; a FIFO there (refused at once, never waited on). */
	unlink(path);
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, path);
	unlink(path);

	/* A console of another kernel than the cell's platform. */
	c.config = (char *)"kcfi";
	c.platform = (char *)"linux-6.12.118";
	c.evidence = (char *)"CFI failure at x (target: y); console: out/kernel/6.12/kcfi/" RK_ATTACK ".log";
	snprintf(path, sizeof(path), "%s/6.12/kcfi/%s.log", dir, RK_ATTACK);
	copy_to(RK_LOGS "kcfi-" RK_ATTACK ".log", path);
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, "the console is not of linux-6.12.118 (no \"Linux version 6.12.118 \")");

	/* No console named at all. */
	c.evidence = (char *)"CFI failure at x (target: y)";
	assert_int_equal(th_console_recheck(dir, &c, why, sizeof(why)), -1);
	assert_contains(why, "names no console log");
	unlink(path);
	snprintf(path, sizeof(path), "%s/6.1/kcfi/%s.log", dir, RK_ATTACK);
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
#undef RK_ATTACK
#undef RK_LOGS
}

int main(int argc, char **argv)
{
	const struct CMUnitTest all[] = {
		TH_CASE(platform_round_trip),
		TH_CASE(platform_old_file_is_model),
		TH_CASE(platform_loader_errors),
		TH_CASE(platform_key),
		TH_CASE(agreement_computed),
		TH_CASE(merge_keeps_platforms_apart),
		TH_CASE(replace_platform),
		TH_CASE(renderers_show_platform),
		TH_CASE(output_set_locked),
		TH_CASE(check_kernel_pass),
		TH_CASE(check_model_only_unchanged),
		TH_CASE(check_kernel_undeclared_disagreement),
		TH_CASE(check_kernel_stale_declaration),
		TH_CASE(check_consoles_recheck),
		TH_CASE(check_kernel_block_without_cfi),
		TH_CASE(check_kernel_missing_coverage),
		TH_CASE(check_kernel_doctored_agreement),
		TH_CASE(check_kernel_rules),
		TH_CASE(check_kernel_variant),
		TH_CASE(check_kernel_without_plan),
		TH_CASE(check_kernel_unbacked),
	};
	int rc;

	if (argc > 1) {
		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			if (!strcmp(all[i].name, argv[1])) {
				rc = _cmocka_run_group_tests(argv[1], &all[i], 1, NULL, NULL);
				goto out;
			}
		fprintf(stderr, "no case %s\n", argv[1]);
		return 1;
	}
	rc = cmocka_run_group_tests(all, NULL, NULL);
out:
	if (scratch_made) {
		DIR *d = opendir(scratch);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char p[512];

			snprintf(p, sizeof(p), "%s/%s", scratch, e->d_name);
			if (e->d_name[0] != '.')
				unlink(p);
		}
		if (d)
			closedir(d);
		rmdir(scratch);
	}
	return rc;
}
