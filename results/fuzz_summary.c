/* SPDX-License-Identifier: MIT */
/* fuzz.json: the model, an atomic writer and a strict loader (fuzz_summary.h). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_summary.h"
#include "json_load.h"
#include "results_internal.h"
#include "lib/fs.h"
#include "lib/sbuf.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Seconds a first hit may lie past its campaign's end (rounding). */
#define TH_FZ_SLACK_S 0.01

bool th_fz_is_finding(enum th_outcome o)
{
	return th_outcome_got_through(o);
}

size_t th_fz_chain_steps(const char *chain_id, enum th_outcome o, struct th_fz_step *out, size_t max)
{
	static const char sep[] = TH_FZ_CHAIN_SEP;
	static const enum th_outcome own[] = { TH_PRIVILEGED_WRITE, TH_HIJACKED, TH_REDIRECTED };
	size_t n = 0;
	const char *p = chain_id;
	int several = strstr(chain_id, sep) != NULL;

	if (!*chain_id || !strcmp(chain_id, "-"))
		return 0;
	while (*p) {
		const char *end = strstr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p), whole = len;
		enum th_outcome so = o;

		if (n == max || !len)
			return 0;
		if (several) {
			size_t k;

			for (k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
				const char *name = th_outcome_name(own[k]);
				size_t nl = strlen(name);

				if (len > nl + 1 && p[len - nl - 1] == '_' && !strncmp(p + len - nl, name, nl)) {
					so = own[k];
					len -= nl + 1;
					break;
				}
			}
			if (k == sizeof(own) / sizeof(own[0]))
				return 0;
		}
		if (len >= sizeof(out[n].id))
			return 0;
		memcpy(out[n].id, p, len);
		out[n].id[len] = 0;
		out[n++].outcome = so;
		p = end ? end + strlen(sep) : p + whole;
	}
	return n;
}

/* ---- the verdict of a generation ----------------------------------------------------- */

/* Is a step's target another subsystem's timer callback of the call site's
 * type, planted in .function: process_timeout (kernel/time/timer.c), the
 * oracle's PROCESS_TIMEOUT (fuzz/overflow_oracle.h)? */
static bool foreign_step(const char *id)
{
	return !strncmp(id, "PROCESS_TIMEOUT_", strlen("PROCESS_TIMEOUT_"));
}

/* Has f a HIJACKED step through another subsystem's callback (foreign), or
 * of a privileged target through the timer's own call: the ring's
 * .function, a forged timer's, or one the oracle could not name (not
 * foreign)? */
static bool hijack_step(const struct th_fz_finding *f, bool foreign)
{
	struct th_fz_step st[TH_FZ_STEPS_MAX];
	size_t n = f->outcome == TH_HIJACKED ? th_fz_chain_steps(f->chain_id, f->outcome, st, TH_FZ_STEPS_MAX) : 0;

	for (size_t i = 0; i < n; i++)
		if (st[i].outcome == TH_HIJACKED && foreign_step(st[i].id) == foreign)
			return true;
	return false;
}

bool th_fz_direct_hijack(const struct th_fz_finding *f)
{
	return hijack_step(f, false);
}

bool th_fz_foreign_hijack(const struct th_fz_finding *f)
{
	return hijack_step(f, true);
}

/* config, or config/toolchain when the summary has several toolchains. */
static void vcamp(struct th_sbuf *b, const struct th_fz_summary *s, const struct th_fz_campaign *c)
{
	int several = 0;

	for (size_t i = 0; i < s->ncampaigns; i++)
		several |= strcmp(s->campaigns[i].toolchain, c->toolchain) != 0;
	th_sbuf_put(b, several ? "%s/%s" : "%s", c->config, c->toolchain);
	if (strcmp(c->engine, "libfuzzer"))
		th_sbuf_put(b, " (%s)", c->engine);
}

bool th_fz_own_call_by_construction(enum th_api a, enum th_variant v)
{
	/* Both families' modern call passes the object itself (4.15's
	 * fn(timer), the callback-only tasklet's callback(t)). */
	(void)a;
	return v == TH_VARIANT_MODERN;
}

/* The family's word for its object ("timer", "tasklet"). */
static const char *own_word(enum th_api a)
{
	return th_api_name(a) ? th_api_name(a) : "timer";
}

/* Is c a campaign of family a and variant v that ran? */
static bool of(const struct th_fz_campaign *c, enum th_api a, enum th_variant v)
{
	return c->variant == v && c->api == a && !strcmp(c->status, "ran");
}

/* "uid 0, gid 0" from a chain's "privileged state changed: uid 1000 -> 0,
 * gid 1000 -> 0" (fuzz/overflow_oracle.c judge(), put_priv()): each field
 * as it ended. The last such text: the oracle writes it after every text a
 * target reported (a path the attacker wrote may say anything), and only
 * oracle and runtime text after it. Empty when the chain says none. */
static void changed_to(const char *chain, char *out, size_t n)
{
	static const char key[] = "privileged state changed:";
	const char *p = NULL;
	struct th_sbuf b = { out, n, 0 };

	if (n)
		out[0] = 0;
	for (const char *q = chain; q && (q = strstr(q, key)); q++)
		p = q;
	if (!p)
		return;
	p += sizeof(key) - 1;
	for (;;) {
		char name[16], to[32];
		int used = 0;

		if (sscanf(p, " %15[A-Za-z0-9] %*s -> %31[0-9a-fx]%n", name, to, &used) != 2 || !used)
			return;
		/* An id past 16 bits is an address's half or a poison, not a user:
		 * hex says what it is (0xdead0000, not 3735879680). */
		if (strspn(to, "0123456789") == strlen(to) && strtoull(to, NULL, 10) > 0xffff)
			th_sbuf_put(&b, "%s%s 0x%llx", b.len ? ", " : "", name, strtoull(to, NULL, 10));
		else
			th_sbuf_put(&b, "%s%s %s", b.len ? ", " : "", name, to);
		p += used;
		if (strncmp(p, ", ", 2))
			return;
		p += 2;
	}
}

/* What a step's WHAT names: the function that ran (FORCE_CLOSE: the
 * family's same-class target). */
static const char *step_function(enum th_api a, const char *id)
{
	if (!strncmp(id, "FORCE_CLOSE_", strlen("FORCE_CLOSE_")))
		return a == TH_API_TIMER ? "ring_force_close" : "tasklet_force_close";
	static const struct {
		const char *what, *fn;
	} fns[] = {
		{ "WRITE_CR4_", "write_cr4" },	{ "COMMIT_CREDS_", "commit_creds" },
		{ "USERMODEHELPER_", "call_usermodehelper" }, { "FORCE_CLOSE_", "ring_force_close" },
		{ "PROCESS_TIMEOUT_", "process_timeout" },
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strncmp(id, fns[i].what, strlen(fns[i].what)))
			return fns[i].fn;
	return NULL;
}

