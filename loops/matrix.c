/* SPDX-License-Identifier: MIT */
/*
 * `timerharness matrix`: discover what each toolchain's build produced
 * (build/<preset>/th-manifest.tsv), probe which configs really work there,
 * run every cell in its own child process (time limit, resource limits,
 * process group; a fork of its binary's fork server, or an exec with
 * --no-fork-server: run_jobs(), runner/child.h), classify what it did, and
 * write results.json + report.md.
 */
#define _GNU_SOURCE
#include "matrix.h"
#include "lib/clock.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attacks/expect.h"
#include "attacks/manifest.h"
#include "cfi/classify.h"
#include "cfi/config_table.h"
#include "cfi/evidence.h"
#include "cfi/probe_judge.h"
#include "cfi/reach_collect.h"
#include "cfi/target_set.h"
#include "lib/text.h"
#include "lib/tsv.h"
#include "lib/xalloc.h"
#include "results/results.h"
#include "runner/child.h"
#include "runner/privileged.h"


static int check_duplicate_tools(const struct th_manifest *b, char *err, size_t n)
{
	for (size_t i = 0; i < b->ntools; i++)
		for (size_t j = i + 1; j < b->ntools; j++)
			if (!strcmp(b->tools[i].name, b->tools[j].name)) {
				snprintf(err, n, "two builds claim toolchain '%s' (%s and %s): point --build-root at one of them",
					 b->tools[i].name, b->tools[i].path, b->tools[j].path);
				return -1;
			}
	return 0;
}

static int load_builds(struct th_manifest *b, const char *root, const char *hint, char *err,
		       size_t n)
{
	DIR *d;
	struct dirent *e;
	int found = 0;
	char direct[4096];
	struct stat st;

	/* A single build directory (holding th-manifest.tsv) is accepted too.
	 * A manifest that is there must be read: one that cannot be would drop
	 * a toolchain from the run without a word. */
	snprintf(direct, sizeof(direct), "%s/th-manifest.tsv", root);
	if (!lstat(direct, &st))
		return th_manifest_load(b, direct, err, n);
	d = opendir(root);
	if (!d) {
		snprintf(err, n, "no build under %s (%s): %s", root, strerror(errno), hint);
		return -1;
	}
	while ((e = readdir(d))) {
		char path[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/th-manifest.tsv", root, e->d_name);
		if (lstat(path, &st)) {
			if (errno == ENOENT || errno == ENOTDIR)
				continue;
			snprintf(err, n, "%s: %s", path, strerror(errno));
			closedir(d);
			return -1;
		}
		if (th_manifest_load(b, path, err, n)) {
			closedir(d);
			return -1;
		}
		found++;
	}
	closedir(d);
	if (!found) {
		snprintf(err, n, "no build under %s (no */th-manifest.tsv): %s", root, hint);
		return -1;
	}
	return 0;
}

static const struct th_mbin *find_bin(const struct th_manifest *b, const char *kind, const char *tool,
				   const char *config, const char *variant, const char *seed)
{
	for (size_t i = 0; i < b->nbins; i++) {
		const struct th_mbin *m = &b->bins[i];

		if (!strcmp(m->kind, kind) && !strcmp(m->toolchain, tool) &&
		    !strcmp(m->config, config) && (!variant || !strcmp(m->variant, variant)) &&
		    (!seed || !strcmp(m->seed, seed)))
			return m;
	}
	return NULL;
}

/* ---- interruption and time ------------------------------------------------ */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	interrupted = sig;
}

/* ---- the plan ------------------------------------------------------------ */
struct attack {
	char *id, *technique, *timing, *payload;
	enum th_api api;
	bool na;
	char *na_reason;
};

struct cellplan {
	char *attack, *technique, *timing, *payload, *variant, *config, *toolchain;
	enum th_api api;
	bool control;
	int runs_total, runs_done;
	unsigned counts[TH_OUTCOME_COUNT];
	enum th_outcome worst;
	char evidence[1024];
	enum th_outcome expected;	/* the most severe of expected_set */
	th_outcome_set expected_set;	/* the rule's outcome or set; 0: none */
	unsigned expected_line;		/* the rule's line in the expectations; 0: none */
	enum th_outcome fixed;		/* UNSUPPORTED / NOT_APPLICABLE / HARNESS_ERROR: no run */
	size_t evidence_rank;		/* which run the evidence is from */
	double seconds;			/* wall time of its runs so far */
};

/* Whose evidence a cell keeps: a harness error first (nothing else of the
 * cell can be judged without it), then the most severe outcome. */
static int evidence_rank(enum th_outcome o)
{
	return o == TH_HARNESS_ERROR ? -1 : (int)o;
}

/* A binary the manifest lists as built must be there to run; one that is not
 * makes its cells harness errors, never outcomes of an attack. */
static bool bin_missing(const struct th_mbin *mb, char *why, size_t n)
{
	if (!access(mb->path, X_OK))
		return false;
	snprintf(why, n, "%s binary %s, listed as built at %s, cannot be run: %s (rebuild: make build)",
		 mb->kind, mb->path, mb->where, strerror(errno));
	return true;
}

struct job {
	size_t cell;		/* index into the cells (the array grows while planning) */
	size_t rank;		/* the run's place in its cell (randstruct: seed order) */
	const char *binary;
	const char *seed;
};

/* Comma-separated lists (--config a,b): the next item at *p, its length in
 * *len; NULL at the end. */
static const char *next_item(const char **p, size_t *len)
{
	const char *item = *p;

	if (!item || !*item)
		return NULL;
	*len = strcspn(item, ",");
	*p = item + *len + (item[*len] == ',');
	return item;
}

/* A list that is given names something: `--config=` selects no cell, and
 * a run of no cells must not replace the results of a real one. */
static int check_list(const char *what, const char *list, char *err, size_t errlen)
{
	if (list && (!*list || *list == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))) {
		snprintf(err, errlen, "--%s '%s': an empty %s name (a comma-separated list of at least one)",
			 what, list, what);
		return -1;
	}
	return 0;
}

/* Every name in @list must be one of @known (count @n); else an error. */
static int check_names(const char *what, const char *list, const char *const *known, size_t n,
		       char *err, size_t errlen)
{
	size_t len;

	if (check_list(what, list, err, errlen))
		return -1;

	for (const char *p = list, *item; (item = next_item(&p, &len));) {
		char name[256], known_s[1024] = "";
		bool ok = false;

		snprintf(name, sizeof(name), "%.*s", (int)len, item);
		for (size_t i = 0; i < n; i++)
			ok |= !strcmp(name, known[i]);
		if (!ok) {
			for (size_t i = 0; i < n; i++)
				snprintf(known_s + strlen(known_s), sizeof(known_s) - strlen(known_s),
					 "%s%s", i ? ", " : "", known[i]);
			snprintf(err, errlen, "unknown %s '%s' (known: %s)", what, name, known_s);
			return -1;
		}
	}
	return 0;
}

