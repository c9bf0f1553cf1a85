/* SPDX-License-Identifier: MIT */
/* The campaigns' gate (check_fuzz.h): reads fuzz.json, trusts its counts and
 * findings only as the replays confirmed them and as the files beside it
 * hold them, judges by the declarations: the plan, the build, the
 * expectations. */
#define _POSIX_C_SOURCE 200809L
#include "check_fuzz.h"
#include "check.h"
#include "fuzz/fuzz_expect.h"
#include "fuzz/fuzz_plan.h"
#include "fuzz_summary.h"
#include "fuzz/fuzz_replay.h"
#include "fuzz/overflow_session.h"
#include "report_internal.h"
#include "sha256.h"
#include "lib/fs.h"
#include "lib/text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A whole campaign may end this much before its budget (the last engine
 * restart is not made with less than half a second left). */
#define BUDGET_SLACK_S 1.0

/* Text from the summary, as every report shows it: escaped, one line. */
static void esc(FILE *out, const char *s)
{
	th_report_put_line(out, s ? s : "");
}

static void campaign_name(FILE *out, const struct th_fz_campaign *c)
{
	esc(out, c->target);
	fprintf(out, " %s/", th_variant_name(c->variant));
	esc(out, c->config);
	fputc('/', out);
	esc(out, c->toolchain);
	if (strcmp(c->engine, "libfuzzer")) {
		fputc('/', out);
		esc(out, c->engine);
	}
}

static void line_start(FILE *out, const char *what, const struct th_fz_campaign *c)
{
	fprintf(out, "%s: ", what);
	campaign_name(out, c);
}

/* Does the comma glob list (NULL: not asked, everything) take name? */
static bool asked(const char *list, const char *name)
{
	return !list || th_fz_glob_match(list, name);
}

static bool in_selection(const struct th_fz_summary *s, const char *target, const char *variant,
			 const char *config, const char *toolchain)
{
	return asked(s->selection.targets, target) && asked(s->selection.variants, variant) &&
	       asked(s->selection.configs, config) && asked(s->selection.toolchains, toolchain);
}

/* "configs none,cfi-icall; toolchains clang-22", what the run was asked for. */
static void put_selection(FILE *out, const struct th_fz_summary *s);

/* " (SLICE: configs ...)", " (the SLICE its run planned: configs ...)" for
 * a run of fuzz --slice; nothing for the whole plan. */
static void put_slice(FILE *out, const struct th_fz_summary *s, bool slice)
{
	if (!slice)
		return;
	fputs(s->selection.planned ? " (the SLICE its run planned: " : " (SLICE: ", out);
	put_selection(out, s);
	fputc(')', out);
}

/* "configs none,cfi-icall; toolchains clang-22", what the run was asked for. */
static void put_selection(FILE *out, const struct th_fz_summary *s)
{
	const char *k[] = { "targets", "variants", "configs", "toolchains" };
	const char *v[] = { s->selection.targets, s->selection.variants, s->selection.configs,
			    s->selection.toolchains };
	int sep = 0;

	for (int i = 0; i < 4; i++) {
		if (!v[i])
			continue;
		fprintf(out, "%s%s ", sep ? "; " : "", k[i]);
		esc(out, v[i]);
		sep = 1;
	}
}

static bool satisfies(const struct th_fz_campaign *c, const struct th_fz_rule *r)
{
	for (size_t k = 0; k < c->nfindings; k++) {
		const struct th_fz_finding *f = &c->findings[k];

		if (th_fz_expect_satisfies(r, f->chain_id, f->outcome))
			return true;
	}
	return false;
}

/* The finding's reproducer is beside the summary with the bytes it records.
 * Return: true, or false after a `reproducer:` line. */
static bool reproducer_ok(FILE *out, const char *dir, const struct th_fz_campaign *c,
			  const struct th_fz_finding *f)
{
	char path[8192], hex[65];
	struct stat st;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, f->reproducer);
	/* The last component is not followed: a link could name any file. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	e = errno;
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		e = 0;
	}
	if (fd < 0 || th_sha256_fd(fd, hex)) {
		if (fd >= 0)
			e = errno, close(fd);
		line_start(out, "reproducer", c);
		fputs(": ", out);
		esc(out, f->sig);
		fputs(": ", out);
		esc(out, path);
		fprintf(out, ": %s: the summary names a file that is not there as it was written "
			"(a run killed or replaced after it, or a summary from elsewhere)\n",
			e == ENOENT ? "missing" : e == ELOOP ? "a symbolic link, not the reproducer" :
			e ? strerror(e) : "not a regular file");
		return false;
	}
	close(fd);
	if (strcmp(hex, f->sha256)) {
		line_start(out, "reproducer", c);
		fputs(": ", out);
		esc(out, f->sig);
		fputs(": ", out);
		esc(out, path);
		fprintf(out, ": its SHA-256 is %.16s..., the summary records %.16s...: not the input that "
			"was found (replaced since, or the summary edited)\n", hex, f->sha256);
		return false;
	}
	return true;
}

/* Each require rule asks for campaigns the plan holds: each alternative of
 * its variants and configs is one of some campaign row's. Return: 0, or -1
 * with err. */