/* Add the campaign's name (vcamp()) to a ", " list, once. */
static void add_config(char *list, size_t n, const struct th_fz_summary *s, const struct th_fz_campaign *c)
{
	char name[96];
	struct th_sbuf one = { name, sizeof(name), 0 }, all = { list, n, strlen(list) };
	size_t ln;

	vcamp(&one, s, c);
	ln = strlen(name);
	for (const char *q = list; (q = strstr(q, name)); q += ln)
		if ((q == list || (q >= list + 2 && q[-1] == ' ' && q[-2] == ',')) && (q[ln] == ',' || !q[ln]))
			return;
	th_sbuf_put(&all, "%s%s", all.len ? ", " : "", name);
}

size_t th_fz_reach(const struct th_fz_summary *s, enum th_api a, enum th_variant v, struct th_fz_reach *out,
		   size_t max, size_t *ncfi)
{
	size_t n = 0;

	*ncfi = 0;
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];

		/* Under CFI: a check of the dispatch stopped some of its runs. */
		if (!of(c, a, v) || c->outcomes[TH_BLOCKED_CFI] + c->outcomes[TH_FALSE_POSITIVE] == 0)
			continue;
		++*ncfi;
		for (size_t k = 0; k < c->nfindings; k++) {
			const struct th_fz_finding *f = &c->findings[k];
			struct th_fz_step st[TH_FZ_STEPS_MAX];
			size_t ns = th_fz_chain_steps(f->chain_id, f->outcome, st, TH_FZ_STEPS_MAX);

			for (size_t j = 0; j < ns; j++) {
				struct th_fz_reach *r = NULL;

				if (st[j].outcome == TH_HIJACKED && foreign_step(st[j].id))
					continue;	/* said apart: another subsystem's callback */
				for (size_t m = 0; m < n && !r; m++)
					if (!strcmp(out[m].step, st[j].id))
						r = &out[m];
				if (!r) {
					if (n == max)
						continue;
					r = &out[n++];
					memset(r, 0, sizeof(*r));
					snprintf(r->step, sizeof(r->step), "%s", st[j].id);
					r->outcome = st[j].outcome;
				}
				if (th_outcome_more_severe(st[j].outcome, r->outcome))
					r->outcome = st[j].outcome;
				/* What changed: said by a run that did nothing else,
				 * a privileged write. */
				if (!r->changed[0] && ns == 1 && st[j].outcome == TH_PRIVILEGED_WRITE)
					changed_to(f->chain, r->changed, sizeof(r->changed));
				add_config(r->configs, sizeof(r->configs), s, c);
			}
		}
	}
	for (size_t m = 0; m < n; m++) {
		struct th_fz_reach *r = &out[m];
		const char *fn = step_function(a, r->step);
		struct th_sbuf sb = { r->label, sizeof(r->label), 0 };

		if (!fn)
			th_sbuf_put(&sb, "%s via %s", r->changed[0] ? r->changed : "privileged state changed",
			     strstr(r->step, "_VIA_CALLBACK") ? "the legitimate callback's write" :
			     strstr(r->step, "_VIA_LIST") ? "the list's writes" : "a write no target made");
		else if (r->outcome == TH_PRIVILEGED_WRITE)
			th_sbuf_put(&sb, "%s via %s", r->changed[0] ? r->changed : "privileged state changed", fn);
		else
			th_sbuf_put(&sb, "%s %s", fn, r->outcome == TH_HIJACKED ? "HIJACKED" : "redirected");
	}
	return n;
}

size_t th_fz_reach_labels(const struct th_fz_reach *r, size_t nr, const char **labels, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; k < nr && n < max; k++) {
		bool again = false;

		for (size_t j = 0; j < n && !again; j++)
			again = !strcmp(labels[j], r[k].label);
		if (!again)
			labels[n++] = r[k].label;
	}
	return n;
}

size_t th_fz_verdict(const struct th_fz_summary *s, enum th_api a, enum th_variant v, char *buf, size_t n)
{
	const char *w = own_word(a);
	struct th_sbuf b = { buf, n, 0 };
	const char *writes[32], *redirects[32];
	size_t nwrites = 0, nredirects = 0, ncamp = 0;
	int sep, wrote = 0, own = 0;

	if (n)
		buf[0] = 0;
	for (size_t i = 0; i < s->ncampaigns; i++)
		ncamp += of(&s->campaigns[i], a, v);
	if (!ncamp)
		return 0;
	/* The timer's generations by their names alone (as before the
	 * families); another family's with its name first. */
	if (a == TH_API_TIMER)
		th_sbuf_put(&b, "%s: ", th_variant_name(v));
	else
		th_sbuf_put(&b, "%s %s: ", w, th_variant_name(v));
	/* The timer's own call hijacked: where, how soon; where not, after how much. */
	for (int found = 1; found >= 0; found--) {
		sep = 0;
		for (size_t i = 0; i < s->ncampaigns; i++) {
			const struct th_fz_campaign *c = &s->campaigns[i];
			double first = -1;

			if (!of(c, a, v))
				continue;
			for (size_t k = 0; k < c->nfindings; k++)
				if (th_fz_direct_hijack(&c->findings[k]) &&
				    (first < 0 || c->findings[k].first_seconds < first))
					first = c->findings[k].first_seconds;
			if ((first >= 0) != found)
				continue;
			own |= found;
			if (sep)
				th_sbuf_put(&b, ", ");
			else if (found)
				th_sbuf_put(&b, "hijacked through the %s's own call%s on ", w,
					    a == TH_API_TASKLET && v == TH_VARIANT_TRANSITIONAL ?
					    " (use_callback cleared: func(data) called, the site whose type "
					    "admits write_cr4)" : "");
			else
				th_sbuf_put(&b, wrote ? "; not on " : "no hijack through the %s's own call on ", w);
			wrote = 1;
			vcamp(&b, s, c);
			if (found)
				th_sbuf_put(&b, " (%.2f s)", first);
			else
				th_sbuf_put(&b, " (%lld executions, %lld CFI blocks)", c->executions,
				     c->outcomes[TH_BLOCKED_CFI]);
			sep = 1;
		}
	}
	if (!own && th_fz_own_call_by_construction(a, v)) {
		struct th_fz_reach r[32];
		size_t ncfi, nr = th_fz_reach(s, a, v, r, sizeof(r) / sizeof(r[0]), &ncfi);

		th_sbuf_put(&b, ", as the oracle is built: the %s call passes the %s itself, never bytes the "
			 "attacker wrote, so no run through the %s's own call can be HIJACKED",
			 a == TH_API_TIMER ? "4.15" : "callback-only", w, w);
		if (ncfi) {
			th_sbuf_put(&b, "; under CFI (the %zu campaign%s whose runs a check stopped) %s", ncfi,
			     ncfi == 1 ? "" : "s", nr ? "it still reached: " : "no privileged write or redirect was found");
			for (size_t k = 0; k < nr; k++)
				th_sbuf_put(&b, "%s%s (%s %s, on %s)", k ? "; " : "", r[k].label, r[k].step,
				     th_outcome_name(r[k].outcome), r[k].configs);
		}
	}

	/* Through another subsystem's callback. */
	sep = 0;
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];
		int foreign = 0;

		if (!of(c, a, v))
			continue;
		for (size_t k = 0; k < c->nfindings; k++)
			foreign |= th_fz_foreign_hijack(&c->findings[k]);
		if (!foreign)
			continue;
		th_sbuf_put(&b, "%s", sep ? ", " : "; hijacked through another subsystem's callback "
					    "(process_timeout: the attacker's task woken) on ");
		vcamp(&b, s, c);
		sep = 1;
	}
	/* Privileged state written, targets redirected, without a hijack:
	 * the chains, once each. */
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];

		if (!of(c, a, v))
			continue;
		for (size_t k = 0; k < c->nfindings; k++) {
			const struct th_fz_finding *f = &c->findings[k];
			const char **list = f->outcome == TH_PRIVILEGED_WRITE ? writes :
					    f->outcome == TH_REDIRECTED ? redirects : NULL;
			size_t *nl = f->outcome == TH_PRIVILEGED_WRITE ? &nwrites : &nredirects;
			size_t w = 0;

			if (!list)
				continue;
			while (w < *nl && strcmp(list[w], f->chain_id))
				w++;
			if (w == *nl && *nl < sizeof(writes) / sizeof(writes[0]))
				list[(*nl)++] = f->chain_id;
		}
	}
	for (size_t w = 0; w < nwrites; w++)
		th_sbuf_put(&b, "%s%s", w ? ", " : "; privileged writes (PRIVILEGED_WRITE): ", writes[w]);
	for (size_t w = 0; w < nredirects; w++)
		th_sbuf_put(&b, "%s%s", w ? ", " : "; targets redirected (REDIRECTED): ", redirects[w]);
	th_sbuf_put(&b, ".");
	return b.len;
}

