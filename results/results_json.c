/* SPDX-License-Identifier: MIT */
/* results.json: atomic writer and strict loader (schema timerharness/results/v1). */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "reach.h"
#include "json_load.h"
#include "results_internal.h"
#include "lib/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- model -> JSON ---- */

/* A comma list as a JSON array of strings; NULL (everything) as null. */
static json_t *list_to_json(const char *list)
{
	json_t *a;

	if (!list)
		return json_null();
	if (!(a = json_array()))
		return NULL;
	for (const char *p = list;;) {
		size_t n = strcspn(p, ",");
		char *item = strndup(p, n);

		if (!item || json_array_append_new(a, json_string(item))) {
			free(item);
			json_decref(a);
			return NULL;
		}
		free(item);
		if (!p[n])
			break;
		p += n + 1;
	}
	return a;
}

static int cmp_support(const void *a, const void *b)
{
	return th_results_natcmp((*(const struct th_support *const *)a)->toolchain,
				 (*(const struct th_support *const *)b)->toolchain);
}

static json_t *cell_to_json(const struct th_cell *c, char *err, size_t errlen)
{
	json_t *o = json_object(), *counts = json_object();
	const char *v = th_variant_name(c->variant), *out = th_outcome_name(c->outcome);
	const char *verdict = th_verdict_name(c->verdict), *api = th_api_name(c->api);
	int bad = 0;

	if (!v || !api || !out || !verdict ||
	    (c->expected != TH_OUTCOME_INVALID && !th_outcome_name(c->expected))) {
		th_results_errf(err, errlen, "cell %s: invalid %s value", c->attack,
				!v ? "variant" : !api ? "api" : !out ? "outcome" : !verdict ? "verdict" : "expected");
		json_decref(o);
		json_decref(counts);
		return NULL;
	}
	for (int i = 0; counts && i < TH_OUTCOME_COUNT; i++)
		if (c->counts[i])
			bad |= th_json_put(counts, th_outcome_name((enum th_outcome)i),
				   json_integer(c->counts[i]));
	bad |= !o || !counts;
	if (!bad) {
		bad |= th_json_put(o, "attack", json_string(c->attack));
		bad |= th_json_put(o, "technique", json_string(c->technique));
		bad |= th_json_put(o, "timing", json_string(c->timing));
		bad |= th_json_put(o, "payload", json_string(c->payload));
		bad |= th_json_put(o, "api", json_string(api));
		bad |= th_json_put(o, "variant", json_string(v));
		bad |= th_json_put(o, "config", json_string(c->config));
		bad |= th_json_put(o, "toolchain", json_string(c->toolchain));
		bad |= th_json_put(o, "platform", json_string(c->platform));
		bad |= th_json_put(o, "outcome", json_string(out));
		bad |= th_json_put(o, "runs", json_integer(c->runs));
		bad |= json_object_set(o, "counts", counts);
		bad |= th_json_put(o, "evidence", json_string(c->evidence));
		bad |= th_json_put(o, "expected", th_json_str_or_null(th_outcome_name(c->expected)));
		/* A probabilistic cell's declared set, most severe first (its
		 * first member is expected): written only for a set. */
		if (th_outcome_set_size(c->expected_set) > 1) {
			json_t *set = json_array();

			for (int i = 0; set && i < TH_OUTCOME_COUNT; i++)
				if (c->expected_set & TH_OUTCOME_BIT(i))
					bad |= json_array_append_new(set, json_string(
						th_outcome_name((enum th_outcome)i)));
			bad |= th_json_put(o, "expected_set", set);
		}
		bad |= th_json_put(o, "verdict", json_string(verdict));
		/* Written when recorded: a file from before them round-trips. */
		if (c->seconds >= 0)
			bad |= th_json_put(o, "seconds", json_real(c->seconds));
		if (*c->rerun)
			bad |= th_json_put(o, "rerun", json_string(c->rerun));
		bad |= th_json_put(o, "expected_line", c->expected_line ? json_integer(c->expected_line) :
					       json_null());
	}
	json_decref(counts);
	if (bad) {
		th_results_errf(err, errlen, "cell %s: cannot serialise (out of memory or not UTF-8)",
				c->attack ? c->attack : "?");
		json_decref(o);
		return NULL;
	}
	return o;
}

static int cmp_platform(const void *a, const void *b)
{
	return th_results_platform_cmp((*(const struct th_platform *const *)a)->name,
				       (*(const struct th_platform *const *)b)->name);
}