static int list_attacks(const char *binary, struct attack **out, size_t *nout, char *err, size_t n)
{
	const char *argv[] = { binary, "--list", NULL };
	const struct th_child_opts opts = { .timeout = 20 };
	struct th_child c;
	struct th_tsv t;
	FILE *list = NULL;
	size_t cap = 0;
	int got;

	*out = NULL;
	*nout = 0;
	if (th_child_run(&c, argv, &opts)) {
		snprintf(err, n, "cannot run %s --list: %s", binary, strerror(errno));
		return -1;
	}
	if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) || !c.buf[0]) {
		snprintf(err, n, "%s --list failed (status 0x%x): %.200s", binary, c.status,
			 c.buf[1] ? c.buf[1] : "");
		th_child_free(&c);
		return -1;
	}
	/* One row an attack: ID technique timing payload ok|na [reason [api]]
	 * (no api: the timer, results/api.def's first row). */
	if (!(list = fmemopen(c.buf[0], c.len[0], "r")) ||
	    th_tsv_init(&t, list, binary, err, n)) {
		if (list)
			fclose(list);
		else
			snprintf(err, n, "%s --list: %s", binary, strerror(errno));
		th_child_free(&c);
		return -1;
	}
	while ((got = th_tsv_next(&t, err, n)) > 0) {
		char *f[7];
		struct attack a = { 0 };
		int k = th_tsv_split(&t, f, 7, err, n);

		if (k < 5 || (strcmp(f[4], "ok") && strcmp(f[4], "na")) ||
		    (k == 7 && th_api_parse(f[6]) == TH_API_INVALID)) {
			if (k >= 0)
				th_tsv_fail(&t, err, n, "--list: malformed line: ID technique timing payload "
					    "ok|na [reason [api]] expected (api: %s)", th_api_names());
			got = -1;
			break;
		}
		a.api = k == 7 ? th_api_parse(f[6]) : TH_API_TIMER;
		a.id = th_xstrdup(th_tsv_value(f[0]));
		a.technique = th_xstrdup(th_tsv_value(f[1]));
		a.timing = th_xstrdup(th_tsv_value(f[2]));
		a.payload = th_xstrdup(th_tsv_value(f[3]));
		a.na = !strcmp(f[4], "na");
		a.na_reason = th_xstrdup(k == 6 ? f[5] : "");
		if (*nout == cap) {
			cap = cap ? 2 * cap : 128;
			*out = th_xrealloc(*out, cap * sizeof(**out));
		}
		(*out)[(*nout)++] = a;
	}
	th_tsv_close(&t);
	fclose(list);
	if (got < 0) {
		th_child_free(&c);
		return -1;
	}
	th_child_free(&c);
	return 0;
}

/* ---- progress ------------------------------------------------------------ */
/* The terminal's width, for a progress line that never wraps. */
static int term_width(void)
{
	struct winsize ws;

	return !ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 20 ? ws.ws_col : 80;
}

/*
 * On a terminal, one line rewritten in place (lit's model): percentage,
 * runs, elapsed time, an estimate of the time left from the rate so far,
 * and the outcomes counted so far, cut to the terminal's width; erased
 * when the run ends. Elsewhere (a CI log) a line at each quarter.
 */
static void progress(bool tty, double t0, size_t done, size_t total, const unsigned *counts,
		     bool final)
{
	static double last;
	static int quarter;
	double t = th_now_s(), el = t - t0;
	int pct = total ? (int)(100.0 * (double)done / (double)total) : 100;
	char line[512];
	int len, w;

	if (!tty) {
		if (!final && total && done * 4 >= (size_t)(quarter + 1) * total && quarter < 3) {
			quarter = (int)(done * 4 / total);
			fprintf(stderr, "matrix: %3d%% (%zu/%zu runs) in %.1f s\n", pct, done, total, el);
		}
		return;
	}
	if (final) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		return;
	}
	if (t - last < 0.1)
		return;
	last = t;
	len = snprintf(line, sizeof(line), "[%3d%%] %zu/%zu runs, %.0f s", pct, done, total, el);
	if (done && done < total)
		len += snprintf(line + len, sizeof(line) - (size_t)len, ", ETA %.0f s",
				el / (double)done * (double)(total - done));
	for (int o = 0; o < TH_OUTCOME_COUNT && len < (int)sizeof(line); o++)
		if (counts[o])
			len += snprintf(line + len, sizeof(line) - (size_t)len, " %s %u",
					th_outcome_name(o), counts[o]);
	w = term_width() - 1;
	fprintf(stderr, "\r\033[K%.*s", len < w ? len : w, line);
	fflush(stderr);
}

/* ---- the whole run --------------------------------------------------------- */
const char *const th_matrix_selftests[] = { "SELFTEST_HANG", "SELFTEST_SEGV" };
const size_t th_matrix_nselftests = sizeof(th_matrix_selftests) / sizeof(th_matrix_selftests[0]);

static const char *const VARIANTS[] = { "legacy", "transitional", "modern" };

/* --attack: comma-separated fnmatch globs, case-insensitive. */
static bool attack_matches(const char *globs, const char *id)
{
	size_t len;

	if (!globs)
		return true;
	for (const char *p = globs, *item; (item = next_item(&p, &len));) {
		char glob[256];

		snprintf(glob, sizeof(glob), "%.*s", (int)len, item);
		if (!fnmatch(glob, id, FNM_CASEFOLD))
			return true;
	}
	return false;
}

/* ---- one run of the matrix ------------------------------------------------ */
enum support { SUPPORTED, NOT_SUPPORTED, PROBE_FAILED };

struct probe_memo {
	char key[96];		/* toolchain/config */
	enum support state;
	char reason[1024];
};

/* ---- fork servers (runner/child.h): see run_jobs() ---------------------- */
/* Live at once: the runs of one binary come together in the plan, a
 * randstruct cell's seeds (five) one after another. */
#define MAX_SERVERS	8
/* A binary whose server fails this often runs its other cells by exec. */
#define MAX_SERVER_FAILURES	3

struct server_bin {
	const char *binary;	/* the manifest's string */
	bool capable;		/* has the mode (runner/fork_server.h) */
	unsigned failures;
};

