/* SPDX-License-Identifier: MIT */
/*
 * The reach section of results.json (results/reach.h): written and read back
 * unchanged, refused where it is inconsistent (each error naming the
 * place), and rendered into report.md / report.html with the answer the
 * entries and cells give. `th-reach-report-test <case>`.
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

#include "results/reach.h"
#include "report/render.h"
#include "results/results.h"

#define assert_contains(hay, needle)                                                 \
	do {                                                                         \
		if (!strstr((hay), (needle)))                                        \
			fail_msg("\"%.3000s\" does not contain \"%s\"", (hay), (needle)); \
	} while (0)
#define assert_lacks(hay, needle)                                                    \
	do {                                                                         \
		if (strstr((hay), (needle)))                                         \
			fail_msg("output contains \"%s\"", (needle));                \
	} while (0)

static char err[2048];

/* A small run: one toolchain, none/cfi-icall, a foreign-callback cell on
 * modern when @cell, and the reach entries of both variants; modern's set
 * holds a callback whose own call reaches write_cr4 when @hop. */
static struct th_results *model(bool hop, bool cell)
{
	struct th_results *r = th_results_create("test");
	struct th_reach_entry *e;

	assert_non_null(r);
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22.1", "/usr/bin/clang-22", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "none", "-O2", "baseline", err, sizeof(err)), 0);
	assert_int_equal(th_results_add_config(r, "cfi-icall", "-fsanitize=cfi-icall", "cfi", err, sizeof(err)), 0);
	if (cell) {
		struct th_cell_in in = {
			.attack = "HEAP_NEIGHBOUR_PENDING_FUNC_FOREIGN_CALLBACK",
			.technique = "heap-neighbour", .timing = "pending",
			.payload = "func:foreign-callback", .variant = TH_VARIANT_MODERN,
			.config = "cfi-icall", .toolchain = "clang-22", .outcome = TH_HIJACKED,
			.runs = 1, .evidence = "target ran: name=write_cr4 chosen=1 val=0x407f0",
			.expected = TH_HIJACKED,
		};

		assert_non_null(th_results_add_cell(r, &in, err, sizeof(err)));
	}
	e = th_reach_add_entry(r, "clang-22", TH_VARIANT_LEGACY, "cfi-icall", "/b/legacy", "call_timer_fn");
	assert_non_null(e);
	assert_int_equal(th_reach_set_text(&e->scheme, "cfi-icall"), 0);
	assert_int_equal(th_reach_set_text(&e->check, "cfi-icall: jump table of _ZTSFvmE"), 0);
	e->functions_total = 35;
	assert_int_equal(th_reach_add_member(e, "prb_retire_rx_blk_timer_expired",
					     "prb_retire_rx_blk_timer_expired.cfi", false, false), 0);
	assert_int_equal(th_reach_add_member(e, "write_cr4", "write_cr4.cfi", true, false), 0);
	assert_int_equal(th_reach_add_member(e, "ring_force_close", "ring_force_close.cfi", false, false), 0);
	e->verify = calloc(1, sizeof(*e->verify));
	assert_non_null(e->verify);
	e->verify->insns = calloc(2, sizeof(*e->verify->insns));
	assert_int_equal(th_reach_set_text(&e->verify->tool, "llvm-cfi-verify-22"), 0);
	e->verify->total = 2;
	e->verify->unprotected = 2;
	e->verify->ours_protected = 1;
	e->verify->ours_switch = 1;
	e->verify->disagreements = 2;
	for (int i = 0; i < 2; i++) {
		struct th_reach_insn_r *in = &e->verify->insns[i];

		in->address = 0x9e5e + (unsigned)i;
		in->disagree = true;
		assert_int_equal(th_reach_set_text(&in->status, i ? "FAIL_BAD_CONDITIONAL_BRANCH"
								: "FAIL_REGISTER_CLOBBERED"), 0);
		assert_int_equal(th_reach_set_text(&in->function, i ? "build" : "call_timer_fn"), 0);
		assert_int_equal(th_reach_set_text(&in->ours, i ? "switch" : "protected"), 0);
		assert_int_equal(th_reach_set_text(&in->why, i ? "the tool counts a switch; binread: a switch"
							       : "the tool stops at a register move; binread: ud1"), 0);
		e->verify->ninsns++;
	}
	e = th_reach_add_entry(r, "clang-22", TH_VARIANT_MODERN, "cfi-icall", "/b/modern", "call_timer_fn");
	assert_non_null(e);
	assert_int_equal(th_reach_set_text(&e->scheme, "cfi-icall"), 0);
	e->functions_total = 34;
	assert_int_equal(th_reach_add_member(e, "prb_retire_rx_blk_timer_expired", NULL, false, false), 0);
	assert_int_equal(th_reach_add_member(e, "foreign_timer_fn", "foreign_timer_fn.cfi", false, false), 0);
	if (hop) {
		assert_int_equal(th_reach_add_hop(e, "foreign_timer_fn", 0x7000, "cfi-icall",
						  "write_cr4, write_cr4_direct", "*(arg0 - 16)"), 0);
		/* A kernel's address (above INT64_MAX: written as a string). */
		assert_int_equal(th_reach_add_use(e, "foreign_timer_fn", 0xffffffff81078278ULL,
						  "wake_up_process(rdi = *(arg0 + 40))", false, ""), 0);
	}
	/* The same switch the tool miscounts, in a second binary. */
	e->verify = calloc(1, sizeof(*e->verify));
	assert_non_null(e->verify);
	e->verify->insns = calloc(1, sizeof(*e->verify->insns));
	assert_int_equal(th_reach_set_text(&e->verify->tool, "llvm-cfi-verify-22"), 0);
	e->verify->total = e->verify->unprotected = e->verify->ours_switch = 1;
	e->verify->disagreements = 1;
	e->verify->insns[0].address = 0x864e;
	e->verify->insns[0].disagree = true;
	assert_int_equal(th_reach_set_text(&e->verify->insns[0].status, "FAIL_BAD_CONDITIONAL_BRANCH"), 0);
	assert_int_equal(th_reach_set_text(&e->verify->insns[0].function, "build"), 0);
	assert_int_equal(th_reach_set_text(&e->verify->insns[0].ours, "switch"), 0);
	assert_int_equal(th_reach_set_text(&e->verify->insns[0].why,
					   "the tool counts a switch; binread: another switch"), 0);
	e->verify->ninsns = 1;
	e = th_reach_add_entry(r, "clang-22", TH_VARIANT_MODERN, "none", "/b/none", "call_timer_fn");
	assert_non_null(e);
	e->functions_total = 1;
	assert_int_equal(th_reach_add_member(e, "write_cr4", NULL, true, false), 0);
	return r;
}