/* The platforms section, by name. NULL when out of memory. */
static json_t *platforms_to_json(const struct th_results *res)
{
	int oom, bad = 0;
	const struct th_platform **pp = (const struct th_platform **)th_results_sorted_ptrs(
		res->platforms, res->nplatforms, sizeof(*res->platforms), cmp_platform, &oom);
	json_t *arr = json_array();

	bad = oom || !arr;
	for (size_t i = 0; !bad && i < res->nplatforms; i++) {
		const struct th_platform *p = pp[i];
		json_t *o = json_object(), *cfgs = json_array();

		bad |= !o || !cfgs;
		for (size_t k = 0; !bad && k < p->nconfigs; k++) {
			json_t *c = json_object();

			bad |= th_json_put(c, "name", json_string(p->configs[k].name));
			bad |= th_json_put(c, "kconfig", json_string(p->configs[k].kconfig));
			bad |= json_array_append_new(cfgs, c);
		}
		bad |= th_json_put(o, "name", json_string(p->name));
		bad |= th_json_put(o, "source", json_string(p->source));
		bad |= th_json_put(o, "compiler", json_string(p->compiler));
		bad |= th_json_put(o, "qemu", json_string(p->qemu));
		bad |= th_json_put(o, "cpu", json_string(p->cpu));
		bad |= th_json_put(o, "configs", cfgs);
		bad |= th_json_put(o, "boot_seconds_median", p->boot_seconds_median >= 0 ?
			   json_real(p->boot_seconds_median) : json_null());
		bad |= json_array_append_new(arr, o);
	}
	free(pp);
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

/* The agreement as stored. NULL when out of memory. */
static json_t *agreement_to_json(const struct th_results *res)
{
	json_t *arr = json_array();
	int bad = !arr;

	for (size_t i = 0; !bad && i < res->nagreement; i++) {
		const struct th_agreement *r = &res->agreement[i];
		json_t *o = json_object();

		bad |= th_json_put(o, "attack", json_string(r->attack));
		bad |= th_json_put(o, "variant", json_string(th_variant_name(r->variant)));
		bad |= th_json_put(o, "config", json_string(r->config));
		bad |= th_json_put(o, "toolchain", json_string(r->toolchain));
		bad |= th_json_put(o, "platform", json_string(r->platform));
		bad |= th_json_put(o, "model_outcome", json_string(th_outcome_name(r->model)));
		bad |= th_json_put(o, "kernel_outcome", json_string(th_outcome_name(r->kernel)));
		bad |= th_json_put(o, "agrees", json_boolean(r->agrees));
		bad |= th_json_put(o, "reason", th_json_str_or_null(r->reason));
		bad |= th_json_put(o, "rule", th_json_str_or_null(r->rule));
		bad |= json_array_append_new(arr, o);
	}
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *to_json(const struct th_results *res, char *err, size_t errlen)
{
	json_t *root = json_object(), *host = json_object(), *tcs = json_array(),
	       *cfgs = json_array(), *metrics = json_object(), *cells = json_array();
	const struct th_toolchain **tp = NULL;
	const struct th_metric **mp = NULL;
	const void **sp = NULL;
	const struct th_cell **cp = NULL;
	int oom = 0, bad = !root || !host || !tcs || !cfgs || !metrics || !cells;

	if (bad)
		goto out;
	bad |= th_json_put(root, "schema", json_string(TH_RESULTS_SCHEMA));
	bad |= th_json_put(root, "version", json_string(res->version ? res->version : ""));
	bad |= th_json_put(root, "created", json_string(res->created ? res->created : ""));
	bad |= th_json_put(root, "partial", json_boolean(res->partial));
	bad |= th_json_put(root, "interrupted", th_json_str_or_null(res->partial ? res->interrupted : NULL));
	bad |= th_json_put(host, "hostname", json_string(res->host.hostname ? res->host.hostname : ""));
	bad |= th_json_put(host, "kernel", json_string(res->host.kernel ? res->host.kernel : ""));
	bad |= th_json_put(host, "cpus", json_integer(res->host.cpus));
	bad |= json_object_set(root, "host", host);
	if (!bad && res->expect_path) {
		json_t *e = json_object();

		bad |= th_json_put(e, "path", json_string(res->expect_path));
		bad |= th_json_put(e, "sha256", json_string(res->expect_sha256 ? res->expect_sha256 : ""));
		bad |= th_json_put(root, "expectations", e);
	}
	if (!bad && res->has_selection) {
		const struct th_selection *sel = &res->selection;
		json_t *o = json_object();

		bad |= th_json_put(o, "toolchains", list_to_json(sel->toolchains));
		bad |= th_json_put(o, "configs", list_to_json(sel->configs));
		bad |= th_json_put(o, "variants", list_to_json(sel->variants));
		bad |= th_json_put(o, "attacks", list_to_json(sel->attacks));
		bad |= th_json_put(o, "selftests", json_boolean(sel->selftests));
		bad |= th_json_put(root, "selection", o);
	}
	if (!bad && res->shard.count) {
		json_t *o = json_object(), *idx = json_array();

		for (size_t i = 0; idx && i < res->shard.nindexes; i++)
			bad |= json_array_append_new(idx, json_integer(res->shard.indexes[i]));
		bad |= th_json_put(o, "count", json_integer(res->shard.count));
		bad |= th_json_put(o, "indexes", idx);
		bad |= th_json_put(root, "shard", o);
	}

	tp = th_results_sorted_toolchains(res, &oom);
	bad |= oom;
	for (size_t i = 0; !bad && i < res->ntoolchains; i++) {
		const struct th_toolchain *t = tp[i];
		json_t *o = json_object();

		bad |= th_json_put(o, "name", json_string(t->name));
		bad |= th_json_put(o, "version", json_string(t->version));
		bad |= th_json_put(o, "path", json_string(t->path));
		bad |= json_array_append_new(tcs, o);
	}
	bad |= json_object_set(root, "toolchains", tcs);

	for (size_t i = 0; !bad && i < res->nconfigs; i++) {
		const struct th_config *c = &res->configs[i];
		json_t *o = json_object(), *sup = json_object();

		sp = th_results_sorted_ptrs(c->support, c->nsupport, sizeof(*c->support), cmp_support,
					    &oom);
		bad |= oom || !o || !sup;
		for (size_t j = 0; !bad && j < c->nsupport; j++) {
			const struct th_support *s = sp[j];
			json_t *so = json_object();

			bad |= th_json_put(so, "supported", json_boolean(s->supported));
			bad |= th_json_put(so, "reason", json_string(s->reason));
			bad |= th_json_put(sup, s->toolchain, so);
		}
		free(sp);
		sp = NULL;
		bad |= th_json_put(o, "name", json_string(c->name));
		bad |= th_json_put(o, "flags", json_string(c->flags));
		bad |= th_json_put(o, "description", json_string(c->description));
		bad |= th_json_put(o, "support", sup);
		bad |= json_array_append_new(cfgs, o);
	}
	bad |= json_object_set(root, "configs", cfgs);
	if (!bad && res->nplatforms) {
		json_t *pl = platforms_to_json(res);

		bad |= !pl || th_json_put(root, "platforms", pl);
	}

	mp = th_results_sorted_metrics(res, &oom);
	bad |= oom;
	for (size_t i = 0; !bad && i < res->nmetrics; i++) {
		const struct th_metric *m = mp[i];

		bad |= th_json_put(metrics, m->name,
			   m->type == TH_METRIC_INT ? json_integer(m->i) :
			   m->type == TH_METRIC_REAL ? json_real(m->d) : json_string(m->s));
	}
	bad |= json_object_set(root, "metrics", metrics);

	cp = th_results_sorted_cells(res, err, errlen);
	if (res->ncells && !cp)
		goto out;
	for (size_t i = 0; !bad && i < res->ncells; i++) {
		json_t *o = cell_to_json(cp[i], err, errlen);

		if (!o)
			goto out;
		bad |= json_array_append_new(cells, o);
	}
	bad |= json_object_set(root, "cells", cells);
	if (!bad && res->reach) {
		json_t *r = th_reach_to_json(res, err, errlen);

		if (!r)
			goto out;
		bad |= th_json_put(root, "reach", r);
	}
	if (!bad && res->has_agreement) {
		json_t *a = agreement_to_json(res);

		bad |= !a || th_json_put(root, "agreement", a);
	}
	if (!bad)
		goto done;
out:
	if (bad)
		th_results_errf(err, errlen, "cannot serialise results (out of memory or a string not UTF-8)");
	json_decref(root);
	root = NULL;
done:
	json_decref(host);
	json_decref(tcs);
	json_decref(cfgs);
	json_decref(metrics);
	json_decref(cells);
	free(tp);
	free(mp);
	free(cp);
	return root;
}

/* ---- JSON -> model, strictly ---- */

static const char *type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

static void join(char *dst, size_t n, const char *a, const char *b)
{
	if (a && *a)
		snprintf(dst, n, "%s.%s", a, b);
	else
		snprintf(dst, n, "%s", b);
}

enum jt { J_OBJ, J_ARR, J_STR, J_STR_OR_NULL, J_INT, J_BOOL, J_SCALAR };

static const char *jt_name[] = {
	[J_OBJ] = "an object", [J_ARR] = "an array", [J_STR] = "a string",
	[J_STR_OR_NULL] = "a string or null", [J_INT] = "an integer",
	[J_BOOL] = "a boolean", [J_SCALAR] = "a number or a string",
};

static bool is_type(const json_t *j, enum jt t)
{
	switch (t) {
	case J_OBJ: return json_is_object(j);
	case J_ARR: return json_is_array(j);
	case J_STR: return json_is_string(j);
	case J_STR_OR_NULL: return json_is_string(j) || json_is_null(j);
	case J_INT: return json_is_integer(j);
	case J_BOOL: return json_is_boolean(j);
	case J_SCALAR: return json_is_number(j) || json_is_string(j);
	}
	return false;
}

/* The value of a required field of type t, NULL (err set) otherwise. */
static json_t *field(struct th_jload *l, const json_t *o, const char *where,
		     const char *key, enum jt t)
{
	json_t *v = json_object_get(o, key);
	char w[160];

	if (!v)
		return th_jload_err(l, where, "missing field \"%s\"", key), NULL;
	if (!is_type(v, t)) {
		join(w, sizeof(w), where, key);
		return th_jload_err(l, w, "expected %s, got %s", jt_name[t], type_name(v)), NULL;
	}
	return v;
}

static const char *sfield(struct th_jload *l, const json_t *o, const char *where, const char *key)
{
	json_t *v = field(l, o, where, key, J_STR);

	return v ? json_string_value(v) : NULL;
}

/* A non-empty string without blanks (names used as keys and columns). */
static const char *name_field(struct th_jload *l, const json_t *o, const char *where,
			      const char *key)
{
	const char *s = sfield(l, o, where, key);
	char w[160];

	if (!s)
		return NULL;
	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f) {
			join(w, sizeof(w), where, key);
			return th_jload_err(l, w, "\"%s\" has a blank or control character", s), NULL;
		}
	}
	if (!*s) {
		join(w, sizeof(w), where, key);
		return th_jload_err(l, w, "empty"), NULL;
	}
	return s;
}