size_t th_fz_generation(const struct th_fz_summary *s, enum th_api a, enum th_variant v,
			struct th_fz_generation *g)
{
	*g = (struct th_fz_generation){ .first = -1 };
	for (size_t i = 0; i < s->ncampaigns; i++) {
		const struct th_fz_campaign *c = &s->campaigns[i];
		bool own = false, foreign = false;

		if (!of(c, a, v))
			continue;
		g->configs++;
		g->runs += c->executions;
		g->blocks += c->outcomes[TH_BLOCKED_CFI];
		for (size_t k = 0; k < c->nfindings; k++) {
			const struct th_fz_finding *f = &c->findings[k];

			if (th_fz_direct_hijack(f)) {
				own = true;
				if (g->first < 0 || f->first_seconds < g->first)
					g->first = f->first_seconds;
			} else if (f->outcome == TH_HIJACKED) {
				foreign = true;
			}
		}
		g->own += own;
		g->foreign += foreign;
	}
	return g->configs;
}

char *th_fz_summary_beside(const char *results_path, char *buf, size_t n)
{
	const char *slash = strrchr(results_path, '/');

	if (slash)
		snprintf(buf, n, "%.*s/%s", (int)(slash - results_path), results_path, TH_FUZZ_FILE);
	else
		snprintf(buf, n, "%s", TH_FUZZ_FILE);
	return buf;
}

/* ---- model ---- */

char *th_fz_run_new(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	char now[32];

	if (!gmtime_r(&t, &tm) || !strftime(now, sizeof(now), "%Y%m%dT%H%M%SZ", &tm))
		snprintf(now, sizeof(now), "19700101T000000Z");
	snprintf(buf, n, "fuzz/%s-%ld", now, (long)getpid());
	return buf;
}

bool th_fz_run_dir_name(const char *name)
{
	size_t i;

	/* YYYYMMDDTHHMMSSZ-PID */
	for (i = 0; i < 15; i++)
		if (i == 8 ? name[i] != 'T' : (name[i] < '0' || name[i] > '9'))
			return false;
	if (name[15] != 'Z' || name[16] != '-' || !name[17])
		return false;
	for (i = 17; name[i]; i++)
		if (name[i] < '0' || name[i] > '9' || i > 30)
			return false;
	return true;
}

int th_fz_summary_set_run(struct th_fz_summary *s, const char *run, char *err, size_t errlen)
{
	char *d;

	if (!run || strncmp(run, "fuzz/", 5) || !th_fz_run_dir_name(run + 5))
		return th_results_errf(err, errlen, "run \"%s\" is not fuzz/YYYYMMDDTHHMMSSZ-PID",
				       run ? run : "");
	if (!(d = th_results_strdup(run)))
		return th_results_errf(err, errlen, "out of memory");
	free(s->run);
	s->run = d;
	return 0;
}

static int set_opt(char **field, const char *v)
{
	char *d = NULL;

	if (v && !(d = th_results_strdup(v)))
		return -1;
	free(*field);
	*field = d;
	return 0;
}

int th_fz_summary_set_selection(struct th_fz_summary *s, const char *targets, const char *variants,
				const char *configs, const char *toolchains)
{
	return set_opt(&s->selection.targets, targets) || set_opt(&s->selection.variants, variants) ||
	       set_opt(&s->selection.configs, configs) || set_opt(&s->selection.toolchains, toolchains)
	       ? -1 : 0;
}

bool th_fz_summary_is_slice(const struct th_fz_summary *s)
{
	return s->selection.targets || s->selection.variants || s->selection.configs ||
	       s->selection.toolchains;
}

enum th_api th_fz_target_api(const char *target)
{
	enum th_api a;

	if (!target)
		return TH_API_INVALID;
	if (!strcmp(target, "overflow"))
		return TH_API_TIMER;
	a = th_api_parse(target);
	return a == TH_API_TIMER ? TH_API_INVALID : a;
}

const char *th_fz_api_target(enum th_api a)
{
	return a == TH_API_TIMER ? "overflow" : th_api_name(a);
}

char *th_fz_campaign_dir(const char *run, const char *toolchain, const char *target, const char *variant,
			 const char *config, const char *engine, char *buf, size_t n)
{
	int other = strcmp(target, "overflow") != 0;
	int w = snprintf(buf, n, "%s/%s/%s%s%s-%s%s", run ? run : "", toolchain, other ? target : "",
			 other ? "-" : "", variant ? variant : "?", config,
			 engine && strcmp(engine, "libfuzzer") ? "-afl" : "");

	if (w < 0 || (size_t)w >= n)
		buf[0] = 0;
	return buf;
}

char *th_fz_reproducer_path(const struct th_fz_summary *s, const struct th_fz_campaign *c,
			    const char *sig, char *buf, size_t n)
{
	const char *colon = strchr(sig, ':');
	char dir[4096];
	int w;

	th_fz_campaign_dir(s->run, c->toolchain, c->target, th_variant_name(c->variant), c->config,
			   c->engine, dir, sizeof(dir));
	w = snprintf(buf, n, "%s/findings/%.*s-%s.bin", dir, colon ? (int)(colon - sig) : 0, sig,
		     colon ? colon + 1 : sig);
	if (!dir[0] || w < 0 || (size_t)w >= n)
		buf[0] = 0;
	return buf;
}

