/* SPDX-License-Identifier: MIT */
/*
 * What the bash completion (cli/gen-man.py writes it) asks the program:
 *
 *   timerharness --complete-options
 *	every option of every command, read from its parser: each parser is
 *	run on one argument no option matches, so that it tests the argument
 *	against every option it accepts (th_optval(), th_optname(): lib/opts.h
 *	records each name asked about), and fails before doing anything.
 *	One line per option: "PARSE\tOPTION\tvalue|flag", PARSE a command, or
 *	a command and the word that selects another parser of it ("kernel
 *	classify", "bench --configs"); and "PARSE\t-\tfiles" for a parse whose
 *	operands are files (trace's, merge's, kernel classify's).
 *
 *   timerharness --complete-values PARSE OPTION [BUILD_ROOT]
 *	the values OPTION of PARSE takes, one a line, from the tables the
 *	command reads (cfi/configs.tsv's configs, the toolchains built under
 *	BUILD_ROOT or the default, the variants, the report formats, the
 *	configs of the real kernel's plan, attacks/kernel_plan.h); or "-f" (a
 *	file), "-d" (a directory), or nothing
 *	(a number or a name of the user's). Exit 2 for an option PARSE does
 *	not take.
 *
 * Neither is in --help: they are for the completion, not for users
 * (docs/cli.md says what they print).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "complete.h"
#include "lib/opts.h"
#ifdef TH_HAVE_MATRIX
#include "config_table.h"
#include "kernel_plan.h"
#include "manifest.h"
#include "paths.h"
#include "render.h"
#include "results.h"
#endif
#ifdef TH_HAVE_FUZZ
#include "fuzz/fuzz_plan.h"
#endif
#ifdef TH_HAVE_BENCH
#include "bench_configs.h"
#endif

/* An argument no parser takes for an option or an operand. */
#define PROBE "--\x7f"

static const struct parse {
	const char *name;		/* "CMD" or "CMD WORD" */
	int (*run)(int, char **);
	const char *words[4];		/* argv before the probe */
	int files;			/* its operands are files */
} parses[] = {
	{ "trace", th_cli_trace, { "trace" }, 1 },
	{ "bench", th_cli_bench, { "bench" }, 0 },
	{ "bench --configs", th_cli_bench, { "bench", "--configs", "none" }, 0 },
	{ "reach", th_cli_reach, { "reach" }, 0 },
#ifdef TH_HAVE_MATRIX
	{ "matrix", th_cli_matrix, { "matrix" }, 0 },
	{ "check", th_cli_check, { "check" }, 0 },
	{ "merge", th_cli_merge, { "merge" }, 1 },
#endif
#ifdef TH_HAVE_KERNEL
	{ "kernel", th_cli_kernel, { "kernel" }, 0 },
	{ "kernel classify", th_cli_kernel, { "kernel", "classify" }, 1 },
#endif
#ifdef TH_HAVE_MATRIX
	{ "report", th_cli_report, { "report" }, 0 },
#endif
#ifdef TH_HAVE_FUZZ
	{ "fuzz", th_cli_fuzz, { "fuzz" }, 0 },
#endif
};
#define NPARSES (sizeof(parses) / sizeof(parses[0]))

static const struct parse *find_parse(const char *name)
{
	for (size_t i = 0; i < NPARSES; i++)
		if (!strcmp(parses[i].name, name))
			return &parses[i];
	return NULL;
}