static void list_toolchains(const struct th_results *r, char *buf, size_t n)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->ntoolchains && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? ", " : "", r->toolchains[i].name);
	if (!r->ntoolchains)
		snprintf(buf, n, "none declared");
}

static void list_configs(const struct th_results *r, char *buf, size_t n)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->nconfigs && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? ", " : "", r->configs[i].name);
	if (!r->nconfigs)
		snprintf(buf, n, "none declared");
}

static int load_top(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const host_fields[] = { "hostname", "kernel", "cpus", NULL };
	json_t *j, *host;
	const char *s;
	char e[256];

	if (!(s = sfield(l, root, "", "version")))
		return -1;
	if (!(r->version = th_results_strdup(s)))
		return th_jload_err(l, "", "out of memory");
	if (!(s = sfield(l, root, "", "created")))
		return -1;
	if (th_results_set_created(r, s, e, sizeof(e)))
		return th_jload_err(l, "created", "\"%s\" is not UTC ISO-8601 (YYYY-MM-DDTHH:MM:SSZ)", s);
	if (!(j = field(l, root, "", "partial", J_BOOL)))
		return -1;
	bool partial = json_is_true(j);
	if (!(j = field(l, root, "", "interrupted", J_STR_OR_NULL)))
		return -1;
	if (partial && (!json_is_string(j) || !*json_string_value(j)))
		return th_jload_err(l, "interrupted", "partial is true but no reason is given");
	if (!partial && !json_is_null(j))
		return th_jload_err(l, "interrupted", "set to \"%s\" but partial is false", json_string_value(j));
	if (th_results_set_partial(r, partial, partial ? json_string_value(j) : NULL, e, sizeof(e)))
		return th_jload_err(l, "", "%s", e);

	if (!(host = field(l, root, "", "host", J_OBJ)) ||
	    th_jload_only(l, host, "host", host_fields, 0))
		return -1;
	const char *hn = sfield(l, host, "host", "hostname");
	const char *kr = hn ? sfield(l, host, "host", "kernel") : NULL;
	if (!kr || !(j = field(l, host, "host", "cpus", J_INT)))
		return -1;
	if (json_integer_value(j) < 0 || json_integer_value(j) > INT32_MAX)
		return th_jload_err(l, "host.cpus", "%lld is out of range", (long long)json_integer_value(j));
	if (th_results_set_host(r, hn, kr, (int)json_integer_value(j), e, sizeof(e)))
		return th_jload_err(l, "host", "%s", e);
	return 0;
}

/* A selection list: null, or an array of names (joined with commas). */
static int load_list(struct th_jload *l, const json_t *o, const char *where, const char *key,
		     char **out)
{
	json_t *v = json_object_get(o, key), *item;
	char w[96];
	size_t i, len = 0;

	join(w, sizeof(w), where, key);
	*out = NULL;
	if (!v)
		return th_jload_err(l, where, "missing field \"%s\"", key);
	if (json_is_null(v))
		return 0;
	if (!json_is_array(v) || !json_array_size(v))
		return th_jload_err(l, w, "expected null or a non-empty array of names, got %s",
			    json_is_array(v) ? "an empty array" : type_name(v));
	json_array_foreach(v, i, item) {
		const char *s = json_is_string(item) ? json_string_value(item) : NULL;

		if (!s || !*s || strpbrk(s, ", \t\n\r"))
			return th_jload_err(l, w, "item %zu is not a name (a non-empty string without commas or blanks)", i);
		len += strlen(s) + 1;
	}
	if (!(*out = calloc(1, len)))
		return th_jload_err(l, w, "out of memory");
	json_array_foreach(v, i, item) {
		if (i)
			strcat(*out, ",");
		strcat(*out, json_string_value(item));
	}
	return 0;
}