struct servers {
	struct th_fsrv *s[MAX_SERVERS];		/* NULL: a free slot */
	double used[MAX_SERVERS];		/* last asked, for eviction */
	struct server_bin *bins;
	size_t nbins;
	unsigned started, failed, exec_runs, fsrv_runs;
	long kill_after;			/* TH_MATRIX_FSRV_KILL (tests): 0 none */
	unsigned long asked;
};

struct th_matrix {
	const struct th_matrix_opts *o;
	struct th_manifest b;
	struct th_results *res;
	struct cellplan *cells;
	size_t ncells, capcells;
	struct job *jobs;
	size_t njobs, capjobs;
	struct probe_memo *memo;
	size_t nmemo;
	int jobs_n;
	const char *out_dir;	/* --out, or the default for a full run or a slice */
	struct servers servers;	/* fork servers of the run (run_jobs) */
	bool slice;		/* part of the plan only (a selection or a shard) */
	double t0;		/* th_now_s() when th_matrix_plan() began */
	long harness;		/* cells that could not be run or observed */
	char err[2048];
};

/*
 * Is @c supported by toolchain @tool? First its flags must have been accepted
 * at configure time (the attack binary was built), then every probe check of
 * the config must show the feature at work: flag acceptance is not support
 * (clang 14 accepts -fsanitize=function in C and does nothing). A check
 * passes if any of its probe binaries (randstruct: one per seed) passes.
 * PROBE_FAILED: a probe listed as built could not be run, so support is not
 * known (the harness failed, the toolchain did not). Memoised per
 * toolchain x config.
 */
static enum support config_support(struct th_matrix *m, const char *tool,
				   const struct th_config_info *c, const char *variant,
				   char *reason, size_t n)
{
	const struct th_mbin *acc = find_bin(&m->b, "attack", tool, c->name, variant, NULL);
	char key[96], checks[256], why[1024] = "flags accepted; no behaviour probe for this config";
	struct probe_memo *pm;
	enum support state = SUPPORTED;

	if (!acc || strcmp(acc->status, "built")) {
		snprintf(reason, n, "%s", acc && *acc->reason ? acc->reason : "not built for this toolchain");
		return NOT_SUPPORTED;
	}
	snprintf(key, sizeof(key), "%s/%s", tool, c->name);
	for (size_t k = 0; k < m->nmemo; k++)
		if (!strcmp(m->memo[k].key, key)) {
			snprintf(reason, n, "%s", m->memo[k].reason);
			return m->memo[k].state;
		}

	snprintf(checks, sizeof(checks), "%s", c->probes);
	for (char *p = checks, *chk; state == SUPPORTED && (chk = th_list_split(&p));) {
		bool built = false, ok = false;

		for (size_t bi = 0; bi < m->b.nbins && !ok && state == SUPPORTED; bi++) {
			const struct th_mbin *pb = &m->b.bins[bi];
			const char *argv[] = { pb->path, chk, NULL };
			/* Traced as a cell is: the judge proves a probe's trap the same way. */
			const struct th_child_opts opts = { .timeout = m->o->timeout, .trace = true,
							    .site_func = TH_PROBE_SITE_FUNC };
			struct th_child_obs obs;
			struct th_child ch;
			char fail[1024];

			if (strcmp(pb->kind, "probe") || strcmp(pb->toolchain, tool) ||
			    strcmp(pb->config, c->name))
				continue;
			if (strcmp(pb->status, "built")) {
				snprintf(why, sizeof(why), "%s", pb->reason);
				continue;
			}
			built = true;
			if (bin_missing(pb, fail, sizeof(fail))) {
				snprintf(why, sizeof(why), "probe %s: %s", chk, fail);
				state = PROBE_FAILED;
				break;
			}
			if (th_child_run(&ch, argv, &opts)) {
				snprintf(why, sizeof(why), "probe %s: cannot run %s: %s", chk, pb->path,
					 strerror(errno));
				state = PROBE_FAILED;
				break;
			}
			th_child_observe(&obs, &ch, c->name, tool);
			if (obs.harness_error[0]) {
				snprintf(why, sizeof(why), "probe %s: %s", chk, obs.harness_error);
				state = PROBE_FAILED;
			} else {
				ok = th_probe_judge(chk, &obs, why, sizeof(why));
			}
			th_child_free(&ch);
		}
		if (state == SUPPORTED && !ok) {
			if (!built && !strstr(why, "probe"))
				snprintf(why, sizeof(why), "probe %s of %s not built", chk, c->name);
			state = NOT_SUPPORTED;
		}
	}
	m->memo = th_xrealloc(m->memo, (m->nmemo + 1) * sizeof(*m->memo));
	pm = &m->memo[m->nmemo++];
	snprintf(pm->key, sizeof(pm->key), "%s", key);
	pm->state = state;
	snprintf(pm->reason, sizeof(pm->reason), "%s", why);
	snprintf(reason, n, "%s", why);
	return state;
}

static struct cellplan *add_cell(struct th_matrix *m)
{
	if (m->ncells == m->capcells) {
		m->capcells = m->capcells ? 2 * m->capcells : 1024;
		m->cells = th_xrealloc(m->cells, m->capcells * sizeof(*m->cells));
	}
	memset(&m->cells[m->ncells], 0, sizeof(m->cells[0]));
	return &m->cells[m->ncells++];
}

/* The attack binaries of one toolchain x config x variant: one, or one per
 * randstruct seed. Return: how many (at most @max). */
static size_t cell_binaries(const struct th_manifest *b, const char *tool, const char *config,
			    const char *variant, const struct th_mbin **out, size_t max)
{
	size_t n = 0;

	for (size_t bi = 0; bi < b->nbins && n < max; bi++) {
		const struct th_mbin *mb = &b->bins[bi];

		if (!strcmp(mb->kind, "attack") && !strcmp(mb->toolchain, tool) &&
		    !strcmp(mb->config, config) && !strcmp(mb->variant, variant) &&
		    !strcmp(mb->status, "built"))
			out[n++] = mb;
	}
	return n;
}

/* One job per binary of the cell. */
static void add_jobs(struct th_matrix *m, struct cellplan *cp, const struct th_mbin *const *bins,
		     size_t nbins)
{
	for (size_t k = 0; k < nbins; k++) {
		if (m->njobs == m->capjobs) {
			m->capjobs = m->capjobs ? 2 * m->capjobs : 4096;
			m->jobs = th_xrealloc(m->jobs, m->capjobs * sizeof(*m->jobs));
		}
		m->jobs[m->njobs++] = (struct job){ .binary = bins[k]->path, .seed = bins[k]->seed,
						    .cell = m->ncells - 1, .rank = k };
		cp->runs_total++;
	}
}

