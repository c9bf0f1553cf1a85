/* SPDX-License-Identifier: MIT */
/*
 * `timerharness check`: options, and the declaration the gate judges by,
 * taken from this checkout: the expectations file (attacks/expected.tsv or
 * --expect), the attack registry and the configs (cfi/configs.tsv). The
 * results file only says what was observed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "registry.h"
#include "config_table.h"
#include "check.h"
#include "check_json.h"
#include "cli.h"
#include "expect.h"
#include "kernel_plan.h"
#include "lib/fs.h"
#include "kernel/console.h"
#include "matrix.h"
#include "paths.h"
#ifdef TH_HAVE_FUZZ
#include "check_fuzz.h"
#include "fuzz_summary.h"
#endif
#include <sys/stat.h>
#include <unistd.h>

static void check_usage(const char *expect, const char *kernel, const char *fuzz_expect,
			const char *fuzz_plan, const char *build_root)
{
	(void)fuzz_expect;
	(void)fuzz_plan;
	(void)build_root;
	printf("usage: timerharness check [--results FILE] [--baseline FILE] [--expect FILE]\n"
	       "                          [--kernel DIR] [--consoles DIR] [--allow-slice]\n"
	       "                          [--allow-partial] [--verbose] [--json]\n"
	       "\n"
	       "Judges a results file by the declaration of this checkout, never by what the\n"
	       "file says of itself: each cell's expectation is looked up in the expectations\n"
	       "file, and the plan (every attack of the registry x variant x config of\n"
	       "cfi/configs.tsv x toolchain of the results) must be there in full.\n"
	       "  --results        the results to judge (default " TH_CHECK_DEFAULT_RESULTS ")\n"
	       "  --baseline       an earlier results.json: a cell more severe than there, or\n"
	       "                   gone, regressed\n"
	       "  --expect         the declared expectations: the model's rules, each real\n"
	       "                   kernel's (@platform GLOB) and their declared\n"
	       "                   differences (@differs)\n"
	       "                   (default %s)\n"
	       "  --kernel         the real kernel's plan, DIR/cells.tsv x\n"
	       "                   DIR/configs/*.config: every linux-* platform of the\n"
	       "                   results must hold all of it\n"
	       "                   (default %s)\n"
	       "  --consoles       the real kernel's console logs (timerharness kernel's\n"
	       "                   OUT/kernel): each linux-* cell's log, the one its\n"
	       "                   evidence names, must be there and classify again to\n"
	       "                   the cell's outcome (default: kernel/ beside the\n"
	       "                   results, when it is there; 'none' skips them)\n"
	       "  --allow-slice    judge a run of part of the plan (matrix --config, --variant,\n"
	       "                   --toolchain, --attack) by its recorded selection\n"
	       "  --allow-partial  accept an interrupted run (its missing cells are listed)\n"
#ifdef TH_HAVE_FUZZ
	       "  --fuzz           a campaign summary to gate too (default: fuzz.json beside\n"
	       "                   the results, when it exists; 'none' skips it)\n"
	       "  --fuzz-expect    the campaigns' declared findings\n"
	       "                   (default %s)\n"
	       "  --fuzz-plan      the campaigns a run must hold\n"
	       "                   (default %s)\n"
	       "  --build-root     the builds whose toolchains the campaigns may name (their\n"
	       "                   fuzz-manifest.tsv)\n"
	       "                   (default %s)\n"
	       "  --fuzz-only FILE judge a campaign summary alone (no results file)\n"
	       "  --fuzz-no-replay judge the campaigns without replaying each finding's\n"
	       "                   reproducer with the binary that ran it (no build here);\n"
	       "                   said on the output; without it a finding that cannot be\n"
	       "                   replayed is bad input\n"
	       "  --fuzz-allow-slice  judge campaigns run for part of the plan (fuzz --variant,\n"
	       "                   --config, --toolchain) by their selection, the results as\n"
	       "                   without it; needless for a slice its run planned (fuzz\n"
	       "                   --slice: make demo's and make fuzz's) (--allow-slice\n"
	       "                   allows both)\n"
#endif
	       "  --verbose        list every improvement (a cell less severe than declared,\n"
	       "                   or than every outcome of its declared set) and every\n"
	       "                   declared campaign finding; without it they are counted\n"
	       "  --json           the answer as data on standard output instead of lines:\n"
	       "                   the status, each gate's counts, and every finding (each\n"
	       "                   regression, improvement, new, missing, stale or doctored\n"
	       "                   cell, each campaign's) with its text; schema\n"
	       "                   docs/schema/check.schema.json; the same exit status\n"
	       "Output: one line per finding (new cells, improvements with --verbose, then\n"
	       "regressions, harness errors, missing cells, lost defences, doctored cells),\n"
	       "the counts, and last the answer: check: PASS|FAIL|BAD INPUT|HARNESS ERROR\n"
	       "(--fuzz-only too). A cell passes when its outcome is the declared one, or\n"
	       "one of a probabilistic cell's declared set (HIJACKED|CRASHED).\n"
	       "Exit: 0 every planned cell is there and none regressed;\n"
	       "      1 a regression: a cell more severe than declared or than the baseline, a\n"
	       "        new FALSE_POSITIVE, UNSUPPORTED/NOT_APPLICABLE where a real outcome is\n"
	       "        declared or was observed, a defence probed unsupported, a planned or\n"
	       "        baseline cell missing (a real kernel's plan too), a real kernel's cell\n"
	       "        that differs from the model's undeclared, a stale @differs row, a slice\n"
	       "        or a partial run not allowed;\n"
	       "      2 bad input: unreadable or invalid results, no cells, no recorded\n"
	       "        expectations or selection, expectations other than the declared ones\n"
	       "        (by SHA-256), a stored expectation or agreement that is not the one\n"
	       "        declared and observed, a cell whose outcome no run backs (no run,\n"
	       "        counts that are not its runs, an outcome none of its counts is, no\n"
	       "        evidence; but UNSUPPORTED and NOT_APPLICABLE) or whose evidence is\n"
	       "        not that outcome's proof in its classifier's words, a real kernel's\n"
	       "        console log missing or classifying otherwise, a cell outside the\n"
	       "        plan, a real kernel's cells without a readable kernel plan, a bad\n"
	       "        option, a path that is not the file or directory it names (a FIFO,\n"
	       "        /dev/zero), or standard output unwritable;\n"
	       "      3 a harness error: a cell the harness could not run or observe.\n"
	       "When several apply: 2, then 1, then 3.\n", expect, kernel
#ifdef TH_HAVE_FUZZ
	       , fuzz_expect, fuzz_plan, build_root
#endif
	       );
}

#ifdef TH_HAVE_FUZZ
/* The campaigns too (report/check_fuzz.h), the two statuses combined in
 * check.h's order: bad input, then regression, then harness error. */