static int requires_planned(const struct th_fz_expect *e, const struct th_fz_plan *p, const char *target,
			    char *err, size_t n)
{
	for (size_t k = 0; k < e->nrules; k++) {
		const struct th_fz_rule *r = &e->rules[k];
		bool found = false;

		if (r->kind != TH_FZ_RULE_REQUIRE)
			continue;
		for (size_t i = 0; i < p->nrows && !found; i++) {
			const struct th_fz_plan_row *row = &p->rows[i];
			char vs[256], cs[256];

			if (row->kind != TH_FZ_PLAN_CAMPAIGN || strcmp(row->target, target))
				continue;
			snprintf(vs, sizeof(vs), "%s", row->variant);
			for (char *vp = vs, *v; !found && (v = th_list_split(&vp));) {
				snprintf(cs, sizeof(cs), "%s", row->config);
				for (char *cp = cs, *c; !found && (c = th_list_split(&cp));)
					found = th_fz_glob_match(r->variant, v) && th_fz_glob_match(r->config, c);
			}
		}
		if (!found) {
			snprintf(err, n, "%s: requires campaigns of %s %s/%s, which the plan (%s) does not hold: "
				 "a requirement no run can meet", r->where, target, r->variant, r->config, p->path);
			return -1;
		}
	}
	return 0;
}

struct tally {
	unsigned ran, ok, regress, harness, findings, missing, unplanned, reproducers, lost;
	unsigned replayed, replays_bad, unreplayed, below_floor, erased, unrecorded;
};

/*
 * The slowest a campaign of the overflow target can honestly run: its
 * executions per CPU second, as the summary records them, must reach this.
 * Measured here, not pinned, loaded by kernel builds, one run each: make
 * demo's 12 campaigns (none, cfi-icall, cfi-icall-generalized, kcfi; 10 s)
 * and a kcfi slice of 8 s ran 22k-111k a CPU second (asan and the other
 * configs not measured); a floor over twenty times below the slowest
 * leaves room for a slower machine or config and still catches executions
 * cut by hand (a thousandfold cut of any of them falls below it).
 */
#define FLOOR_EXEC_PER_CPU_S 1000.0
/* The least share of its wall clock a campaign's engine spends on the CPU:
 * measured here at 13-22% for make demo's 10 s campaigns on a machine loaded
 * to 8 (1.3-2.2 CPU seconds) and near 90% quiet; a summary whose CPU time
 * was cut to fit the executions it claims falls under it. */
#define FLOOR_CPU_SHARE 0.01
/* Fresh runs a finding's reproducer gets to replay as recorded. */
#define REPLAY_TRIES 5

/*
 * Every finding the run saved for campaign @c (a .bin of <run>/<toolchain>/
 * <variant>-<config>/findings, loops/campaign.c save_finding()) is one the
 * summary lists: a saved finding it does not is one erased from it (its
 * counts fixed up or not). Return: how many are unlisted (an `erased:` line
 * each).
 */
static unsigned unlisted_findings(FILE *out, const char *dir, const struct th_fz_summary *s,
				  const struct th_fz_campaign *c)
{
	char path[8192], rel[8192];
	unsigned n = 0;
	struct dirent *d;
	DIR *dp;

	if (!s->run)
		return 0;
	th_fz_campaign_dir(s->run, c->toolchain, c->target, th_variant_name(c->variant), c->config, "libfuzzer",
			   rel, sizeof(rel));
	snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/findings");
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (!(dp = opendir(path)))
		return 0;
	while ((d = readdir(dp))) {
		size_t len = strlen(d->d_name);
		char name[8192];
		bool listed = false;

		if (len < 5 || strcmp(d->d_name + len - 4, ".bin"))
			continue;
		snprintf(name, sizeof(name), "%s/%s", rel, d->d_name);
		for (size_t k = 0; k < c->nfindings && !listed; k++)
			listed = !strcmp(c->findings[k].reproducer, name);
		if (listed)
			continue;
		line_start(out, "erased", c);
		fputs(": ", out);
		esc(out, name);
		fputs(": a finding the run saved that the summary does not list (erased from it)\n", out);
		n++;
	}
	closedir(dp);
	return n;
}

/* The run's own record may span a little less than the campaign (the
 * engine's start before its first record, its end after the last), never
 * more; and the campaign no more than this and half the span beyond it
 * (the recheck of its artifacts comes after the last record: make demo's
 * and a 6 s slice's campaigns ran 0.1-0.4 s beyond theirs). */
#define RECORD_SLACK_S 1.0
#define RECORD_OVER_S 3.0
#define RECORD_PROCS 4096

/*
 * The run's own record of campaign @c (a libFuzzer one): <run>/<toolchain>/
 * <variant>-<config>/stats, where the target appended its counters
 * (TH-FZ-STATS, each process's running totals, fuzz/overflow_session.h)
 * and every finding it reported (TH-FZ-FINDING) as it ran. The summary's
 * executions and outcomes are the sums of each process's last counters,
 * its findings every signature recorded (but as many as replays disagreed
 * with), its time the span of the records (loops/campaign.c reads the same
 * file): a summary whose numbers were made consistent by hand disagrees
 * with it. Return: how many disagreements (a `doctored:` or `erased:` line
 * each, or one `unrecorded:` line when there is no record).
 */