/* The cells of one toolchain x variant: every config, every attack. */
static int plan_variant(struct th_matrix *m, const char *tool, const char *variant)
{
	const struct th_matrix_opts *o = m->o;
	const struct th_mbin *list_bin = find_bin(&m->b, "attack", tool, "none", variant, NULL);
	struct attack *atk = NULL;
	size_t natk = 0, matched = 0;

	if (!list_bin || strcmp(list_bin->status, "built")) {
		snprintf(m->err, sizeof(m->err), "%s: no %s attack binary for config none: rebuild (make build)",
			 tool, variant);
		return -1;
	}
	/* The plan itself comes from it: without it there is nothing to run. */
	if (bin_missing(list_bin, m->err, sizeof(m->err)))
		return -1;
	if (list_attacks(list_bin->path, &atk, &natk, m->err, sizeof(m->err)))
		return -1;
	if (o->selftests) {
		/* The runner's own checks (not attacks): a cell that never ends
		 * must be HANG, one that dies must be CRASHED. */
		atk = th_xrealloc(atk, (natk + th_matrix_nselftests) * sizeof(*atk));
		for (size_t k = 0; k < th_matrix_nselftests; k++)
			atk[natk++] = (struct attack){ .id = th_xstrdup(th_matrix_selftests[k]),
				.technique = th_xstrdup("selftest"), .timing = th_xstrdup(""),
				.payload = th_xstrdup("selftest"), .na_reason = th_xstrdup("") };
	}
	for (const struct th_config_info *c = th_configs; c < th_configs + th_config_count; c++) {
		const struct th_mbin *bins[64];
		size_t nbins;
		char reason[1024], broken[1024] = "";
		enum support support;

		if (!th_list_has(o->configs, c->name))
			continue;
		support = config_support(m, tool, c, variant, reason, sizeof(reason));
		nbins = cell_binaries(&m->b, tool, c->name, variant, bins, 64);
		/* Support that could not be probed is not recorded either way. */
		if (support != PROBE_FAILED &&
		    !th_config_support(th_results_find_config(m->res, c->name), tool) &&
		    th_results_set_support(m->res, c->name, tool, support == SUPPORTED, reason,
					   m->err, sizeof(m->err)))
			return -1;
		if (support == PROBE_FAILED)
			snprintf(broken, sizeof(broken), "%s", reason);
		else if (support == SUPPORTED && !nbins)
			snprintf(broken, sizeof(broken), "no attack binary of %s %s listed as built",
				 c->name, variant);
		for (size_t k = 0; support == SUPPORTED && !*broken && k < nbins; k++)
			bin_missing(bins[k], broken, sizeof(broken));
		for (size_t ai = 0; ai < natk; ai++) {
			const struct attack *a = &atk[ai];
			struct cellplan *cp;

			if (!attack_matches(o->attack_glob, a->id))
				continue;
			matched++;
			if (o->shard_count &&
			    th_shard_of(a->id, variant, c->name, tool, o->shard_count) != o->shard_index)
				continue;
			cp = add_cell(m);
			*cp = (struct cellplan){
				.attack = a->id, .technique = a->technique, .timing = a->timing,
				.payload = a->payload, .variant = (char *)variant, .api = a->api,
				.config = (char *)c->name, .toolchain = (char *)tool,
				.control = !strcmp(a->payload, "none"),
				.worst = TH_OUTCOME_INVALID, .fixed = TH_OUTCOME_INVALID,
			};
			cp->expected_set = th_expect_set_on(NULL, a->id, variant, c->name, tool);
			cp->expected = th_outcome_set_worst(cp->expected_set);
			cp->expected_line = th_where_line(th_expect_where(a->id, variant, c->name, tool));
			if (a->na) {
				cp->fixed = TH_NOT_APPLICABLE;
				snprintf(cp->evidence, sizeof(cp->evidence), "%s", a->na_reason);
			} else if (*broken) {
				cp->fixed = TH_HARNESS_ERROR;
				snprintf(cp->evidence, sizeof(cp->evidence), "%s", broken);
			} else if (support != SUPPORTED) {
				cp->fixed = TH_UNSUPPORTED;
				snprintf(cp->evidence, sizeof(cp->evidence), "%s", reason);
			} else {
				add_jobs(m, cp, bins, nbins);
			}
		}
	}
	if (o->attack_glob && !matched) {
		snprintf(m->err, sizeof(m->err), "--attack '%s' matches no attack (see: %s --list)",
			 o->attack_glob, list_bin->path);
		return -1;
	}
	return 0;
}

/* configs.tsv's flags for a reader: its per-build placeholders spelled out. */
void th_matrix_config_flags(const struct th_config_info *c, char *out, size_t n)
{
	static const struct {
		const char *placeholder, *text;
	} subst[] = {
		{ "@SEED@", "<seed>" },
		{ "@STRICT_FLEX@", "[-fstrict-flex-arrays=3 where clang >= 16]" },
	};
	size_t len = 0;

	for (const char *p = c->cflags; *p && len + 1 < n;) {
		size_t k;

		for (k = 0; k < sizeof(subst) / sizeof(subst[0]); k++)
			if (!strncmp(p, subst[k].placeholder, strlen(subst[k].placeholder)))
				break;
		if (k < sizeof(subst) / sizeof(subst[0])) {
			len += (size_t)snprintf(out + len, n - len, "%s", subst[k].text);
			p += strlen(subst[k].placeholder);
		} else {
			out[len++] = *p++;
		}
		if (len >= n)
			len = n - 1;
	}
	out[len] = '\0';
}

/* A slice or a shard never silently replaces a full run's results (those
 * `make demo` wrote, say): it goes to its own directory unless --out
 * names one, and a named one holding a full run is refused unless
 * --replace. Called with the directory locked. */
static int keeps_full_results(struct th_matrix *m)
{
	struct th_results *old;
	char path[4096], e[256];

	if (!m->slice || m->o->replace)
		return 0;
	snprintf(path, sizeof(path), "%s/results.json", m->out_dir);
	if (access(path, F_OK) || th_results_load(path, &old, e, sizeof(e)))
		return 0;	/* nothing there, or nothing a run could lose */
	bool full = !th_results_is_slice(old);
	size_t n = old->ncells;

	th_results_free(old);
	if (!full)
		return 0;
	snprintf(m->err, sizeof(m->err), "%s holds the results of a full run (%zu cells); this run is "
		 "a %s and would replace them: choose another --out (by default a slice goes to "
		 TH_MATRIX_SLICE_OUT "), or give --replace", path, n,
		 m->o->shard_count ? "shard" : "slice");
	return -1;
}