static char *serialise(const struct th_results *r)
{
	char path[] = "/tmp/th-reach-report-XXXXXX", *buf;
	int fd = mkstemp(path);
	FILE *f;
	long n;

	assert_true(fd >= 0);
	close(fd);
	if (th_results_write(r, path, err, sizeof(err)))
		fail_msg("%s", err);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	unlink(path);
	return buf;
}

/* Load @text as a results file. Return: 0, or -1 with err. */
static int load_text(const char *text, struct th_results **out)
{
	char path[] = "/tmp/th-reach-report-XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	rc = th_results_load(path, out, err, sizeof(err));
	unlink(path);
	return rc;
}

static void roundtrip(void **state)
{
	struct th_results *r = model(true, true), *back;
	char *a = serialise(r), *b;
	const struct th_reach_entry *e;

	(void)state;
	assert_contains(a, "\"reach\"");
	if (load_text(a, &back))
		fail_msg("%s", err);
	b = serialise(back);
	assert_string_equal(a, b);
	e = th_reach_find(back, "clang-22", TH_VARIANT_LEGACY, "cfi-icall");
	assert_non_null(e);
	assert_int_equal(e->nmembers, 3);
	assert_int_equal(th_reach_privileged_count(e), 1);
	assert_string_equal(e->members[1].body, "write_cr4.cfi");
	assert_non_null(e->verify);
	assert_int_equal(e->verify->disagreements, 2);
	e = th_reach_find(back, "clang-22", TH_VARIANT_MODERN, "cfi-icall");
	assert_int_equal(e->nhops, 1);
	assert_string_equal(e->hops[0].origin, "*(arg0 - 16)");
	assert_null(e->members[0].body);
	assert_int_equal(e->nuses, 1);
	assert_true(e->uses[0].site == 0xffffffff81078278ULL);
	assert_string_equal(e->uses[0].call, "wake_up_process(rdi = *(arg0 + 40))");
	assert_contains(a, "\"site\": \"0xffffffff81078278\"");
	free(a);
	free(b);
	th_results_free(r);
	th_results_free(back);
}

