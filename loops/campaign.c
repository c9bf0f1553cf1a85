/* SPDX-License-Identifier: MIT */
/* `timerharness fuzz` (campaign.h): plan, run, re-check, summarise. */
#define _GNU_SOURCE
#include "campaign.h"
#include "lib/clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz/fuzz_plan.h"
#include "fuzz/fuzz_replay.h"
#include "fuzz/overflow_session.h"
#include "lib/xalloc.h"
#include "results/fuzz_summary.h"
#include "results/results.h"
#include "results/sha256.h"
#include "lib/fs.h"
#include "lib/text.h"

#define MAX_PIDS 4096
#define LINE_MAX_ 8192
/* A signature, OUTCOME:CHAIN_ID: a chain ID names every step of a run and
 * is at most TH_FZ_CHAIN_ID_MAX (fuzz/overflow_oracle.h) long. */
#define SIG_MAX 256

/* Grace after the budget before the engine is stopped. */
#define GRACE_S 3.0

/* ---- small helpers --------------------------------------------------------------- */

/* rm -r of the contents of a directory this runner made (symbolic links
 * removed, never followed). */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *p;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = th_xasprintf("%s/%s", path, e->d_name);
		if (!lstat(p, &st) && S_ISDIR(st.st_mode)) {
			remove_tree(p);
			rmdir(p);
		} else {
			unlink(p);
		}
		free(p);
	}
	closedir(d);
}

/* Is name in the comma list (NULL: everything)? Shell globs allowed. */
static int in_list(const char *list, const char *name)
{
	char *l, *p, *tok;
	int hit = 0;

	if (!list)
		return 1;
	l = th_xstrdup(list);
	for (p = l; !hit && (tok = th_list_split(&p));)
		hit = !fnmatch(tok, name, 0);
	free(l);
	return hit;
}

/* ---- the build: fuzz-manifest.tsv --------------------------------------------------- */

/* The fuzz builds (fuzz/fuzz_plan.h reads their fuzz-manifest.tsv, as the
 * campaigns' gate does): the run's (struct th_fz_run). */
static const struct th_fz_built *find_bin(const struct th_fz_build *build, const char *engine,
					  const char *target, const char *toolchain,
					  const char *variant, const char *config)
{
	for (size_t i = 0; build && i < build->nrows; i++) {
		const struct th_fz_built *b = &build->rows[i];

		if (!strcmp(b->engine, engine) && !strcmp(b->toolchain, toolchain) &&
		    !strcmp(b->variant, variant) && !strcmp(b->config, config) &&
		    !strcmp(b->target, target))
			return b;
	}
	return NULL;
}

/* ---- one campaign ------------------------------------------------------------------------ */

struct proc {
	long pid;
	long long execs, counts[TH_OUTCOME_COUNT];
	unsigned long long first_hijack, first_hijack_t, goal, goal_t;
	char last_sig[SIG_MAX];	/* the finding it aborted for, or the sig it died with */
};

struct found {
	char sig[SIG_MAX], chain[2200];
	double t;
	long long execs;
};

struct campaign {
	const struct th_fz_built *bin;		/* the engine's binary */
	const struct th_fz_built *replay;	/* replays the artifacts: the same binary */
	char *dir, *corpus, *artifacts, *findings_dir, *log, *stats, *known, *recheck_log;
	char *rel;	/* dir relative to the output directory: <run>/<toolchain>/[<target>-]<variant>-<config>[-afl] */
	const char *seeds;	/* its target's seed corpus (seeds_of()) */
	enum { PENDING, RUNNING, DONE } phase;
	double t0, deadline, t_end;
	pid_t pid;
	double kill_at;
	int killed;
	long stats_off;
	char carry[LINE_MAX_];
	size_t carry_len;
	struct proc procs[64];
	int nprocs;
	struct found found[64];
	int nfound;
	struct th_fz_campaign rec;
	struct th_fz_finding fnd[64];
	int nfnd;
	unsigned long seed;
};

/* A run: its options, its build, its directory and its campaigns, passed
 * down to what plans, runs and sums them up. */
struct th_fz_run {
	const struct th_fz_opts *o;
	struct th_fz_build *build;	/* the fuzz builds (fuzz-manifest.tsv) */
	/* This run's directory, "fuzz/<id>" relative to the output directory:
	 * every campaign's files are under it, and fuzz.json names it. The
	 * previous summary and its run stay whole until the new summary
	 * replaces them. */
	char run_rel[64];
	struct campaign *cs;
	size_t n;
	int jobs;
	double t0;
};