struct th_fz_summary *th_fz_summary_create(const char *version, double budget_seconds,
					   const char *goal)
{
	struct th_fz_summary *s = calloc(1, sizeof(*s));
	struct utsname u;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (!s)
		return NULL;
	s->version = th_results_strdup(version);
	s->goal = th_results_strdup(goal);
	s->budget_seconds = budget_seconds;
	if (!gmtime_r(&t, &tm) || !strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(now, sizeof(now), "1970-01-01T00:00:00Z");
	s->created = th_results_strdup(now);
	s->host.hostname = th_results_strdup(uname(&u) == 0 ? u.nodename : "");
	s->host.kernel = th_results_strdup(uname(&u) == 0 ? u.release : "");
	s->host.cpus = ncpu > 0 ? (int)ncpu : 0;
	char run[64];

	s->run = th_results_strdup(th_fz_run_new(run, sizeof(run)));
	if (!s->version || !s->goal || !s->created || !s->host.hostname || !s->host.kernel || !s->run) {
		th_fz_summary_free(s);
		return NULL;
	}
	return s;
}

static void finding_free(struct th_fz_finding *f)
{
	free(f->sig);
	free(f->chain_id);
	free(f->reproducer);
	free(f->chain);
}

static void campaign_free(struct th_fz_campaign *c)
{
	free(c->target);
	free(c->config);
	free(c->toolchain);
	free(c->engine);
	free(c->status);
	free(c->reason);
	free(c->options);
	for (size_t i = 0; i < c->nfindings; i++)
		finding_free(&c->findings[i]);
	free(c->findings);
}

void th_fz_summary_free(struct th_fz_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncampaigns; i++)
		campaign_free(&s->campaigns[i]);
	free(s->campaigns);
	free(s->version);
	free(s->created);
	free(s->interrupted);
	free(s->host.hostname);
	free(s->host.kernel);
	free(s->goal);
	free(s->selection.targets);
	free(s->selection.variants);
	free(s->selection.configs);
	free(s->selection.toolchains);
	free(s->run);
	free(s);
}

static bool same_campaign(const struct th_fz_campaign *a, const struct th_fz_campaign *b)
{
	return a->variant == b->variant && a->api == b->api && !strcmp(a->target, b->target) &&
	       !strcmp(a->config, b->config) && !strcmp(a->toolchain, b->toolchain) &&
	       !strcmp(a->engine, b->engine);
}

struct th_fz_campaign *th_fz_summary_add_campaign(struct th_fz_summary *s,
						  const struct th_fz_campaign *in,
						  char *err, size_t errlen)
{
	struct th_fz_campaign *c;

	if (!th_variant_name(in->variant))
		return th_results_errf(err, errlen, "campaign: invalid variant"), NULL;
	if (!in->target || th_fz_target_api(in->target) == TH_API_INVALID ||
	    th_fz_target_api(in->target) != in->api)
		return th_results_errf(err, errlen, "campaign: target %s is not of API family %s",
				       in->target ? in->target : "(none)",
				       th_api_name(in->api) ? th_api_name(in->api) : "?"), NULL;
	for (size_t i = 0; i < s->ncampaigns; i++)
		if (same_campaign(&s->campaigns[i], in))
			return th_results_errf(err, errlen, "campaign %s %s/%s/%s (%s) added twice",
					       in->target, th_variant_name(in->variant), in->config,
					       in->toolchain, in->engine), NULL;
	if (s->ncampaigns == s->cap_campaigns_) {
		size_t cap = s->cap_campaigns_ ? 2 * s->cap_campaigns_ : 16;
		struct th_fz_campaign *n = realloc(s->campaigns, cap * sizeof(*n));

		if (!n)
			return th_results_errf(err, errlen, "out of memory"), NULL;
		s->campaigns = n;
		s->cap_campaigns_ = cap;
	}
	c = &s->campaigns[s->ncampaigns];
	*c = *in;
	c->findings = NULL;
	c->nfindings = c->cap_findings_ = 0;
	c->target = th_results_strdup(in->target);
	c->config = th_results_strdup(in->config);
	c->toolchain = th_results_strdup(in->toolchain);
	c->engine = th_results_strdup(in->engine);
	c->status = th_results_strdup(in->status);
	c->reason = th_results_strdup(in->reason);
	c->options = th_results_strdup(in->options);
	if (!c->target || !c->config || !c->toolchain || !c->engine || !c->status || !c->reason ||
	    !c->options) {
		campaign_free(c);
		return th_results_errf(err, errlen, "out of memory"), NULL;
	}
	s->ncampaigns++;
	return c;
}

