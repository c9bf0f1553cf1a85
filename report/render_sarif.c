/* SPDX-License-Identifier: MIT */
/*
 * SARIF 2.1.0, for code-scanning dashboards: one run, a rule per outcome kind
 * worth a look, a result per cell that has one of them (or that regressed).
 */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <jansson.h>
#include <stdbool.h>
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
 * Levels: a regressed cell is an error; a weakness the expectations declare
 * (the cell passed, or improved) is a note whose baselineState is
 * "unchanged", so a run that passes the gate raises no error or warning in
 * code scanning; a severe outcome no rule declares (verdict new) is a
 * warning. security-severity is GitHub's 0.0-10.0 scale.
 */
struct rule {
	enum th_outcome outcome;	/* TH_OUTCOME_INVALID: any regressed cell */
	const char *id;			/* the outcome's public name */
	const char *name;
	const char *severity;		/* security-severity; NULL: not a security rule */
	const char *tags[4];		/* NULL-terminated */
	const char *text;		/* shortDescription */
	const char *full;		/* fullDescription */
};

static const struct rule rules[] = {
	{ TH_HIJACKED, "HIJACKED", "TimerCallHijacked", "9.0",
	  { "security", "control-flow-hijack", "external/cwe/cwe-787", NULL },
	  "A timer overwrite called the attacker's function with the attacker's argument.",
	  "The attack rewrote the timer's callback (and, on the 4.14 layout, its data) and the "
	  "expiry called the attacker's target with the value, or the bytes behind the pointer, "
	  "that the attacker chose: a call gadget with a controlled first argument, as in "
	  "CVE-2017-7308. No defence of this config stopped it." },
	{ TH_PRIVILEGED_WRITE, "PRIVILEGED_WRITE", "PrivilegedStateWritten", "8.8",
	  { "security", "privilege-escalation", "external/cwe/cwe-787", NULL },
	  "A timer overwrite changed the simulated machine's privileged state.",
	  "CR4 or the current credentials changed although no target ran with the attacker's "
	  "chosen argument: a write through the wheel's list pointers or through a callback "
	  "acting on a corrupted object. The effect counts, whatever path produced it." },
	{ TH_REDIRECTED, "REDIRECTED", "TimerCallRedirected", "7.5",
	  { "security", "control-flow-hijack", "external/cwe/cwe-787", NULL },
	  "A timer overwrite called the attacker's function, with an argument the attacker did not choose.",
	  "Control flow was diverted to the attacker's target, but its argument was not the "
	  "attacker's (the 4.15 prototype passes the timer itself). Type-based CFI lets this "
	  "through when the target has the call site's type." },
	{ TH_CRASHED, "CRASHED", "CellCrashed", "5.5",
	  { "security", "memory-corruption", "external/cwe/cwe-787", NULL },
	  "The cell's process died without a defence naming itself.",
	  "A fatal signal (SIGSEGV, a wild jump) that no CFI or memory-safety check claimed: the "
	  "overwrite took effect, but what ran is not shown to be the attacker's choice." },
	{ TH_HANG, "HANG", "CellHang", "4.0",
	  { "security", "denial-of-service", "external/cwe/cwe-835", NULL },
	  "The cell ran past its time limit.",
	  "The cell's process was killed at its time limit: the overwrite may have sent the timer "
	  "wheel or the callback into a loop. Nothing was observed to run or to be stopped." },
	{ TH_TIMER_LOST, "TIMER_LOST", "TimerLost", "4.0",
	  { "security", "denial-of-service", "external/cwe/cwe-787", NULL },
	  "The victim's timer never fired.",
	  "The run ended normally but the legitimate callback never ran and no defence named "
	  "itself: the overwrite made the wheel lose the timer (a silent denial of service)." },
	{ TH_HARNESS_ERROR, "HARNESS_ERROR", "HarnessError", NULL,
	  { "harness", "reliability", NULL },
	  "The harness could not run or observe a cell.",
	  "A missing binary, a failed exec or an unreadable observation: the cell measured "
	  "nothing, and the gate fails until it runs." },
	{ TH_FALSE_POSITIVE, "FALSE_POSITIVE", "DefenceFalsePositive", NULL,
	  { "correctness", "cfi", NULL },
	  "A defence stopped a legitimate timer call.",
	  "In a control run (no overwrite), the config stopped the legitimate callback, as "
	  "type-based CFI does on the 4.14-rc3 timer_setup() cast shim without a trampoline: the "
	  "hardening breaks working code." },
	{ TH_OUTCOME_INVALID, "REGRESSION", "CellRegressed", "7.0",
	  { "security", "regression", "hardening", NULL },
	  "A cell's outcome regressed.",
	  "The observed outcome is more severe than the declared expectation or the baseline, or "
	  "a toolchain lost the cell (UNSUPPORTED or NOT_APPLICABLE where it used to run). Cells "
	  "with one of the other rules' outcomes are reported under that rule, at level error." },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* The rule a cell is reported under, -1 when it is not reported. */
static int rule_of(const struct th_cell *c)
{
	enum th_outcome o = th_cell_observed(c);

	for (size_t i = 0; i < NRULES; i++)
		if (rules[i].outcome == o)
			return (int)i;
	if (th_report_shown_verdict(c) == TH_VERDICT_REGRESSION)
		for (size_t i = 0; i < NRULES; i++)
			if (rules[i].outcome == TH_OUTCOME_INVALID)
				return (int)i;
	return -1;
}

/* Setters that fail on a NULL value (out of memory, or not UTF-8). */
static int set(json_t *o, const char *k, json_t *v)
{
	return v ? json_object_set_new(o, k, v) : -1;
}

static int set_str(json_t *o, const char *k, const char *s)
{
	return set(o, k, s ? json_string(s) : json_null());
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
	bad |= set(o, "shortDescription", text_obj(r->text));
	bad |= set(o, "fullDescription", text_obj(r->full));
	/* What a regressed cell of the rule is; passing cells are notes. */
	bad |= set_str(cfg, "level", "error");
	bad |= set(o, "defaultConfiguration", cfg);
	for (int i = 0; r->tags[i]; i++)
		bad |= json_array_append_new(tags, json_string(r->tags[i]));
	bad |= set(props, "tags", tags);
	if (r->severity)
		bad |= set_str(props, "security-severity", r->severity);
	bad |= set_str(props, "precision", "very-high");
	bad |= set(o, "properties", props);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* "ATTACK variant/config on toolchain: OUTCOME (expected X, verdict v).
 * Evidence: ..." */
static char *message(const struct th_cell *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *exp = th_outcome_name(c->expected);

	if (!f)
		return NULL;
	fprintf(f, "%s %s/%s on %s", c->attack, th_variant_name(c->variant), c->config, c->toolchain);
	/* A real kernel's cell says which; the model's as ever. */
	if (!th_platform_is_model(c->platform))
		fprintf(f, " (real kernel %s)", c->platform);
	fprintf(f, ": %s (expected %s, verdict %s", th_outcome_name(th_cell_observed(c)),
		exp ? exp : "none", th_verdict_name(th_report_shown_verdict(c)));
	if (c->runs > 1)
		fprintf(f, ", %u runs", c->runs);
	if (th_report_shown_verdict(c) == TH_VERDICT_PASS ||
	    th_report_shown_verdict(c) == TH_VERDICT_IMPROVEMENT)
		fputs("; a weakness the expectations declare", f);
	fprintf(f, "). Evidence: %s", *c->evidence ? c->evidence : "(none recorded)");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The expectations file as a SARIF artifact: relative to the checkout
 * (%SRCROOT%) when it lies in the source tree this was built from (or is
 * relative), else an absolute file: URI. */
static int artifact(json_t *art, const struct th_results *res)
{
	const char *p = res->expect_path;
	size_t n = strlen(TH_SOURCE_DIR);
	int bad = 0;

	if (!p) {
		bad |= set_str(art, "uri", EXPECT_URI);
		return bad | set_str(art, "uriBaseId", "%SRCROOT%");
	}
	if (*p != '/' || (!strncmp(p, TH_SOURCE_DIR "/", n + 1) && (p += n + 1))) {
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
	bad |= set(phys, "artifactLocation", art);
	if (c->expected_line) {
		bad |= set(region, "startLine", json_integer(c->expected_line));
		bad |= set(phys, "region", region);
	} else {
		json_decref(region);
	}
	bad |= set(loc, "physicalLocation", phys);
	bad |= set_str(logical, "name", c->attack);
	bad |= set_str(logical, "fullyQualifiedName", fqn);
	bad |= set_str(logical, "kind", "function");
	bad |= json_array_append_new(logicals, logical);
	bad |= set(loc, "logicalLocations", logicals);
	free(fqn);
	if (bad) {
		json_decref(loc);
		return NULL;
	}
	return loc;
}

static json_t *result_json(const struct th_results *res, const struct th_cell *c, int ri)
{
	const struct rule *r = &rules[ri];
	enum th_verdict v = th_report_shown_verdict(c);
	json_t *o = json_object(), *msg, *locs = json_array(), *fp = json_object();
	json_t *props = json_object(), *counts = json_object();
	char *text = message(c), key[1024];
	int bad = !o || !locs || !fp || !props || !counts || !text;

	msg = text ? text_obj(text) : NULL;
	free(text);
	if (bad || !msg) {
		json_decref(o);
		json_decref(msg);
		json_decref(locs);
		json_decref(fp);
		json_decref(props);
		json_decref(counts);
		return NULL;
	}
	bad |= set_str(o, "ruleId", r->id);
	bad |= set(o, "ruleIndex", json_integer(ri));
	bad |= set_str(o, "level", v == TH_VERDICT_REGRESSION ? "error" :
				    v == TH_VERDICT_NEW ? "warning" : "note");
	bad |= set_str(o, "baselineState", v == TH_VERDICT_REGRESSION || v == TH_VERDICT_NEW ?
				            "new" : "unchanged");
	bad |= set(o, "message", msg);
	bad |= json_array_append_new(locs, location_json(res, c));
	bad |= set(o, "locations", locs);
	/* One alert per cell across runs: code scanning would otherwise derive
	 * the identity from the (shared) location. */
	snprintf(key, sizeof(key), "%s/%s/%s/%s%s%s", c->attack, th_variant_name(c->variant), c->config,
		 c->toolchain, th_platform_is_model(c->platform) ? "" : "/",
		 th_platform_is_model(c->platform) ? "" : c->platform);
	bad |= set_str(fp, "timerharnessCell/v1", key);
	bad |= set(o, "partialFingerprints", fp);
	bad |= set_str(props, "attack", c->attack);
	bad |= set_str(props, "technique", c->technique);
	bad |= set_str(props, "timing", c->timing);
	bad |= set_str(props, "payload", c->payload);
	bad |= set_str(props, "variant", th_variant_name(c->variant));
	bad |= set_str(props, "config", c->config);
	bad |= set_str(props, "toolchain", c->toolchain);
	if (!th_platform_is_model(c->platform))
		bad |= set_str(props, "platform", c->platform);
	bad |= set_str(props, "outcome", th_outcome_name(th_cell_observed(c)));
	bad |= set_str(props, "expected", th_outcome_name(c->expected));
	bad |= set_str(props, "verdict", th_verdict_name(v));
	bad |= set(props, "runs", json_integer(c->runs));
	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		if (c->counts[i])
			bad |= set(counts, th_outcome_name((enum th_outcome)i), json_integer(c->counts[i]));
	bad |= set(props, "counts", counts);
	bad |= set_str(props, "evidence", c->evidence);
	if (*c->rerun)
		bad |= set_str(props, "rerun", c->rerun);
	bad |= set(o, "properties", props);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *run_json(const struct th_results *res, const struct th_cell **cells)
{
	json_t *run = json_object(), *tool = json_object(), *driver = json_object();
	json_t *jrules = json_array(), *results = json_array(), *inv = json_array();
	json_t *inv0 = json_object(), *props = json_object(), *host = json_object();
	json_t *tcs = json_array();
	int bad = !run || !tool || !driver || !jrules || !results || !inv || !inv0 || !props ||
		  !host || !tcs;

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
		return NULL;
	}
	bad |= set_str(driver, "name", "timerharness");
	bad |= set_str(driver, "version", res->version ? res->version : "");
	for (size_t i = 0; i < NRULES; i++)
		bad |= json_array_append_new(jrules, rule_json(&rules[i]));
	bad |= set(driver, "rules", jrules);
	bad |= set(tool, "driver", driver);
	bad |= set(run, "tool", tool);

	/* An interrupted run did not check every cell: not a successful one. */
	bad |= set(inv0, "executionSuccessful", json_boolean(!res->partial));
	if (res->partial) {
		json_t *notes = json_array(), *note = json_object();
		char text[512];

		snprintf(text, sizeof(text), "partial run (interrupted: %s): cells not listed were not run",
			 res->interrupted ? res->interrupted : "?");
		if (note) {
			bad |= set_str(note, "level", "warning");
			bad |= set(note, "message", text_obj(text));
		}
		if (notes)
			bad |= json_array_append_new(notes, note);	/* NULL note: fails */
		else
			json_decref(note);
		bad |= set(inv0, "toolExecutionNotifications", notes);
	}
	bad |= json_array_append_new(inv, inv0);
	bad |= set(run, "invocations", inv);

	for (size_t i = 0; i < res->ncells; i++) {
		int ri = rule_of(cells[i]);

		if (ri >= 0)
			bad |= json_array_append_new(results, result_json(res, cells[i], ri));
	}
	bad |= set(run, "results", results);

	bad |= set_str(props, "schema", TH_RESULTS_SCHEMA);
	bad |= set_str(props, "created", res->created);
	bad |= set(props, "partial", json_boolean(res->partial));
	bad |= set_str(host, "hostname", res->host.hostname);
	bad |= set_str(host, "kernel", res->host.kernel);
	bad |= set(host, "cpus", json_integer(res->host.cpus));
	bad |= set(props, "host", host);
	for (size_t i = 0; i < res->ntoolchains; i++) {
		json_t *t = json_object();

		bad |= !t;
		if (!t)
			break;
		bad |= set_str(t, "name", res->toolchains[i].name);
		bad |= set_str(t, "version", res->toolchains[i].version);
		bad |= json_array_append_new(tcs, t);
	}
	bad |= set(props, "toolchains", tcs);
	bad |= set(props, "cells", json_integer((json_int_t)res->ncells));
	bad |= set(run, "properties", props);
	if (bad) {
		json_decref(run);
		return NULL;
	}
	return run;
}

int th_render_sarif_to(FILE *out, const struct th_results *res, char *err, size_t errlen)
{
	const struct th_cell **cells = th_results_sorted_cells(res, err, errlen);
	json_t *root = NULL, *runs = NULL;
	char *text = NULL;
	int bad;

	if (res->ncells && !cells)
		return th_report_errf(err, errlen, "out of memory");
	root = json_object();
	runs = json_array();
	bad = !root || !runs;
	if (!bad) {
		bad |= set_str(root, "$schema", SARIF_SCHEMA);
		bad |= set_str(root, "version", "2.1.0");
		bad |= json_array_append_new(runs, run_json(res, cells));
		bad |= set(root, "runs", runs);
		runs = NULL;
	}
	if (!bad)
		text = json_dumps(root, JSON_INDENT(2));
	json_decref(runs);
	json_decref(root);
	free(cells);
	if (!text)
		return th_report_errf(err, errlen, "out of memory building the SARIF log");
	fputs(text, out);
	fputc('\n', out);
	free(text);
	if (ferror(out))
		return th_report_errf(err, errlen, "cannot write the SARIF log");
	return 0;
}

int th_render_sarif(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	return th_report_render_file(path, th_render_sarif_to, res, err, errlen);
}