/* The one state of a run outside struct th_fz_run: a signal handler sets it. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

static struct proc *proc_of(struct campaign *c, long pid)
{
	for (int i = 0; i < c->nprocs; i++)
		if (c->procs[i].pid == pid)
			return &c->procs[i];
	if (c->nprocs == (int)(sizeof(c->procs) / sizeof(c->procs[0])))
		return NULL;
	memset(&c->procs[c->nprocs], 0, sizeof(c->procs[0]));
	c->procs[c->nprocs].pid = pid;
	return &c->procs[c->nprocs++];
}


static unsigned long long kvnum(const char *line, const char *key)
{
	char b[40];

	return th_fz_kv(line, key, b, sizeof(b)) ? strtoull(b, NULL, 10) : 0;
}

static void stats_line(struct campaign *c, const char *line)
{
	struct proc *p = proc_of(c, (long)kvnum(line, "pid"));
	char sig[SIG_MAX];

	if (!p)
		return;
	if (!strncmp(line, TH_FZ_STATS_PREFIX, strlen(TH_FZ_STATS_PREFIX))) {
		p->execs = (long long)kvnum(line, "execs");
		for (int i = 0; i < TH_OUTCOME_COUNT; i++)
			p->counts[i] = (long long)kvnum(line, th_outcome_name((enum th_outcome)i));
		p->first_hijack = kvnum(line, "first_hijack");
		p->first_hijack_t = kvnum(line, "first_hijack_t");
		p->goal = kvnum(line, "goal");
		p->goal_t = kvnum(line, "goal_t");
	} else if (!strncmp(line, TH_FZ_FINDING_PREFIX, strlen(TH_FZ_FINDING_PREFIX)) ||
		   !strncmp(line, TH_FZ_DEATH_PREFIX, strlen(TH_FZ_DEATH_PREFIX))) {
		if (!th_fz_kv(line, "sig", sig, sizeof(sig)))
			return;
		snprintf(p->last_sig, sizeof(p->last_sig), "%s", sig);
		if (strncmp(line, TH_FZ_FINDING_PREFIX, strlen(TH_FZ_FINDING_PREFIX)))
			return;
		for (int i = 0; i < c->nfound; i++)
			if (!strcmp(c->found[i].sig, sig))
				return;
		if (c->nfound < (int)(sizeof(c->found) / sizeof(c->found[0]))) {
			struct found *f = &c->found[c->nfound++];
			const char *ch = strstr(line, " chain=");
			long long before = 0;

			for (int i = 0; i < c->nprocs && c->procs[i].pid != p->pid; i++)
				before += c->procs[i].execs;
			snprintf(f->sig, sizeof(f->sig), "%s", sig);
			snprintf(f->chain, sizeof(f->chain), "%s", ch ? ch + 7 : "");
			f->chain[strcspn(f->chain, "\n")] = 0;
			f->t = (double)kvnum(line, "t") / 1e9 - c->t0;
			f->execs = before + (long long)kvnum(line, "execs");
		}
	}
}

/* Read the records the target appended since last time. */
static void read_stats(struct campaign *c)
{
	FILE *f = fopen(c->stats, "r");
	char buf[LINE_MAX_];
	size_t got;

	if (!f)
		return;
	if (fseek(f, c->stats_off, SEEK_SET) == 0) {
		while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
			c->stats_off += (long)got;
			for (size_t i = 0; i < got; i++) {
				if (buf[i] == '\n') {
					c->carry[c->carry_len] = 0;
					stats_line(c, c->carry);
					c->carry_len = 0;
				} else if (c->carry_len + 1 < sizeof(c->carry)) {
					c->carry[c->carry_len++] = buf[i];
				}
			}
		}
	}
	fclose(f);
}

/* Totals over the engine processes, first events in campaign time. */
static void totals(struct campaign *c)
{
	struct th_fz_campaign *r = &c->rec;
	long long before = 0;

	r->executions = 0;
	memset(r->outcomes, 0, sizeof(r->outcomes));
	r->first_hijack.reached = r->goal_reached.reached = false;
	for (int i = 0; i < c->nprocs; i++) {
		const struct proc *p = &c->procs[i];

		r->executions += p->execs;
		for (int k = 0; k < TH_OUTCOME_COUNT; k++)
			r->outcomes[k] += p->counts[k];
		if (p->first_hijack && !r->first_hijack.reached) {
			r->first_hijack = (struct th_fz_first){ true, (double)p->first_hijack_t / 1e9 - c->t0,
								before + (long long)p->first_hijack };
		}
		if (p->goal && !r->goal_reached.reached) {
			r->goal_reached = (struct th_fz_first){ true, (double)p->goal_t / 1e9 - c->t0,
								before + (long long)p->goal };
		}
		before += p->execs;
	}
	/* A record lost to a hard death must not make counts disagree with
	 * the executions: every run counted is one run. */
	long long sum = 0;

	for (int k = 0; k < TH_OUTCOME_COUNT; k++)
		sum += r->outcomes[k];
	r->executions = sum;
}