/* Does the campaign's recheck.log (beside its stats, rel) say that an
 * artifact of a run that reported sig replayed to another signature? Its
 * lines: "<kept>: the run reported <sig>, the replay <sig>: <chain>". */
static bool reported_otherwise(const char *dir, const char *stats_rel, const char *sig)
{
	char path[8192], line[4096], want[256];
	const char *why;
	size_t cut = strlen(stats_rel) >= 6 ? strlen(stats_rel) - 6 : 0;	/* "/stats" */
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%.*s/recheck.log", dir, (int)cut, stats_rel);
	snprintf(want, sizeof(want), ": the run reported %s, the replay ", sig);
	if (!(f = th_fopen_read(path, "r", &why)))
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	fclose(f);
	return found;
}

static unsigned unlike_record(FILE *out, const char *dir, const struct th_fz_summary *s,
			      const struct th_fz_campaign *c)
{
	struct proc_rec {
		long long pid, execs, counts[TH_OUTCOME_COUNT];
	} *procs = NULL;
	size_t nprocs = 0;
	char path[8192], rel[8192], line[4096], v[256];
	char (*sigs)[160] = NULL;
	size_t nsigs = 0, unlisted = 0;
	unsigned long long t0 = 0, t1 = 0;
	long long execs = 0, counts[TH_OUTCOME_COUNT] = { 0 };
	unsigned bad = 0;
	const char *why;
	FILE *f;

	if (!s->run || strcmp(c->status, "ran") || strcmp(c->engine, "libfuzzer") || !c->executions)
		return 0;
	th_fz_campaign_dir(s->run, c->toolchain, c->target, th_variant_name(c->variant), c->config, c->engine,
			   rel, sizeof(rel));
	snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/stats");
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (!(f = th_fopen_read(path, "r", &why))) {
		line_start(out, "unrecorded", c);
		fputs(": ", out);
		esc(out, rel);
		fputs(": ", out);
		esc(out, why);
		fputs(": the run's own record of what the campaign ran is not there, so its numbers stand "
		      "on nothing\n", out);
		return 1;
	}
	procs = calloc(RECORD_PROCS, sizeof(*procs));
	sigs = calloc(RECORD_PROCS, sizeof(*sigs));
	while (procs && sigs && fgets(line, sizeof(line), f)) {
		bool stats = !strncmp(line, TH_FZ_STATS_PREFIX, strlen(TH_FZ_STATS_PREFIX));
		bool finding = !strncmp(line, TH_FZ_FINDING_PREFIX, strlen(TH_FZ_FINDING_PREFIX));
		unsigned long long t;
		long long pid;
		size_t k;

		if ((!stats && !finding) || !th_fz_kv(line, "pid", v, sizeof(v)))
			continue;
		pid = strtoll(v, NULL, 10);
		if (th_fz_kv(line, "t", v, sizeof(v)) && (t = strtoull(v, NULL, 10))) {
			t0 = !t0 || t < t0 ? t : t0;
			t1 = t > t1 ? t : t1;
		}
		if (finding) {
			if (!th_fz_kv(line, "sig", v, sizeof(v)))
				continue;
			for (k = 0; k < nsigs && strcmp(sigs[k], v); k++)
				;
			if (k == nsigs && nsigs < RECORD_PROCS)
				snprintf(sigs[nsigs++], sizeof(sigs[0]), "%s", v);
			continue;
		}
		for (k = 0; k < nprocs && procs[k].pid != pid; k++)
			;
		if (k == nprocs) {
			if (nprocs == RECORD_PROCS)
				continue;
			procs[nprocs++].pid = pid;
		}
		procs[k].execs = th_fz_kv(line, "execs", v, sizeof(v)) ? strtoll(v, NULL, 10) : 0;
		for (int o = 0; o < TH_OUTCOME_COUNT; o++)
			procs[k].counts[o] = th_fz_kv(line, th_outcome_name((enum th_outcome)o), v, sizeof(v)) ?
						     strtoll(v, NULL, 10) : 0;
	}
	fclose(f);
	for (size_t k = 0; k < nprocs; k++) {
		execs += procs[k].execs;
		for (int o = 0; o < TH_OUTCOME_COUNT; o++)
			counts[o] += procs[k].counts[o];
	}
	if (execs != c->executions || memcmp(counts, c->outcomes, sizeof(counts))) {
		line_start(out, "doctored", c);
		fprintf(out, ": claims %lld executions (", c->executions);
		for (int o = 0, n = 0; o < TH_OUTCOME_COUNT; o++)
			if (c->outcomes[o])
				fprintf(out, "%s%s %lld", n++ ? ", " : "", th_outcome_name((enum th_outcome)o),
					c->outcomes[o]);
		fprintf(out, "); its run recorded %lld (", execs);
		for (int o = 0, n = 0; o < TH_OUTCOME_COUNT; o++)
			if (counts[o])
				fprintf(out, "%s%s %lld", n++ ? ", " : "", th_outcome_name((enum th_outcome)o),
					counts[o]);
		fputs(") in ", out);
		esc(out, rel);
		fputc('\n', out);
		bad++;
	}
	for (size_t k = 0; k < nsigs; k++) {
		bool listed = false;

		for (size_t i = 0; i < c->nfindings && !listed; i++)
			listed = !strcmp(c->findings[i].sig, sigs[k]);
		/* Not listed, and rightly: its artifact replayed to another
		 * signature (the campaign's recheck.log names what the run
		 * reported), or the run was interrupted before it was saved
		 * (a partial summary, never green without --allow-partial). */
		if (listed || s->partial || reported_otherwise(dir, rel, sigs[k]))
			continue;
		if (++unlisted <= (size_t)(c->disagreements > 0 ? c->disagreements : 0))
			continue;
		line_start(out, "erased", c);
		fputs(": ", out);
		esc(out, sigs[k]);
		fputs(": a finding its run recorded (", out);
		esc(out, rel);
		fputs(") that the summary does not list (erased from it)\n", out);
		bad++;
	}
	if (t1 > t0) {
		double span = (double)(t1 - t0) / 1e9;

		if (c->seconds + RECORD_SLACK_S < span ||
		    c->seconds > span + RECORD_OVER_S + span / 2) {
			line_start(out, "doctored", c);
			fprintf(out, ": claims %.2f s; its run's records (", c->seconds);
			esc(out, rel);
			fprintf(out, ") span %.2f s: the time was %s\n", span,
				c->seconds < span ? "cut" : "stretched");
			bad++;
		}
	}
	free(procs);
	free(sigs);
	return bad;
}