/* A results file without the section stays valid, and renders no section. */
static void absent(void **state)
{
	struct th_results *r = th_results_create("t"), *back;
	char *a, *md = NULL;
	size_t len;
	FILE *f;

	(void)state;
	assert_int_equal(th_results_add_toolchain(r, "clang-22", "22", "", err, sizeof(err)), 0);
	a = serialise(r);
	assert_lacks(a, "\"reach\"");
	if (load_text(a, &back))
		fail_msg("%s", err);
	assert_null(back->reach);
	f = open_memstream(&md, &len);
	assert_int_equal(th_render_markdown_to(f, back, err, sizeof(err)), 0);
	fclose(f);
	assert_lacks(md, "What the timer dispatch can still call");
	free(md);
	free(a);
	th_results_free(r);
	th_results_free(back);
}

/* Each doctoring of a valid file is refused with the place named. */
static void doctored(void **state)
{
	static const struct {
		const char *from, *to, *error;
	} cases[] = {
		{ "\"count\": 3", "\"count\": 4", "reach[0]: members: expected an array of count (4) members" },
		{ "\"count\": 3", "\"count\": 99", "count 99 exceeds functions_total 35" },
		{ "\"privileged\": [\n        \"write_cr4\"\n      ]", "\"privileged\": []",
		  "reach[0]: privileged: expected the names of the 1 members marked privileged" },
		{ "\"toolchain\": \"clang-22\",\n      \"variant\": \"legacy\"",
		  "\"toolchain\": \"clang-99\",\n      \"variant\": \"legacy\"",
		  "reach[0]: toolchain \"clang-99\" is not declared" },
		{ "\"scheme\": \"cfi-icall\"", "\"scheme\": \"magic\"", "scheme \"magic\" is not" },
		{ "\"unchecked\": false", "\"unchecked\": false, \"extra\": 1",
		  "reach[0].members[0]: unknown field \"extra\"" },
		{ "\"disagreements\": 2", "\"disagreements\": 0", "the counts do not match the instructions" },
		{ "\"origin\": \"*(arg0 - 16)\"", "\"origin\": 16", "reach[2].hops[0]: origin: expected a string" },
		{ "\"site\": \"0xffffffff81078278\"", "\"site\": \"0x12\"",
		  "reach[2].uses[0]: site: expected an integer, or 0x and 16" },
		{ "\"site\": \"0xffffffff81078278\"", "\"site\": \"0x0000000000000012\"",
		  "reach[2].uses[0]: site: expected an integer, or 0x and 16" },
		{ "\"indirect\": false", "\"indirect\": 0", "reach[2].uses[0]: indirect: expected a boolean" },
		{ "\"variant\": \"modern\",\n      \"config\": \"none\"",
		  "\"variant\": \"modern\",\n      \"config\": \"cfi-icall\"", "a second entry for clang-22 modern cfi-icall" },
		/* One entry says its platform: every entry must. */
		{ "\"platform\": \"model\",\n      \"toolchain\"", "\"toolchain\"",
		  "reach[0]: missing field \"platform\"" },
		{ "\"platform\": \"model\",\n      \"toolchain\"", "\"platform\": \"linux-9.9\",\n      \"toolchain\"",
		  "reach[0]: platform: unknown platform \"linux-9.9\" (declare it in platforms; platforms: model)" },
		{ "\"platform\": \"model\",\n      \"toolchain\"", "\"platform\": \"kernel\",\n      \"toolchain\"",
		  "reach[0]: platform: unknown platform \"kernel\" (\"model\" or \"linux-<release>\"" },
		{ "\"platform\": \"model\",\n      \"toolchain\"", "\"platform\": 6,\n      \"toolchain\"",
		  "reach[0]: platform: expected a string" },
	};
	struct th_results *r = model(true, false), *back;
	char *a = serialise(r);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(a, cases[i].from);
		char *d;

		if (!at)
			fail_msg("case %zu: \"%s\" is not in the file:\n%s", i, cases[i].from, a);
		d = calloc(1, strlen(a) + strlen(cases[i].to) + 1);
		memcpy(d, a, (size_t)(at - a));
		strcat(d, cases[i].to);
		strcat(d, at + strlen(cases[i].from));
		back = NULL;
		if (!load_text(d, &back))
			fail_msg("case %zu: doctored file accepted:\n%s", i, d);
		print_message("%s\n", err);
		assert_contains(err, cases[i].error);
		free(d);
	}
	free(a);
	th_results_free(r);
}