static int load_provenance(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const efields[] = { "path", "sha256", NULL };
	static const char *const sfields[] = { "toolchains", "configs", "variants", "attacks",
					       "selftests", NULL };
	json_t *e = json_object_get(root, "expectations"), *s = json_object_get(root, "selection");
	char msg[256];
	int rc = 0;

	if (e) {
		if (!json_is_object(e))
			return th_jload_err(l, "expectations", "expected an object, got %s", type_name(e));
		if (th_jload_only(l, e, "expectations", efields, 0))
			return -1;
		const char *path = sfield(l, e, "expectations", "path");
		const char *sha = path ? sfield(l, e, "expectations", "sha256") : NULL;

		if (!sha)
			return -1;
		if (th_results_set_expectations(r, path, sha, msg, sizeof(msg)))
			return th_jload_err(l, "", "%s", msg);
	}
	if (s) {
		struct th_selection sel = { 0 };
		json_t *st;

		if (!json_is_object(s))
			return th_jload_err(l, "selection", "expected an object, got %s", type_name(s));
		if (th_jload_only(l, s, "selection", sfields, 0))
			return -1;
		if (load_list(l, s, "selection", "toolchains", &sel.toolchains) ||
		    load_list(l, s, "selection", "configs", &sel.configs) ||
		    load_list(l, s, "selection", "variants", &sel.variants) ||
		    load_list(l, s, "selection", "attacks", &sel.attacks) ||
		    !(st = field(l, s, "selection", "selftests", J_BOOL))) {
			rc = -1;
		} else {
			sel.selftests = json_is_true(st);
			if (th_results_set_selection(r, &sel, msg, sizeof(msg)))
				rc = th_jload_err(l, "", "%s", msg);
		}
		free(sel.toolchains);
		free(sel.configs);
		free(sel.variants);
		free(sel.attacks);
	}
	return rc;
}

static int load_shard(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const fields[] = { "count", "indexes", NULL };
	json_t *o = json_object_get(root, "shard"), *c, *idx, *v;
	unsigned ix[TH_SHARD_MAX];
	size_t i;
	char e[256];

	if (!o)
		return 0;
	if (!json_is_object(o))
		return th_jload_err(l, "shard", "expected an object, got %s", type_name(o));
	if (th_jload_only(l, o, "shard", fields, 0) || !(c = field(l, o, "shard", "count", J_INT)) ||
	    !(idx = field(l, o, "shard", "indexes", J_ARR)))
		return -1;
	if (json_integer_value(c) < 1 || json_integer_value(c) > TH_SHARD_MAX)
		return th_jload_err(l, "shard.count", "%lld is not a shard count (1..%u)",
			    (long long)json_integer_value(c), TH_SHARD_MAX);
	if (!json_array_size(idx) || json_array_size(idx) > (size_t)json_integer_value(c))
		return th_jload_err(l, "shard.indexes", "%zu indexes for %lld shards", json_array_size(idx),
			    (long long)json_integer_value(c));
	json_array_foreach(idx, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > json_integer_value(c))
			return th_jload_err(l, "shard.indexes", "item %zu is not a shard index (1..%lld)", i,
				    (long long)json_integer_value(c));
		ix[i] = (unsigned)json_integer_value(v);
	}
	if (th_results_set_shard(r, (unsigned)json_integer_value(c), ix, json_array_size(idx), e,
				 sizeof(e)))
		return th_jload_err(l, "shard", "%s", e);
	return 0;
}

static int load_toolchains(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const fields[] = { "name", "version", "path", NULL };
	json_t *arr = field(l, root, "", "toolchains", J_ARR), *o;
	size_t i;
	char w[64], e[256];

	if (!arr)
		return -1;
	json_array_foreach(arr, i, o) {
		snprintf(w, sizeof(w), "toolchains[%zu]", i);
		if (!json_is_object(o))
			return th_jload_err(l, w, "expected an object, got %s", type_name(o));
		if (th_jload_only(l, o, w, fields, 0))
			return -1;
		const char *name = name_field(l, o, w, "name");
		const char *ver = name ? sfield(l, o, w, "version") : NULL;
		const char *path = ver ? sfield(l, o, w, "path") : NULL;
		if (!path)
			return -1;
		if (th_results_add_toolchain(r, name, ver, path, e, sizeof(e)))
			return th_jload_err(l, w, "%s", e);
	}
	return 0;
}

static int load_configs(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const fields[] = { "name", "flags", "description", "support", NULL };
	static const char *const sfields[] = { "supported", "reason", NULL };
	json_t *arr = field(l, root, "", "configs", J_ARR), *o, *sup, *so;
	const char *tc;
	size_t i;
	char w[128], ws[192], e[512];

	if (!arr)
		return -1;
	json_array_foreach(arr, i, o) {
		snprintf(w, sizeof(w), "configs[%zu]", i);
		if (!json_is_object(o))
			return th_jload_err(l, w, "expected an object, got %s", type_name(o));
		if (th_jload_only(l, o, w, fields, 0))
			return -1;
		const char *name = name_field(l, o, w, "name");
		const char *flags = name ? sfield(l, o, w, "flags") : NULL;
		const char *desc = flags ? sfield(l, o, w, "description") : NULL;
		if (!desc || !(sup = field(l, o, w, "support", J_OBJ)))
			return -1;
		if (th_results_add_config(r, name, flags, desc, e, sizeof(e)))
			return th_jload_err(l, w, "%s", e);
		snprintf(w, sizeof(w), "configs[%zu].support", i);
		json_object_foreach(sup, tc, so) {
			snprintf(ws, sizeof(ws), "%s.%s", w, tc);
			if (!th_results_find_toolchain(r, tc)) {
				list_toolchains(r, e, sizeof(e));
				return th_jload_err(l, w, "unknown toolchain \"%s\" (toolchains: %s)", tc, e);
			}
			if (!json_is_object(so))
				return th_jload_err(l, ws, "expected an object, got %s", type_name(so));
			if (th_jload_only(l, so, ws, sfields, 0))
				return -1;
			json_t *b = field(l, so, ws, "supported", J_BOOL);
			json_t *rs = b ? field(l, so, ws, "reason", J_STR_OR_NULL) : NULL;
			if (!rs)
				return -1;
			if (th_results_set_support(r, name, tc, json_is_true(b),
						   json_is_string(rs) ? json_string_value(rs) : "",
						   e, sizeof(e)))
				return th_jload_err(l, ws, "%s", e);
		}
	}
	return 0;
}