/*
 * Replay the finding's reproducer with the binary that ran the campaign
 * (the build's fuzz-manifest.tsv line): it must give the signature the
 * summary records. @dir holds the summary. Return: 1 replayed as recorded,
 * 0 not (a `replay:` line), -1 not replayable here (an `unreplayed:` line).
 */
static int replay_ok(FILE *out, const char *dir, const struct th_fz_build *b,
		     const struct th_fz_campaign *c, const struct th_fz_finding *f)
{
	const struct th_fz_built *bt = th_fz_build_find(b, c->target, th_variant_name(c->variant),
							c->config, c->toolchain);
	char path[8192], sig[256], chain[512];
	enum th_outcome o;

	snprintf(path, sizeof(path), "%s/%s", dir, f->reproducer);
	if (!bt || !bt->path || access(bt->path, X_OK)) {
		line_start(out, "unreplayed", c);
		fputs(": ", out);
		esc(out, f->sig);
		fputs(": the campaign's binary is not here to replay it with (", out);
		esc(out, bt && bt->path ? bt->path : b->root);
		fputs(bt ? ")\n" : ": no build of it)\n", out);
		return -1;
	}
	/* An input whose target acts on an address leaves what follows to the
	 * layout ASLR gave that run (a stray store that lands on a mapped page
	 * or faults): it may replay otherwise once. The claim is that it does
	 * what the summary says: seen in any of REPLAY_TRIES fresh runs. */
	for (int k = 0; k < REPLAY_TRIES; k++) {
		if (th_fz_replay_input(bt->path, c->options, path, &o, sig, sizeof(sig), chain,
				       sizeof(chain))) {
			line_start(out, "unreplayed", c);
			fputs(": ", out);
			esc(out, f->sig);
			fputs(": ", out);
			esc(out, bt->path);
			fputs(" could not be started\n", out);
			return -1;
		}
		if (!strcmp(sig, f->sig) && o == f->outcome)
			return 1;
	}
	line_start(out, "replay", c);
	fputs(": ", out);
	esc(out, f->sig);
	fputs(": its reproducer ", out);
	esc(out, f->reproducer);
	fputs(" replays to ", out);
	esc(out, sig);
	fprintf(out, " in each of %d fresh runs (the last: ", REPLAY_TRIES);
	esc(out, chain);
	fputs("): the summary does not say what its input does\n", out);
	return 0;
}

/* A campaign of the summary against the plan, the selection and the build.
 * Return: true when it belongs to the run (else an `unplanned:` line). */