/* The options @p's parser asks about, into @f. Return: how many, or -1. */
static long probe(const struct parse *p, FILE *f)
{
	char *argv[6];
	int argc = 0, out, err, null;
	long n;

	for (; argc < 4 && p->words[argc]; argc++)
		argv[argc] = (char *)p->words[argc];
	argv[argc++] = PROBE;
	argv[argc] = NULL;
	/* What the parser says of the probe goes nowhere. */
	fflush(stdout);
	fflush(stderr);
	if ((null = open("/dev/null", O_WRONLY)) < 0 || (out = dup(1)) < 0 || (err = dup(2)) < 0)
		return -1;
	dup2(null, 1);
	dup2(null, 2);
	close(null);
	th_opt_probe_start();
	int rc = p->run(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	if (rc != 2) {
		fprintf(stderr, "timerharness --complete-options: %s took '%s' (exit %d, not 2)\n",
			p->name, "--\\x7f", rc);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	FILE *m = open_memstream(&line, &cap);

	if (!m)
		return -1;
	n = (long)th_opt_probe_print(m);
	fclose(m);
	/* Each line prefixed by the parse. */
	for (char *s = line, *nl; s && *s && (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(f, "%s\t%.*s\n", p->name, (int)(nl - s), s);
	free(line);
	/* Its operands, when they are files. */
	if (p->files)
		fprintf(f, "%s\t-\tfiles\n", p->name);
	return n;
}

int th_cli_complete_options(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fputs("timerharness --complete-options: no arguments\n", stderr);
		return 2;
	}
	for (size_t i = 0; i < NPARSES; i++)
		if (probe(&parses[i], stdout) <= 0) {
			fprintf(stderr, "timerharness --complete-options: %s: no options recorded\n",
				parses[i].name);
			return 1;
		}
	return fflush(stdout) ? 1 : 0;
}

/* ---- values ------------------------------------------------------------------------------ */

enum kind { NONE, FILES, DIRS, LIST, CONFIGS, TOOLCHAINS, VARIANTS, FORMATS, KCONFIGS,
	    KRELEASES, FUZZ_CONFIGS, FUZZ_TOOLCHAINS, BENCH_CONFIGS };

/* What each valued option takes; an option of no row takes a number or a
 * name of the user's (nothing to offer). PARSE NULL: of every parse. */
static const struct value {
	const char *parse, *option;
	enum kind kind;
	const char *list;	/* LIST: the words the parser compares with */
} values[] = {
	{ NULL, "--variant", VARIANTS, NULL },
	{ "matrix", "--config", CONFIGS, NULL },
	{ "matrix", "--toolchain", TOOLCHAINS, NULL },
	{ "fuzz", "--config", FUZZ_CONFIGS, NULL },
	{ "fuzz", "--toolchain", FUZZ_TOOLCHAINS, NULL },
	{ "fuzz", "--engine", LIST, "libfuzzer afl" },
	{ "fuzz", "--target", LIST, "overflow tasklet" },
	{ "kernel", "--config", KCONFIGS, NULL },
	{ "kernel", "--release", KRELEASES, NULL },
	{ "kernel classify", "--end", LIST, "exited timeout failed" },
	{ "kernel classify", "--payload", FILES, NULL },
	{ "report", "--format", FORMATS, NULL },
	{ "report", "--out", FILES, NULL },
	{ "bench", "--order", LIST, "array shuffled" },
	{ "bench --configs", "--configs", BENCH_CONFIGS, NULL },
	{ "bench", "--configs", BENCH_CONFIGS, NULL },
	{ NULL, "--json", FILES, NULL },
	{ NULL, "--results", FILES, NULL },
	{ NULL, "--baseline", FILES, NULL },
	{ NULL, "--expect", FILES, NULL },
	{ NULL, "--fuzz", FILES, NULL },
	{ NULL, "--fuzz-only", FILES, NULL },
	{ NULL, "--fuzz-expect", FILES, NULL },
	{ NULL, "--fuzz-plan", FILES, NULL },
	{ NULL, "--binary", FILES, NULL },
	{ NULL, "--bzimage", FILES, NULL },
	{ NULL, "--dotconfig", FILES, NULL },
	{ NULL, "--vmlinux", FILES, NULL },
	{ NULL, "--qemu", FILES, NULL },
	{ NULL, "--out", DIRS, NULL },
	{ NULL, "--build-root", DIRS, NULL },
	{ NULL, "--build", DIRS, NULL },
	{ NULL, "--kernel", DIRS, NULL },
	{ NULL, "--seeds", DIRS, NULL },
};

static const struct value *find_value(const char *parse, const char *option)
{
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if ((!values[i].parse || !strcmp(values[i].parse, parse)) &&
		    !strcmp(values[i].option, option))
			return &values[i];
	return NULL;
}

/* Does @p's parser take @option (with a value, when @valued)? */
static int takes(const struct parse *p, const char *option, int *valued)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int found = 0;

	if (!m)
		return 0;
	probe(p, m);
	fclose(m);
	for (char *s = text, *nl; s && *s; s = nl + 1) {
		char *f1 = strchr(s, '\t'), *f2 = f1 ? strchr(f1 + 1, '\t') : NULL;

		nl = strchr(s, '\n');
		if (f2 && (size_t)(f2 - f1 - 1) == strlen(option) && !strncmp(f1 + 1, option, strlen(option))) {
			found = 1;
			*valued = !strncmp(f2 + 1, "value", 5);
		}
	}
	free(text);
	return found;
}

#ifdef TH_HAVE_MATRIX
/* The toolchains of the builds under @root (each <root>/<preset>/
 * th-manifest.tsv, or root's own), as matrix finds them. */
static void toolchains(const char *root)
{
	struct th_manifest b = { 0 };
	char path[4096], err[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/th-manifest.tsv", root);
	if (!access(path, F_OK)) {
		th_manifest_load(&b, path, err, sizeof(err));
	} else if ((d = opendir(root))) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/th-manifest.tsv", root, e->d_name);
			if (!access(path, F_OK))
				th_manifest_load(&b, path, err, sizeof(err));
		}
		closedir(d);
	}
	for (size_t i = 0; i < b.ntools; i++)
		puts(b.tools[i].name);
	th_manifest_free(&b);
}
#endif

#ifdef TH_HAVE_FUZZ
/* The configs or toolchains of the overflow target's fuzz builds. */
static void fuzz_builds(const char *root, int want_toolchain)
{
	struct th_fz_build *b;
	char err[512];

	if (th_fz_build_load(root, &b, err, sizeof(err)))
		return;
	for (size_t i = 0; i < b->nrows; i++) {
		const char *v = want_toolchain ? b->rows[i].toolchain : b->rows[i].config;
		size_t k;

		if (strcmp(b->rows[i].target, "overflow"))
			continue;
		for (k = 0; k < i; k++)
			if (!strcmp(b->rows[k].target, "overflow") &&
			    !strcmp(want_toolchain ? b->rows[k].toolchain : b->rows[k].config, v))
				break;
		if (k == i)
			puts(v);
	}
	th_fz_build_free(b);
}
#endif

int th_cli_complete_values(int argc, char **argv)
{
	const struct parse *p;
	const struct value *v;
	const char *root = argc > 3 ? argv[3] : NULL;
	int valued = 0;

	if (argc < 3 || argc > 4) {
		fputs("usage: timerharness --complete-values PARSE OPTION [BUILD_ROOT]\n", stderr);
		return 2;
	}
	if (!(p = find_parse(argv[1]))) {
		fprintf(stderr, "timerharness --complete-values: no command '%s'\n", argv[1]);
		return 2;
	}
	if (!takes(p, argv[2], &valued)) {
		fprintf(stderr, "timerharness --complete-values: %s takes no %s\n", argv[1], argv[2]);
		return 2;
	}
	if (!valued || !(v = find_value(p->name, argv[2])))
		return fflush(stdout) ? 1 : 0;
#ifdef TH_HAVE_MATRIX
	struct th_paths paths;

	if (th_paths_get(&paths))
		return 1;
	if (!root)
		root = paths.build_root;
#else
	(void)root;
#endif
	switch (v->kind) {
	case NONE:
		break;
	case FILES:
		puts("-f");
		break;
	case DIRS:
		puts("-d");
		break;
	case LIST:
		for (const char *s = v->list; *s;) {
			size_t n = strcspn(s, " ");

			printf("%.*s\n", (int)n, s);
			s += n + (s[n] == ' ');
		}
		break;
#ifdef TH_HAVE_MATRIX
	case VARIANTS:
		for (int i = 0; i < TH_VARIANT_COUNT; i++)
			puts(th_variant_name((enum th_variant)i));
		break;
	case CONFIGS:
		for (size_t i = 0; i < th_config_count; i++)
			puts(th_configs[i].name);
		break;
	case TOOLCHAINS:
		toolchains(root);
		break;
	case FORMATS:
		for (int i = 0; i < TH_RENDER_FORMAT_COUNT; i++)
			puts(th_render_format_name((enum th_render_format)i));
		break;
	case KCONFIGS:
	case KRELEASES: {
		struct th_kernel_plan kp;
		char err[512];

		if (th_kernel_plan_load(paths.kernel, &kp, err, sizeof(err)))
			break;
		for (size_t i = 0; v->kind == KCONFIGS && i < kp.nconfigs; i++)
			puts(kp.configs[i]);
		/* The release series of kernel/kernels.tsv, each once. */
		for (size_t i = 0; v->kind == KRELEASES && i < kp.nbuilds; i++) {
			size_t k = 0;

			while (k < i && strcmp(kp.builds[k].release, kp.builds[i].release))
				k++;
			if (k == i)
				puts(kp.builds[i].release);
		}
		th_kernel_plan_free(&kp);
		break;
	}
#endif
#ifdef TH_HAVE_BENCH
	case BENCH_CONFIGS:
		/* The configs bench was built with for this toolchain. */
		for (const char *s = th_bench_configs_built(); *s;) {
			size_t n = strcspn(s, ",");

			printf("%.*s\n", (int)n, s);
			s += n + (s[n] == ',');
		}
		break;
#endif
#ifdef TH_HAVE_FUZZ
	case FUZZ_CONFIGS:
	case FUZZ_TOOLCHAINS:
		fuzz_builds(root, v->kind == FUZZ_TOOLCHAINS);
		break;
#endif
	default:
		break;
	}
	return fflush(stdout) ? 1 : 0;
}