static int load_metrics(struct th_jload *l, const json_t *root, struct th_results *r)
{
	json_t *obj = field(l, root, "", "metrics", J_OBJ), *v;
	const char *k;
	char w[192], e[256];
	int rc;

	if (!obj)
		return -1;
	json_object_foreach(obj, k, v) {
		snprintf(w, sizeof(w), "metrics.%s", k);
		if (json_is_integer(v))
			rc = th_results_set_metric_int(r, k, json_integer_value(v), e, sizeof(e));
		else if (json_is_real(v))
			rc = th_results_set_metric_real(r, k, json_real_value(v), e, sizeof(e));
		else if (json_is_string(v))
			rc = th_results_set_metric_string(r, k, json_string_value(v), e, sizeof(e));
		else
			return th_jload_err(l, w, "expected a number or a string, got %s", type_name(v));
		if (rc)
			return th_jload_err(l, w, "%s", e);
	}
	return 0;
}

static int load_platforms(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const fields[] = { "name", "source", "compiler", "qemu", "cpu", "configs",
					      "boot_seconds_median", NULL };
	static const char *const cfields[] = { "name", "kconfig", NULL };
	json_t *arr = json_object_get(root, "platforms"), *o, *cfgs, *c, *b;
	size_t i, k;
	char w[64], wc[96], e[512];

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return th_jload_err(l, "platforms", "expected an array, got %s", type_name(arr));
	json_array_foreach(arr, i, o) {
		struct th_platform_in in = { 0 };

		snprintf(w, sizeof(w), "platforms[%zu]", i);
		if (!json_is_object(o))
			return th_jload_err(l, w, "expected an object, got %s", type_name(o));
		if (th_jload_only(l, o, w, fields, 1) || !(in.name = name_field(l, o, w, "name")) ||
		    !(in.source = sfield(l, o, w, "source")) || !(in.compiler = sfield(l, o, w, "compiler")) ||
		    !(in.qemu = sfield(l, o, w, "qemu")) || !(in.cpu = sfield(l, o, w, "cpu")) ||
		    !(cfgs = field(l, o, w, "configs", J_ARR)))
			return -1;
		b = json_object_get(o, "boot_seconds_median");
		if (!json_is_null(b) && (!json_is_number(b) || json_number_value(b) < 0 ||
					 json_number_value(b) >= 1e12))
			return th_jload_err(l, (join(wc, sizeof(wc), w, "boot_seconds_median"), wc),
					    "expected a duration (a number >= 0) or null, got %s", type_name(b));
		in.boot_seconds_median = json_is_null(b) ? -1 : json_number_value(b);
		if (th_platform_is_model(in.name))
			return th_jload_err(l, (join(wc, sizeof(wc), w, "name"), wc),
					    "\"model\" is the userspace model: not a platform to declare");
		if (th_results_add_platform(r, &in, e, sizeof(e)))
			return th_jload_err(l, (join(wc, sizeof(wc), w, "name"), wc), "%s", e);
		json_array_foreach(cfgs, k, c) {
			const char *name, *kconfig;

			snprintf(wc, sizeof(wc), "%s.configs[%zu]", w, k);
			if (!json_is_object(c))
				return th_jload_err(l, wc, "expected an object, got %s", type_name(c));
			if (th_jload_only(l, c, wc, cfields, 1) || !(name = name_field(l, c, wc, "name")) ||
			    !(kconfig = sfield(l, c, wc, "kconfig")))
				return -1;
			if (!th_results_find_config(r, name)) {
				list_configs(r, e, sizeof(e));
				return th_jload_err(l, wc, "unknown config \"%s\" (configs: %s)", name, e);
			}
			if (th_results_add_platform_config(r, in.name, name, kconfig, e, sizeof(e)))
				return th_jload_err(l, wc, "%s", e);
		}
	}
	return 0;
}

static int outcome_field(struct th_jload *l, const json_t *o, const char *where,
			 const char *key, bool nullable, enum th_outcome *out)
{
	json_t *v = field(l, o, where, key, nullable ? J_STR_OR_NULL : J_STR);
	char w[160];

	if (!v)
		return -1;
	if (json_is_null(v)) {
		*out = TH_OUTCOME_INVALID;
		return 0;
	}
	*out = th_outcome_parse(json_string_value(v));
	if (*out == TH_OUTCOME_INVALID) {
		join(w, sizeof(w), where, key);
		return th_jload_err(l, w, "unknown outcome \"%s\"", json_string_value(v));
	}
	return 0;
}

static void list_platforms(const struct th_results *r, char *buf, size_t n)
{
	size_t off = (size_t)snprintf(buf, n, TH_PLATFORM_MODEL);

	for (size_t i = 0; i < r->nplatforms && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, ", %s", r->platforms[i].name);
}

/* A cell's (or an agreement row's) platform: "model", or one declared in
 * platforms whose configs hold config. NULL with err set otherwise. */
static const char *platform_field(struct th_jload *l, const json_t *o, const char *where,
				  const char *config, bool model_ok, const struct th_results *r)
{
	const char *s = sfield(l, o, where, "platform");
	char wf[160], e[512];

	if (!s)
		return NULL;
	join(wf, sizeof(wf), where, "platform");
	if (th_platform_is_model(s)) {
		if (!model_ok)
			return th_jload_err(l, wf, "\"%s\": a row of the agreement is a real kernel's cell",
					    s), NULL;
		return TH_PLATFORM_MODEL;
	}
	const struct th_platform *p = th_results_find_platform(r, s);

	if (!p) {
		list_platforms(r, e, sizeof(e));
		return th_jload_err(l, wf, "unknown platform \"%s\" (%s: %s)", s,
				    th_platform_name_valid(s) ? "declare it in platforms; platforms" :
				    "\"model\" or \"linux-<release>\"; declared", e), NULL;
	}
	if (!th_platform_find_config(p, config)) {
		size_t off = 0;

		e[0] = '\0';
		for (size_t i = 0; i < p->nconfigs && off < sizeof(e); i++)
			off += (size_t)snprintf(e + off, sizeof(e) - off, "%s%s", i ? ", " : "",
						p->configs[i].name);
		return th_jload_err(l, wf, "config \"%s\" is not a kernel config of %s (its configs: %s)",
				    config, s, p->nconfigs ? e : "none"), NULL;
	}
	return p->name;
}