/* Everything the user named must exist, and the plan must be complete,
 * before anything runs or is written. */
static int plan(struct th_matrix *m)
{
	const struct th_matrix_opts *o = m->o;
	const char *config_names[64], *tool_names[16];
	size_t nconfigs = 0, ntools = 0;

	for (size_t i = 0; i < th_config_count && i < 64; i++)
		config_names[nconfigs++] = th_configs[i].name;
	if (check_names("config", o->configs, config_names, nconfigs, m->err, sizeof(m->err)) ||
	    check_names("variant", o->variants, VARIANTS, 3, m->err, sizeof(m->err)) ||
	    check_list("attack", o->attack_glob, m->err, sizeof(m->err)) ||
	    th_expect_load(o->expect_path, m->err, sizeof(m->err)) ||
	    load_builds(&m->b, o->build_root, o->build_hint ? o->build_hint : "run 'make build' first",
			m->err, sizeof(m->err)) ||
	    check_duplicate_tools(&m->b, m->err, sizeof(m->err)))
		return -1;
	for (size_t i = 0; i < m->b.ntools && ntools < 16; i++)
		tool_names[ntools++] = m->b.tools[i].name;
	if (check_names("toolchain", o->toolchains, tool_names, ntools, m->err, sizeof(m->err)))
		return -1;

	m->res = th_results_create(TH_VERSION);
	if (!m->res) {
		snprintf(m->err, sizeof(m->err), "out of memory");
		return -1;
	}
	/* What `check` needs to judge the file by the declaration: which
	 * expectations the cells were judged by, and what was asked for. */
	struct th_selection sel = {
		.toolchains = (char *)o->toolchains, .configs = (char *)o->configs,
		.variants = (char *)o->variants, .attacks = (char *)o->attack_glob,
		.selftests = o->selftests,
	};
	if (th_results_set_expectations(m->res, th_expect_path(), th_expect_sha256(),
					m->err, sizeof(m->err)) ||
	    th_results_set_selection(m->res, &sel, m->err, sizeof(m->err)) ||
	    th_results_set_shard(m->res, o->shard_count, &o->shard_index, o->shard_count ? 1 : 0,
				 m->err, sizeof(m->err)))
		return -1;
	m->slice = th_results_is_slice(m->res);
	m->out_dir = o->out_dir ? o->out_dir : m->slice ? TH_MATRIX_SLICE_OUT : TH_MATRIX_OUT;
	for (size_t i = 0; i < m->b.ntools; i++)
		if (th_list_has(o->toolchains, m->b.tools[i].name) &&
		    th_results_add_toolchain(m->res, m->b.tools[i].name, m->b.tools[i].version,
					     m->b.tools[i].path, m->err, sizeof(m->err)))
			return -1;
	for (const struct th_config_info *c = th_configs; c < th_configs + th_config_count; c++) {
		char flags[1024];

		if (!th_list_has(o->configs, c->name))
			continue;
		th_matrix_config_flags(c, flags, sizeof(flags));
		if (th_results_add_config(m->res, c->name, flags, c->description,
					  m->err, sizeof(m->err)))
			return -1;
	}
	for (size_t ti = 0; ti < m->b.ntools; ti++) {
		if (!th_list_has(o->toolchains, m->b.tools[ti].name))
			continue;
		for (int vi = 0; vi < 3; vi++)
			if (th_list_has(o->variants, VARIANTS[vi]) &&
			    plan_variant(m, m->b.tools[ti].name, VARIANTS[vi]))
				return -1;
	}
	/* A shard of a small selection may hold no cell: its (empty) file is
	 * still one of the N that merge joins. */
	if (!m->ncells && !o->shard_count) {
		snprintf(m->err, sizeof(m->err), "the selection holds no cell: nothing to run");
		return -1;
	}
	return 0;
}

/* A finished run: classify it, count it in its cell, keep its evidence if
 * it is the cell's most severe. */
static void record_run(struct th_matrix *m, const struct job *jb, struct th_child *c, unsigned *counts)
{
	struct cellplan *cp = &m->cells[jb->cell];
	struct th_child_obs obs;
	char ev[1024];
	enum th_outcome oc;

	/* A child that could not be started is a harness error (th_classify). */
	th_child_observe(&obs, c, cp->config, cp->toolchain);
	oc = th_classify(&obs, cp->control, ev, sizeof(ev));
	cp->counts[oc]++;
	counts[oc]++;
	cp->seconds += (double)(c->end.tv_sec - c->start.tv_sec) +
		       (double)(c->end.tv_nsec - c->start.tv_nsec) / 1e9;
	/* The evidence of the most severe run; among equals, the first in seed
	 * order, so the file does not depend on which run finished first. */
	if (cp->worst == TH_OUTCOME_INVALID || evidence_rank(oc) < evidence_rank(cp->worst) ||
	    (oc == cp->worst && jb->rank < cp->evidence_rank)) {
		cp->worst = oc;
		cp->evidence_rank = jb->rank;
		if (cp->runs_total > 1)
			snprintf(cp->evidence, sizeof(cp->evidence), TH_EV_SEED "%s", jb->seed, ev);
		else
			snprintf(cp->evidence, sizeof(cp->evidence), "%s", ev);
	}
	cp->runs_done++;
}

/* ---- fork servers (runner/child.h) --------------------------------------- */
static struct server_bin *server_bin(struct servers *sv, const char *binary)
{
	for (size_t i = 0; i < sv->nbins; i++)
		if (!strcmp(sv->bins[i].binary, binary))
			return &sv->bins[i];
	sv->bins = th_xrealloc(sv->bins, (sv->nbins + 1) * sizeof(*sv->bins));
	sv->bins[sv->nbins] = (struct server_bin){ .binary = binary,
						   .capable = th_fsrv_capable(binary) };
	return &sv->bins[sv->nbins++];
}

/* The live server of @binary, started if need be; NULL: run it by exec
 * (no server mode, too many failures, no slot free, or it cannot start). */