static bool planned(FILE *out, const struct th_fz_summary *s, const struct th_fz_campaign *c,
		    const struct th_fz_plan *p, const struct th_fz_build *b)
{
	const char *v = th_variant_name(c->variant);
	const struct th_fz_built *built;

	if (!th_fz_build_has_toolchain(b, c->target, c->toolchain)) {
		line_start(out, "unplanned", c);
		fputs(": toolchain ", out);
		esc(out, c->toolchain);
		fputs(" has no fuzz build under ", out);
		esc(out, b->root);
		fputs(" (the toolchains a run can name are the ones built there)\n", out);
		return false;
	}
	if (!th_fz_plan_campaign(p, c->target, v, c->config, c->toolchain)) {
		line_start(out, "unplanned", c);
		fputs(": not a campaign of the plan (", out);
		esc(out, p->path);
		fputs("): no campaign row holds config ", out);
		esc(out, c->config);
		fprintf(out, " for %s on it\n", v);
		return false;
	}
	if (!in_selection(s, c->target, v, c->config, c->toolchain)) {
		line_start(out, "unplanned", c);
		fputs(": outside the run's own selection (", out);
		put_selection(out, s);
		fputs("): no run writes it\n", out);
		return false;
	}
	built = th_fz_build_find(b, c->target, v, c->config, c->toolchain);
	if (!built) {
		line_start(out, "unplanned", c);
		fputs(": the build under ", out);
		esc(out, b->root);
		fputs(" does not list it (no fuzz-manifest.tsv line): it was not built here\n", out);
		return false;
	}
	if (strcmp(built->status, "built") && !strcmp(c->status, "ran")) {
		line_start(out, "unplanned", c);
		fputs(": the summary says it ran, but the build cannot build it (", out);
		esc(out, built->where);
		fputs(": ", out);
		esc(out, built->status);
		fputs(": ", out);
		esc(out, built->reason);
		fputs(")\n", out);
		return false;
	}
	return true;
}

/* The findings of a campaign, by the finding rules. Return: how many regressed. */
static unsigned judge_findings(FILE *out, const struct th_check_fuzz_opts *o, const struct th_fz_expect *e,
			       const char *expect_path, const struct th_fz_campaign *c, struct tally *t)
{
	unsigned bad = 0;

	for (size_t k = 0; k < c->nfindings; k++) {
		const struct th_fz_finding *f = &c->findings[k];
		const struct th_fz_rule *r = th_fz_expect_match(e, TH_FZ_RULE_FINDING, f->chain_id,
								th_variant_name(c->variant), c->config,
								c->toolchain);

		t->findings++;
		if (!r || th_outcome_more_severe(f->outcome, r->outcome)) {
			line_start(out, "regression", c);
			fputs(": found ", out);
			esc(out, f->sig);
			if (r)
				fprintf(out, ", declared at most %s (%s)", th_outcome_name(r->outcome), r->where);
			else
				fprintf(out, ", a chain %s does not declare", expect_path);
			fputs("; reproducer ", out);
			esc(out, f->reproducer);
			fputs("; chain: ", out);
			esc(out, f->chain);
			fputc('\n', out);
			bad++;
		} else if (o->verbose) {
			line_start(out, "expected", c);
			fputs(": found ", out);
			esc(out, f->sig);
			fprintf(out, " after %.3f s (%s)\n", f->first_seconds, r->where);
		}
	}
	return bad;
}

/* The campaigns the plan asks of this run (its selection, on the
 * toolchains built) that the summary lacks; without a summary, those the
 * build does not list. Return: how many. */
static unsigned missing_campaigns(FILE *out, const struct th_fz_summary *s, const struct th_fz_plan *p,
				  const struct th_fz_build *b)
{
	unsigned missing = 0;

	/* Each toolchain the build holds; without a summary (the plan held to
	 * the build) each target the plan holds there, with one each target
	 * the build holds of that toolchain (the timer's overflow, every other
	 * family's by its name: a build from before a family planned none of
	 * its campaigns). */
	for (size_t t = 0; t < b->nrows; t++) {
		const char *tc = b->rows[t].toolchain;
		bool seen = false;

		if (strcmp(b->rows[t].engine, "libfuzzer") || th_fz_target_api(b->rows[t].target) == TH_API_INVALID)
			continue;
		for (size_t u = 0; u < t && !seen; u++)
			seen = !strcmp(b->rows[u].toolchain, tc) && !strcmp(b->rows[u].engine, "libfuzzer") &&
			       th_fz_target_api(b->rows[u].target) != TH_API_INVALID;
		if (seen)
			continue;
		for (size_t i = 0; i < p->nrows; i++) {
			const struct th_fz_plan_row *r = &p->rows[i];
			const char *target = r->target;
			char vs[256], cs[256];

			if (r->kind != TH_FZ_PLAN_CAMPAIGN || !th_fz_glob_match(r->toolchain, tc) ||
			    (s && !th_fz_build_has_toolchain(b, target, tc)))
				continue;
			snprintf(vs, sizeof(vs), "%s", r->variant);
			for (char *vp = vs, *v; (v = th_list_split(&vp));) {
				snprintf(cs, sizeof(cs), "%s", r->config);
				for (char *cp = cs, *cf; (cf = th_list_split(&cp));) {
					bool there = false;

					/* Said once, by the first row that plans it. */
					if (th_fz_plan_campaign(p, target, v, cf, tc) != r ||
					    (s && !in_selection(s, target, v, cf, tc)))
						continue;
					if (!s) {
						if (th_fz_build_find(b, target, v, cf, tc))
							continue;
						fprintf(out, "%s: %s %s/%s/%s is planned, but the build under %s "
							"does not list it\n", r->where, target, v, cf, tc, b->root);
						missing++;
						continue;
					}
					for (size_t k = 0; k < s->ncampaigns && !there; k++) {
						const struct th_fz_campaign *c = &s->campaigns[k];

						there = !strcmp(c->target, target) &&
							!strcmp(th_variant_name(c->variant), v) &&
							!strcmp(c->config, cf) && !strcmp(c->toolchain, tc);
					}
					if (there)
						continue;
					fprintf(out, "missing: %s %s/%s/", target, v, cf);
					esc(out, tc);
					fprintf(out, ": planned by %s, not in the summary%s\n", r->where,
						s->partial ? " (the run was interrupted)" : "");
					missing++;
				}
			}
		}
	}
	return missing;
}