static int load_cell(struct th_jload *l, const json_t *o, size_t idx, struct th_results *r,
		     bool need_platform)
{
	static const char *const fields[] = {
		"attack", "technique", "timing", "payload", "api", "variant", "config", "toolchain",
		"platform", "outcome", "runs", "counts", "evidence", "expected", "expected_set",
		"verdict", "seconds", "rerun", "expected_line", NULL
	};
	struct th_cell_in in = { 0 };
	unsigned counts[TH_OUTCOME_COUNT] = { 0 };
	unsigned long long sum = 0;
	char w[64], wf[96], e[512];
	json_t *j, *cj;
	const char *k, *s;

	snprintf(w, sizeof(w), "cells[%zu]", idx);
	if (!json_is_object(o))
		return th_jload_err(l, w, "expected an object, got %s", type_name(o));
	if (th_jload_only(l, o, w, fields, 0))
		return -1;
	if (!(in.attack = sfield(l, o, w, "attack")))
		return -1;
	if (!th_results_valid_attack_id(in.attack))
		return th_jload_err(l, w, "attack \"%s\" is not an upper-case ID ([A-Z][A-Z0-9_]*)", in.attack);
	if (!(in.technique = name_field(l, o, w, "technique")) ||
	    !(in.timing = sfield(l, o, w, "timing")))
		return -1;
	if (th_results_timing_rank(in.timing) < 0)
		return th_jload_err(l, (join(wf, sizeof(wf), w, "timing"), wf),
			    "unknown timing \"%s\" (before-arm, pending or -)", in.timing);
	/* A file from before the API families has no "api": its cells are the
	 * timer's (results/api.def's first row). */
	if (json_object_get(o, "api")) {
		if (!(s = sfield(l, o, w, "api")))
			return -1;
		if ((in.api = th_api_parse(s)) == TH_API_INVALID)
			return th_jload_err(l, (join(wf, sizeof(wf), w, "api"), wf),
				    "unknown api \"%s\" (%s)", s, th_api_names());
	}
	if (!(in.payload = name_field(l, o, w, "payload")) || !(s = sfield(l, o, w, "variant")))
		return -1;
	if ((in.variant = th_variant_parse(s)) == TH_VARIANT_INVALID)
		return th_jload_err(l, (join(wf, sizeof(wf), w, "variant"), wf),
			    "unknown variant \"%s\" (legacy, transitional or modern)", s);
	if (!(in.config = sfield(l, o, w, "config")))
		return -1;
	if (!th_results_find_config(r, in.config)) {
		list_configs(r, e, sizeof(e));
		return th_jload_err(l, (join(wf, sizeof(wf), w, "config"), wf),
			    "unknown config \"%s\" (configs: %s)", in.config, e);
	}
	if (!(in.toolchain = sfield(l, o, w, "toolchain")))
		return -1;
	if (!th_results_find_toolchain(r, in.toolchain)) {
		list_toolchains(r, e, sizeof(e));
		return th_jload_err(l, (join(wf, sizeof(wf), w, "toolchain"), wf),
			    "unknown toolchain \"%s\" (toolchains: %s)", in.toolchain, e);
	}
	/* A file from before platforms has none: its cells are the model's. */
	if (json_object_get(o, "platform") || need_platform) {
		if (!json_object_get(o, "platform"))
			return th_jload_err(l, w, "missing field \"platform\" (every cell of a file with "
					    "platforms, or with a cell that says its platform, says its own)");
		if (!(in.platform = platform_field(l, o, w, in.config, true, r)))
			return -1;
	}
	if (outcome_field(l, o, w, "outcome", false, &in.outcome))
		return -1;
	if (!(j = field(l, o, w, "runs", J_INT)))
		return -1;
	if (json_integer_value(j) < 0 || json_integer_value(j) > UINT32_MAX)
		return th_jload_err(l, (join(wf, sizeof(wf), w, "runs"), wf), "%lld is out of range",
			    (long long)json_integer_value(j));
	in.runs = (unsigned)json_integer_value(j);
	if (!(cj = field(l, o, w, "counts", J_OBJ)))
		return -1;
	json_object_foreach(cj, k, j) {
		enum th_outcome c = th_outcome_parse(k);

		join(wf, sizeof(wf), w, "counts");
		if (c == TH_OUTCOME_INVALID)
			return th_jload_err(l, wf, "unknown outcome \"%s\"", k);
		if (!json_is_integer(j) || json_integer_value(j) < 0 ||
		    json_integer_value(j) > UINT32_MAX)
			return th_jload_err(l, wf, "%s: expected a count (integer >= 0), got %s", k,
				    type_name(j));
		counts[c] = (unsigned)json_integer_value(j);
		sum += counts[c];
	}
	if (sum != in.runs)
		return th_jload_err(l, (join(wf, sizeof(wf), w, "counts"), wf),
			    "counts sum to %llu but runs is %u", sum, in.runs);
	if (!(in.evidence = sfield(l, o, w, "evidence")) ||
	    outcome_field(l, o, w, "expected", true, &in.expected) ||
	    !(s = sfield(l, o, w, "verdict")))
		return -1;
	if ((j = json_object_get(o, "expected_set"))) {
		char why[300], names[200];
		size_t k;
		json_t *m;

		join(wf, sizeof(wf), w, "expected_set");
		if (!json_is_array(j) || json_array_size(j) < 2)
			return th_jload_err(l, wf, "expected an array of two outcomes or more (a set), "
					    "got %s", json_is_array(j) ? "a shorter array" : type_name(j));
		names[0] = '\0';
		json_array_foreach(j, k, m) {
			if (!json_is_string(m))
				return th_jload_err(l, wf, "[%zu]: expected an outcome, got %s", k,
						    type_name(m));
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 k ? "|" : "", json_string_value(m));
		}
		if (th_outcome_set_parse(names, &in.expected_set, why, sizeof(why)))
			return th_jload_err(l, wf, "%s", why);
		if (in.expected != th_outcome_set_worst(in.expected_set))
			return th_jload_err(l, wf, "its most severe outcome, %s, is not expected (%s)",
					    th_outcome_name(th_outcome_set_worst(in.expected_set)),
					    th_outcome_name(in.expected) ? th_outcome_name(in.expected) : "null");
	}
	enum th_verdict verdict = th_verdict_parse(s);
	if (verdict == TH_VERDICT_INVALID)
		return th_jload_err(l, (join(wf, sizeof(wf), w, "verdict"), wf),
			    "unknown verdict \"%s\" (pass, regression, improvement or new)", s);
	/* Optional: files written before they were recorded lack them. */
	double seconds = -1;
	if ((j = json_object_get(o, "seconds"))) {
		if (!json_is_number(j) || json_number_value(j) < 0 || json_number_value(j) >= 1e12)
			return th_jload_err(l, (join(wf, sizeof(wf), w, "seconds"), wf),
				    "expected a duration (a number >= 0), got %s", type_name(j));
		seconds = json_number_value(j);
	}
	if ((j = json_object_get(o, "rerun"))) {
		if (!json_is_string(j) || !*json_string_value(j))
			return th_jload_err(l, (join(wf, sizeof(wf), w, "rerun"), wf),
				    "expected a command (a non-empty string), got %s", type_name(j));
		in.rerun = json_string_value(j);
	}
	if ((j = json_object_get(o, "expected_line")) && !json_is_null(j)) {
		if (!json_is_integer(j) || json_integer_value(j) < 1 ||
		    json_integer_value(j) > UINT32_MAX)
			return th_jload_err(l, (join(wf, sizeof(wf), w, "expected_line"), wf),
				    "expected a line number (an integer >= 1) or null, got %s",
				    json_is_integer(j) ? "an integer out of range" : type_name(j));
		in.expected_line = (unsigned)json_integer_value(j);
	}

	const struct th_cell *dup = th_results_find_cell(r, in.platform, in.attack, in.variant,
							 in.config, in.toolchain);
	if (dup) {
		size_t first = 0;

		while (first < r->ncells && r->cells[first] != dup)
			first++;
		return th_jload_err(l, w, "duplicate cell %s %s/%s/%s%s%s (first at cells[%zu])", in.attack,
			    th_variant_name(in.variant), in.config, in.toolchain,
			    in.platform && !th_platform_is_model(in.platform) ? " on " : "",
			    in.platform && !th_platform_is_model(in.platform) ? in.platform : "", first);
	}
	/* Add it as a single outcome, then store the file's counts and verdict
	 * as they are: a hand-edited outcome must load (check judges it). */
	unsigned runs = in.runs;
	in.runs = 0;
	struct th_cell *c = th_results_add_cell(r, &in, e, sizeof(e));
	if (!c)
		return th_jload_err(l, w, "%s", e);
	memcpy(c->counts, counts, sizeof(counts));
	c->runs = runs;
	c->verdict = verdict;
	c->seconds = seconds;
	return 0;
}