static char *render(const struct th_results *r, bool html)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	assert_int_equal(html ? th_render_html_to(f, r, err, sizeof(err))
			      : th_render_markdown_to(f, r, err, sizeof(err)), 0);
	fclose(f);
	return out;
}

/* The question answered from the entries: sizes, write_cr4 among legacy's,
 * and the path one call further with the cell that attacked it. */
static void answer(void **state)
{
	struct th_results *r = model(true, true);
	char *md = render(r, false), *html = render(r, true);

	(void)state;
	assert_contains(md, "## What the timer dispatch can still call");
	assert_contains(md, "legacy under `cfi-icall`: the timer call site can reach 3 functions, "
			    "`write_cr4` among them; modern: 2, none privileged, all of the 4.15 "
			    "callback's type (timer callbacks): `prb_retire_rx_blk_timer_expired`, "
			    "`foreign_timer_fn`");
	assert_contains(md, "Yes, one call further. `foreign_timer_fn`, a callback of the call "
			    "site's own type, is in the modern set under `cfi-icall`; its own indirect "
			    "call takes its target from `*(arg0 - 16)`");
	assert_contains(md, "that call's check admits `write_cr4`. The matrix attacked that path "
			    "(func:foreign-callback): `cfi-icall` **HIJACKED**. Evidence "
			    "(`HEAP_NEIGHBOUR_PENDING_FUNC_FOREIGN_CALLBACK`, `cfi-icall`): target ran: "
			    "name=write\\_cr4 chosen=1 val=0x407f0.");
	assert_contains(md, "| `cfi-icall` | 3 of 35, 1 privileged | - | 2 of 34 |");
	assert_contains(md, "the tool stops at a register move");
	/* Each reason once, whatever binread read in each binary. */
	{
		const char *first = strstr(md, "- the tool counts a switch\n");

		assert_non_null(first);
		assert_null(strstr(first + 1, "- the tool counts a switch\n"));
	}
	/* Beside the matrix: before it. */
	assert_true(strstr(md, "What the timer dispatch") < strstr(md, "## Full matrix"));
	assert_contains(html, "<h2 id=\"reach\">What the timer dispatch can still call</h2>");
	assert_contains(html, "<strong>HIJACKED</strong>");
	assert_true(strstr(html, "id=\"reach\"") < strstr(html, "id=\"matrix\""));
	free(md);
	free(html);
	th_results_free(r);

	/* No hop: said so; a hop but no cell: said so. */
	r = model(false, false);
	md = render(r, false);
	assert_contains(md, "Not through one more call");
	assert_lacks(md, "Yes, one call further");
	free(md);
	th_results_free(r);
	r = model(true, false);
	md = render(r, false);
	assert_contains(md, "`cfi-icall` not run. No cell of this run attacks it under this config.");
	free(md);
	th_results_free(r);
}

