/* SPDX-License-Identifier: MIT */
/*
 * SARIF 2.1.0, for code scanning: one run, a rule per outcome kind worth a
 * look, and a result only for what the gate does not accept: a regressed
 * cell, or a new one (no rule declares it) with one of the rules' outcomes.
 * A run that passes the gate has no result at all, so it raises no alert.
 *
 * What GitHub's code scanning does with a log decides its shape
 * (docs.github.com, "SARIF support for code scanning", "SARIF results
 * exceed one or more limits"):
 *  - a rule with properties.security-severity makes every result of it a
 *    security alert ranked by that score (over 9.0 critical, 7.0-8.9 high,
 *    4.0-6.9 medium), whatever the result's level: a declared weakness
 *    uploaded as a "note" of HIJACKED is still a critical alert. So the
 *    weaknesses expectations/expected.tsv declares, which the gate accepts,
 *    are no results (report.md, report.html and junit.xml list them);
 *  - alerts are matched across runs by partialFingerprints, of which it
 *    uses primaryLocationLineHash: ours is a hash of the cell (attack,
 *    variant, config, and platform for a real kernel), never of the
 *    toolchain or the line, so a new toolchain or a moved rule keeps the
 *    alert; the cells of one finding on several toolchains are one result;
 *  - it keeps 5,000 results of a run ("prioritized by severity"): past
 *    TH_SARIF_MAX_RESULTS the log holds the most severe and says, in a
 *    notification and its properties, how many it left out, and
 *    th_render_sarif_cap_note() gives the sentence the commands print;
 *  - paths are relative to the repository's root: the expectations file
 *    and every rerun command as the checkout has them.
 */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"
#include "json_load.h"
#include "severity.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

/* Code scanning refuses a result without a physical location. A cell's
 * place in the source is the rule of the expectations file that declares
 * it (the file the run recorded, its line in the cell): that is where a
 * reviewer accepts a weakness or tightens a defence. A file that does not
 * record them points at the checkout's declaration, without a line. */
#define EXPECT_URI "attacks/expected.tsv"

/*
 * Levels: a regressed cell is an error (baselineState "new"); a severe
 * outcome no rule declares (verdict new) is a warning ("new"). Which rule a
 * cell is reported under, and each rule's GitHub security-severity, is the
 * severity table's (report/severity.def): any cell the gate fails is at
 * least high, a CFI config's lost block critical, a harness error no
 * security alert (and the run no successful execution).
 */
struct rule {
	const char *id;			/* the severity table's rule */
	const char *name;
	const char *tags[4];		/* NULL-terminated */
	const char *text;		/* shortDescription */
	const char *full;		/* fullDescription */
};