static int load_agreement(struct th_jload *l, const json_t *root, struct th_results *r)
{
	static const char *const fields[] = { "attack", "variant", "config", "toolchain", "platform",
					      "model_outcome", "kernel_outcome", "agrees", "reason",
					      "rule", NULL };
	json_t *arr = json_object_get(root, "agreement"), *o, *j, *rs, *ru;
	size_t i;
	char w[64], wf[96], e[512];

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return th_jload_err(l, "agreement", "expected an array, got %s", type_name(arr));
	r->has_agreement = true;
	json_array_foreach(arr, i, o) {
		struct th_agreement row = { 0 };
		const char *s;

		snprintf(w, sizeof(w), "agreement[%zu]", i);
		if (!json_is_object(o))
			return th_jload_err(l, w, "expected an object, got %s", type_name(o));
		if (th_jload_only(l, o, w, fields, 1) || !(row.attack = (char *)sfield(l, o, w, "attack")))
			return -1;
		if (!th_results_valid_attack_id(row.attack))
			return th_jload_err(l, w, "attack \"%s\" is not an upper-case ID ([A-Z][A-Z0-9_]*)",
					    row.attack);
		if (!(s = sfield(l, o, w, "variant")))
			return -1;
		if ((row.variant = th_variant_parse(s)) == TH_VARIANT_INVALID)
			return th_jload_err(l, (join(wf, sizeof(wf), w, "variant"), wf),
					    "unknown variant \"%s\" (legacy, transitional or modern)", s);
		if (!(row.config = (char *)sfield(l, o, w, "config")))
			return -1;
		if (!th_results_find_config(r, row.config)) {
			list_configs(r, e, sizeof(e));
			return th_jload_err(l, (join(wf, sizeof(wf), w, "config"), wf),
					    "unknown config \"%s\" (configs: %s)", row.config, e);
		}
		if (!(row.toolchain = (char *)sfield(l, o, w, "toolchain")))
			return -1;
		if (!th_results_find_toolchain(r, row.toolchain)) {
			list_toolchains(r, e, sizeof(e));
			return th_jload_err(l, (join(wf, sizeof(wf), w, "toolchain"), wf),
					    "unknown toolchain \"%s\" (toolchains: %s)", row.toolchain, e);
		}
		if (!(row.platform = (char *)platform_field(l, o, w, row.config, false, r)) ||
		    outcome_field(l, o, w, "model_outcome", false, &row.model) ||
		    outcome_field(l, o, w, "kernel_outcome", false, &row.kernel) ||
		    !(j = field(l, o, w, "agrees", J_BOOL)) ||
		    !(rs = field(l, o, w, "reason", J_STR_OR_NULL)) ||
		    !(ru = field(l, o, w, "rule", J_STR_OR_NULL)))
			return -1;
		row.agrees = json_is_true(j);
		if (json_is_null(rs) != json_is_null(ru))
			return th_jload_err(l, w, "reason and rule: a declared difference has both, a row "
					    "without one has neither");
		if (json_is_string(rs) && (!*json_string_value(rs) || !*json_string_value(ru)))
			return th_jload_err(l, (join(wf, sizeof(wf), w, *json_string_value(rs) ? "rule" :
						     "reason"), wf), "empty: null when nothing is declared");
		row.reason = json_is_string(rs) ? (char *)json_string_value(rs) : NULL;
		row.rule = json_is_string(ru) ? (char *)json_string_value(ru) : NULL;
		for (size_t k = 0; k < r->nagreement; k++) {
			const struct th_agreement *d = &r->agreement[k];

			if (!strcmp(d->platform, row.platform) && !strcmp(d->attack, row.attack) &&
			    d->variant == row.variant && !strcmp(d->config, row.config) &&
			    !strcmp(d->toolchain, row.toolchain))
				return th_jload_err(l, w, "duplicate row %s %s/%s/%s on %s (first at "
						    "agreement[%zu])", row.attack, s, row.config, row.toolchain,
						    row.platform, k);
		}
		if (th_results_store_agreement_row(r, &row, e, sizeof(e)))
			return th_jload_err(l, w, "%s", e);
	}
	return 0;
}