/* The campaign summary to gate beside the results: --fuzz, or fuzz.json
 * beside them when it is there; NULL for none. */
static const char *fuzz_summary(const struct th_check_opts *o, const char *fuzz, char *beside,
				size_t n)
{
	if (fuzz && !strcmp(fuzz, "none"))
		return NULL;
	if (fuzz)
		return fuzz;
	fuzz = th_fz_summary_beside(o->results ? o->results : TH_CHECK_DEFAULT_RESULTS, beside, n);
	return access(fuzz, F_OK) ? NULL : fuzz;
}

/* The campaigns' gate; with cj (--json) its lines and counts become data. */
static int fuzz_gate(struct th_check_fuzz_opts *fo, struct th_check_json *cj, FILE *err)
{
	struct th_check_fuzz_counts k;
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int frc;

	if (!cj)
		return th_check_fuzz_main(fo, stdout, err);
	if (!(m = open_memstream(&text, &len))) {
		fputs("check: out of memory\n", err);
		return TH_CHECK_BAD_INPUT;
	}
	memset(&k, 0xff, sizeof(k));
	fo->counts = &k;
	/* Every declared finding listed as data too. */
	fo->verbose = true;
	frc = th_check_fuzz_main(fo, m, err);
	fclose(m);
	th_check_json_fuzz(cj, fo->fuzz, fo->expect, fo->plan, frc, k.campaigns == ~0u ? NULL : &k,
			   text);
	free(text);
	return frc;
}

/* --fuzz-no-replay: the findings' reproducers are not replayed. */
static bool fuzz_no_replay;

static int check_fuzz(int rc, const struct th_check_opts *o, const char *fuzz, const char *fuzz_expect,
		      const char *fuzz_plan, const char *build_root, bool fuzz_allow_slice,
		      struct th_check_json *cj, FILE *err)
{
	struct th_check_fuzz_opts fo = { .expect = fuzz_expect, .plan = fuzz_plan,
					 .build_root = build_root,
					 .allow_slice = o->allow_slice || fuzz_allow_slice,
					 .allow_partial = o->allow_partial, .verbose = o->verbose,
					 .beside = true, .no_replay = fuzz_no_replay };
	int frc;