/*
 * The expectations of each API family's campaigns: the timer's are o->expect
 * (fuzz/expected.tsv); another family's lie in its folder beside it
 * (fuzz/<api>/expected.tsv), read when the plan holds its target. Each
 * family's require rules ask for its own target's campaigns.
 * Return: 0, or -1 with err.
 */
static int load_expectations(const char *expect, const struct th_fz_plan *p, struct th_fz_expect **e,
			     char (*paths)[4096], char *err, size_t n)
{
	const char *slash = strrchr(expect, '/');

	for (int a = 0; a < TH_API_COUNT; a++) {
		const char *target = th_fz_api_target((enum th_api)a);
		bool planned = a == TH_API_TIMER;

		for (size_t i = 0; i < p->nrows && !planned; i++)
			planned = !strcmp(p->rows[i].target, target);
		if (!planned)
			continue;
		if (a == TH_API_TIMER)
			snprintf(paths[a], sizeof(paths[a]), "%s", expect);
		else
			snprintf(paths[a], sizeof(paths[a]), "%.*s%s/expected.tsv",
				 slash ? (int)(slash - expect + 1) : 0, expect, th_api_name((enum th_api)a));
		if (th_fz_expect_load(paths[a], &e[a], err, n) || requires_planned(e[a], p, target, err, n))
			return -1;
	}
	return 0;
}