static struct th_fsrv *server_for(struct servers *sv, const char *binary,
				  const struct th_child_opts *opts)
{
	struct server_bin *sb = server_bin(sv, binary);
	int slot = -1;

	if (!sb->capable || sb->failures >= MAX_SERVER_FAILURES)
		return NULL;
	for (int k = 0; k < MAX_SERVERS; k++) {
		struct th_fsrv *s = sv->s[k];

		/* A server watches one dispatch function (a family's). */
		if (s && !s->failed && !s->why[0] && s->sock >= 0 && !strcmp(s->proc.binary, binary) &&
		    s->proc.opts.site_func && opts->site_func &&
		    !strcmp(s->proc.opts.site_func, opts->site_func)) {
			sv->used[k] = th_now_s();
			return s;
		}
	}
	for (int k = 0; k < MAX_SERVERS && slot < 0; k++)
		if (!sv->s[k])
			slot = k;
	/* Else the least recently asked idle one makes room. */
	for (int k = 0; k < MAX_SERVERS && !(slot >= 0 && !sv->s[slot]); k++) {
		struct th_fsrv *s = sv->s[k];

		if (s->failed || s->why[0] || s->sock < 0 || !th_fsrv_idle(s))
			continue;
		if (slot < 0 || sv->used[k] < sv->used[slot])
			slot = k;
	}
	if (slot < 0)
		return NULL;
	if (sv->s[slot])
		th_fsrv_stop(sv->s[slot]);
	else
		sv->s[slot] = th_xrealloc(NULL, sizeof(*sv->s[slot]));
	if (th_fsrv_start(sv->s[slot], binary, opts)) {
		fprintf(stderr, "timerharness matrix: cannot start a fork server of %s: %s (its runs by exec)\n",
			binary, strerror(errno));
		free(sv->s[slot]);
		sv->s[slot] = NULL;
		sb->failures = MAX_SERVER_FAILURES;
		return NULL;
	}
	sv->started++;
	sv->used[slot] = th_now_s();
	return sv->s[slot];
}

/* A failed server: counted, said, stopped, freed. */
static void server_failed(struct servers *sv, int k)
{
	struct th_fsrv *s = sv->s[k];
	struct server_bin *sb = server_bin(sv, s->proc.binary);

	sv->failed++;
	fprintf(stderr, "timerharness matrix: the fork server of %s (pid %d) %s; the runs it "
		"held are harness errors%s\n", s->proc.binary, (int)s->proc.pid, s->why,
		++sb->failures < MAX_SERVER_FAILURES ? ", another serves the rest"
						      : "; its other runs by exec");
	th_fsrv_stop(s);
	free(s);
	sv->s[k] = NULL;
}

/* Failed servers, once their process is gone. */
static void servers_reap(struct servers *sv)
{
	for (int k = 0; k < MAX_SERVERS; k++)
		if (sv->s[k] && sv->s[k]->failed && th_child_done(&sv->s[k]->proc))
			server_failed(sv, k);
}

static void servers_free(struct servers *sv)
{
	for (int k = 0; k < MAX_SERVERS; k++)
		if (sv->s[k] && sv->s[k]->failed)
			/* The run ended before its process was collected: a
			 * failure all the same, counted and said. */
			server_failed(sv, k);
		else if (sv->s[k]) {
			th_fsrv_stop(sv->s[k]);
			free(sv->s[k]);
			sv->s[k] = NULL;
		}
	free(sv->bins);
}

/* Every job, at most jobs_n at a time, until done or interrupted. */
static void run_jobs(struct th_matrix *m)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old_int, old_term;
	struct th_child running[TH_MATRIX_MAX_JOBS];
	struct job *rjob[TH_MATRIX_MAX_JOBS];
	size_t next = 0, done = 0;
	unsigned counts[TH_OUTCOME_COUNT] = { 0 };
	bool tty = m->o->progress;
	double t0 = th_now_s();
	int nrun = 0;
	struct servers *sv = &m->servers;
	const char *kill_env = getenv("TH_MATRIX_FSRV_KILL");

	memset(running, 0, sizeof(running));
	/* Tests only: SIGKILL the server that gets the Nth request, just after. */
	sv->kill_after = kill_env ? strtol(kill_env, NULL, 10) : 0;
	if (!tty)
		fprintf(stderr, "matrix: %zu runs of %zu cells with %d jobs\n", m->njobs, m->ncells,
			m->jobs_n);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	while ((next < m->njobs || nrun) && !interrupted) {
		while (nrun < m->jobs_n && next < m->njobs && !interrupted) {
			struct job *jb = &m->jobs[next++];
			const char *argv[] = { jb->binary, "--run", m->cells[jb->cell].attack, NULL };

			/* Every config runs under the address-space cap but those built
			 * with AddressSanitizer (its shadow maps terabytes); every cell
			 * is traced (runner/child.h): traps, dispatches, state. */
			const struct th_child_opts opts = {
				.timeout = m->o->timeout,
				.cap_memory = !th_config_has_cflag(th_config_find(m->cells[jb->cell].config),
								   "-fsanitize=address"),
				/* The family's dispatch (results/api.def): call_timer_fn,
				 * tasklet_action_common. */
				.trace = true, .site_func = th_api_dispatch(m->cells[jb->cell].api),
				.state_map = TH_STATE_MAP_SYMBOL,
				.lockup_func = TH_MATRIX_LOCKUP_FUNC, .lockup_ms = m->o->lockup_ms,
			};

			struct th_fsrv *s = m->o->fork_server ? server_for(sv, jb->binary, &opts) : NULL;

			/* A server that cannot take it (it has just died): by exec. */
			if (s && !th_child_spawn_fsrv(&running[nrun], s, argv, &opts)) {
				sv->fsrv_runs++;
				if (++sv->asked == (unsigned long)sv->kill_after)
					kill(s->proc.pid, SIGKILL);
			} else if (sv->exec_runs++, th_child_spawn(&running[nrun], argv, &opts)) {
				snprintf(m->err, sizeof(m->err), "fork: %s", strerror(errno));
				interrupted = -1;
				break;
			}
			rjob[nrun++] = jb;
		}
		th_child_pump_fsrv(running, nrun, sv->s, MAX_SERVERS);
		servers_reap(sv);
		for (int i = 0; i < nrun; i++) {
			if (!th_child_done(&running[i]))
				continue;
			record_run(m, rjob[i], &running[i], counts);
			done++;
			th_child_free(&running[i]);
			running[i] = running[--nrun];
			rjob[i] = rjob[nrun];
			memset(&running[nrun], 0, sizeof(running[0]));
			i--;
		}
		progress(tty, t0, done, m->njobs, counts, false);
	}
	for (int i = 0; i < nrun; i++)
		th_child_abort(&running[i]);
	servers_free(sv);
	progress(tty, t0, done, m->njobs, counts, true);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}

/* s as one shell word: as it is when every byte is plain, else in single
 * quotes (a quote inside written '\''). */