	if (!fuzz)
		return rc;
	fo.fuzz = fuzz;
	frc = fuzz_gate(&fo, cj, err);
	if (rc == TH_CHECK_BAD_INPUT || frc == TH_CHECK_BAD_INPUT)
		return TH_CHECK_BAD_INPUT;
	if (rc == TH_CHECK_REGRESSION || frc == TH_CHECK_REGRESSION)
		return TH_CHECK_REGRESSION;
	return rc ? rc : frc;
}
#endif

/* Each path option given (or its default) that is there is of the kind it
 * names (args.h's th_optpath); the fuzz options NULL when not given.
 * Return: 0, or -1 when one was said. */
static int optpaths(FILE *err, const struct th_check_opts *o, const char *expect,
		    const char *kernel, const char *fuzz, const char *fuzz_only,
		    const char *fuzz_expect, const char *fuzz_plan, const char *build_root,
		    const char *consoles)
{
	const struct { const char *name, *path; enum th_optpath_kind kind; } a[] = {
		{ "--results", fuzz_only ? NULL : o->results ? o->results : TH_CHECK_DEFAULT_RESULTS,
		  TH_OPT_FILE },
		{ "--baseline", o->baseline, TH_OPT_FILE },
		{ "--expect", fuzz_only ? NULL : expect, TH_OPT_FILE },
		{ "--kernel", fuzz_only ? NULL : kernel, TH_OPT_DIR },
		{ "--consoles", fuzz_only || (consoles && !strcmp(consoles, "none")) ? NULL : consoles,
		  TH_OPT_DIR },
		{ "--fuzz", fuzz && strcmp(fuzz, "none") ? fuzz : NULL, TH_OPT_FILE },
		{ "--fuzz-only", fuzz_only, TH_OPT_FILE },
		{ "--fuzz-expect", fuzz_expect, TH_OPT_FILE },
		{ "--fuzz-plan", fuzz_plan, TH_OPT_FILE },
		{ "--build-root", build_root, TH_OPT_DIR },
	};

	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		if (a[i].path && th_optpath(err, "check", a[i].name, a[i].path, a[i].kind))
			return -1;
	return 0;
}

/* Does DIR/configs/<name>.config (the kernel plan's, @cells_path
 * DIR/cells.tsv) build a check that stops a call: CONFIG_CFI_CLANG=y or
 * CONFIG_X86_KERNEL_IBT=y? Unreadable: yes (not judged). */
static bool kernel_config_cfi(const char *cells_path, const char *name)
{
	const char *slash = strrchr(cells_path, '/'), *why;
	char path[4096], line[512];
	bool cfi = false;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s/configs/%s.config", slash ? (int)(slash - cells_path) : 1,
		 slash ? cells_path : ".", name);
	if (!(f = th_fopen_read(path, "r", &why)))
		return true;
	while (!cfi && fgets(line, sizeof(line), f))
		cfi = !strncmp(line, "CONFIG_CFI_CLANG=y", 18) || !strncmp(line, "CONFIG_X86_KERNEL_IBT=y", 23);
	fclose(f);
	return cfi;
}

/* check.h's kernel_config_on over the plan's kernel/kernels.tsv. */
static bool kernel_config_on(const void *arg, const char *platform, const char *config)
{
	return th_kernel_plan_config_on(arg, platform, config);
}