/* "cov: N ft: M corp: C/..." from the end of the engine's log. */
static void read_coverage(struct campaign *c)
{
	FILE *f = fopen(c->log, "r");
	char line[LINE_MAX_];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, " cov: ");
		long long cov, ft, corp;

		if (p && sscanf(p, " cov: %lld ft: %lld corp: %lld", &cov, &ft, &corp) == 3) {
			c->rec.edges = cov > c->rec.edges ? cov : c->rec.edges;
			c->rec.features = ft > c->rec.features ? ft : c->rec.features;
			c->rec.corpus = corp;
		}
		/* AFL++: fuzzer_stats is read separately. */
	}
	fclose(f);
}

/* ---- processes -------------------------------------------------------------------------- */

static pid_t spawn(char *const argv[], char *const env_add[], const char *log_path, int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = log_path ? open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)
				  : open("/dev/null", O_WRONLY | O_CLOEXEC);

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (fd >= 0) {
			dup2(out_fd >= 0 ? out_fd : fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		for (int i = 0; env_add && env_add[i]; i++)
			putenv(env_add[i]);
		execv(argv[0], argv);
		fprintf(stderr, "timerharness fuzz: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

/* Replay one input in a fresh process: the TH-FUZZ-RESULT line. */
static int replay(const struct campaign *c, const char *input, enum th_outcome *o, char *sig,
		  size_t sign, char *chain, size_t chn)
{
	return th_fz_replay_input(c->replay->path, c->rec.options, input, o, sig, sign, chain, chn);
}

static void copy_file(const char *from, const char *dir, const char *name)
{
	char *to = th_xasprintf("%s/finding-%s", dir, name);
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	char buf[4096];
	size_t n;

	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	free(to);
}

static void sanitize(char *s)
{
	for (; *s; s++)
		if (*s == ':')
			*s = '-';
}

static void save_finding(struct campaign *c, const char *artifact, enum th_outcome o, const char *sig,
			 const char *chain)
{
	char name[SIG_MAX], *bin, *txt, *rel, hash[65];
	int fd;
	struct th_fz_finding *f;
	const struct found *in = NULL;
	FILE *fp;
	const char *colon = strchr(sig, ':');

	for (int i = 0; i < c->nfnd; i++)
		if (!strcmp(c->fnd[i].sig, sig))
			return;
	if (c->nfnd == (int)(sizeof(c->fnd) / sizeof(c->fnd[0])))
		return;
	for (int i = 0; i < c->nfound; i++)
		if (!strcmp(c->found[i].sig, sig))
			in = &c->found[i];
	snprintf(name, sizeof(name), "%s", sig);
	sanitize(name);
	bin = th_xasprintf("%s/%s.bin", c->findings_dir, name);
	txt = th_xasprintf("%s/%s.chain", c->findings_dir, name);
	if (rename(artifact, bin)) {
		free(bin);
		free(txt);
		return;
	}
	/* fuzz.json records the bytes it names: check finds out when the file
	 * is gone or not the one found. */
	fd = open(bin, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || th_sha256_fd(fd, hash)) {
		fprintf(stderr, "timerharness fuzz: %s: %s: the finding %s is not recorded\n", bin,
			strerror(errno), sig);
		if (fd >= 0)
			close(fd);
		free(bin);
		free(txt);
		return;
	}
	close(fd);
	/* The next engine process starts from it (the engine does not keep an
	 * input it crashed on): a search toward a more severe finding goes on
	 * from here, and its signature is known now, so it is not reported again. */
	copy_file(bin, c->corpus, name);
	fp = fopen(txt, "w");
	if (fp) {
		fprintf(fp, "%s\n%s\n", sig, chain);
		fclose(fp);
	}
	rel = th_xasprintf("%s/findings/%s.bin", c->rel, name);
	/* A finding the run did not report: first seen when its artifact was
	 * rechecked, by the counts as they are now. */
	if (!in)
		totals(c);
	f = &c->fnd[c->nfnd++];
	memset(f, 0, sizeof(*f));
	f->sig = th_xstrdup(sig);
	f->outcome = o;
	f->chain_id = th_xstrdup(colon ? colon + 1 : "-");
	f->first_seconds = in ? (in->t > 0 ? in->t : 0) : th_now_s() - c->t0;
	f->first_executions = in ? in->execs : c->rec.executions;
	f->reproducer = rel;
	memcpy(f->sha256, hash, sizeof(f->sha256));
	f->replayed = o;
	f->reproduced = in != NULL;
	f->chain = th_xstrdup(chain);
	free(bin);
	free(txt);
}

/* Did a run of the campaign report sig (the engine process that ended with
 * this artifact, or, under AFL++, whose children are not known one by one,
 * any of them)? */
static int reported(const struct campaign *c, const struct proc *p, const char *sig)
{
	if (p)
		return !strcmp(sig, p->last_sig);
	/* afl-fuzz: its runs are processes it forks, each reports its own;
	 * any of the campaign's reports will do. */
	for (int i = 0; i < c->nprocs; i++)
		if (!strcmp(sig, c->procs[i].last_sig))
			return 1;
	for (int i = 0; i < c->nfound; i++)
		if (!strcmp(sig, c->found[i].sig))
			return 1;
	return 0;
}

/* Replay every artifact the engine left; keep findings, drop the rest. */
static void recheck(struct campaign *c, const struct proc *p)
{
	DIR *d = opendir(c->artifacts);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path, sig[SIG_MAX], chain[2200];
		enum th_outcome o;

		if (e->d_name[0] == '.')
			continue;
		path = th_xasprintf("%s/%s", c->artifacts, e->d_name);
		c->rec.rechecked++;
		if (replay(c, path, &o, sig, sizeof(sig), chain, sizeof(chain)) || !reported(c, p, sig)) {
			/* Kept, with what each side said, for whoever looks into it. */
			char *keep = th_xasprintf("%s/disagreement-%lld", c->dir, c->rec.disagreements);
			FILE *lg = fopen(c->recheck_log, "a");

			c->rec.disagreements++;
			if (lg) {
				fprintf(lg, "%s: the run reported %s, the replay %s: %s\n", keep,
					p && p->last_sig[0] ? p->last_sig : "nothing", sig, chain);
				fclose(lg);
			}
			if (!th_fz_is_finding(o))
				rename(path, keep);
			free(keep);
		}
		/* The target reports what the replay confirms, and nothing else. */
		if (th_fz_is_finding(o)) {
			FILE *k = fopen(c->known, "a");

			if (k) {
				fprintf(k, "%s\n", sig);
				fclose(k);
			}
			save_finding(c, path, o, sig, chain);
		}
		unlink(path);
		free(path);
	}
	closedir(d);
}

/* AFL++ (afl-fuzz, the target built with its driver): one run for the whole
 * budget; it saves every crash and goes on, so nothing restarts it. */
static int start_afl(struct campaign *c, const struct th_fz_opts *o)
{
	double left = c->deadline - th_now_s();
	char *secs = th_xasprintf("%d", (int)ceil(left > 1 ? left : 1));
	char *seed = th_xasprintf("%lu", c->seed++);
	char *outd = th_xasprintf("%s/afl", c->dir);
	char *stats = th_xasprintf("TH_FUZZ_STATS=%s", c->stats);
	char *known = th_xasprintf("TH_FUZZ_KNOWN=%s", c->known);
	char *argv[] = { "/usr/bin/afl-fuzz", "-i", (char *)c->seeds, "-o", outd, "-V", secs,
			 "-s", seed, "-m", "none", "-t", "1000+", "--", c->bin->path, NULL };
	char *env[] = { stats, known, "AFL_NO_UI=1", "AFL_SKIP_CPUFREQ=1", "AFL_NO_AFFINITY=1",
			"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1", "AFL_SKIP_CRASHES=1",
			o->no_leak ? "TH_FUZZ_NO_LEAK=1" : NULL, NULL };

	free(c->artifacts);
	c->artifacts = th_xasprintf("%s/default/crashes", outd);
	c->pid = spawn(argv, env, c->log, -1);
	free(secs);
	free(seed);
	free(outd);
	free(stats);
	free(known);
	return c->pid < 0 ? -1 : 0;
}

/* edges_found and corpus_count of AFL++'s fuzzer_stats. */
static void read_afl_coverage(struct campaign *c)
{
	char *path = th_xasprintf("%s/afl/default/fuzzer_stats", c->dir);
	FILE *f = fopen(path, "r");
	char line[256];

	free(path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long long v;

		if (sscanf(line, "edges_found : %lld", &v) == 1)
			c->rec.edges = v;
		else if (sscanf(line, "corpus_count : %lld", &v) == 1)
			c->rec.corpus = v;
	}
	fclose(f);
}

static int start_libfuzzer(struct campaign *c, const struct th_fz_opts *o)
{
	double left = c->deadline - th_now_s();
	char *secs = th_xasprintf("-max_total_time=%d", (int)ceil(left > 1 ? left : 1));
	char *art = th_xasprintf("-artifact_prefix=%s/", c->artifacts);
	char *seed = th_xasprintf("-seed=%lu", c->seed++);
	char *stats = th_xasprintf("TH_FUZZ_STATS=%s", c->stats);
	char *known = th_xasprintf("TH_FUZZ_KNOWN=%s", c->known);
	char *argv[16];
	char *env[4] = { stats, known, o->no_leak ? "TH_FUZZ_NO_LEAK=1" : NULL, NULL };
	int a = 0;

	argv[a++] = c->bin->path;
	argv[a++] = secs;
	argv[a++] = "-max_len=512";	/* fuzz/options/overflow.options */
	argv[a++] = "-timeout=10";
	argv[a++] = "-print_final_stats=1";
	argv[a++] = art;
	argv[a++] = seed;
	if (o->value_profile)
		argv[a++] = "-use_value_profile=1";
	argv[a++] = c->corpus;
	argv[a++] = (char *)c->seeds;
	argv[a] = NULL;
	c->pid = spawn(argv, env, c->log, -1);
	free(secs);
	free(art);
	free(seed);
	free(stats);
	free(known);
	return c->pid < 0 ? -1 : 0;
}

/* The engine started once more (c->pid), whichever it is: its restarts
 * counted, its kill time set. */
static int start_engine(struct campaign *c, const struct th_fz_opts *o)
{
	if (strcmp(c->rec.engine, "afl") ? start_libfuzzer(c, o) : start_afl(c, o))
		return -1;
	c->rec.restarts++;
	c->kill_at = c->deadline + GRACE_S;
	c->killed = 0;
	return 0;
}

static int start_campaign(struct campaign *c, const struct th_fz_opts *o)
{
	remove_tree(c->dir);
	if (th_mkdir_p(c->corpus) || th_mkdir_p(c->artifacts) || th_mkdir_p(c->findings_dir)) {
		fprintf(stderr, "timerharness fuzz: cannot create %s: %s\n", c->dir, strerror(errno));
		return -1;
	}
	c->t0 = th_now_s();
	c->deadline = c->t0 + o->seconds;
	c->phase = RUNNING;
	return start_engine(c, o);
}

/* The engine process ended: account, re-check, restart while time is left. */
static void engine_ended(struct campaign *c, const struct th_fz_opts *o)
{
	const struct proc *p = NULL;

	read_stats(c);
	for (int i = 0; i < c->nprocs; i++)
		if (c->procs[i].pid == (long)c->pid)
			p = &c->procs[i];
	recheck(c, p);
	if (strcmp(c->rec.engine, "afl"))
		read_coverage(c);
	else
		read_afl_coverage(c);
	c->pid = 0;
	if (strcmp(c->rec.engine, "afl") && !interrupted && c->deadline - th_now_s() > 0.5) {
		if (!start_engine(c, o))
			return;
	}
	c->t_end = th_now_s();
	c->phase = DONE;
}

static void finish_record(struct campaign *c)
{
	struct th_fz_campaign *r = &c->rec;

	totals(c);
	r->seconds = (c->phase == DONE ? c->t_end : th_now_s()) - c->t0;
	if (r->seconds < 0)
		r->seconds = 0;
	r->exec_per_second = r->seconds > 0 ? (double)r->executions / r->seconds : 0;
	if (r->first_hijack.reached && r->first_hijack.seconds < 0)
		r->first_hijack.seconds = 0;
	if (r->goal_reached.reached && r->goal_reached.seconds < 0)
		r->goal_reached.seconds = 0;
}

/* ---- the summary -------------------------------------------------------------------------- */

/* The run as the model of DIR/fuzz.json (results/fuzz_summary.h), partial
 * ("SIGINT", "SIGTERM") when interrupted. Return: the summary, or NULL
 * after saying why on stderr. */
static struct th_fz_summary *summarise(struct th_fz_run *r, const char *partial)
{
	const struct th_fz_opts *o = r->o;
	struct th_fz_summary *s = th_fz_summary_create(o->version, o->seconds, "write_cr4(0x407f0)");
	char err[1024];
	int rc = 0;

	if (!s)
		return NULL;
	s->partial = partial != NULL;
	s->interrupted = partial ? th_xstrdup(partial) : NULL;
	/* fuzz --slice: the selection is what this run planned. */
	s->selection.planned = o->planned_slice;
	if (th_fz_summary_set_run(s, r->run_rel, err, sizeof(err)) ||
	    th_fz_summary_set_selection(s, o->targets, o->variants, o->configs, o->toolchains)) {
		fprintf(stderr, "timerharness fuzz: %s\n", *err ? err : "out of memory");
		th_fz_summary_free(s);
		return NULL;
	}
	*err = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct campaign *c = &r->cs[i];
		struct th_fz_campaign *rec;

		if (c->phase == PENDING && strcmp(c->rec.status, "unsupported"))
			continue;
		if (c->phase != PENDING)
			finish_record(c);
		rec = th_fz_summary_add_campaign(s, &c->rec, err, sizeof(err));
		for (int k = 0; rec && k < c->nfnd; k++)
			if (th_fz_campaign_add_finding(rec, &c->fnd[k], err, sizeof(err)))
				rec = NULL;
		if (!rec) {
			fprintf(stderr, "timerharness fuzz: %s\n", err);
			rc = -1;
		}
	}
	if (rc) {
		th_fz_summary_free(s);
		return NULL;
	}
	return s;
}

void th_fz_campaigns_prune(const struct th_fz_run *r)
{
	char *top = th_xasprintf("%s/fuzz", r->o->out_dir);
	DIR *d = opendir(top);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p;
		struct stat st;

		if (!th_fz_run_dir_name(e->d_name) || !strcmp(e->d_name, r->run_rel + 5))
			continue;
		p = th_xasprintf("%s/%s", top, e->d_name);
		if (!lstat(p, &st) && S_ISDIR(st.st_mode)) {
			remove_tree(p);
			rmdir(p);
		}
		free(p);
	}
	if (d)
		closedir(d);
	free(top);
}