/* A copy of @a without any "platform": "model" line (a file of the version
 * before platforms). */
static char *strip_model_platform(const char *a)
{
	static const char pat[] = "\"platform\": \"model\",";
	char *d = calloc(1, strlen(a) + 1), *o = d;

	assert_non_null(d);
	while (*a) {
		if (!strncmp(a, pat, sizeof(pat) - 1)) {
			a += sizeof(pat) - 1;
			while (*a == '\n' || *a == ' ')
				a++;
			continue;
		}
		*o++ = *a++;
	}
	return d;
}

#define KERNEL "linux-6.1.192"

/* model() and a real kernel's entry of the same toolchain, variant and
 * config, on its platform. */
static struct th_results *with_kernel(void)
{
	struct th_platform_in pin = { KERNEL, "Debian linux-source-6.1 6.1.192-3", "clang version 22.1.8",
				      "QEMU emulator version 7.2.15", "max", 1.6 };
	struct th_results *r = model(true, true);
	struct th_reach_entry *e;

	if (th_results_add_platform(r, &pin, err, sizeof(err)) ||
	    th_results_add_platform_config(r, KERNEL, "cfi-icall", "CONFIG_CFI_CLANG=y", err, sizeof(err)))
		fail_msg("%s", err);
	e = th_reach_add_entry_on(r, KERNEL, "clang-22", TH_VARIANT_MODERN, "cfi-icall", "/boot/vmlinux",
				  "call_timer_fn");
	assert_non_null(e);
	assert_int_equal(th_reach_set_text(&e->scheme, "kcfi"), 0);
	assert_int_equal(th_reach_set_text(&e->check, "kcfi 0x3a3e5cbd"), 0);
	e->functions_total = 61234;
	for (int i = 0; i < 28; i++) {
		char name[32];

		snprintf(name, sizeof(name), "timer_fn_%d", i);
		assert_int_equal(th_reach_add_member(e, name, NULL, false, false), 0);
	}
	assert_int_equal(th_reach_add_hop(e, "delayed_work_timer_fn", 0xffffffff81078000ULL, "kcfi",
					  "commit_creds", "*(arg0 - 16)"), 0);
	return r;
}

/* A kernel's entry beside the model's: written with its platform, read back
 * unchanged, each found on its own platform, and named in the reports. */