static void put_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=@%+-") ==
		      strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* The command that runs cp alone: this program's matrix with the cell as
 * its selection, and every option of this run that is not the default
 * (the build, the expectations, the time limit). Its results go where a
 * slice goes by default, so the rerun never replaces these. */
static char *rerun_command(const struct th_matrix *m, const struct cellplan *cp)
{
	const struct th_matrix_opts *o = m->o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	put_word(f, o->self ? o->self : "timerharness");
	fputs(" matrix --toolchain ", f);
	put_word(f, cp->toolchain);
	fputs(" --variant ", f);
	put_word(f, cp->variant);
	fputs(" --config ", f);
	put_word(f, cp->config);
	fputs(" --attack ", f);
	put_word(f, cp->attack);
	for (size_t k = 0; k < th_matrix_nselftests; k++)
		if (!strcmp(cp->attack, th_matrix_selftests[k]))
			fputs(" --selftests", f);
	if (!o->default_build_root || strcmp(o->build_root, o->default_build_root)) {
		fputs(" --build-root ", f);
		put_word(f, o->build_root);
	}
	if (!o->default_expect || strcmp(o->expect_path, o->default_expect)) {
		fputs(" --expect ", f);
		put_word(f, o->expect_path);
	}
	if (o->timeout != o->default_timeout)
		fprintf(f, " --timeout %.0f", o->timeout);
	if (o->lockup_ms != o->default_lockup_ms)
		fprintf(f, " --lockup-ms %u", o->lockup_ms);
	if (!o->fork_server)
		fputs(" --no-fork-server", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Every finished cell into the model (all of them unless interrupted).
 * Return: how many cells are harness errors, or -1 (m->err set). */
static long collect(struct th_matrix *m)
{
	long harness = 0;

	for (size_t i = 0; i < m->ncells; i++) {
		struct cellplan *cp = &m->cells[i];
		struct th_cell_in in = {
			.attack = cp->attack, .technique = cp->technique,
			.timing = *cp->timing ? cp->timing : NULL,
			.payload = cp->payload, .variant = th_variant_parse(cp->variant),
			.api = cp->api, .config = cp->config, .toolchain = cp->toolchain,
			.evidence = cp->evidence, .expected = cp->expected,
			.expected_set = cp->expected_set,
			.seconds = cp->seconds, .expected_line = cp->expected_line,
		};
		const struct th_cell *c;
		char *rerun;

		if (cp->fixed != TH_OUTCOME_INVALID) {
			in.outcome = cp->fixed;
		} else if (cp->runs_done < cp->runs_total || !cp->runs_total) {
			continue;	/* interrupted before it finished */
		} else {
			in.outcome = TH_OUTCOME_INVALID;
			in.runs = (unsigned)cp->runs_done;
			in.counts = cp->counts;
		}
		if (!(rerun = rerun_command(m, cp))) {
			snprintf(m->err, sizeof(m->err), "out of memory");
			return -1;
		}
		in.rerun = rerun;
		c = th_results_add_cell(m->res, &in, m->err, sizeof(m->err));
		free(rerun);
		if (!c)
			return -1;
		harness += th_cell_observed(c) == TH_HARNESS_ERROR;
	}
	return harness;
}

/* This process's CPU time and its reaped children's, user and system. */
static void cpu_split(double *user, double *sys)
{
	struct rusage self, kids;

	*user = *sys = 0;
	if (getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &kids))
		return;
	*user = (double)self.ru_utime.tv_sec + self.ru_utime.tv_usec / 1e6 +
		(double)kids.ru_utime.tv_sec + kids.ru_utime.tv_usec / 1e6;
	*sys = (double)self.ru_stime.tv_sec + self.ru_stime.tv_usec / 1e6 +
	       (double)kids.ru_stime.tv_sec + kids.ru_stime.tv_usec / 1e6;
}

/* "matrix: 9240 cells in 84.2 s (110 a second); CPU 40.1 s user, 38.0 s
 * system" on standard error (80 columns up to 99,999 cells): the throughput of the run, the
 * children's CPU time (creating, loading and tracing each run) included. */
static void throughput_line(const struct th_matrix *m, double seconds)
{
	double user, sys;

	cpu_split(&user, &sys);
	fprintf(stderr, "matrix: %zu cells in %.1f s (%.0f a second); CPU %.1f s user, %.1f s system\n",
		m->ncells, seconds, seconds > 0 ? (double)m->ncells / seconds : 0, user, sys);
	fprintf(stderr, "matrix: %zu runs: %u forked by %u fork servers (%u failed), %u exec'd%s\n",
		m->njobs, m->servers.fsrv_runs, m->servers.started, m->servers.failed,
		m->servers.exec_runs, m->o->fork_server ? "" : " (--no-fork-server)");
}

static void add_metrics(struct th_matrix *m, double seconds)
{
	char name[128], err[256];
	double build = 0;
	bool build_known = true;
	double user, sys;

	/* Wall and CPU time over the same span; every child has been waited
	 * for, so RUSAGE_CHILDREN holds all of them. */
	cpu_split(&user, &sys);
	th_results_set_metric_real(m->res, "run_seconds", seconds, err, sizeof(err));
	th_results_set_metric_real(m->res, "run_cpu_seconds", user + sys, err, sizeof(err));
	th_results_set_metric_int(m->res, "runs", (long long)m->njobs, err, sizeof(err));
	th_results_set_metric_int(m->res, "jobs", m->jobs_n, err, sizeof(err));
	/* The cold build of each build tree the run used, when it was measured. */
	for (size_t i = 0; i < m->b.ntools; i++) {
		const struct th_mtool *t = &m->b.tools[i];

		if (!th_results_find_toolchain(m->res, t->name))
			continue;
		if (t->cold_build < 0) {
			build_known = false;
			continue;
		}
		snprintf(name, sizeof(name), "build_seconds_%s", t->name);
		th_results_set_metric_real(m->res, name, t->cold_build, err, sizeof(err));
		build += t->cold_build;
	}
	if (build_known && m->res->ntoolchains)
		th_results_set_metric_real(m->res, "build_seconds", build, err, sizeof(err));
	th_results_set_count_metrics(m->res, err, sizeof(err));
	if (interrupted)
		th_results_set_partial(m->res, true, interrupted == SIGTERM ? "interrupted by SIGTERM"
				       : interrupted == -1 ? m->err : "interrupted by SIGINT",
				       err, sizeof(err));
}

/* An attack binary of this run whose reach the section records: a CFI
 * config's or none's, randstruct builds aside. */
static bool reach_wanted(const struct th_matrix *m, const struct th_mbin *mb)
{
	return !strcmp(mb->kind, "attack") && !strcmp(mb->status, "built") && !*mb->seed &&
	       th_results_find_toolchain(m->res, mb->toolchain) && th_reach_wanted(mb->config) &&
	       (!m->o->configs || th_list_has(m->o->configs, mb->config)) &&
	       (!m->o->variants || th_list_has(m->o->variants, mb->variant));
}

/* The results' reach section (results/reach.h): what call_timer_fn can still
 * call in each CFI (and none) attack binary of the run, randstruct builds
 * aside (cfi/reach_collect.h). A binary that cannot be read is named on
 * stderr and left out: the section informs, the cells are what is gated. */
static void reach_section(struct th_matrix *m)
{
	static const char *const priv[] = { TH_VICTIM_PRIVILEGED };
	const char **verify = th_xrealloc(NULL, (m->b.nbins + 1) * sizeof(*verify));
	size_t nverify = 0;
	char err[1024];

	/* llvm-cfi-verify on the CFI builds, --jobs at once, ahead of the
	 * sequential reading below (cfi/target_set.h th_cfiv_prefetch). */
	for (size_t i = 0; i < m->b.nbins; i++)
		if (reach_wanted(m, &m->b.bins[i]) && strcmp(m->b.bins[i].config, "none"))
			verify[nverify++] = m->b.bins[i].path;
	th_cfiv_prefetch(verify, nverify, (unsigned)m->jobs_n);
	free(verify);
	for (size_t i = 0; i < m->b.nbins; i++) {
		const struct th_mbin *mb = &m->b.bins[i];

		if (!reach_wanted(m, mb))
			continue;
		if (th_reach_collect(m->res, mb->toolchain, mb->variant, mb->config, mb->path, priv,
				     sizeof(priv) / sizeof(priv[0]), err, sizeof(err)))
			fprintf(stderr, "timerharness matrix: reach: %s (left out of the reach section)\n",
				err);
	}
	th_cfiv_prefetch_drop();
}

/* The real kernels' cells of the results this run replaces are not the
 * model's to drop: each platform's are kept (th_results_replace_platform),
 * its interrupted reason with them, and everything judged again by this
 * run's expectations (what a cell observed does not depend on them), so
 * its agreement is with the model's new cells. A platform that cannot be
 * kept (another toolchain version, a config's other flags) is named.
 * Called with the directory locked. */
static void keep_real_kernels(struct th_matrix *m)
{
	char path[4096], e[1024];
	struct th_results *old;
	size_t kept = 0;
	char *reasons;

	snprintf(path, sizeof(path), "%s/results.json", m->out_dir);
	if (access(path, F_OK) || th_results_load(path, &old, e, sizeof(e)))
		return;	/* nothing there, or nothing a run could keep */
	reasons = old->partial && old->interrupted ? strdup(old->interrupted) : NULL;
	for (size_t p = 0; p < old->nplatforms; p++) {
		const char *name = old->platforms[p].name;
		size_t len = strlen(name);
		const char *why = NULL;

		/* Its own interrupted reason ("linux-6.1.192: SIGINT"), alone. */
		for (const char *r = reasons; r && *r;) {
			if (!strncmp(r, name, len) && !strncmp(r + len, ": ", 2)) {
				why = r + len + 2;
				break;
			}
			r = strstr(r, "; ");
			r = r ? r + 2 : NULL;
		}
		char *own = why ? strndup(why, strcspn(why, ";")) : NULL;

		if (th_results_set_partial(old, own != NULL, own, e, sizeof(e)) ||
		    th_results_set_expectations(old, m->res->expect_path, m->res->expect_sha256, e,
						sizeof(e)) ||
		    th_results_replace_platform(m->res, old, name, e, sizeof(e)))
			fprintf(stderr, "timerharness matrix: the cells of the real kernel %s in %s are not "
				"kept: %s; rerun that kernel's cells\n", name, path, e);
		else
			kept++;
		free(own);
	}
	if (kept && th_expect_judge_results(m->res, e, sizeof(e)))
		fprintf(stderr, "timerharness matrix: the real kernels' cells kept: %s\n", e);
	free(reasons);
	th_results_free(old);
}

void th_matrix_free(struct th_matrix *m)
{
	if (!m)
		return;
	th_results_free(m->res);
	free(m->cells);
	free(m->jobs);
	free(m->memo);
	free(m);
}

struct th_matrix *th_matrix_plan(const struct th_matrix_opts *o, char *err, size_t errlen)
{
	struct th_matrix *m = calloc(1, sizeof(*m));

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->o = o;
	m->t0 = th_now_s();
	m->jobs_n = o->jobs > 0 ? o->jobs
			       : TH_MATRIX_JOBS_PER_CPU * (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (m->jobs_n < 1)
		m->jobs_n = 1;
	if (m->jobs_n > TH_MATRIX_MAX_JOBS)
		m->jobs_n = TH_MATRIX_MAX_JOBS;
	if (plan(m)) {
		snprintf(err, errlen, "%s", m->err);
		th_matrix_free(m);
		return NULL;
	}
	return m;
}

const char *th_matrix_out_dir(const struct th_matrix *m)
{
	return m->out_dir;
}

int th_matrix_check_out(struct th_matrix *m, char *err, size_t errlen)
{
	if (keeps_full_results(m)) {
		snprintf(err, errlen, "%s", m->err);
		return -1;
	}
	return 0;
}

long th_matrix_run(struct th_matrix *m, char *err, size_t errlen)
{
	double t0 = m->t0;
	long harness;

	run_jobs(m);
	if ((harness = collect(m)) < 0) {
		snprintf(err, errlen, "%s", m->err);
		return -1;
	}
	if (!interrupted)
		reach_section(m);
	add_metrics(m, th_now_s() - t0);
	if (!m->o->quiet)
		throughput_line(m, th_now_s() - t0);
	keep_real_kernels(m);
	m->harness = harness;
	return harness;
}

struct th_results *th_matrix_results(const struct th_matrix *m)
{
	return m->res;
}

void th_matrix_stats(const struct th_matrix *m, struct th_matrix_stats *st)
{
	st->ncells = m->ncells;
	st->nruns = m->njobs;
	st->jobs = m->jobs_n;
	st->started = m->t0;
	st->slice = m->slice;
	st->harness = m->harness;
	st->interrupted = interrupted == -1 ? TH_MATRIX_STOPPED_BY_HARNESS
			  : interrupted ? TH_MATRIX_STOPPED_BY_SIGNAL : TH_MATRIX_RAN_ALL;
}