/* ---- progress ----------------------------------------------------------------------------- */

/* How far the run is, for the caller's screen (th_fz_opts.show_progress). */
static void progress(struct campaign *cs, size_t n, double t0, int final, const struct th_fz_opts *o)
{
	struct th_fz_progress p = { .seconds = th_now_s() - t0, .campaigns = n };

	for (size_t i = 0; i < n; i++) {
		struct campaign *c = &cs[i];

		if (c->phase == PENDING)
			continue;
		read_stats(c);
		totals(c);
		p.done += c->phase == DONE;
		p.running += c->phase == RUNNING;
		p.findings += c->nfnd;
		p.executions += c->rec.executions;
		for (int k = 0; k < TH_OUTCOME_COUNT; k++)
			p.outcomes[k] += c->rec.outcomes[k];
	}
	o->show_progress(&p, final, o->show_arg);
}

/* ---- main ------------------------------------------------------------------------------------ */

/*
 * The seed corpus of a target's campaigns: the overflow target's is
 * seeds_dir (--seeds); another family's lies beside it, named as its target
 * (fuzz/corpora/tasklet beside fuzz/corpora/overflow), when that is a
 * directory, else seeds_dir too (the same input format).
 */
static const char *seeds_of(const struct th_fz_opts *o, const char *target)
{
	const char *slash = strrchr(o->seeds_dir, '/');
	struct stat st;
	char *p;

	if (!strcmp(target, "overflow"))
		return o->seeds_dir;
	p = th_xasprintf("%.*s%s", slash ? (int)(slash - o->seeds_dir + 1) : 0, o->seeds_dir, target);
	if (!stat(p, &st) && S_ISDIR(st.st_mode) && !access(p, R_OK))
		return p;	/* kept for the run: one per campaign */
	free(p);
	return o->seeds_dir;
}