int th_cli_check(int argc, char **argv)
{
	struct th_check_opts o = { 0 };
	struct th_paths p;
	const char *expect, *kernel, *v, *consoles = NULL;
	char consoles_beside[4096];
	struct th_kernel_plan kp;
	char kerr[1024];
#ifdef TH_HAVE_FUZZ
	const char *fuzz = NULL, *fuzz_expect = NULL, *fuzz_only = NULL;
	const char *fuzz_plan = NULL, *build_root;
	bool fuzz_allow_slice = false;
#endif
	const char **attacks, **attack_apis, **configs, **cflags;
	bool *kcfi = NULL;
	char err[1024];
	int bad = 0, rc;
	bool json = false;

	if (th_paths_get(&p))
		return TH_CHECK_BAD_INPUT;
	expect = p.expect;
	kernel = p.kernel;
#ifdef TH_HAVE_FUZZ
	fuzz_expect = p.fuzz_expect;
	fuzz_plan = p.fuzz_plan;
	build_root = p.build_root;
#endif
	for (int i = 1; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "-h") || th_optname(argv[i], "--help", false)) {
			check_usage(p.expect, p.kernel, p.fuzz_expect, p.fuzz_plan, p.build_root);
			return fflush(stdout) ? TH_CHECK_BAD_INPUT : TH_CHECK_OK;
		} else if ((v = th_optval(argc, argv, &i, "check", "--results", &bad))) {
			o.results = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--baseline", &bad))) {
			o.baseline = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--expect", &bad))) {
			expect = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--kernel", &bad))) {
			kernel = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--consoles", &bad))) {
			consoles = v;
#ifdef TH_HAVE_FUZZ
		} else if ((v = th_optval(argc, argv, &i, "check", "--fuzz", &bad))) {
			fuzz = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--fuzz-expect", &bad))) {
			fuzz_expect = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--fuzz-only", &bad))) {
			fuzz_only = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--fuzz-plan", &bad))) {
			fuzz_plan = v;
		} else if ((v = th_optval(argc, argv, &i, "check", "--build-root", &bad))) {
			build_root = v;
#endif
		} else if (bad) {
			break;
		} else if (th_optname(argv[i], "--allow-slice", false)) {
			o.allow_slice = true;
#ifdef TH_HAVE_FUZZ
		} else if (th_optname(argv[i], "--fuzz-allow-slice", false)) {
			fuzz_allow_slice = true;
		} else if (th_optname(argv[i], "--fuzz-no-replay", false)) {
			fuzz_no_replay = true;
#endif
		} else if (th_optname(argv[i], "--allow-partial", false)) {
			o.allow_partial = true;
		} else if (th_optname(argv[i], "--verbose", false) || !strcmp(argv[i], "-v")) {
			o.verbose = true;
		} else if (th_optname(argv[i], "--json", false)) {
			json = true;
		} else {
			fprintf(stderr, "timerharness check: unknown argument '%s' (see --help)\n", argv[i]);
			return TH_CHECK_BAD_INPUT;
		}
	}
	if (bad || th_paths_installed_ok(&p, expect, "check"))
		return TH_CHECK_BAD_INPUT;

	/* --json: the lines go nowhere, the errors to standard error and into
	 * the document, which is all standard output gets. */
	struct th_check_json *cj = NULL;
	char *sinkbuf = NULL, *errbuf = NULL;
	size_t sinklen = 0, errlen = 0;
	FILE *out = stdout, *errf = stderr;

	if (json) {
		cj = th_check_json_create();
		out = open_memstream(&sinkbuf, &sinklen);
		errf = open_memstream(&errbuf, &errlen);
		if (!cj || !out || !errf) {
			fputs("check: out of memory\n", stderr);
			if (out)
				fclose(out);
			if (errf)
				fclose(errf);
			free(sinkbuf);
			free(errbuf);
			return TH_CHECK_BAD_INPUT;
		}
	}
	attacks = NULL;
	attack_apis = NULL;
	configs = NULL;
	cflags = NULL;
	memset(&kp, 0, sizeof(kp));
	/* Never read what would block or never end (a FIFO, /dev/zero): said
	 * with the option's name, bad input. */
#ifdef TH_HAVE_FUZZ
	rc = optpaths(errf, &o, expect, kernel, fuzz, fuzz_only, fuzz_expect, fuzz_plan, build_root,
		      consoles);
#else
	rc = optpaths(errf, &o, expect, kernel, NULL, NULL, NULL, NULL, NULL, consoles);
#endif
	/* The real kernel's consoles: --consoles, or the kernel/ folder
	 * beside the results (timerharness kernel --out writes it there). */
	if (!consoles) {
		const char *res = o.results ? o.results : TH_CHECK_DEFAULT_RESULTS;
		const char *slash = strrchr(res, '/');
		struct stat st;

		snprintf(consoles_beside, sizeof(consoles_beside), "%.*skernel",
			 slash ? (int)(slash - res + 1) : 0, res);
		if (!stat(consoles_beside, &st) && S_ISDIR(st.st_mode))
			consoles = consoles_beside;
	}
	if (consoles && strcmp(consoles, "none")) {
		o.console_recheck = th_console_recheck;
		o.console_arg = (void *)consoles;
	}
	if (rc) {
		rc = TH_CHECK_BAD_INPUT;
		goto done;
	}
#ifdef TH_HAVE_FUZZ
	if (fuzz_only) {
		struct th_check_fuzz_opts fo = { .fuzz = fuzz_only, .expect = fuzz_expect,
						 .plan = fuzz_plan, .build_root = build_root,
						 .allow_slice = o.allow_slice || fuzz_allow_slice,
						 .allow_partial = o.allow_partial, .verbose = o.verbose,
						 .no_replay = fuzz_no_replay };
		char what[4200];

		rc = fuzz_gate(&fo, cj, errf);
		/* The answer, last, as the results' check gives it. */
		snprintf(what, sizeof(what), "the campaigns of %s", fuzz_only);
		th_check_answer(out, rc, what, fuzz_expect, NULL, NULL);
		goto done;
	}
