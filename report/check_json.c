/* SPDX-License-Identifier: MIT */
/* `timerharness check --json` (check_json.h). */
#define _GNU_SOURCE
#include "check_json.h"
#include "check.h"
#include "json_load.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct th_check_json {
	json_t *results;	/* NULL: no results judged (--fuzz-only) */
	json_t *fuzz;		/* NULL: no campaigns judged */
	json_t *fuzz_findings;
	json_t *errors;
};

json_t *th_check_jstr(const char *s)
{
	json_t *v = json_string(s ? s : "");
	char *copy;

	if (v || !s || !(copy = strdup(s)))
		return v;
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (*p >= 0x80)
			*p = '?';
	v = json_string(copy);
	free(copy);
	return v;
}

static const char *status_name(int rc)
{
	return rc == TH_CHECK_OK ? "PASS" : rc == TH_CHECK_REGRESSION ? "FAIL" :
	       rc == TH_CHECK_BAD_INPUT ? "BAD INPUT" : "HARNESS ERROR";
}

struct th_check_json *th_check_json_create(void)
{
	struct th_check_json *cj = calloc(1, sizeof(*cj));

	if (cj && !(cj->errors = json_array())) {
		free(cj);
		return NULL;
	}
	return cj;
}

void *th_check_json_results(struct th_check_json *cj, const char *path, const char *expect_path,
			    const char *expect_sha256, const char *baseline)
{
	json_t *r = json_object(), *e = json_object();

	if (!r || !e) {
		json_decref(r);
		json_decref(e);
		return NULL;
	}
	json_object_set_new(e, "path", th_json_str_or_null(expect_path));
	json_object_set_new(e, "sha256", th_json_str_or_null(expect_sha256));
	json_object_set_new(r, "path", th_check_jstr(path));
	json_object_set_new(r, "expectations", e);
	json_object_set_new(r, "baseline", th_json_str_or_null(baseline));
	json_decref(cj->results);
	cj->results = r;
	return r;
}

void th_check_json_results_exit(struct th_check_json *cj, int rc)
{
	if (cj->results)
		json_object_set_new(cj->results, "exit", json_integer(rc));
}

/* The kinds of the campaigns' gate's finding lines (report/check_fuzz.c). */
static const char *const fuzz_kinds[] = {
	"regression", "missing", "lost coverage", "unplanned", "reproducer", "replay", "unreplayed",
	"erased", "unrecorded", "doctored", "harness error",
	"slice", "partial", "unsupported", "note", "expected", NULL
};

void th_check_json_fuzz(struct th_check_json *cj, const char *path, const char *expect,
			const char *plan, int rc, const struct th_check_fuzz_counts *k,
			const char *text)
{
	json_t *f = json_object(), *c = k ? json_object() : NULL, *fl = json_array();

	if (!f || !fl || (k && !c)) {
		json_decref(f);
		json_decref(c);
		json_decref(fl);
		return;
	}
	json_object_set_new(f, "path", th_check_jstr(path));
	json_object_set_new(f, "expectations", th_json_str_or_null(expect));
	json_object_set_new(f, "plan", th_json_str_or_null(plan));
	json_object_set_new(f, "exit", json_integer(rc));
	if (c) {
		json_object_set_new(c, "campaigns", json_integer(k->campaigns));
		json_object_set_new(c, "ran", json_integer(k->ran));
		json_object_set_new(c, "as_declared", json_integer(k->as_declared));
		json_object_set_new(c, "regressed", json_integer(k->regressed));
		json_object_set_new(c, "harness_error", json_integer(k->harness_error));
		json_object_set_new(c, "missing", json_integer(k->missing));
		json_object_set_new(c, "lost_coverage", json_integer(k->lost_coverage));
		json_object_set_new(c, "unplanned", json_integer(k->unplanned));
		json_object_set_new(c, "reproducers", json_integer(k->reproducers));
		json_object_set_new(c, "replayed_otherwise", json_integer(k->replayed_otherwise));
		json_object_set_new(c, "unreplayed", json_integer(k->unreplayed));
		json_object_set_new(c, "below_floor", json_integer(k->below_floor));
		json_object_set_new(c, "findings", json_integer(k->findings));
	}
	json_object_set_new(f, "counts", c ? c : json_null());
	/* Each "KIND: ..." line (never wrapped: findings carry their text
	 * verbatim) is a finding. */
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");

		for (int i = 0; fuzz_kinds[i]; i++) {
			size_t kl = strlen(fuzz_kinds[i]);
			json_t *o;
			char *msg;

			if (len <= kl + 2 || strncmp(p, fuzz_kinds[i], kl) || p[kl] != ':' || p[kl + 1] != ' ')
				continue;
			if (!(o = json_object()) || !(msg = strndup(p + kl + 2, len - kl - 2))) {
				json_decref(o);
				break;
			}
			json_object_set_new(o, "gate", json_string("fuzz"));
			json_object_set_new(o, "kind", json_string(strcmp(fuzz_kinds[i], "expected") ?
								   fuzz_kinds[i] : "declared finding"));
			json_object_set_new(o, "message", th_check_jstr(msg));
			free(msg);
			json_array_append_new(fl, o);
			break;
		}
		p += len + (p[len] == '\n');
	}
	json_decref(cj->fuzz);
	json_decref(cj->fuzz_findings);
	cj->fuzz = f;
	cj->fuzz_findings = fl;
}

void th_check_json_errors(struct th_check_json *cj, const char *text)
{
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len);

		if (line && len)
			json_array_append_new(cj->errors, th_check_jstr(line));
		free(line);
		p += len + (p[len] == '\n');
	}
}

int th_check_json_write(struct th_check_json *cj, int rc, FILE *out)
{
	json_t *doc = json_object(), *all = json_array(), *v;
	size_t i;
	int bad = !doc || !all;

	if (!bad && cj->results) {
		json_t *fl = json_object_get(cj->results, "findings");

		/* Every finding in one list, each saying its gate. */
		json_array_foreach(fl, i, v) {
			json_object_set_new(v, "gate", json_string("results"));
			json_array_append(all, v);
		}
		json_object_del(cj->results, "findings");
		if (!json_object_get(cj->results, "counts"))
			json_object_set_new(cj->results, "counts", json_null());
	}
	if (!bad && cj->fuzz_findings)
		json_array_extend(all, cj->fuzz_findings);
	if (!bad) {
		json_object_set_new(doc, "schema", json_string(TH_CHECK_JSON_SCHEMA));
		json_object_set_new(doc, "status", json_string(status_name(rc)));
		json_object_set_new(doc, "exit", json_integer(rc));
		json_object_set(doc, "results", cj->results ? cj->results : json_null());
		json_object_set(doc, "fuzz", cj->fuzz ? cj->fuzz : json_null());
		json_object_set_new(doc, "findings", all);
		all = NULL;
		json_object_set(doc, "errors", cj->errors);
		bad = json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER) ||
		      fputc('\n', out) == EOF || fflush(out);
	}
	json_decref(doc);
	json_decref(all);
	json_decref(cj->results);
	json_decref(cj->fuzz);
	json_decref(cj->fuzz_findings);
	json_decref(cj->errors);
	free(cj);
	return bad ? -1 : 0;
}