static int plan(struct th_fz_run *r, char *err, size_t n)
{
	const struct th_fz_opts *o = r->o;
	const struct th_fz_build *build = r->build;
	struct campaign *cs = NULL;
	size_t nc = 0;
	const char *engine = o->engine ? o->engine : "libfuzzer";
	static const char *const variants[] = { "legacy", "transitional", "modern" };

	if (o->targets) {
		char list[256];

		snprintf(list, sizeof(list), "%s", o->targets);
		for (char *p = list, *t; (t = th_list_split(&p));)
			if (th_fz_target_api(t) == TH_API_INVALID) {
				snprintf(err, n, "--target: no such target '%s' (targets: overflow, and each "
					 "API family but the timer by its name: %s)", t, th_api_names());
				return -1;
			}
	}
	if (strcmp(engine, "libfuzzer") && strcmp(engine, "afl")) {
		snprintf(err, n, "--engine must be libfuzzer or afl, not '%s'", engine);
		return -1;
	}
	for (size_t i = 0; i < build->nrows; i++) {
		const struct th_fz_built *b = &build->rows[i];
		const struct th_fz_built *rb;
		struct campaign *c;
		int known = 0;

		if (strcmp(b->engine, "libfuzzer") || th_fz_target_api(b->target) == TH_API_INVALID ||
		    !in_list(o->targets, b->target))
			continue;
		for (size_t v = 0; v < 3; v++)
			known |= !strcmp(b->variant, variants[v]);
		if (!known || !in_list(o->variants, b->variant) || !in_list(o->configs, b->config) ||
		    !in_list(o->toolchains, b->toolchain))
			continue;
		rb = b;
		if (strcmp(engine, "libfuzzer")) {
			b = find_bin(build, engine, rb->target, rb->toolchain, rb->variant, rb->config);
			if (!b) {
				snprintf(err, n, "--engine %s: no %s build of %s %s/%s/%s in the build "
					 "(fuzz-manifest.tsv lists none)", engine, engine, rb->target, rb->variant,
					 rb->config, rb->toolchain);
				free(cs);
				return -1;
			}
		}
		cs = realloc(cs, (nc + 1) * sizeof(*cs));
		if (!cs) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		c = &cs[nc++];
		memset(c, 0, sizeof(*c));
		c->bin = b;
		/* Artifacts are replayed by the binary that found them: a partial
		 * overwrite of a code pointer lands where that binary's layout
		 * puts it (AFL++'s driver runs a file given as its argument). */
		c->replay = b;
		{
			char rel[4096];

			/* <run>/<toolchain>/[<target>-]<variant>-<config>[-afl]. */
			th_fz_campaign_dir(r->run_rel, b->toolchain, b->target, b->variant, b->config, engine, rel,
					   sizeof(rel));
			c->rel = th_xasprintf("%s", rel);
		}
		c->dir = th_xasprintf("%s/%s", o->out_dir, c->rel);
		c->corpus = th_xasprintf("%s/corpus", c->dir);
		c->artifacts = th_xasprintf("%s/artifacts", c->dir);
		c->findings_dir = th_xasprintf("%s/findings", c->dir);
		c->log = th_xasprintf("%s/engine.log", c->dir);
		c->stats = th_xasprintf("%s/stats", c->dir);
		c->known = th_xasprintf("%s/known", c->dir);
		c->recheck_log = th_xasprintf("%s/recheck.log", c->dir);
		c->rec.target = b->target;
		c->seeds = seeds_of(o, b->target);
		c->rec.api = th_fz_target_api(b->target);
		c->rec.variant = th_variant_parse(b->variant);
		c->rec.config = b->config;
		c->rec.toolchain = b->toolchain;
		c->rec.engine = (char *)engine;
		c->rec.status = strcmp(b->status, "built") ? "unsupported" : "ran";
		c->rec.reason = strcmp(b->status, "built") ? b->reason : "";
		c->rec.options = o->value_profile && o->no_leak ? "-use_value_profile=1 no-leak" :
				 o->value_profile ? "-use_value_profile=1" : o->no_leak ? "no-leak" : "";
		c->seed = o->seed ? o->seed : (unsigned long)time(NULL);
		if (strcmp(b->status, "built"))
			c->phase = PENDING;
	}
	if (!nc) {
		snprintf(err, n, "no fuzz build matches --target %s --variant %s --config %s --toolchain %s",
			 o->targets ? o->targets : "*",
			 o->variants ? o->variants : "*", o->configs ? o->configs : "*",
			 o->toolchains ? o->toolchains : "*");
		return -1;
	}
	r->cs = cs;
	r->n = nc;
	return 0;
}