#endif
	if (th_expect_load(expect, err, sizeof(err))) {
		fprintf(errf, "check: expectations: %s\n", err);
		rc = TH_CHECK_BAD_INPUT;
		goto done;
	}
	attacks = calloc(th_attack_count + 1, sizeof(*attacks));
	attack_apis = calloc(th_attack_count + 1, sizeof(*attack_apis));
	configs = calloc(th_config_count + 1, sizeof(*configs));
	cflags = calloc(th_config_count + 1, sizeof(*cflags));
	if (!attacks || !attack_apis || !configs || !cflags) {
		fprintf(errf, "check: out of memory\n");
		rc = TH_CHECK_BAD_INPUT;
		goto done;
	}
	for (size_t i = 0; i < th_attack_count; i++) {
		attacks[i] = th_attacks[i].id;
		attack_apis[i] = th_technique_api(th_attacks[i].technique);
	}
	for (size_t i = 0; i < th_config_count; i++) {
		configs[i] = th_configs[i].name;
		cflags[i] = th_configs[i].cflags;
	}
	/* Read now, needed only when the results hold a real kernel's cells
	 * (check says then why it could not be read). */
	if (th_kernel_plan_load(kernel, &kp, kerr, sizeof(kerr)))
		memset(&kp, 0, sizeof(kp));
	if (kp.nconfigs && (kcfi = calloc(kp.nconfigs, sizeof(*kcfi))))
		for (size_t i = 0; i < kp.nconfigs; i++)
			kcfi[i] = kernel_config_cfi(kp.cells_path, kp.configs[i]);

	struct th_check_decl d = {
		.expect_path = th_expect_path(), .expect_sha256 = th_expect_sha256(),
		.expect = th_expect_outcome_on, .where = th_expect_where_on,
		.attacks = attacks, .nattacks = th_attack_count, .attack_apis = attack_apis,
		.configs = configs, .nconfigs = th_config_count, .config_cflags = cflags,
		.selftests = th_matrix_selftests, .nselftests = th_matrix_nselftests,
		.differs = th_expect_differs, .ndifferences = th_expect_difference_count(),
		.difference = th_expect_difference, .difference_on = th_expect_difference_on,
		.kernel_attacks = kp.attacks, .nkernel_attacks = kp.ncells,
		.kernel_variants = kp.variants,
		.kernel_configs = kp.configs, .nkernel_configs = kp.nconfigs,
		.kernel_config_on = kernel_config_on, .kernel_config_arg = &kp,
		.kernel_plan = kp.cells_path, .kernel_plan_error = kp.ncells ? NULL : kerr,
		.kernel_config_cfi = kcfi,
	};
	if (cj)
		o.json = th_check_json_results(cj, o.results ? o.results : TH_CHECK_DEFAULT_RESULTS,
					       th_expect_path(), th_expect_sha256(), o.baseline);
#ifdef TH_HAVE_FUZZ
	char beside[4096], more[4200] = "";

	fuzz = fuzz_summary(&o, fuzz, beside, sizeof(beside));
	/* Both judged, then one answer, last. */
	o.defer_answer = fuzz != NULL;
	rc = th_check_main(&o, &d, out, errf);
	if (cj)
		th_check_json_results_exit(cj, rc);
	if (fuzz) {
		if (rc != TH_CHECK_BAD_INPUT)
			rc = check_fuzz(rc, &o, fuzz, fuzz_expect, fuzz_plan, build_root, fuzz_allow_slice,
					cj, errf);
		char cwd[4096];

		snprintf(more, sizeof(more), "and the campaigns of %s by %s", fuzz,
			 th_check_shorter_path(fuzz_expect, cwd, sizeof(cwd)));
		th_check_answer(out, rc, o.results ? o.results : TH_CHECK_DEFAULT_RESULTS,
				th_expect_path(), o.baseline, more);
	}
#else
	rc = th_check_main(&o, &d, out, errf);
	if (cj)
		th_check_json_results_exit(cj, rc);
#endif
done:
	if (fflush(out))
		rc = TH_CHECK_BAD_INPUT;
	if (cj) {
		fclose(out);
		fclose(errf);
		free(sinkbuf);
		fputs(errbuf ? errbuf : "", stderr);
		th_check_json_errors(cj, errbuf);
		free(errbuf);
		if (th_check_json_write(cj, rc, stdout)) {
			fputs("check: cannot write the JSON answer on standard output\n", stderr);
			rc = TH_CHECK_BAD_INPUT;
		}
	}
	free(attacks);
	free(attack_apis);
	free(configs);
	free(cflags);
	free(kcfi);
	th_kernel_plan_free(&kp);
	th_expect_free();
	return rc;
}