static void platform(void **state)
{
	struct th_results *r = with_kernel(), *back;
	char *a = serialise(r), *b, *md, *html, *verdict = NULL, *model_md;
	const struct th_reach_entry *e;
	size_t len;
	FILE *f;

	(void)state;
	assert_contains(a, "\"platform\": \"" KERNEL "\",\n      \"toolchain\": \"clang-22\"");
	assert_contains(a, "\"platform\": \"model\",\n      \"toolchain\": \"clang-22\"");
	/* The model's entries first. */
	assert_true(strstr(a, "\"binary\": \"/b/modern\"") < strstr(a, "\"binary\": \"/boot/vmlinux\""));
	if (load_text(a, &back))
		fail_msg("%s", err);
	b = serialise(back);
	assert_string_equal(a, b);
	assert_int_equal(back->reach->n, 4);
	e = th_reach_find_on(back, KERNEL, "clang-22", TH_VARIANT_MODERN, "cfi-icall");
	assert_non_null(e);
	assert_string_equal(e->platform, KERNEL);
	assert_string_equal(e->binary, "/boot/vmlinux");
	assert_int_equal(e->nmembers, 28);
	e = th_reach_find(back, "clang-22", TH_VARIANT_MODERN, "cfi-icall");
	assert_non_null(e);
	assert_string_equal(e->platform, "model");
	assert_string_equal(e->binary, "/b/modern");
	assert_null(th_reach_find_on(back, KERNEL, "clang-22", TH_VARIANT_LEGACY, "cfi-icall"));

	/* The reports name the platform; the model's part is as it was. */
	md = render(back, false);
	html = render(back, true);
	assert_contains(md, "### On real kernels");
	assert_contains(md, "- linux-6.1.192 (real kernel): `call_timer_fn` can reach 28 of 61234 "
			    "functions (clang-22, `cfi-icall`, kcfi), none privileged: `timer_fn_0`, ");
	assert_contains(md, "`delayed_work_timer_fn` calls `*(arg0 - 16)`, which can reach commit\\_creds");
	/* The verdict screen's reach line (in report.md too). */
	assert_contains(md, "  linux-6.1.192 (real kernel): call_timer_fn can reach 28 of 61234 functions\n"
			    "    (clang-22 modern cfi-icall), none privileged\n");
	/* The model's answer still only the model's: modern's set is 2. */
	assert_contains(md, "| `cfi-icall` | 3 of 35, 1 privileged | - | 2 of 34 |");
	assert_contains(html, "<h3 id=\"reach-kernel\">On real kernels</h3>");
	assert_contains(html, "<span class=\"gen\">linux-6.1.192 (real kernel)</span><span class=\"cfg\">"
			      "cfi-icall</span><span class=\"big\">28 of 61234 functions</span>");
	f = open_memstream(&verdict, &len);
	assert_int_equal(th_render_verdict(f, back, 0), 0);
	fclose(f);
	assert_contains(verdict, "linux-6.1.192 (real kernel): call_timer_fn can reach 28 of 61234");
	free(verdict);
	free(md);
	free(html);

	/* Without the kernel's entry the model's reach section is as before. */
	model_md = render(r, false);
	{
		struct th_results *m = model(true, true);
		char *plain = render(m, false);
		const char *x = strstr(plain, "## What the timer dispatch"), *y = strstr(model_md, "## What the timer dispatch");
		const char *xe = strstr(x, "\n## "), *ye = strstr(y, "### On real kernels");

		assert_non_null(xe);
		assert_non_null(ye);
		assert_int_equal(xe - x + 1, ye - y);
		assert_memory_equal(x, y, (size_t)(xe - x));
		free(plain);
		th_results_free(m);
	}
	free(model_md);
	free(a);
	free(b);
	th_results_free(back);
	th_results_free(r);
}

/* A file of the version before platforms (no cell nor entry says one):
 * its entries are the model's. Once its cells say theirs, the entries
 * must too, with the file and the place named. */
static void oldfile(void **state)
{
	struct th_results *r = model(true, true), *back;
	char *a = serialise(r), *old = strip_model_platform(a), *d;
	const char *at;

	(void)state;
	assert_lacks(old, "\"platform\"");
	if (load_text(old, &back))
		fail_msg("%s", err);
	assert_int_equal(back->reach->n, 3);
	for (size_t i = 0; i < back->reach->n; i++)
		assert_string_equal(back->reach->entries[i].platform, TH_PLATFORM_MODEL);
	th_results_free(back);
	/* The cells' platforms back, the entries' not. */
	at = strstr(a, "\"reach\"");
	assert_non_null(at);
	d = calloc(1, strlen(a) + 1);
	memcpy(d, a, (size_t)(at - a));
	free(old);
	old = strip_model_platform(at);
	strcat(d, old);
	back = NULL;
	if (!load_text(d, &back))
		fail_msg("accepted:\n%s", d);
	assert_contains(err, "/tmp/th-reach-report-");
	assert_contains(err, ": reach[0]: missing field \"platform\"");
	free(d);
	free(old);
	free(a);
	th_results_free(r);
}

/* A copy of @a without its "api": "timer" lines (a file from before the
 * tasklet family). */
static char *strip_timer_api(const char *a)
{
	static const char pat[] = "\"api\": \"timer\",";
	char *d = calloc(1, strlen(a) + 1), *o = d;

	assert_non_null(d);
	while (*a) {
		if (!strncmp(a, pat, sizeof(pat) - 1)) {
			a += sizeof(pat) - 1;
			while (*a == '\n' || *a == ' ')
				a++;
			continue;
		}
		*o++ = *a++;
	}
	return d;
}

/* model() and the tasklet's entries of one binary of each generation under
 * cfi-icall (legacy func, transitional callback and func, modern callback),
 * and a real kernel's two calls. */