int th_fz_campaigns_plan(const struct th_fz_opts *o, struct th_fz_run **out)
{
	struct th_fz_run *r = th_xrealloc(NULL, sizeof(*r));
	char err[1024];

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	r->t0 = th_now_s();
	th_fz_run_new(r->run_rel, sizeof(r->run_rel));
	if (th_fz_build_load(o->build_root, &r->build, err, sizeof(err)) || plan(r, err, sizeof(err))) {
		fprintf(stderr, "timerharness fuzz: %s\n", err);
		th_fz_campaigns_free(r);
		return 2;
	}
	/* A directory, or every engine would start on nothing (a FIFO, a file). */
	struct stat sst;
	const char *why = NULL;

	if (stat(o->seeds_dir, &sst) || access(o->seeds_dir, R_OK))
		why = strerror(errno);
	else if (!S_ISDIR(sst.st_mode))
		why = "not a directory";
	if (why) {
		fprintf(stderr, "timerharness fuzz: seed corpus %s: %s\n", o->seeds_dir, why);
		th_fz_campaigns_free(r);
		return 2;
	}
	/* Made here, before the caller locks it: the lock's file lies in it. */
	if (th_mkdir_p(o->out_dir)) {
		fprintf(stderr, "timerharness fuzz: cannot create %s: %s\n", o->out_dir, strerror(errno));
		th_fz_campaigns_free(r);
		return 1;
	}
	*out = r;
	return 0;
}