/* "OUTCOME:CHAIN_ID" with that outcome; chain_id upper case, digits, '_' or "-". */
static int check_sig(const char *sig, enum th_outcome o, const char *chain_id)
{
	const char *colon = sig ? strchr(sig, ':') : NULL;
	const char *name = th_outcome_name(o);

	if (!colon || !name || strlen(name) != (size_t)(colon - sig) || strncmp(sig, name, strlen(name)) ||
	    strcmp(colon + 1, chain_id))
		return -1;
	if (!strcmp(chain_id, "-"))
		return 0;
	for (const char *p = chain_id; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return -1;
	return *chain_id ? 0 : -1;
}

int th_fz_campaign_add_finding(struct th_fz_campaign *c, const struct th_fz_finding *in,
			       char *err, size_t errlen)
{
	struct th_fz_finding *f;

	if (!th_fz_is_finding(in->outcome))
		return th_results_errf(err, errlen, "finding %s: outcome %s is not a finding",
				       in->sig ? in->sig : "?", th_outcome_name(in->outcome) ?
				       th_outcome_name(in->outcome) : "?");
	if (check_sig(in->sig, in->outcome, in->chain_id ? in->chain_id : ""))
		return th_results_errf(err, errlen, "finding \"%s\": sig must be %s:%s",
				       in->sig ? in->sig : "", th_outcome_name(in->outcome),
				       in->chain_id ? in->chain_id : "CHAIN_ID");
	if (!th_outcome_name(in->replayed))
		return th_results_errf(err, errlen, "finding %s: invalid replayed outcome", in->sig);
	if (strlen(in->sha256) != 64 || strspn(in->sha256, "0123456789abcdef") != 64)
		return th_results_errf(err, errlen, "finding %s: sha256 \"%.64s\" is not 64 lower-case "
				       "hex digits", in->sig, in->sha256);
	for (size_t i = 0; i < c->nfindings; i++)
		if (!strcmp(c->findings[i].sig, in->sig))
			return th_results_errf(err, errlen, "finding %s listed twice", in->sig);
	if (c->nfindings == c->cap_findings_) {
		size_t cap = c->cap_findings_ ? 2 * c->cap_findings_ : 8;
		struct th_fz_finding *n = realloc(c->findings, cap * sizeof(*n));

		if (!n)
			return th_results_errf(err, errlen, "out of memory");
		c->findings = n;
		c->cap_findings_ = cap;
	}
	f = &c->findings[c->nfindings];
	*f = *in;
	f->sig = th_results_strdup(in->sig);
	f->chain_id = th_results_strdup(in->chain_id);
	f->reproducer = th_results_strdup(in->reproducer);
	f->chain = th_results_strdup(in->chain);
	if (!f->sig || !f->chain_id || !f->reproducer || !f->chain) {
		finding_free(f);
		return th_results_errf(err, errlen, "out of memory");
	}
	c->nfindings++;
	return 0;
}

/* ---- model -> JSON ---- */

static json_t *first_json(const struct th_fz_first *f)
{
	json_t *o;

	if (!f->reached)
		return json_null();
	o = json_object();
	if (o && (th_json_put(o, "seconds", json_real(f->seconds)) ||
		  th_json_put(o, "executions", json_integer(f->executions)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *campaign_json(const struct th_fz_campaign *c)
{
	json_t *o = json_object(), *cov = json_object(), *outs = json_object(), *fs = json_array();
	int bad = !o || !cov || !outs || !fs;

	bad |= th_json_put(o, "target", json_string(c->target));
	bad |= th_json_put(o, "api", json_string(th_api_name(c->api) ? th_api_name(c->api) : ""));
	bad |= th_json_put(o, "variant", json_string(th_variant_name(c->variant) ? th_variant_name(c->variant) : ""));
	bad |= th_json_put(o, "config", json_string(c->config));
	bad |= th_json_put(o, "toolchain", json_string(c->toolchain));
	bad |= th_json_put(o, "engine", json_string(c->engine));
	bad |= th_json_put(o, "status", json_string(c->status));
	bad |= th_json_put(o, "reason", json_string(c->reason));
	bad |= th_json_put(o, "options", json_string(c->options));
	bad |= th_json_put(o, "seconds", json_real(c->seconds));
	bad |= th_json_put(o, "cpu_seconds", json_real(c->cpu_seconds));
	bad |= th_json_put(o, "executions", json_integer(c->executions));
	bad |= th_json_put(o, "exec_per_second", json_real(c->exec_per_second));
	bad |= th_json_put(o, "restarts", json_integer(c->restarts));
	bad |= th_json_put(cov, "edges", json_integer(c->edges));
	bad |= th_json_put(cov, "features", json_integer(c->features));
	bad |= th_json_put(cov, "corpus", json_integer(c->corpus));
	bad |= json_object_set(o, "coverage", cov);
	bad |= th_json_put(o, "first_hijack", first_json(&c->first_hijack));
	bad |= th_json_put(o, "goal_reached", first_json(&c->goal_reached));
	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		if (c->outcomes[i])
			bad |= th_json_put(outs, th_outcome_name((enum th_outcome)i), json_integer(c->outcomes[i]));
	bad |= json_object_set(o, "outcomes", outs);
	bad |= th_json_put(o, "rechecked", json_integer(c->rechecked));
	bad |= th_json_put(o, "disagreements", json_integer(c->disagreements));
	for (size_t i = 0; !bad && i < c->nfindings; i++) {
		const struct th_fz_finding *f = &c->findings[i];
		json_t *fo = json_object();

		bad |= !fo;
		bad |= th_json_put(fo, "sig", json_string(f->sig));
		bad |= th_json_put(fo, "outcome", json_string(th_outcome_name(f->outcome)));
		bad |= th_json_put(fo, "chain_id", json_string(f->chain_id));
		bad |= th_json_put(fo, "first_seconds", json_real(f->first_seconds));
		bad |= th_json_put(fo, "first_executions", json_integer(f->first_executions));
		bad |= th_json_put(fo, "reproducer", json_string(f->reproducer));
		bad |= th_json_put(fo, "sha256", json_string(f->sha256));
		bad |= th_json_put(fo, "replayed", json_string(th_outcome_name(f->replayed)));
		bad |= th_json_put(fo, "reproduced", json_boolean(f->reproduced));
		bad |= th_json_put(fo, "chain", json_string(f->chain));
		bad |= json_array_append_new(fs, fo);
	}
	bad |= json_object_set(o, "findings", fs);
	json_decref(cov);
	json_decref(outs);
	json_decref(fs);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *to_json(const struct th_fz_summary *s)
{
	json_t *root = json_object(), *host = json_object(), *cs = json_array();
	int bad = !root || !host || !cs;

	bad |= th_json_put(root, "schema", json_string(TH_FUZZ_SCHEMA));
	bad |= th_json_put(root, "version", json_string(s->version));
	bad |= th_json_put(root, "created", json_string(s->created));
	bad |= th_json_put(root, "partial", json_boolean(s->partial));
	bad |= th_json_put(root, "interrupted", s->partial ? json_string(s->interrupted ? s->interrupted : "?")
						   : json_null());
	bad |= th_json_put(host, "hostname", json_string(s->host.hostname));
	bad |= th_json_put(host, "kernel", json_string(s->host.kernel));
	bad |= th_json_put(host, "cpus", json_integer(s->host.cpus));
	bad |= json_object_set(root, "host", host);
	bad |= th_json_put(root, "budget_seconds", json_real(s->budget_seconds));
	bad |= th_json_put(root, "goal", json_string(s->goal));
	{
		json_t *sel = json_object();
		const char *k[] = { "targets", "variants", "configs", "toolchains" };
		const char *v[] = { s->selection.targets, s->selection.variants, s->selection.configs,
				    s->selection.toolchains };

		bad |= !sel;
		for (int i = 0; sel && i < 4; i++)
			bad |= th_json_put(sel, k[i], v[i] ? json_string(v[i]) : json_null());
		if (sel)
			bad |= th_json_put(sel, "planned", json_boolean(s->selection.planned));
		bad |= sel ? th_json_put(root, "selection", sel) : -1;
	}
	bad |= th_json_put(root, "run", json_string(s->run ? s->run : ""));
	for (size_t i = 0; !bad && i < s->ncampaigns; i++)
		bad |= json_array_append_new(cs, campaign_json(&s->campaigns[i]));
	bad |= json_object_set(root, "campaigns", cs);
	json_decref(host);
	json_decref(cs);
	if (bad) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* ---- JSON -> model, strictly ---- */

static const char *str(struct th_jload *l, const json_t *o, const char *where, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		return th_jload_err(l, where, "\"%s\" must be a string", key), NULL;
	return json_string_value(v);
}

static int count(struct th_jload *l, const json_t *o, const char *where, const char *key, long long *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return th_jload_err(l, where, "\"%s\" must be a non-negative integer", key);
	*out = json_integer_value(v);
	return 0;
}

static int real(struct th_jload *l, const json_t *o, const char *where, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return th_jload_err(l, where, "\"%s\" must be a non-negative number", key);
	*out = json_number_value(v);
	return 0;
}

static int load_first(struct th_jload *l, const json_t *o, const char *where, const char *key,
		      struct th_fz_first *f)
{
	static const char *const keys[] = { "seconds", "executions", NULL };
	json_t *v = json_object_get(o, key);
	char w[160];

	memset(f, 0, sizeof(*f));
	if (json_is_null(v))
		return 0;
	snprintf(w, sizeof(w), "%s.%s", where, key);
	if (!json_is_object(v))
		return th_jload_err(l, w, "must be an object or null");
	if (th_jload_only(l, v, w, keys, 1) || real(l, v, w, "seconds", &f->seconds) ||
	    count(l, v, w, "executions", &f->executions))
		return -1;
	f->reached = true;
	return 0;
}

static int outcome_of(struct th_jload *l, const char *where, const char *name, enum th_outcome *o)
{
	*o = th_outcome_parse(name);
	if (*o == TH_OUTCOME_INVALID)
		return th_jload_err(l, where, "unknown outcome \"%s\"", name);
	return 0;
}

static int load_finding(struct th_jload *l, const json_t *o, const char *where,
			const struct th_fz_summary *sum, struct th_fz_campaign *c)
{
	static const char *const keys[] = { "sig", "outcome", "chain_id", "first_seconds",
					    "first_executions", "reproducer", "sha256", "replayed",
					    "reproduced", "chain", NULL };
	struct th_fz_finding f;
	const char *s, *h;
	char e[512], want[1024];

	memset(&f, 0, sizeof(f));
	if (!json_is_object(o))
		return th_jload_err(l, where, "must be an object");
	if (th_jload_only(l, o, where, keys, 1) || !(f.sig = (char *)str(l, o, where, "sig")) ||
	    !(s = str(l, o, where, "outcome")) || outcome_of(l, where, s, &f.outcome) ||
	    !(f.chain_id = (char *)str(l, o, where, "chain_id")) ||
	    real(l, o, where, "first_seconds", &f.first_seconds) ||
	    count(l, o, where, "first_executions", &f.first_executions) ||
	    !(f.reproducer = (char *)str(l, o, where, "reproducer")) ||
	    !(h = str(l, o, where, "sha256")) ||
	    !(s = str(l, o, where, "replayed")) || outcome_of(l, where, s, &f.replayed) ||
	    !(f.chain = (char *)str(l, o, where, "chain")))
		return -1;
	if (!json_is_boolean(json_object_get(o, "reproduced")))
		return th_jload_err(l, where, "\"reproduced\" must be a boolean");
	f.reproduced = json_is_true(json_object_get(o, "reproduced"));
	if (!*f.reproducer || f.reproducer[0] == '/' || strstr(f.reproducer, ".."))
		return th_jload_err(l, where, "reproducer \"%s\" must be a path relative to the summary's directory",
			    f.reproducer);
	snprintf(f.sha256, sizeof(f.sha256), "%s", h);
	if (strlen(h) != 64)
		f.sha256[0] = 0;
	if (th_fz_campaign_add_finding(c, &f, e, sizeof(e)))
		return th_jload_err(l, where, "%s", e);
	/* What the writer makes of each field (fuzz_summary.h). */
	if (f.replayed != f.outcome)
		return th_jload_err(l, where, "outcome %s but replayed %s: a finding is what its fresh-process "
				    "replay gave", th_outcome_name(f.outcome), th_outcome_name(f.replayed));
	th_fz_reproducer_path(sum, c, f.sig, want, sizeof(want));
	if (strcmp(f.reproducer, want))
		return th_jload_err(l, where, "reproducer \"%s\" is not where the run keeps %s's (%s)",
				    f.reproducer, f.sig, want);
	if (f.first_executions > c->executions || f.first_seconds > c->seconds + TH_FZ_SLACK_S)
		return th_jload_err(l, where, "first found after %lld executions and %.3f s, beyond the "
				    "campaign's %lld executions and %.3f s", f.first_executions,
				    f.first_seconds, c->executions, c->seconds);
	if (f.reproduced && !c->outcomes[f.outcome])
		return th_jload_err(l, where, "reported by the run (reproduced), but the campaign counted no "
				    "%s run", th_outcome_name(f.outcome));
	return 0;
}

/* A first hit within the campaign: no later than its executions and time. */
static int first_within(struct th_jload *l, const char *where, const char *key,
			const struct th_fz_first *f, const struct th_fz_campaign *c)
{
	if (!f->reached)
		return 0;
	if (f->executions < 1 || f->executions > c->executions || f->seconds > c->seconds + TH_FZ_SLACK_S)
		return th_jload_err(l, where, "%s after %lld executions and %.3f s, not within the campaign's "
				    "%lld executions and %.3f s", key, f->executions, f->seconds,
				    c->executions, c->seconds);
	return 0;
}

static int load_campaign(struct th_jload *l, const json_t *o, size_t idx, struct th_fz_summary *s)
{
	static const char *const keys[] = { "target", "variant", "config", "toolchain", "engine",
					    "status", "reason", "options", "seconds", "cpu_seconds", "executions",
					    "exec_per_second", "restarts", "coverage", "first_hijack",
					    "goal_reached", "outcomes", "rechecked", "disagreements",
					    "findings", NULL };
	/* The same with "api": a campaign from before the families has none. */
	static const char *const keys_api[] = { "target", "api", "variant", "config", "toolchain", "engine",
						"status", "reason", "options", "seconds", "cpu_seconds",
						"executions", "exec_per_second", "restarts", "coverage",
						"first_hijack", "goal_reached", "outcomes", "rechecked",
						"disagreements", "findings", NULL };
	static const char *const cov_keys[] = { "edges", "features", "corpus", NULL };
	struct th_fz_campaign in, *c;
	const char *v, *k;
	json_t *j, *x;
	long long sum = 0;
	char where[96], w2[160], e[512];
	size_t i;

	memset(&in, 0, sizeof(in));
	snprintf(where, sizeof(where), "campaigns[%zu]", idx);
	if (!json_is_object(o))
		return th_jload_err(l, where, "must be an object");
	if (th_jload_only(l, o, where, json_object_get(o, "api") ? keys_api : keys, 1) ||
	    !(in.target = (char *)str(l, o, where, "target")) ||
	    !(v = str(l, o, where, "variant")) || !(in.config = (char *)str(l, o, where, "config")) ||
	    !(in.toolchain = (char *)str(l, o, where, "toolchain")) ||
	    !(in.engine = (char *)str(l, o, where, "engine")) ||
	    !(in.status = (char *)str(l, o, where, "status")) ||
	    !(in.reason = (char *)str(l, o, where, "reason")) ||
	    !(in.options = (char *)str(l, o, where, "options")) ||
	    real(l, o, where, "seconds", &in.seconds) || real(l, o, where, "cpu_seconds", &in.cpu_seconds) ||
	    count(l, o, where, "executions", &in.executions) ||
	    real(l, o, where, "exec_per_second", &in.exec_per_second) ||
	    count(l, o, where, "restarts", &in.restarts) || count(l, o, where, "rechecked", &in.rechecked) ||
	    count(l, o, where, "disagreements", &in.disagreements) ||
	    load_first(l, o, where, "first_hijack", &in.first_hijack) ||
	    load_first(l, o, where, "goal_reached", &in.goal_reached))
		return -1;
	in.variant = th_variant_parse(v);
	if (in.variant == TH_VARIANT_INVALID)
		return th_jload_err(l, where, "unknown variant \"%s\"", v);
	if (th_fz_target_api(in.target) == TH_API_INVALID)
		return th_jload_err(l, where, "unknown target \"%s\" (overflow, %s but timer)", in.target,
				    th_api_names());
	/* A file from before the API families has no "api": the timer's. */
	in.api = TH_API_TIMER;
	if (json_object_get(o, "api")) {
		const char *a = str(l, o, where, "api");

		if (!a)
			return -1;
		if ((in.api = th_api_parse(a)) == TH_API_INVALID)
			return th_jload_err(l, where, "unknown api \"%s\" (%s)", a, th_api_names());
	}
	if (in.api != th_fz_target_api(in.target))
		return th_jload_err(l, where, "api \"%s\" is not target %s's family (%s)",
				    th_api_name(in.api), in.target, th_api_name(th_fz_target_api(in.target)));
	if (strcmp(in.engine, "libfuzzer") && strcmp(in.engine, "afl"))
		return th_jload_err(l, where, "unknown engine \"%s\" (libfuzzer, afl)", in.engine);
	if (strcmp(in.status, "ran") && strcmp(in.status, "unsupported") && strcmp(in.status, "failed"))
		return th_jload_err(l, where, "unknown status \"%s\" (ran, unsupported, failed)", in.status);
	if (strcmp(in.status, "ran") && !*in.reason)
		return th_jload_err(l, where, "status %s needs a reason", in.status);
	if (!*in.config || !*in.toolchain || strpbrk(in.config, " \t") || strpbrk(in.toolchain, " \t"))
		return th_jload_err(l, where, "config and toolchain must be names without blanks");
	snprintf(w2, sizeof(w2), "%s.coverage", where);
	j = json_object_get(o, "coverage");
	if (!json_is_object(j) || th_jload_only(l, j, w2, cov_keys, 1) || count(l, j, w2, "edges", &in.edges) ||
	    count(l, j, w2, "features", &in.features) || count(l, j, w2, "corpus", &in.corpus))
		return json_is_object(j) ? -1 : th_jload_err(l, w2, "must be an object");
	snprintf(w2, sizeof(w2), "%s.outcomes", where);
	j = json_object_get(o, "outcomes");
	if (!json_is_object(j))
		return th_jload_err(l, w2, "must be an object");
	json_object_foreach(j, k, x) {
		enum th_outcome oc;

		if (outcome_of(l, w2, k, &oc))
			return -1;
		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return th_jload_err(l, w2, "\"%s\" must be a non-negative integer", k);
		in.outcomes[oc] = json_integer_value(x);
		if (__builtin_add_overflow(sum, in.outcomes[oc], &sum))
			return th_jload_err(l, w2, "counts sum past %lld", (long long)INT64_MAX);
	}
	if (sum != in.executions)
		return th_jload_err(l, w2, "counts sum to %lld, but executions is %lld", sum, in.executions);
	if (in.rechecked < in.disagreements)
		return th_jload_err(l, where, "more disagreements (%lld) than rechecked artifacts (%lld)",
			    in.disagreements, in.rechecked);
	/* What the writer makes of each field (fuzz_summary.h). */
	if (!strcmp(in.status, "unsupported") &&
	    (in.executions || in.restarts || in.rechecked || in.first_hijack.reached ||
	     in.goal_reached.reached || json_array_size(json_object_get(o, "findings"))))
		return th_jload_err(l, where, "status unsupported, but %lld executions, %lld restarts, %lld "
				    "rechecked artifacts, %zu findings%s: a campaign that did not run has "
				    "none", in.executions, in.restarts, in.rechecked,
				    json_array_size(json_object_get(o, "findings")),
				    in.first_hijack.reached || in.goal_reached.reached ? ", a first hit" : "");
	if (!strcmp(in.status, "ran") && !in.restarts)
		return th_jload_err(l, where, "status ran, but no engine was started (restarts 0)");
	if (first_within(l, where, "first_hijack", &in.first_hijack, &in) ||
	    first_within(l, where, "goal_reached", &in.goal_reached, &in))
		return -1;
	if (in.first_hijack.reached != (in.outcomes[TH_HIJACKED] > 0))
		return th_jload_err(l, where, "first_hijack is %s, but %lld HIJACKED runs were counted",
				    in.first_hijack.reached ? "set" : "null", in.outcomes[TH_HIJACKED]);
	if (fabs(in.exec_per_second - (in.seconds > 0 ? (double)in.executions / in.seconds : 0)) >
	    1e-6 * in.exec_per_second + 1e-3)
		return th_jload_err(l, where, "exec_per_second %.3f is not executions / seconds (%lld / %.3f)",
				    in.exec_per_second, in.executions, in.seconds);
	j = json_object_get(o, "findings");
	if (json_is_array(j) && json_array_size(j) > (size_t)in.rechecked)
		return th_jload_err(l, where, "%zu findings, but %lld artifacts were rechecked: every finding is "
				    "a rechecked artifact", json_array_size(j), in.rechecked);
	if (!(c = th_fz_summary_add_campaign(s, &in, e, sizeof(e))))
		return th_jload_err(l, where, "%s", e);
	snprintf(w2, sizeof(w2), "%s.findings", where);
	if (!json_is_array(j))
		return th_jload_err(l, w2, "must be an array");
	json_array_foreach(j, i, x) {
		char w3[200];

		snprintf(w3, sizeof(w3), "%s[%zu]", w2, i);
		if (load_finding(l, x, w3, s, c))
			return -1;
	}
	/* Every run counted HIJACKED, PRIVILEGED_WRITE or REDIRECTED was one the run
	 * reported (its artifact rechecked: a finding) or whose signature was
	 * known by then (a finding already), unless a replay disagreed with its
	 * run; an interrupted campaign's last artifacts are not rechecked. */
	for (enum th_outcome oc = 0; oc < TH_OUTCOME_COUNT && !s->partial && !c->disagreements; oc++) {
		size_t k = 0;

		if (!th_fz_is_finding(oc) || !c->outcomes[oc])
			continue;
		while (k < c->nfindings && c->findings[k].outcome != oc)
			k++;
		if (k == c->nfindings)
			return th_jload_err(l, where, "%lld %s runs counted, but no %s finding and no disagreement "
					    "between a run and its replay: a finding is missing", c->outcomes[oc],
					    th_outcome_name(oc), th_outcome_name(oc));
	}
	return 0;
}

static int from_json(struct th_jload *l, const json_t *root, struct th_fz_summary **out)
{
	static const char *const keys[] = { "schema", "version", "created", "partial", "interrupted",
					    "host", "budget_seconds", "goal", "selection", "run",
					    "campaigns", NULL };
	static const char *const sel_keys[] = { "targets", "variants", "configs", "toolchains", NULL };
	static const char *const sel_and_planned[] = { "targets", "variants", "configs", "toolchains",
						       "planned", NULL };
	static const char *const host_keys[] = { "hostname", "kernel", "cpus", NULL };
	struct th_fz_summary *s;
	const char *v;
	json_t *j, *x;
	size_t i;

	*out = NULL;
	if (!json_is_object(root))
		return th_jload_err(l, "", "top level must be an object");
	j = json_object_get(root, "schema");
	if (!json_is_string(j) || strcmp(json_string_value(j), TH_FUZZ_SCHEMA))
		return th_jload_err(l, "", "schema is not \"%s\"", TH_FUZZ_SCHEMA);
	if (th_jload_only(l, root, "", keys, 1))
		return -1;
	s = th_fz_summary_create("", 0, "");
	if (!s)
		return th_jload_err(l, "", "out of memory");
#define SET(field, key)                                      \
	do {                                                 \
		if (!(v = str(l, root, "", key)))            \
			goto fail;                           \
		free(s->field);                              \
		s->field = th_results_strdup(v);              \
	} while (0)
	SET(version, "version");
	SET(created, "created");
	SET(goal, "goal");
#undef SET
	if (strlen(s->created) != 20 || s->created[19] != 'Z' || s->created[10] != 'T') {
		th_jload_err(l, "created", "\"%s\" is not YYYY-MM-DDTHH:MM:SSZ", s->created);
		goto fail;
	}
	if (!json_is_boolean(json_object_get(root, "partial"))) {
		th_jload_err(l, "", "\"partial\" must be a boolean");
		goto fail;
	}
	s->partial = json_is_true(json_object_get(root, "partial"));
	j = json_object_get(root, "interrupted");
	if (s->partial != json_is_string(j) || (!s->partial && !json_is_null(j))) {
		th_jload_err(l, "interrupted", "must be a reason when partial, null otherwise");
		goto fail;
	}
	if (s->partial)
		s->interrupted = th_results_strdup(json_string_value(j));
	j = json_object_get(root, "host");
	if (!json_is_object(j) || th_jload_only(l, j, "host", host_keys, 1)) {
		if (!json_is_object(j))
			th_jload_err(l, "host", "must be an object");
		goto fail;
	}
	if (!(v = str(l, j, "host", "hostname")))
		goto fail;
	free(s->host.hostname);
	s->host.hostname = th_results_strdup(v);
	if (!(v = str(l, j, "host", "kernel")))
		goto fail;
	free(s->host.kernel);
	s->host.kernel = th_results_strdup(v);
	x = json_object_get(j, "cpus");
	if (!json_is_integer(x) || json_integer_value(x) < 0) {
		th_jload_err(l, "host", "\"cpus\" must be a non-negative integer");
		goto fail;
	}
	s->host.cpus = (int)json_integer_value(x);
	if (real(l, root, "", "budget_seconds", &s->budget_seconds))
		goto fail;
	if (s->budget_seconds < 1) {
		th_jload_err(l, "", "\"budget_seconds\" %.3f: fuzz --time is 1 s at least", s->budget_seconds);
		goto fail;
	}
	j = json_object_get(root, "selection");
	if (!json_is_object(j) || th_jload_only(l, j, "selection", sel_and_planned, 0)) {
		if (!json_is_object(j))
			th_jload_err(l, "selection", "must be an object");
		goto fail;
	}
	/* The four lists are required; planned is not (a summary written
	 * before it is no planned slice). */
	for (i = 0; sel_keys[i]; i++)
		if (!json_object_get(j, sel_keys[i])) {
			th_jload_err(l, "selection", "missing field \"%s\"", sel_keys[i]);
			goto fail;
		}
	x = json_object_get(j, "planned");
	if (x && !json_is_boolean(x)) {
		th_jload_err(l, "selection", "\"planned\" must be true or false");
		goto fail;
	}
	s->selection.planned = json_is_true(x);
	for (i = 0; sel_keys[i]; i++) {
		char **field[] = { &s->selection.targets, &s->selection.variants, &s->selection.configs,
				   &s->selection.toolchains };

		x = json_object_get(j, sel_keys[i]);
		if (json_is_null(x))
			continue;
		if (!json_is_string(x) || !*json_string_value(x)) {
			th_jload_err(l, "selection", "\"%s\" must be null (not asked) or a non-empty list",
				     sel_keys[i]);
			goto fail;
		}
		if (set_opt(field[i], json_string_value(x))) {
			th_jload_err(l, "selection", "out of memory");
			goto fail;
		}
	}
	{
		char e[300];

		if (!(v = str(l, root, "", "run")))
			goto fail;
		if (th_fz_summary_set_run(s, v, e, sizeof(e))) {
			th_jload_err(l, "run", "%s", e);
			goto fail;
		}
	}
	j = json_object_get(root, "campaigns");
	if (!json_is_array(j)) {
		th_jload_err(l, "campaigns", "must be an array");
		goto fail;
	}
	json_array_foreach(j, i, x)
		if (load_campaign(l, x, i, s))
			goto fail;
	*out = s;
	return 0;
fail:
	th_fz_summary_free(s);
	return -1;
}

int th_fz_summary_load(const char *path, struct th_fz_summary **out, char *err, size_t errlen)
{
	struct th_jload l = { path, err, errlen };
	json_error_t je;
	json_t *root;
	struct stat st;

	const char *why;
	int fd;

	*out = NULL;
	/* Never blocks: a FIFO or a device (/dev/zero) is refused, not read. */
	if ((fd = th_open_read(path, &why)) < 0)
		return th_jload_err(&l, "", "cannot open: %s", why);
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return th_jload_err(&l, "", "empty file, not a campaign summary");
	}
	root = json_loadfd(fd, JSON_REJECT_DUPLICATES, &je);
	close(fd);
	if (!root)
		return th_jload_err(&l, "", "not JSON: line %d column %d: %s", je.line, je.column, je.text);
	int rc = from_json(&l, root, out);

	json_decref(root);
	return rc;
}

int th_fz_summary_write(const struct th_fz_summary *s, const char *path, char *err, size_t errlen)
{
	json_t *root = to_json(s);
	struct th_fz_summary *check;
	struct th_jload l = { NULL, err, errlen };
	char *text;
	int rc;

	if (!root)
		return th_results_errf(err, errlen, "%s: not written: out of memory or a string not UTF-8",
				       path);
	if (from_json(&l, root, &check)) {
		char e[700];

		snprintf(e, sizeof(e), "%s", err);
		json_decref(root);
		return th_results_errf(err, errlen, "%s: not written: the summary is invalid: %s", path, e);
	}
	th_fz_summary_free(check);
	text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	json_decref(root);
	if (!text)
		return th_results_errf(err, errlen, "%s: not written: out of memory", path);
	size_t len = strlen(text);
	char *buf = realloc(text, len + 2);

	if (!buf) {
		free(text);
		return th_results_errf(err, errlen, "%s: not written: out of memory", path);
	}
	buf[len] = '\n';
	buf[len + 1] = 0;
	rc = th_results_write_atomic(path, buf, len + 1, err, errlen);
	free(buf);
	return rc;
}