static struct th_results *with_tasklet(void)
{
	static const struct {
		enum th_variant v;
		const char *site, *platform;
		size_t n;
		bool priv;
	} rows[] = {
		{ TH_VARIANT_LEGACY, "func", NULL, 8, true },
		{ TH_VARIANT_TRANSITIONAL, "func", NULL, 3, true },
		{ TH_VARIANT_TRANSITIONAL, "callback", NULL, 3, false },
		{ TH_VARIANT_MODERN, "callback", NULL, 3, false },
		{ TH_VARIANT_TRANSITIONAL, "callback", KERNEL, 7, false },
		{ TH_VARIANT_TRANSITIONAL, "func", KERNEL, 19, true },
	};
	struct th_platform_in pin = { KERNEL, "Debian linux-source-6.1 6.1.192-3", "clang version 22.1.8",
				      "QEMU emulator version 7.2.15", "max", 1.6 };
	struct th_results *r = model(true, true);

	if (th_results_add_platform(r, &pin, err, sizeof(err)) ||
	    th_results_add_platform_config(r, KERNEL, "cfi-icall", "CONFIG_CFI_CLANG=y", err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct th_reach_entry *e = th_reach_add_entry_on(r, rows[i].platform, "clang-22", rows[i].v,
								 "cfi-icall", "/b/t", "tasklet_action_common");

		assert_non_null(e);
		assert_int_equal(th_reach_set_site(e, TH_API_TASKLET, rows[i].site), 0);
		assert_int_equal(th_reach_set_text(&e->scheme, "cfi-icall"), 0);
		e->functions_total = 80;
		for (size_t k = 0; k < rows[i].n; k++) {
			char name[32];

			snprintf(name, sizeof(name), "%s_fn_%zu", rows[i].site, k);
			assert_int_equal(th_reach_add_member(e, k || !rows[i].priv ? name :
							     rows[i].platform ? "native_write_cr4" : "write_cr4",
							     NULL, k == 0 && rows[i].priv, false), 0);
		}
	}
	return r;
}

/* The tasklet's entries: each names its family and call, is written and
 * read back unchanged, found by its key beside the timer's of the same
 * toolchain, variant and config; a file without api reads as the timer's;
 * doctored family or call refused; its own section in the reports, and
 * the timer's answer untouched by it. */
static void tasklet(void **state)
{
	static const struct {
		const char *from, *to, *error;
	} cases[] = {
		{ "\"api\": \"tasklet\",\n      \"site\": \"func\"", "\"api\": \"hrtimer\",\n      \"site\": \"func\"",
		  "api: \"hrtimer\" is not one of timer, tasklet" },
		{ "\"api\": \"tasklet\",\n      \"site\": \"func\"", "\"api\": \"timer\",\n      \"site\": \"func\"",
		  "function: \"tasklet_action_common\" is not the timer family's dispatch (call_timer_fn)" },
		{ "\"site\": \"func\"", "\"site\": \"fn\"", "site: \"fn\" is not func or callback" },
		{ "\"site\": \"callback\"", "\"site\": \"func\"", "a second entry for tasklet func clang-22" },
		/* The schemes are the binary reader's (binread/cfi_scheme.h). */
		{ "\"scheme\": \"cfi-icall\"", "\"scheme\": \"fineibt\"",
		  "scheme \"fineibt\" is not none, cfi-icall, kcfi, function or unknown" },
	};
	struct th_results *r = with_tasklet(), *back;
	char *a = serialise(r), *b, *old, *md, *html;
	const struct th_reach_entry *e, *t;

	(void)state;
	assert_contains(a, "\"function\": \"tasklet_action_common\",\n      \"api\": \"tasklet\",\n      \"site\": \"func\"");
	assert_contains(a, "\"function\": \"call_timer_fn\",\n      \"api\": \"timer\",\n      \"scheme\"");
	if (load_text(a, &back))
		fail_msg("%s", err);
	b = serialise(back);
	assert_string_equal(a, b);
	free(b);
	assert_int_equal(back->reach->n, 3 + 6);
	e = th_reach_find_site(back, NULL, TH_API_TASKLET, "func", "clang-22", TH_VARIANT_TRANSITIONAL,
			       "cfi-icall");
	assert_non_null(e);
	assert_int_equal(e->nmembers, 3);
	assert_string_equal(th_reach_member_name(&e->members[0]), "write_cr4");
	assert_non_null(th_reach_find_site(back, KERNEL, TH_API_TASKLET, "callback", "clang-22",
					   TH_VARIANT_TRANSITIONAL, "cfi-icall"));
	assert_null(th_reach_find_site(back, NULL, TH_API_TASKLET, NULL, "clang-22", TH_VARIANT_TRANSITIONAL,
				       "cfi-icall"));
	/* The timer's entry of the same key is the timer's. */
	t = th_reach_find(back, "clang-22", TH_VARIANT_MODERN, "cfi-icall");
	assert_non_null(t);
	assert_int_equal(t->api, TH_API_TIMER);
	assert_null(t->site);
	th_results_free(back);
	/* A file without api: every entry the timer's. */
	old = strip_timer_api(serialise(model(true, true)));
	assert_lacks(old, "\"api\"");
	if (load_text(old, &back))
		fail_msg("%s", err);
	for (size_t i = 0; i < back->reach->n; i++)
		assert_int_equal(back->reach->entries[i].api, TH_API_TIMER);
	th_results_free(back);
	free(old);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(a, cases[i].from);
		char *d;

		if (!at)
			fail_msg("case %zu: \"%s\" is not in the file:\n%s", i, cases[i].from, a);
		d = calloc(1, strlen(a) + strlen(cases[i].to) + 1);
		memcpy(d, a, (size_t)(at - a));
		strcat(d, cases[i].to);
		strcat(d, at + strlen(cases[i].from));
		back = NULL;
		if (!load_text(d, &back))
			fail_msg("case %zu: doctored file accepted:\n%s", i, d);
		print_message("%s\n", err);
		assert_contains(err, cases[i].error);
		free(d);
	}
	md = render(r, false);
	html = render(r, true);
	/* The timer's section as before; the tasklet's after it, its own. */
	assert_contains(md, "## What the timer dispatch can still call");
	assert_contains(md, "## What the tasklet dispatch can still call");
	assert_true(strstr(md, "## What the timer dispatch") < strstr(md, "## What the tasklet dispatch"));
	assert_contains(md, "| config | clang-22 legacy func | clang-22 transitional callback | "
			    "clang-22 transitional func | clang-22 modern callback |");
	assert_contains(md, "| `cfi-icall` | 8 of 80, 1 privileged | 3 of 80 | 3 of 80, 1 privileged | 3 of 80 |");
	assert_contains(md, "clang-22 transitional `func` `cfi-icall`: **`write_cr4`**, `func_fn_1`, `func_fn_2`");
	assert_contains(md, "linux-6.1.192 (real kernel): `tasklet_action_common`'s `func` call can reach "
			    "19 of 80 functions");
	assert_contains(html, "<h2 id=\"reach-tasklet\">");
	/* The timer's answer reads the timer's entries only. */
	assert_lacks(md, "callback_fn_0`, a callback of the call site's own type");
	free(md);
	free(html);
	free(a);
	th_results_free(r);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} cases[] = {
		{ "roundtrip", roundtrip }, { "absent", absent }, { "doctored", doctored },
		{ "answer", answer }, { "platform", platform }, { "oldfile", oldfile },
		{ "tasklet", tasklet },
	};

	for (size_t i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(argv[1], cases[i].name)) {
			const struct CMUnitTest t[] = { { cases[i].name, cases[i].fn, NULL, NULL, NULL } };

			return cmocka_run_group_tests_name(cases[i].name, t, NULL, NULL);
		}
	fprintf(stderr, "usage: %s roundtrip|absent|doctored|answer|platform|oldfile|tasklet\n", argv[0]);
	return 2;
}