int th_check_fuzz_main(const struct th_check_fuzz_opts *o, FILE *out, FILE *err)
{
	struct th_fz_summary *s = NULL;
	struct th_fz_expect *ea[TH_API_COUNT] = { NULL };
	static char epath[TH_API_COUNT][4096];
	struct th_fz_plan *p = NULL;
	struct th_fz_build *b = NULL;
	struct tally t = { 0 };
	char msg[1024], dir[4096];
	const char *slash = strrchr(o->fuzz, '/');
	bool slice, partial_ok;
	int rc;

	if (th_fz_summary_load(o->fuzz, &s, msg, sizeof(msg)) ||
	    th_fz_plan_load(o->plan, &p, msg, sizeof(msg)) ||
	    load_expectations(o->expect, p, ea, epath, msg, sizeof(msg)) ||
	    th_fz_build_load(o->build_root, &b, msg, sizeof(msg))) {
		fputs("check: ", err);
		esc(err, msg);
		fputc('\n', err);
		rc = TH_CHECK_BAD_INPUT;
		goto out;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - o->fuzz) : 1, slash ? o->fuzz : ".");
	if (slash == o->fuzz)
		snprintf(dir, sizeof(dir), "/");
	for (size_t i = 0; i < s->ncampaigns; i++)
		t.ran += !strcmp(s->campaigns[i].status, "ran");
	if (!t.ran) {
		fprintf(err, "check: %s: no campaign ran: nothing to judge\n", o->fuzz);
		rc = TH_CHECK_BAD_INPUT;
		goto out;
	}
	slice = th_fz_summary_is_slice(s);
	partial_ok = s->partial && o->allow_partial;
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];
		unsigned bad = 0;
		bool failed = !strcmp(c->status, "failed");
		const struct th_fz_expect *e = ea[c->api];

		if (!planned(out, s, c, p, b)) {
			t.unplanned++;
			continue;
		}
		/* Against the run's own files, as the replays are: not with
		 * no_replay (fixtures whose run folder several summaries share). */
		if (!o->no_replay) {
			t.erased += unlisted_findings(out, dir, s, c);
			t.unrecorded += unlike_record(out, dir, s, c);
		}
		for (size_t k = 0; k < c->nfindings; k++) {
			int r;

			if (!reproducer_ok(out, dir, c, &c->findings[k])) {
				t.reproducers++;
				continue;
			}
			if (o->no_replay)
				continue;
			r = replay_ok(out, dir, b, c, &c->findings[k]);
			t.replayed += r == 1;
			t.replays_bad += r == 0;
			t.unreplayed += r < 0;
		}
		if (!strcmp(c->status, "unsupported")) {
			const struct th_fz_plan_row *r = th_fz_plan_unsupported(p, c->target,
										 th_variant_name(c->variant),
										 c->config, c->toolchain);

			line_start(out, r ? "unsupported" : "lost coverage", c);
			fputs(r ? ": " : ": did not run (unsupported: ", out);
			esc(out, c->reason);
			if (r)
				fprintf(out, " (declared by %s)\n", r->where);
			else
				fprintf(out, "), and %s declares no such loss\n", p->path);
			t.lost += !r;
			t.regress += !r;
			continue;
		}
		if (failed || c->outcomes[TH_HARNESS_ERROR]) {
			line_start(out, "harness error", c);
			if (failed) {
				fputs(": the campaign failed: ", out);
				esc(out, c->reason);
				fputc('\n', out);
			} else {
				fprintf(out, ": %lld runs the harness could not judge\n", c->outcomes[TH_HARNESS_ERROR]);
			}
			t.harness++;
		}
		/* What a campaign found counts however it ended. */
		bad += judge_findings(out, o, e, epath[c->api], c, &t);
		if (failed) {
			t.regress += bad > 0;
			continue;
		}
		if (!c->executions) {
			line_start(out, partial_ok ? "partial" : "lost coverage", c);
			fprintf(out, ": ran 0 executions in %.1f s: nothing was searched\n", c->seconds);
			bad += !partial_ok;
			t.lost += !partial_ok;
		} else if (!s->partial && c->seconds + BUDGET_SLACK_S < s->budget_seconds) {
			line_start(out, "lost coverage", c);
			fprintf(out, ": ran %.1f s of its %.0f s budget: the search was cut short\n", c->seconds,
				s->budget_seconds);
			bad++;
			t.lost++;
		} else if (!(c->cpu_seconds > 0) ||
			   (double)c->executions / c->cpu_seconds < FLOOR_EXEC_PER_CPU_S) {
			line_start(out, "doctored", c);
			fprintf(out, ": %lld executions in %.2f CPU seconds, below the floor of %.0f a CPU "
				"second no campaign of this target runs under: not what a campaign does\n",
				c->executions, c->cpu_seconds, FLOOR_EXEC_PER_CPU_S);
			t.below_floor++;
		} else if (c->cpu_seconds < FLOOR_CPU_SHARE * c->seconds) {
			line_start(out, "doctored", c);
			fprintf(out, ": %.3f CPU seconds in %.1f s of wall clock, under %.0f%% of it: a "
				"fuzzer that ran used the CPU it had\n", c->cpu_seconds, c->seconds,
				100 * FLOOR_CPU_SHARE);
			t.below_floor++;
		}
		for (size_t k = 0; c->executions && k < e->nrules; k++) {
			const struct th_fz_rule *r = &e->rules[k];

			if (r->kind != TH_FZ_RULE_REQUIRE || !th_fz_glob_match(r->variant, th_variant_name(c->variant)) ||
			    !th_fz_glob_match(r->config, c->config) || !th_fz_glob_match(r->toolchain, c->toolchain))
				continue;
			if (satisfies(c, r))
				continue;
			line_start(out, "regression", c);
			fprintf(out, ": no %s finding matching %s in %lld executions (%.0f s), required by %s: %s\n",
				th_outcome_name(r->outcome), r->chain, c->executions, c->seconds, r->where, r->reason);
			bad++;
		}
		if (c->disagreements) {
			line_start(out, "note", c);
			fprintf(out, ": %lld of %lld artifacts replayed to another signature than the run "
				"reported (only the replay's findings count)\n", c->disagreements, c->rechecked);
		}
		t.regress += bad > 0;
		t.ok += !bad;
	}
	t.missing = missing_campaigns(out, s, p, b);
	if (slice && !o->allow_slice && !s->selection.planned) {
		fputs("slice: the campaigns were asked for part of the plan only (", out);
		put_selection(out, s);
		fputs("): a slice passes only with --allow-slice, or when its run planned it "
		      "(fuzz --slice)\n", out);
	}
	if (s->partial && !o->allow_partial) {
		fputs("regression: the campaigns were interrupted (", out);
		esc(out, s->interrupted);
		fputs("): a partial summary is not a result (--allow-partial to judge it anyway)\n", out);
	}
	/* Beside the results, the answer line names both files: the counts in
	 * one line. Summary lines wrapped within 80 columns, escaped as they
	 * are written. */
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *sm = open_memstream(&sum, &sumlen), *so = sm ? sm : out;

	/* Which slice was judged, always: the one the run planned (fuzz
	 * --slice, recorded in the summary), or one asked for another way. */
	if (o->beside && !t.harness && !o->verbose) {
		fprintf(so, "check fuzz: %u campaigns ran", t.ran);
		put_slice(so, s, slice);
		fprintf(so, ": %u as declared, %u regressed", t.ok, t.regress);
	} else {
		fprintf(so, "check fuzz: %zu campaigns (%u ran)", s->ncampaigns, t.ran);
		put_slice(so, s, slice);
		if (s->partial) {
			fputs(" (PARTIAL: ", so);
			esc(so, s->interrupted);
			fputc(')', so);
		}
		fprintf(so, ": %u as declared, %u regressed, %u harness errors", t.ok, t.regress, t.harness);
	}
	if (t.missing)
		fprintf(so, ", %u missing", t.missing);
	if (t.lost)
		fprintf(so, ", %u lost coverage", t.lost);
	if (t.unplanned)
		fprintf(so, ", %u unplanned", t.unplanned);
	if (t.reproducers)
		fprintf(so, ", %u reproducers not as recorded", t.reproducers);
	if (t.replays_bad)
		fprintf(so, ", %u findings replayed otherwise", t.replays_bad);
	if (t.unreplayed)
		fprintf(so, ", %u findings not replayed (no build)", t.unreplayed);
	if (t.below_floor)
		fprintf(so, ", %u campaigns below the execution floor", t.below_floor);
	if (t.erased)
		fprintf(so, ", %u saved findings not listed", t.erased);
	if (t.unrecorded)
		fprintf(so, ", %u disagreements with the run's own record", t.unrecorded);
	if (o->beside && !t.harness && !o->verbose) {
		fprintf(so, "; %u findings%s", t.findings, t.findings ? " (--verbose)" : "");
	} else {
		fprintf(so, "; %u findings%s (summary: ", t.findings,
			o->verbose || !t.findings ? "" : ", as declared unless listed (see --verbose)");
		esc(so, o->fuzz);
		fputs(", plan: ", so);
		esc(so, o->plan);
		fputs(", expectations: ", so);
		esc(so, o->expect);
		/* Each other family's its campaigns were judged by. */
		for (int a = 0; a < TH_API_COUNT; a++) {
			bool judged = false;

			for (size_t i = 0; i < s->ncampaigns && a != TH_API_TIMER && ea[a]; i++)
				judged |= s->campaigns[i].api == (enum th_api)a;
			if (judged) {
				fputs(", ", so);
				esc(so, epath[a]);
			}
		}
		fputc(')', so);
	}
	if (o->no_replay && t.findings)
		fputs("; findings not replayed (as asked: no build to replay them)", so);
	else if (t.replayed && (o->verbose || !o->beside))
		fprintf(so, "; %u replayed as recorded", t.replayed);
	if (!sm)
		fputc('\n', out);
	else if (!fclose(sm))
		th_report_put_wrapped_escaped(out, "", sum);
	free(sum);
	for (int a = 0; a < TH_API_COUNT && (o->verbose || !o->beside); a++)
		for (int v = 0; v < TH_VARIANT_COUNT; v++) {
			char verdict[4096];

			if (th_fz_verdict(s, (enum th_api)a, (enum th_variant)v, verdict, sizeof(verdict))) {
				char vline[4200];

				snprintf(vline, sizeof(vline), "fuzz %s", verdict);
				th_report_put_wrapped(out, "", vline);
			}
		}
	if (o->counts)
		*o->counts = (struct th_check_fuzz_counts){
			.campaigns = (unsigned)s->ncampaigns, .ran = t.ran, .as_declared = t.ok,
			.regressed = t.regress, .harness_error = t.harness, .missing = t.missing,
			.lost_coverage = t.lost, .unplanned = t.unplanned, .reproducers = t.reproducers,
			.findings = t.findings, .replayed_otherwise = t.replays_bad,
			.unreplayed = t.unreplayed, .below_floor = t.below_floor,
		};
	rc = t.unplanned || t.reproducers || t.replays_bad || t.unreplayed || t.below_floor || t.erased ||
			     t.unrecorded ?
		     TH_CHECK_BAD_INPUT :
	     t.regress || (t.missing && !partial_ok) ||
	     (slice && !o->allow_slice && !s->selection.planned) ||
	     (s->partial && !o->allow_partial) ? TH_CHECK_REGRESSION :
	     t.harness ? TH_CHECK_HARNESS_ERROR : TH_CHECK_OK;