/* In severity order: the log lists the most severe first. */
static const struct rule rules[] = {
	{ "CFI_BLOCK_LOST", "CfiBlockLost",
	  { "security", "control-flow-hijack", "regression", NULL },
	  "A CFI config no longer blocks a timer overwrite it is declared to block.",
	  "The cell is declared BLOCKED_CFI (its config's CFI stops the call), and it was not: "
	  "the attacker's call ran, the process died or hung, or the timer was lost without the "
	  "CFI check naming itself. Whatever the outcome, the hardening lost a block." },
	{ "HIJACKED", "TimerCallHijacked",
	  { "security", "control-flow-hijack", "external/cwe/cwe-787", NULL },
	  "A timer overwrite called the attacker's function with the attacker's argument.",
	  "The attack rewrote the timer's callback (and, on the 4.14 layout, its data) and the "
	  "expiry called the attacker's target with the value, or the bytes behind the pointer, "
	  "that the attacker chose: a call gadget with a controlled first argument, as in "
	  "CVE-2017-7308. No defence of this config stopped it." },
	{ "PRIVILEGED_WRITE", "PrivilegedStateWritten",
	  { "security", "privilege-escalation", "external/cwe/cwe-787", NULL },
	  "A timer overwrite changed the simulated machine's privileged state.",
	  "CR4 or the current credentials changed although no target ran with the attacker's "
	  "chosen argument: a write through the wheel's list pointers or through a callback "
	  "acting on a corrupted object. The effect counts, whatever path produced it." },
	{ "REDIRECTED", "TimerCallRedirected",
	  { "security", "control-flow-hijack", "external/cwe/cwe-787", NULL },
	  "A timer overwrite called the attacker's function, with an argument the attacker did not choose.",
	  "Control flow was diverted to the attacker's target, but its argument was not the "
	  "attacker's (the 4.15 prototype passes the timer itself). Type-based CFI lets this "
	  "through when the target has the call site's type." },
	{ "REGRESSION", "CellRegressed",
	  { "security", "regression", "hardening", NULL },
	  "A cell's outcome regressed.",
	  "The observed outcome is more severe than the declared expectation or the baseline "
	  "(a crash, a hang, a lost timer, a new false positive), or a toolchain lost the cell "
	  "(UNSUPPORTED or NOT_APPLICABLE where it used to run): the gate fails it. A regressed "
	  "cell that ran the attacker's call or wrote privileged state is reported under that "
	  "outcome's rule, a lost CFI block under CFI_BLOCK_LOST." },
	{ "CRASHED", "CellCrashed",
	  { "security", "memory-corruption", "external/cwe/cwe-787", NULL },
	  "The cell's process died without a defence naming itself.",
	  "A fatal signal (SIGSEGV, a wild jump) that no CFI or memory-safety check claimed: the "
	  "overwrite took effect, but what ran is not shown to be the attacker's choice." },
	{ "HANG", "CellHang",
	  { "security", "denial-of-service", "external/cwe/cwe-835", NULL },
	  "The cell ran past its time limit.",
	  "The cell's process was killed at its time limit: the overwrite may have sent the timer "
	  "wheel or the callback into a loop. Nothing was observed to run or to be stopped." },
	{ "TIMER_LOST", "TimerLost",
	  { "security", "denial-of-service", "external/cwe/cwe-787", NULL },
	  "The victim's timer never fired.",
	  "The run ended normally but the legitimate callback never ran and no defence named "
	  "itself: the overwrite made the wheel lose the timer (a silent denial of service)." },
	{ "HARNESS_ERROR", "HarnessError",
	  { "harness", "reliability", NULL },
	  "The harness could not run or observe a cell.",
	  "A missing binary, a failed exec or an unreadable observation: the cell measured "
	  "nothing, the run did not execute successfully, and the gate fails until it runs. "
	  "Not a security finding." },
	{ "FALSE_POSITIVE", "DefenceFalsePositive",
	  { "correctness", "cfi", NULL },
	  "A defence stopped a legitimate timer call.",
	  "In a control run (no overwrite), the config stopped the legitimate callback, as "
	  "type-based CFI does on the 4.14-rc3 timer_setup() cast shim without a trampoline: the "
	  "hardening breaks working code." },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* The rule a cell is reported under (the severity table's), -1 when it is
 * not reported: only a regression or a new cell with a severe outcome; a
 * cell the gate accepts (pass, improvement) is no result. */
static int rule_of(const struct th_cell *c)
{
	const struct th_severity *s = th_severity_of(c);

	for (size_t i = 0; s && i < NRULES; i++)
		if (!strcmp(rules[i].id, s->rule))
			return (int)i;
	return -1;
}

/* One result: the reported cells of one rule and one cell identity
 * (platform, attack, variant, config) over the toolchains, in toolchain
 * order. */
struct finding {
	int rule;
	bool error;			/* some cell regressed; else all are new */
	const struct th_cell **cells;	/* into the sorted array */
	size_t n;
};

static int cmp_identity(const struct th_cell *a, const struct th_cell *b)
{
	int r;

	if ((r = th_results_platform_cmp(a->platform, b->platform)))
		return r;
	if ((r = strcmp(a->attack, b->attack)))
		return r;
	if (a->variant != b->variant)
		return a->variant < b->variant ? -1 : 1;
	return strcmp(a->config, b->config);
}

static int cmp_reported(const void *x, const void *y)
{
	const struct th_cell *a = *(const struct th_cell *const *)x;
	const struct th_cell *b = *(const struct th_cell *const *)y;
	int r = cmp_identity(a, b), ra, rb;

	if (r)
		return r;
	ra = rule_of(a);
	rb = rule_of(b);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((r = th_results_natcmp(a->toolchain, b->toolchain)))
		return r;
	return strcmp(a->toolchain, b->toolchain);
}

/* Most severe first: errors, then by rule (the table is in severity
 * order), then by identity. */
static int cmp_finding(const void *x, const void *y)
{
	const struct finding *a = x, *b = y;

	if (a->error != b->error)
		return a->error ? -1 : 1;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	return cmp_identity(a->cells[0], b->cells[0]);
}

/* The findings of res, most severe first: *nf of them, over *cells (both
 * malloc'd; NULL when there are none). Return: 0, -1 out of memory. */
static int findings(const struct th_results *res, const struct th_cell ***cells,
		    struct finding **out, size_t *nf)
{
	const struct th_cell **c = NULL;
	struct finding *f = NULL;
	size_t n = 0, k = 0;

	*cells = NULL;
	*out = NULL;
	*nf = 0;
	for (size_t i = 0; i < res->ncells; i++)
		n += rule_of(res->cells[i]) >= 0;
	if (!n)
		return 0;
	c = malloc(n * sizeof(*c));
	f = malloc(n * sizeof(*f));
	if (!c || !f) {
		free(c);
		free(f);
		return -1;
	}
	n = 0;
	for (size_t i = 0; i < res->ncells; i++)
		if (rule_of(res->cells[i]) >= 0)
			c[n++] = res->cells[i];
	qsort(c, n, sizeof(*c), cmp_reported);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int r = rule_of(c[i]);
		bool error = false;

		while (j < n && !cmp_identity(c[i], c[j]) && rule_of(c[j]) == r)
			error |= th_results_shown_verdict(c[j++]) == TH_VERDICT_REGRESSION;
		f[k++] = (struct finding){ .rule = r, .error = error, .cells = c + i, .n = j - i };
		i = j;
	}
	qsort(f, k, sizeof(*f), cmp_finding);
	*cells = c;
	*out = f;
	*nf = k;
	return 0;
}

int th_render_sarif_cap_note(const struct th_results *res, char *buf, size_t n)
{
	const struct th_cell **cells;
	struct finding *f;
	size_t nf;

	if (n)
		*buf = '\0';
	if (findings(res, &cells, &f, &nf))
		return -1;
	free(cells);
	free(f);
	if (nf <= TH_SARIF_MAX_RESULTS)
		return 0;
	snprintf(buf, n, "report.sarif: %zu findings, more than the %d results of a run GitHub code "
		 "scanning keeps: the %d most severe are in it, %zu left out (results.json and "
		 "junit.xml have every cell)", nf, TH_SARIF_MAX_RESULTS, TH_SARIF_MAX_RESULTS,
		 nf - TH_SARIF_MAX_RESULTS);
	return 1;
}

/* Setters that fail on a NULL value (out of memory, or not UTF-8):
 * results/json_load.h th_json_put(), and for a string: */
static int set_str(json_t *o, const char *k, const char *s)
{
	return th_json_put(o, k, s ? json_string(s) : json_null());
}

static json_t *text_obj(const char *s)
{
	json_t *o = json_object();

	if (o && set_str(o, "text", s)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *rule_json(const struct rule *r)
{
	json_t *o = json_object(), *cfg = json_object(), *props = json_object();
	json_t *tags = json_array();
	int bad = !o || !cfg || !props || !tags;

	if (bad) {
		json_decref(o);
		json_decref(cfg);
		json_decref(props);
		json_decref(tags);
		return NULL;
	}
	bad |= set_str(o, "id", r->id);
	bad |= set_str(o, "name", r->name);
	bad |= th_json_put(o, "shortDescription", text_obj(r->text));
	bad |= th_json_put(o, "fullDescription", text_obj(r->full));
	bad |= th_json_put(o, "help", text_obj(r->full));
	/* What a regressed cell of the rule is; a new one is a warning. */
	bad |= set_str(cfg, "level", "error");
	bad |= th_json_put(o, "defaultConfiguration", cfg);
	for (int i = 0; r->tags[i]; i++)
		bad |= json_array_append_new(tags, json_string(r->tags[i]));
	bad |= th_json_put(props, "tags", tags);
	const char *sev = th_severity_of_rule(r->id);

	if (sev && *sev)
		bad |= set_str(props, "security-severity", sev);
	bad |= set_str(props, "precision", "very-high");
	bad |= th_json_put(o, "properties", props);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The toolchains of f: "clang-14", "clang-14 and clang-22", "a, b and c". */
static void put_toolchains(FILE *f, const struct finding *fd)
{
	for (size_t i = 0; i < fd->n; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 == fd->n ? " and " : ", ", fd->cells[i]->toolchain);
}

static void put_judgement(FILE *f, const struct th_cell *c)
{
	char buf[200];
	const char *exp = th_cell_expected_text(c, buf, sizeof(buf));

	fprintf(f, "%s (expected %s, verdict %s", th_outcome_name(th_cell_observed(c)),
		exp ? exp : "none", th_verdict_name(th_results_shown_verdict(c)));
	if (c->runs > 1)
		fprintf(f, ", %u runs", c->runs);
	fputc(')', f);
}

static bool same_judgement(const struct th_cell *a, const struct th_cell *b)
{
	return th_cell_observed(a) == th_cell_observed(b) && th_cell_expected_set(a) == th_cell_expected_set(b) &&
	       th_results_shown_verdict(a) == th_results_shown_verdict(b) && a->runs == b->runs;
}

/* "ATTACK api/variant/config on clang-14 and clang-22: OUTCOME (expected X,
 * verdict v). Evidence: ..." (code scanning titles an alert with the first
 * sentence); the toolchains' judgements and evidence each when they differ. */
static char *message(const struct finding *fd)
{
	const struct th_cell *c = fd->cells[0];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool same = true;

	if (!f)
		return NULL;
	for (size_t i = 1; i < fd->n; i++)
		same &= same_judgement(c, fd->cells[i]);
	fprintf(f, "%s %s/%s/%s on ", c->attack, th_api_name(c->api), th_variant_name(c->variant),
		c->config);
	put_toolchains(f, fd);
	/* A real kernel's cell says which; the model's as ever. */
	if (!th_platform_is_model(c->platform))
		fprintf(f, " (real kernel %s)", c->platform);
	fputs(": ", f);
	for (size_t i = 0; i < (same ? 1 : fd->n); i++) {
		if (i)
			fputs("; ", f);
		put_judgement(f, fd->cells[i]);
		if (!same)
			fprintf(f, " on %s", fd->cells[i]->toolchain);
	}
	fputs(".", f);
	for (size_t i = 0; i < fd->n; i++) {
		const char *e = *fd->cells[i]->evidence ? fd->cells[i]->evidence : "(none recorded)";

		if (fd->n == 1)
			fprintf(f, " Evidence: %s", e);
		else
			fprintf(f, "%s on %s: %s", i ? ";" : " Evidence", fd->cells[i]->toolchain, e);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The expectations file as a SARIF artifact: relative to the checkout
 * (%SRCROOT%, the repository's root) when it lies in the source tree this
 * was built from (or is relative), else an absolute file: URI. */
static int artifact(json_t *art, const struct th_results *res)
{
	const char *p = res->expect_path;
	int bad = 0;

	if (!p) {
		bad |= set_str(art, "uri", EXPECT_URI);
		return bad | set_str(art, "uriBaseId", "%SRCROOT%");
	}
	p = th_report_source_relative(p);
	if (*p != '/') {
		bad |= set_str(art, "uri", p);
		return bad | set_str(art, "uriBaseId", "%SRCROOT%");
	}
	char *uri = malloc(strlen(p) + 8);

	if (!uri)
		return -1;
	sprintf(uri, "file://%s", p);
	bad |= set_str(art, "uri", uri);
	free(uri);
	return bad;
}

static json_t *location_json(const struct th_results *res, const struct th_cell *c)
{
	json_t *loc = json_object(), *phys = json_object(), *art = json_object();
	json_t *region = json_object(), *logicals = json_array(), *logical = json_object();
	char *fqn = NULL;
	int bad = !loc || !phys || !art || !region || !logicals || !logical;

	if (!bad) {
		bool model = th_platform_is_model(c->platform);
		size_t n = strlen(c->technique) + strlen(c->attack) + strlen(c->platform) + 3;

		fqn = malloc(n);
		bad |= !fqn;
		if (fqn)
			snprintf(fqn, n, "%s%s%s/%s", model ? "" : c->platform, model ? "" : "/",
				 c->technique, c->attack);
	}
	if (bad) {
		json_decref(loc);
		json_decref(phys);
		json_decref(art);
		json_decref(region);
		json_decref(logicals);
		json_decref(logical);
		free(fqn);
		return NULL;
	}
	bad |= artifact(art, res);
	bad |= th_json_put(phys, "artifactLocation", art);
	if (c->expected_line) {
		bad |= th_json_put(region, "startLine", json_integer(c->expected_line));
		bad |= th_json_put(phys, "region", region);
	} else {
		json_decref(region);
	}
	bad |= th_json_put(loc, "physicalLocation", phys);
	bad |= set_str(logical, "name", c->attack);
	bad |= set_str(logical, "fullyQualifiedName", fqn);
	bad |= set_str(logical, "kind", "function");
	bad |= json_array_append_new(logicals, logical);
	bad |= th_json_put(loc, "logicalLocations", logicals);
	free(fqn);
	if (bad) {
		json_decref(loc);
		return NULL;
	}
	return loc;
}

/* The cell's identity without its toolchain: "ATTACK/variant/config", and
 * "/linux-6.1.192" for a real kernel's. Not its api: the attack implies it
 * (docs/results.md), so a timer cell keeps the fingerprint it always had. */
static void identity_key(const struct th_cell *c, char *key, size_t n)
{
	bool model = th_platform_is_model(c->platform);

	snprintf(key, n, "%s/%s/%s%s%s", c->attack, th_variant_name(c->variant), c->config,
		 model ? "" : "/", model ? "" : c->platform);
}

/* 64-bit FNV-1a of s, as 16 hex digits. */
static void fnv1a_hex(const char *s, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* What a toolchain's cell of a finding observed, for the result's
 * properties. */
static json_t *cell_json(const struct th_cell *c)
{
	json_t *o = json_object(), *counts = json_object();
	char *rerun = NULL;
	int bad = !o || !counts;

	if (bad) {
		json_decref(o);
		json_decref(counts);
		return NULL;
	}
	bad |= set_str(o, "toolchain", c->toolchain);
	bad |= set_str(o, "outcome", th_outcome_name(th_cell_observed(c)));
	char exp[200];

	bad |= set_str(o, "expected", th_cell_expected_set(c) ?
				      th_cell_expected_text(c, exp, sizeof(exp)) : NULL);
	bad |= set_str(o, "verdict", th_verdict_name(th_results_shown_verdict(c)));
	if (c->expected_line)
		bad |= th_json_put(o, "expectedLine", json_integer(c->expected_line));
	bad |= th_json_put(o, "runs", json_integer(c->runs));
	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		if (c->counts[i])
			bad |= th_json_put(counts, th_outcome_name((enum th_outcome)i), json_integer(c->counts[i]));
	bad |= th_json_put(o, "counts", counts);
	bad |= set_str(o, "evidence", c->evidence);
	/* As run from the repository's root. */
	if (*c->rerun) {
		rerun = th_report_source_relative_words(c->rerun);
		bad |= !rerun || set_str(o, "rerun", rerun);
		free(rerun);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *result_json(const struct th_results *res, const struct finding *fd)
{
	const struct rule *r = &rules[fd->rule];
	const struct th_cell *c = fd->cells[0];
	json_t *o = json_object(), *msg, *locs = json_array(), *fp = json_object();
	json_t *props = json_object(), *tcs = json_array(), *jcells = json_array();
	char *text = message(fd), key[1024], hash[17];
	int bad = !o || !locs || !fp || !props || !tcs || !jcells || !text;

	msg = text ? text_obj(text) : NULL;
	free(text);
	if (bad || !msg) {
		json_decref(o);
		json_decref(msg);
		json_decref(locs);
		json_decref(fp);
		json_decref(props);
		json_decref(tcs);
		json_decref(jcells);
		return NULL;
	}
	bad |= set_str(o, "ruleId", r->id);
	bad |= th_json_put(o, "ruleIndex", json_integer(fd->rule));
	bad |= set_str(o, "level", fd->error ? "error" : "warning");
	bad |= set_str(o, "baselineState", "new");
	bad |= th_json_put(o, "message", msg);
	bad |= json_array_append_new(locs, location_json(res, c));
	bad |= th_json_put(o, "locations", locs);
	/* One alert per cell across runs and toolchains: code scanning matches
	 * results by primaryLocationLineHash, which would otherwise be the
	 * declaring line's (shared by many cells, and changed by an edit). */
	identity_key(c, key, sizeof(key));
	fnv1a_hex(key, hash);
	bad |= set_str(fp, "primaryLocationLineHash", hash);
	bad |= set_str(fp, "timerharnessCell/v2", key);
	bad |= th_json_put(o, "partialFingerprints", fp);
	bad |= set_str(props, "attack", c->attack);
	bad |= set_str(props, "technique", c->technique);
	bad |= set_str(props, "timing", c->timing);
	bad |= set_str(props, "payload", c->payload);
	bad |= set_str(props, "api", th_api_name(c->api));
	bad |= set_str(props, "variant", th_variant_name(c->variant));
	bad |= set_str(props, "config", c->config);
	if (!th_platform_is_model(c->platform))
		bad |= set_str(props, "platform", c->platform);
	for (size_t i = 0; i < fd->n; i++) {
		bad |= json_array_append_new(tcs, json_string(fd->cells[i]->toolchain));
		bad |= json_array_append_new(jcells, cell_json(fd->cells[i]));
	}
	bad |= th_json_put(props, "toolchains", tcs);
	bad |= th_json_put(props, "cells", jcells);
	bad |= th_json_put(o, "properties", props);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A notification of the run's only invocation. */
static int notify(json_t *notes, const char *level, const char *text)
{
	json_t *note = json_object();
	int bad = !note;

	if (note) {
		bad |= set_str(note, "level", level);
		bad |= th_json_put(note, "message", text_obj(text));
	}
	return bad | json_array_append_new(notes, note);	/* NULL note: fails */
}

static json_t *run_json(const struct th_results *res)
{
	json_t *run = json_object(), *tool = json_object(), *driver = json_object();
	json_t *jrules = json_array(), *results = json_array(), *inv = json_array();
	json_t *inv0 = json_object(), *props = json_object(), *host = json_object();
	json_t *tcs = json_array(), *notes = json_array();
	const struct th_cell **cells = NULL;
	struct finding *f = NULL;
	size_t nf = 0, shown;
	int bad = !run || !tool || !driver || !jrules || !results || !inv || !inv0 || !props ||
		  !host || !tcs || !notes;

	if (!bad)
		bad |= findings(res, &cells, &f, &nf);
	if (bad) {
		json_decref(run);
		json_decref(tool);
		json_decref(driver);
		json_decref(jrules);
		json_decref(results);
		json_decref(inv);
		json_decref(inv0);
		json_decref(props);
		json_decref(host);
		json_decref(tcs);
		json_decref(notes);
		return NULL;
	}
	shown = nf < TH_SARIF_MAX_RESULTS ? nf : TH_SARIF_MAX_RESULTS;
	bad |= set_str(driver, "name", "timerharness");
	bad |= set_str(driver, "version", res->version ? res->version : "");
	for (size_t i = 0; i < NRULES; i++)
		bad |= json_array_append_new(jrules, rule_json(&rules[i]));
	bad |= th_json_put(driver, "rules", jrules);
	bad |= th_json_put(tool, "driver", driver);
	bad |= th_json_put(run, "tool", tool);

	/* An interrupted run did not check every cell, nor one with a cell the
	 * harness could not run or observe: not a successful one. */
	size_t harness = 0;

	for (size_t i = 0; i < res->ncells; i++)
		harness += th_cell_observed(res->cells[i]) == TH_HARNESS_ERROR;
	bad |= th_json_put(inv0, "executionSuccessful", json_boolean(!res->partial && !harness));
	if (harness) {
		char text[256];

		snprintf(text, sizeof(text), "%zu cell%s could not be run or observed (HARNESS_ERROR): "
			 "the run failed, the gate fails until %s", harness, harness == 1 ? "" : "s",
			 harness == 1 ? "it runs" : "they run");
		bad |= notify(notes, "error", text);
	}
	if (res->partial) {
		char text[512];

		snprintf(text, sizeof(text), "partial run (interrupted: %s): cells not listed were not run",
			 res->interrupted ? res->interrupted : "?");
		bad |= notify(notes, "warning", text);
	}
	if (shown < nf) {
		char text[512];

		th_render_sarif_cap_note(res, text, sizeof(text));
		bad |= notify(notes, "warning", text);
	}
	if (json_array_size(notes))
		bad |= th_json_put(inv0, "toolExecutionNotifications", notes);
	else
		json_decref(notes);
	bad |= json_array_append_new(inv, inv0);
	bad |= th_json_put(run, "invocations", inv);

	for (size_t i = 0; i < shown; i++)
		bad |= json_array_append_new(results, result_json(res, &f[i]));
	bad |= th_json_put(run, "results", results);

	bad |= set_str(props, "schema", TH_RESULTS_SCHEMA);
	bad |= set_str(props, "created", res->created);
	bad |= th_json_put(props, "partial", json_boolean(res->partial));
	bad |= set_str(host, "hostname", res->host.hostname);
	bad |= set_str(host, "kernel", res->host.kernel);
	bad |= th_json_put(host, "cpus", json_integer(res->host.cpus));
	bad |= th_json_put(props, "host", host);
	for (size_t i = 0; i < res->ntoolchains; i++) {
		json_t *t = json_object();

		bad |= !t;
		if (!t)
			break;
		bad |= set_str(t, "name", res->toolchains[i].name);
		bad |= set_str(t, "version", res->toolchains[i].version);
		bad |= json_array_append_new(tcs, t);
	}
	bad |= th_json_put(props, "toolchains", tcs);
	bad |= th_json_put(props, "cells", json_integer((json_int_t)res->ncells));
	/* How many findings there were, and how many the log leaves out. */
	bad |= th_json_put(props, "findings", json_integer((json_int_t)nf));
	bad |= th_json_put(props, "findingsOmitted", json_integer((json_int_t)(nf - shown)));
	bad |= th_json_put(run, "properties", props);
	free(cells);
	free(f);
	if (bad) {
		json_decref(run);
		return NULL;
	}
	return run;
}

int th_render_sarif_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	json_t *root = NULL, *runs = NULL;
	char *text = NULL;
	int bad;

	root = json_object();
	runs = json_array();
	bad = !root || !runs;
	if (!bad) {
		bad |= set_str(root, "$schema", SARIF_SCHEMA);
		bad |= set_str(root, "version", "2.1.0");
		bad |= json_array_append_new(runs, run_json(res));
		bad |= th_json_put(root, "runs", runs);
		runs = NULL;
	}
	if (!bad)
		text = json_dumps(root, JSON_INDENT(2));
	json_decref(runs);
	json_decref(root);
	if (!text)
		return th_results_errf(err, errlen, "out of memory building the SARIF log");
	fputs(text, out);
	fputc('\n', out);
	free(text);
	if (ferror(out))
		return th_results_errf(err, errlen, "cannot write the SARIF log");
	return 0;
}

int th_render_sarif(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_sarif_to, res, err, errlen);
}

/*
 * The same findings for GitLab: its Code Quality report (docs.gitlab.com,
 * "Code Quality", "Code Quality report format"), which a merge request's
 * widget and the pipeline's Code Quality tab read in every GitLab tier (its
 * security widgets need Ultimate and a scanner's schema). A JSON array, an
 * issue a finding: description, check_name (the rule), fingerprint (unique:
 * the rule and the cell without its toolchain, so a new toolchain keeps the
 * issue), severity (GitLab's info, minor, major, critical, blocker: the
 * severity table's, report/severity.def), and the
 * declaring line of the expectations file, relative to the repository's
 * root. A run that passes the gate is "[]". No cap: GitLab keeps them all.
 */
static const char *cq_severity(const struct finding *fd)
{
	enum th_sev_gitlab g = TH_GL_info;

	/* The severity table's, the most severe of the finding's cells (a
	 * regressed one is at least major, a new one minor). */
	for (size_t i = 0; i < fd->n; i++) {
		const struct th_severity *s = th_severity_of(fd->cells[i]);

		if (s && s->gitlab > g)
			g = s->gitlab;
	}
	return th_severity_gitlab_name(g);
}

static json_t *cq_issue(const struct th_results *res, const struct finding *fd)
{
	const struct th_cell *c = fd->cells[0];
	json_t *o = json_object(), *loc = json_object(), *lines = json_object();
	char *text = message(fd), key[1100], hash[17];
	const char *path = res->expect_path ? th_report_source_relative(res->expect_path) : EXPECT_URI;
	int bad = !o || !loc || !lines || !text;

	if (bad) {
		json_decref(o);
		json_decref(loc);
		json_decref(lines);
		free(text);
		return NULL;
	}
	identity_key(c, key, sizeof(key));
	snprintf(key + strlen(key), sizeof(key) - strlen(key), "#%s", rules[fd->rule].id);
	fnv1a_hex(key, hash);
	bad |= set_str(o, "description", text);
	bad |= set_str(o, "check_name", rules[fd->rule].id);
	bad |= set_str(o, "fingerprint", hash);
	bad |= set_str(o, "severity", cq_severity(fd));
	bad |= set_str(loc, "path", path);
	bad |= th_json_put(lines, "begin", json_integer(c->expected_line ? c->expected_line : 1));
	bad |= th_json_put(loc, "lines", lines);
	bad |= th_json_put(o, "location", loc);
	free(text);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int th_render_codequality_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	const struct th_cell **cells;
	struct finding *f;
	size_t nf;
	json_t *arr = json_array();
	char *text = NULL;
	int bad = !arr;

	if (bad || findings(res, &cells, &f, &nf)) {
		json_decref(arr);
		return th_results_errf(err, errlen, "out of memory building the Code Quality report");
	}
	for (size_t i = 0; i < nf && !bad; i++)
		bad |= json_array_append_new(arr, cq_issue(res, &f[i]));
	free(cells);
	free(f);
	if (!bad)
		text = json_dumps(arr, JSON_INDENT(2));
	json_decref(arr);
	if (!text)
		return th_results_errf(err, errlen, "out of memory building the Code Quality report");
	fputs(text, out);
	fputc('\n', out);
	free(text);
	if (ferror(out))
		return th_results_errf(err, errlen, "cannot write the Code Quality report");
	return 0;
}