int th_fz_campaigns_run(struct th_fz_run *r, struct th_fz_summary **summary)
{
	const struct th_fz_opts *o = r->o;
	struct campaign *cs = r->cs;
	size_t n = r->n, next = 0;
	int jobs = r->jobs, runnable = 0;
	double last_progress = 0;
	struct sigaction sa;

	*summary = NULL;
	/* This run's own directory, new: never one a summary may name. */
	{
		char *top = th_xasprintf("%s/fuzz", o->out_dir), *own = th_xasprintf("%s/%s", o->out_dir, r->run_rel);
		int bad = th_mkdir_p(top) || mkdir(own, 0755);

		if (bad)
			fprintf(stderr, "timerharness fuzz: cannot create %s: %s%s\n", own, strerror(errno),
				errno == EEXIST ? " (a run of this pid in this second: run again)" : "");
		free(top);
		free(own);
		if (bad)
			return 1;
	}
	for (size_t i = 0; i < n; i++)
		runnable += !strcmp(cs[i].rec.status, "ran");
	if (o->show_start)
		o->show_start(runnable, n - (size_t)runnable, jobs, o->show_arg);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	for (;;) {
		int running = 0;

		for (size_t i = 0; i < n; i++)
			running += cs[i].phase == RUNNING;
		while (!interrupted && running < jobs && next < n) {
			struct campaign *c = &cs[next++];

			if (strcmp(c->rec.status, "ran"))
				continue;
			if (start_campaign(c, o)) {
				c->rec.status = "failed";
				c->rec.reason = "the engine could not be started";
				c->phase = DONE;
				continue;
			}
			running++;
		}
		if (!running && (next >= n || interrupted))
			break;
		/* Reap engines, stop the ones past their budget. */
		for (size_t i = 0; i < n; i++) {
			struct campaign *c = &cs[i];
			int status;

			if (c->phase != RUNNING || !c->pid)
				continue;
			struct rusage ru;

			if (wait4(c->pid, &status, WNOHANG, &ru) == c->pid) {
				c->rec.cpu_seconds += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
						      (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
				engine_ended(c, o);
				continue;
			}
			if (interrupted || th_now_s() > c->kill_at) {
				kill(-c->pid, c->killed ? SIGKILL : SIGTERM);
				c->killed = 1;
				c->kill_at = th_now_s() + 2;
			}
		}
		if (o->show_progress && th_now_s() - last_progress >= (isatty(STDERR_FILENO) ? 1.0 : 10.0)) {
			progress(cs, n, r->t0, 0, o);
			last_progress = th_now_s();
		}
		poll(NULL, 0, 50);
	}
	if (o->show_progress)
		progress(cs, n, r->t0, 1, o);
	if (interrupted) {
		for (size_t i = 0; i < n; i++)
			if (cs[i].phase == RUNNING && cs[i].pid) {
				struct rusage ru;

				if (wait4(cs[i].pid, NULL, 0, &ru) == cs[i].pid)
					cs[i].rec.cpu_seconds += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
								 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
				read_stats(&cs[i]);
				cs[i].t_end = th_now_s();
				cs[i].phase = DONE;
			}
		*summary = summarise(r, interrupted == SIGINT ? "SIGINT" : "SIGTERM");
		return 130;
	}
	*summary = summarise(r, NULL);
	return 0;
}

const char *th_fz_campaigns_run_dir(const struct th_fz_run *r)
{
	return r->run_rel;
}

size_t th_fz_campaigns_count(const struct th_fz_run *r)
{
	return r->n;
}

const struct th_fz_campaign *th_fz_campaigns_record(const struct th_fz_run *r, size_t i, int *nfindings)
{
	*nfindings = r->cs[i].nfnd;
	return &r->cs[i].rec;
}

/* The plan's paths, the campaigns and the build they point into. */
void th_fz_campaigns_free(struct th_fz_run *r)
{
	for (size_t i = 0; r && i < r->n; i++) {
		struct campaign *c = &r->cs[i];

		free(c->dir);
		free(c->corpus);
		free(c->artifacts);
		free(c->findings_dir);
		free(c->log);
		free(c->stats);
		free(c->known);
		free(c->recheck_log);
		free(c->rel);
	}
	if (r) {
		free(r->cs);
		th_fz_build_free(r->build);
	}
	free(r);
}