out:
	th_fz_summary_free(s);
	for (int a = 0; a < TH_API_COUNT; a++)
		th_fz_expect_free(ea[a]);
	th_fz_plan_free(p);
	th_fz_build_free(b);
	return rc;
}

int th_check_fuzz_plan_build(const char *plan, const char *build_root, FILE *out, FILE *err)
{
	struct th_fz_plan *p = NULL;
	struct th_fz_build *b = NULL;
	char msg[1024];
	int diff = 0;

	if (th_fz_plan_load(plan, &p, msg, sizeof(msg)) || th_fz_build_load(build_root, &b, msg, sizeof(msg))) {
		fprintf(err, "check: %s\n", msg);
		th_fz_plan_free(p);
		return -1;
	}
	/* Every build is planned, and each one that could not be built is declared. */
	for (size_t i = 0; i < b->nrows; i++) {
		const struct th_fz_built *r = &b->rows[i];

		if (strcmp(r->engine, "libfuzzer") || th_fz_target_api(r->target) == TH_API_INVALID)
			continue;
		if (!th_fz_plan_campaign(p, r->target, r->variant, r->config, r->toolchain)) {
			fprintf(out, "%s: %s %s/%s/%s is built, but %s does not plan it\n", r->where, r->target,
				r->variant, r->config, r->toolchain, plan);
			diff++;
		} else if (strcmp(r->status, "built") &&
			   !th_fz_plan_unsupported(p, r->target, r->variant, r->config, r->toolchain)) {
			fprintf(out, "%s: %s %s/%s/%s cannot be built (%s: %s), and %s does not declare it\n",
				r->where, r->target, r->variant, r->config, r->toolchain, r->status, r->reason, plan);
			diff++;
		}
	}
	/* Every planned campaign has its build line on each toolchain. */
	diff += (int)missing_campaigns(out, NULL, p, b);
	th_fz_plan_free(p);
	th_fz_build_free(b);
	return diff;
}