static int from_json(struct th_jload *l, const json_t *root, struct th_results **out)
{
	static const char *const top[] = {
		"schema", "version", "created", "partial", "interrupted", "host",
		"expectations", "selection", "shard", "toolchains", "configs", "platforms", "metrics",
		"cells", "reach", "agreement", NULL
	};
	struct th_results *r;
	json_t *j, *cells, *o;
	size_t i;

	*out = NULL;
	if (!json_is_object(root))
		return th_jload_err(l, "", "top level is %s, expected an object", type_name(root));
	j = json_object_get(root, "schema");
	if (!j)
		return th_jload_err(l, "", "missing field \"schema\" (expected %s)", TH_RESULTS_SCHEMA);
	if (!json_is_string(j) || strcmp(json_string_value(j), TH_RESULTS_SCHEMA))
		return json_is_string(j) ?
		       th_jload_err(l, "", "schema is \"%s\", expected %s", json_string_value(j), TH_RESULTS_SCHEMA) :
		       th_jload_err(l, "schema", "expected a string, got %s", type_name(j));
	if (th_jload_only(l, root, "", top, 0))
		return -1;
	r = th_results_create("");
	if (!r)
		return th_jload_err(l, "", "out of memory");
	free(r->version);
	r->version = NULL;
	if (load_top(l, root, r) || load_provenance(l, root, r) || load_shard(l, root, r) ||
	    load_toolchains(l, root, r) ||
	    load_configs(l, root, r) || load_platforms(l, root, r) ||
	    load_metrics(l, root, r))
		goto fail;
	if (!(cells = field(l, root, "", "cells", J_ARR)))
		goto fail;
	/* Platforms, or one cell that says its platform: every cell must. */
	bool need_platform = json_object_get(root, "platforms") != NULL;

	json_array_foreach(cells, i, o)
		need_platform |= json_is_object(o) && json_object_get(o, "platform");
	json_array_foreach(cells, i, o)
		if (load_cell(l, o, i, r, need_platform))
			goto fail;
	if ((j = json_object_get(root, "reach"))) {
		char e[768];

		/* As the cells: missing only in a file from before platforms. */
		if (th_reach_from_json(j, r, need_platform, e, sizeof(e))) {
			th_jload_err(l, "", "%s", e);
			goto fail;
		}
	}
	if (load_agreement(l, root, r))
		goto fail;
	*out = r;
	return 0;
fail:
	th_results_free(r);
	return -1;
}

int th_results_load(const char *path, struct th_results **res, char *err, size_t errlen)
{
	struct th_jload l = { path, err, errlen };
	json_error_t je;
	json_t *root;
	struct stat st;
	FILE *f;
	int rc;

	const char *why;

	*res = NULL;
	/* Never blocks: a FIFO or a device (/dev/zero) is refused, not read. */
	f = th_fopen_read(path, "rb", &why);
	if (!f && errno == EISDIR)
		return th_jload_err(&l, "", "is a directory, not a results file");
	if (!f)
		return th_jload_err(&l, "", "cannot open: %s", why);
	if (fstat(fileno(f), &st) == 0 && !st.st_size) {
		fclose(f);
		return th_jload_err(&l, "", "empty file, not a results file");
	}
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!root)
		return th_jload_err(&l, "", "not JSON: line %d column %d: %s", je.line, je.column, je.text);
	rc = from_json(&l, root, res);
	json_decref(root);
	return rc;
}

int th_results_serialise(const struct th_results *res, char **out, size_t *outlen,
			 char *err, size_t errlen)
{
	char e[1024];
	struct th_results *check;
	struct th_jload l = { NULL, e, sizeof(e) };
	json_t *root = to_json(res, e, sizeof(e));
	char *text;

	*out = NULL;
	*outlen = 0;
	if (!root)
		return th_results_errf(err, errlen, "%s", e);
	/* Never write what th_results_load would reject. */
	if (from_json(&l, root, &check)) {
		json_decref(root);
		return th_results_errf(err, errlen, "the model is invalid: %s", e);
	}
	th_results_free(check);
	text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (!text)
		return th_results_errf(err, errlen, "out of memory");
	size_t len = strlen(text);
	char *buf = realloc(text, len + 2);
	if (!buf) {
		free(text);
		return th_results_errf(err, errlen, "out of memory");
	}
	buf[len] = '\n';
	buf[len + 1] = '\0';
	*out = buf;
	*outlen = len + 1;
	return 0;
}

int th_results_write(const struct th_results *res, const char *path, char *err, size_t errlen)
{
	char e[1024], *buf;
	size_t len;
	int rc;

	if (th_results_serialise(res, &buf, &len, e, sizeof(e)))
		return th_results_errf(err, errlen, "%s: not written: %s", path, e);
	rc = th_results_write_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}

/* A JSON array without the items whose "platform" is platform. */
static void drop_items(json_t *arr, const char *key, const char *platform)
{
	for (size_t i = json_array_size(arr); i-- > 0;) {
		json_t *p = json_object_get(json_array_get(arr, i), key);

		if (json_is_string(p) && !strcmp(json_string_value(p), platform))
			json_array_remove(arr, i);
	}
}

int th_results_copy(const struct th_results *res, const char *drop_platform,
		    struct th_results **out, char *err, size_t errlen)
{
	char e[1024];
	struct th_jload l = { NULL, e, sizeof(e) };
	json_t *root = to_json(res, e, sizeof(e));
	int rc;

	*out = NULL;
	if (!root)
		return th_results_errf(err, errlen, "%s", e);
	if (drop_platform) {
		json_t *pl = json_object_get(root, "platforms");

		drop_items(json_object_get(root, "cells"), "platform", drop_platform);
		drop_items(json_object_get(root, "agreement"), "platform", drop_platform);
		drop_items(json_object_get(root, "reach"), "platform", drop_platform);
		if (json_is_array(json_object_get(root, "reach")) &&
		    !json_array_size(json_object_get(root, "reach")))
			json_object_del(root, "reach");
		drop_items(pl, "name", drop_platform);
		if (pl && !json_array_size(pl))
			json_object_del(root, "platforms");
	}
	rc = from_json(&l, root, out);
	json_decref(root);
	return rc ? th_results_errf(err, errlen, "%s", e) : 0;
}
