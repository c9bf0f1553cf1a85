/* SPDX-License-Identifier: MIT */
/* The `reach` section of results.json (reach.h): the model, its queries, its
 * JSON. Its views are report/render_reach.c. */
#define _POSIX_C_SOURCE 200809L
#include "reach.h"
#include "results_internal.h"
#include "json_load.h"
#include "binread/cfi_scheme.h"
#include "lib/text.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- model ------------------------------------------------------------------------------ */

static char *dup_or_null(const char *s, bool *oom)
{
	char *d;

	if (!s)
		return NULL;
	d = th_results_strdup(s);
	if (!d)
		*oom = true;
	return d;
}

int th_reach_set_text(char **field, const char *s)
{
	char *d = th_results_strdup(s);

	if (!d)
		return -1;
	free(*field);
	*field = d;
	return 0;
}

static void free_verify(struct th_reach_verify_r *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->ninsns; i++) {
		free(v->insns[i].status);
		free(v->insns[i].function);
		free(v->insns[i].ours);
		free(v->insns[i].why);
	}
	free(v->insns);
	free(v->tool);
	free(v);
}

static void free_entry(struct th_reach_entry *e)
{
	free(e->platform);
	free(e->site);
	free(e->toolchain);
	free(e->config);
	free(e->binary);
	free(e->function);
	free(e->scheme);
	free(e->check);
	for (size_t i = 0; i < e->nmembers; i++) {
		free(e->members[i].name);
		free(e->members[i].body);
	}
	free(e->members);
	for (size_t i = 0; i < e->nhops; i++) {
		free(e->hops[i].via);
		free(e->hops[i].scheme);
		free(e->hops[i].reaches);
		free(e->hops[i].origin);
	}
	free(e->hops);
	for (size_t i = 0; i < e->nuses; i++) {
		free(e->uses[i].via);
		free(e->uses[i].call);
		free(e->uses[i].check);
	}
	free(e->uses);
	free_verify(e->verify);
}

void th_reach_section_free(struct th_reach_section *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free_entry(&s->entries[i]);
	free(s->entries);
	free(s);
}

struct th_reach_entry *th_reach_add_entry_on(struct th_results *res, const char *platform,
					     const char *toolchain, enum th_variant variant,
					     const char *config, const char *binary,
					     const char *function)
{
	struct th_reach_section *s = res->reach;
	struct th_reach_entry *e;
	bool oom = false;

	if (!s && !(s = res->reach = calloc(1, sizeof(*s))))
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct th_reach_entry *v = realloc(s->entries, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->entries = v;
		s->cap = cap;
	}
	e = &s->entries[s->n];
	memset(e, 0, sizeof(*e));
	e->variant = variant;
	e->platform = dup_or_null(platform ? platform : TH_PLATFORM_MODEL, &oom);
	e->toolchain = dup_or_null(toolchain, &oom);
	e->config = dup_or_null(config, &oom);
	e->binary = dup_or_null(binary ? binary : "", &oom);
	e->function = dup_or_null(function, &oom);
	e->scheme = dup_or_null("none", &oom);
	e->check = dup_or_null("", &oom);
	if (oom) {
		free_entry(e);
		return NULL;
	}
	s->n++;
	return e;
}

struct th_reach_entry *th_reach_add_entry(struct th_results *res, const char *toolchain,
					  enum th_variant variant, const char *config,
					  const char *binary, const char *function)
{
	return th_reach_add_entry_on(res, TH_PLATFORM_MODEL, toolchain, variant, config, binary,
				     function);
}

bool th_reach_is_kernel(const struct th_reach_entry *e)
{
	return !th_platform_is_model(e->platform);
}

int th_reach_add_member(struct th_reach_entry *e, const char *name, const char *body,
			bool privileged, bool unchecked)
{
	struct th_reach_member_r *v = realloc(e->members, (e->nmembers + 1) * sizeof(*v)), *m;
	bool oom = false;

	if (!v)
		return -1;
	e->members = v;
	m = &v[e->nmembers];
	m->name = dup_or_null(name, &oom);
	m->body = dup_or_null(body, &oom);
	m->privileged = privileged;
	m->unchecked = unchecked;
	if (oom) {
		free(m->name);
		free(m->body);
		return -1;
	}
	e->nmembers++;
	return 0;
}

int th_reach_add_hop(struct th_reach_entry *e, const char *via, unsigned long long site,
		     const char *scheme, const char *reaches, const char *origin)
{
	struct th_reach_hop_r *v = realloc(e->hops, (e->nhops + 1) * sizeof(*v)), *h;
	bool oom = false;

	if (!v)
		return -1;
	e->hops = v;
	h = &v[e->nhops];
	h->site = site;
	h->via = dup_or_null(via, &oom);
	h->scheme = dup_or_null(scheme, &oom);
	h->reaches = dup_or_null(reaches, &oom);
	h->origin = dup_or_null(origin ? origin : "", &oom);
	if (oom) {
		free(h->via);
		free(h->scheme);
		free(h->reaches);
		free(h->origin);
		return -1;
	}
	e->nhops++;
	return 0;
}

int th_reach_add_use(struct th_reach_entry *e, const char *via, unsigned long long site,
		     const char *call, bool indirect, const char *check)
{
	struct th_reach_use_r *v = realloc(e->uses, (e->nuses + 1) * sizeof(*v)), *u;
	bool oom = false;

	if (!v)
		return -1;
	e->uses = v;
	u = &v[e->nuses];
	u->site = site;
	u->indirect = indirect;
	u->via = dup_or_null(via, &oom);
	u->call = dup_or_null(call, &oom);
	u->check = dup_or_null(check ? check : "", &oom);
	if (oom) {
		free(u->via);
		free(u->call);
		free(u->check);
		return -1;
	}
	e->nuses++;
	return 0;
}

size_t th_reach_privileged_count(const struct th_reach_entry *e)
{
	size_t n = 0;

	for (size_t i = 0; i < e->nmembers; i++)
		n += e->members[i].privileged;
	return n;
}

bool th_reach_checked(const struct th_reach_entry *e)
{
	return strcmp(e->scheme, "none") && strcmp(e->scheme, "unknown");
}

const char *th_reach_member_name(const struct th_reach_member_r *m)
{
	return m->name ? m->name : m->body ? m->body : "?";
}

int th_reach_set_site(struct th_reach_entry *e, enum th_api api, const char *site)
{
	e->api = api;
	if (!site) {
		free(e->site);
		e->site = NULL;
		return 0;
	}
	return th_reach_set_text(&e->site, site);
}

const struct th_reach_entry *th_reach_find_site(const struct th_results *res, const char *platform,
						enum th_api api, const char *site,
						const char *toolchain, enum th_variant variant,
						const char *config)
{
	if (!platform)
		platform = TH_PLATFORM_MODEL;
	for (size_t i = 0; res->reach && i < res->reach->n; i++) {
		const struct th_reach_entry *e = &res->reach->entries[i];

		if (e->variant == variant && e->api == api && !e->site == !site &&
		    (!site || !strcmp(e->site, site)) && !strcmp(e->toolchain, toolchain) &&
		    !strcmp(e->config, config) && !strcmp(e->platform, platform))
			return e;
	}
	return NULL;
}

const struct th_reach_entry *th_reach_find_on(const struct th_results *res, const char *platform,
					      const char *toolchain, enum th_variant variant,
					      const char *config)
{
	return th_reach_find_site(res, platform, TH_API_TIMER, NULL, toolchain, variant, config);
}

const struct th_reach_entry *th_reach_find(const struct th_results *res, const char *toolchain,
					   enum th_variant variant, const char *config)
{
	return th_reach_find_on(res, TH_PLATFORM_MODEL, toolchain, variant, config);
}

/* Row r of config: the entry of the newest toolchain that has one; false
 * when none has. */
static bool admits(const struct th_results *res, enum th_api api, const char *site, enum th_variant v,
		   const char *config, struct th_reach_admits *r)
{
	const struct th_reach_entry *e = NULL;
	size_t len = 0;

	memset(r, 0, sizeof(*r));
	for (size_t t = 0; t < res->ntoolchains; t++) {
		const char *name = res->toolchains[t].name;
		const struct th_reach_entry *x =
			th_reach_find_site(res, TH_PLATFORM_MODEL, api, site, name, v, config);

		if (x && (!r->toolchain || th_results_natcmp(name, r->toolchain) > 0)) {
			e = x;
			r->toolchain = name;
		}
	}
	if (!e)
		return false;
	r->config = config;
	r->entry = e;
	r->members = e->nmembers;
	r->functions = e->functions_total;
	r->privileged = th_reach_privileged_count(e);
	for (size_t i = 0, k = 0; i < e->nmembers && len < sizeof(r->names); i++)
		if (e->members[i].privileged && e->members[i].name)
			len += (size_t)snprintf(r->names + len, sizeof(r->names) - len, "%s%s",
						k++ ? ", " : "", e->members[i].name);
	len = 0;
	for (size_t h = 0; h < e->nhops && len < sizeof(r->hops); h++)
		len += (size_t)snprintf(r->hops + len, sizeof(r->hops) - len, "%s%s reaches %s",
					h ? "; " : "", e->hops[h].via, e->hops[h].reaches);
	return true;
}

int th_reach_call(const struct th_results *res, enum th_api api, const char *site, enum th_variant v,
		  const char *const *configs, size_t nconfigs, struct th_reach_call *c)
{
	memset(c, 0, sizeof(*c));
	c->rows = calloc(nconfigs ? nconfigs : 1, sizeof(*c->rows));
	if (!c->rows)
		return -1;
	for (size_t k = 0; k < nconfigs; k++) {
		struct th_reach_admits *r = &c->rows[c->n];

		if (!admits(res, api, site, v, configs[k], r))
			continue;
		c->n++;
		for (size_t i = 0; i < r->entry->nmembers; i++) {
			const char *name = r->entry->members[i].name;
			size_t len = strlen(c->names);

			if (r->entry->members[i].privileged && name &&
			    !th_list_has_sep(c->names, ", ", name))
				snprintf(c->names + len, sizeof(c->names) - len, "%s%s", len ? ", " : "",
					 name);
		}
		if (*r->hops && !strstr(c->hops, r->hops))
			snprintf(c->hops, sizeof(c->hops), "%s", r->hops);
	}
	return 0;
}

void th_reach_call_free(struct th_reach_call *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

/* Output order: platform (the model first, then by name), api as
 * results/api.def lists them, toolchain (clang-9 < clang-14), variant,
 * config as declared, site (none first, then by name). */
static const struct th_results *sort_res;

static int cmp_entry(const void *a, const void *b)
{
	const struct th_reach_entry *x = *(const struct th_reach_entry *const *)a;
	const struct th_reach_entry *y = *(const struct th_reach_entry *const *)b;
	int r = th_results_platform_cmp(x->platform, y->platform);
	size_t px, py;

	if (r)
		return r;
	if (x->api != y->api)
		return x->api < y->api ? -1 : 1;
	if ((r = th_results_natcmp(x->toolchain, y->toolchain)))
		return r;
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	px = th_results_config_pos(sort_res, x->config);
	py = th_results_config_pos(sort_res, y->config);
	if (px != py)
		return px < py ? -1 : 1;
	if (!x->site != !y->site)
		return x->site ? 1 : -1;
	return x->site ? strcmp(x->site, y->site) : 0;
}

const struct th_reach_entry **th_reach_sorted(const struct th_results *res, int *oom)
{
	*oom = 0;
	if (!res->reach || !res->reach->n)
		return NULL;
	sort_res = res;
	return (const struct th_reach_entry **)th_results_sorted_ptrs(
		res->reach->entries, res->reach->n, sizeof(struct th_reach_entry), cmp_entry, oom);
}

/* ---- JSON out ------------------------------------------------------------------------------- */

/* An address: an integer, or above INT64_MAX (a kernel's, 0xffffffff81...)
 * "0x" and 16 hex digits, as a JSON integer is signed 64-bit. */
static json_t *addr_json(unsigned long long a)
{
	char buf[24];

	if (a <= INT64_MAX)
		return json_integer((json_int_t)a);
	snprintf(buf, sizeof(buf), "0x%016llx", a);
	return json_string(buf);
}

static json_t *verify_to_json(const struct th_reach_verify_r *v)
{
	json_t *o = json_object(), *a = json_array();
	int bad = !o || !a;

	for (size_t i = 0; !bad && i < v->ninsns; i++) {
		const struct th_reach_insn_r *in = &v->insns[i];
		json_t *x = json_object();

		bad |= !x;
		if (bad)
			break;
		bad |= th_json_put(x, "address", addr_json(in->address));
		bad |= th_json_put(x, "status", json_string(in->status));
		bad |= th_json_put(x, "function", json_string(in->function));
		bad |= th_json_put(x, "ours", json_string(in->ours));
		bad |= th_json_put(x, "disagree", json_boolean(in->disagree));
		bad |= th_json_put(x, "why", json_string(in->why));
		bad |= json_array_append_new(a, x);
	}
	if (!bad) {
		bad |= th_json_put(o, "tool", json_string(v->tool));
		bad |= th_json_put(o, "total", json_integer(v->total));
		bad |= th_json_put(o, "protected", json_integer(v->protected_));
		bad |= th_json_put(o, "unprotected", json_integer(v->unprotected));
		bad |= th_json_put(o, "ours_protected", json_integer(v->ours_protected));
		bad |= th_json_put(o, "ours_switch", json_integer(v->ours_switch));
		bad |= th_json_put(o, "ours_unprotected", json_integer(v->ours_unprotected));
		bad |= th_json_put(o, "disagreements", json_integer(v->disagreements));
		bad |= json_object_set(o, "instructions", a);
	}
	json_decref(a);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *entry_to_json(const struct th_reach_entry *e)
{
	json_t *o = json_object(), *members = json_array(), *hops = json_array(),
	       *priv = json_array(), *uses = json_array();
	int bad = !o || !members || !hops || !priv || !uses;

	for (size_t i = 0; !bad && i < e->nmembers; i++) {
		const struct th_reach_member_r *m = &e->members[i];
		json_t *x = json_object();

		bad |= !x;
		if (bad)
			break;
		bad |= th_json_put(x, "name", th_json_str_or_null(m->name));
		bad |= th_json_put(x, "body", th_json_str_or_null(m->body));
		bad |= th_json_put(x, "privileged", json_boolean(m->privileged));
		bad |= th_json_put(x, "unchecked", json_boolean(m->unchecked));
		bad |= json_array_append_new(members, x);
		if (m->privileged)
			bad |= json_array_append_new(priv, th_json_str_or_null(m->name ? m->name : m->body));
	}
	for (size_t i = 0; !bad && i < e->nhops; i++) {
		const struct th_reach_hop_r *h = &e->hops[i];
		json_t *x = json_object();

		bad |= !x;
		if (bad)
			break;
		bad |= th_json_put(x, "via", json_string(h->via));
		bad |= th_json_put(x, "site", addr_json(h->site));
		bad |= th_json_put(x, "scheme", json_string(h->scheme));
		bad |= th_json_put(x, "reaches", json_string(h->reaches));
		bad |= th_json_put(x, "origin", json_string(h->origin));
		bad |= json_array_append_new(hops, x);
	}
	for (size_t i = 0; !bad && i < e->nuses; i++) {
		const struct th_reach_use_r *u = &e->uses[i];
		json_t *x = json_object();

		bad |= !x;
		if (bad)
			break;
		bad |= th_json_put(x, "via", json_string(u->via));
		bad |= th_json_put(x, "site", addr_json(u->site));
		bad |= th_json_put(x, "call", json_string(u->call));
		bad |= th_json_put(x, "indirect", json_boolean(u->indirect));
		bad |= th_json_put(x, "check", json_string(u->check));
		bad |= json_array_append_new(uses, x);
	}
	if (!bad) {
		bad |= th_json_put(o, "platform", json_string(e->platform));
		bad |= th_json_put(o, "toolchain", json_string(e->toolchain));
		bad |= th_json_put(o, "variant", json_string(th_variant_name(e->variant)));
		bad |= th_json_put(o, "config", json_string(e->config));
		bad |= th_json_put(o, "binary", json_string(e->binary));
		bad |= th_json_put(o, "function", json_string(e->function));
		bad |= th_json_put(o, "api", json_string(th_api_name(e->api)));
		if (e->site)	/* a family whose dispatch has two kinds of call */
			bad |= th_json_put(o, "site", json_string(e->site));
		bad |= th_json_put(o, "scheme", json_string(e->scheme));
		bad |= th_json_put(o, "check", json_string(e->check));
		bad |= th_json_put(o, "functions_total", json_integer((json_int_t)e->functions_total));
		bad |= th_json_put(o, "count", json_integer((json_int_t)e->nmembers));
		bad |= th_json_put(o, "unchecked", json_integer((json_int_t)e->unchecked));
		bad |= th_json_put(o, "undecided", json_integer((json_int_t)e->undecided));
		bad |= th_json_put(o, "other_admitted", json_integer((json_int_t)e->other_admitted));
		bad |= json_object_set(o, "privileged", priv);
		bad |= json_object_set(o, "members", members);
		bad |= json_object_set(o, "hops", hops);
		if (e->nuses)	/* optional: the matrix's entries have none */
			bad |= json_object_set(o, "uses", uses);
		bad |= th_json_put(o, "cfi_verify", e->verify ? verify_to_json(e->verify) : json_null());
	}
	json_decref(members);
	json_decref(hops);
	json_decref(priv);
	json_decref(uses);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *th_reach_to_json(const struct th_results *res, char *err, size_t errlen)
{
	int oom;
	const struct th_reach_entry **v = th_reach_sorted(res, &oom);
	json_t *a = json_array();

	if (oom || !a) {
		free(v);
		json_decref(a);
		th_results_errf(err, errlen, "reach: out of memory");
		return NULL;
	}
	for (size_t i = 0; v && i < res->reach->n; i++) {
		json_t *x = entry_to_json(v[i]);

		if (!x || json_array_append_new(a, x)) {
			th_results_errf(err, errlen, "reach[%zu] (%s %s %s on %s): cannot serialise (out of memory or not UTF-8)",
					i, v[i]->toolchain, th_variant_name(v[i]->variant), v[i]->config,
					v[i]->platform);
			free(v);
			json_decref(a);
			return NULL;
		}
	}
	free(v);
	return a;
}

/* ---- JSON in: strict ---------------------------------------------------------------------------- */

struct rd {
	char *err;
	size_t errlen;
	char where[160];
	bool need_platform;	/* every entry says its platform */
};

__attribute__((format(printf, 2, 3))) static int rerr(struct rd *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return th_results_errf(r->err, r->errlen, "%s: %s", r->where, msg);
}

/* Every field of @allowed present, nothing else but the @optional ones
 * (NULL: none). */
static int only_opt(struct rd *r, const json_t *o, const char *const *allowed,
		    const char *const *optional)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return rerr(r, "expected an object");
	json_object_foreach((json_t *)o, k, v) {
		const char *const *a, *const *b = optional;

		for (a = allowed; *a && strcmp(*a, k); a++)
			;
		while (b && *b && strcmp(*b, k))
			b++;
		if (!*a && !(b && *b))
			return rerr(r, "unknown field \"%s\"", k);
	}
	for (const char *const *a = allowed; *a; a++)
		if (!json_object_get(o, *a))
			return rerr(r, "missing field \"%s\"", *a);
	return 0;
}

static int only(struct rd *r, const json_t *o, const char *const *allowed)
{
	return only_opt(r, o, allowed, NULL);
}

static int get_str(struct rd *r, const json_t *o, const char *k, bool nullable, const char **out)
{
	json_t *v = json_object_get(o, k);

	if (nullable && json_is_null(v)) {
		*out = NULL;
		return 0;
	}
	if (!json_is_string(v))
		return rerr(r, "%s: expected a string%s", k, nullable ? " or null" : "");
	*out = json_string_value(v);
	return 0;
}

static int get_uint(struct rd *r, const json_t *o, const char *k, unsigned long long max,
		    unsigned long long *out)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (unsigned long long)json_integer_value(v) > max)
		return rerr(r, "%s: expected an integer in 0..%llu", k, max);
	*out = (unsigned long long)json_integer_value(v);
	return 0;
}

static int get_bool(struct rd *r, const json_t *o, const char *k, bool *out)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_boolean(v))
		return rerr(r, "%s: expected a boolean", k);
	*out = json_is_true(v);
	return 0;
}

/* An address as addr_json() writes it. */
static int get_addr(struct rd *r, const json_t *o, const char *k, unsigned long long *out)
{
	json_t *v = json_object_get(o, k);
	const char *s = json_string_value(v);
	char *end;

	if (!json_is_string(v))
		return get_uint(r, o, k, INT64_MAX, out);
	if (strlen(s) != 18 || strncmp(s, "0x", 2) || strspn(s + 2, "0123456789abcdef") != 16 ||
	    (*out = strtoull(s + 2, &end, 16)) <= INT64_MAX)
		return rerr(r, "%s: expected an integer, or 0x and 16 lower-case hex digits above "
			    "2^63 - 1", k);
	return 0;
}

static int load_verify(struct rd *r, const json_t *o, struct th_reach_entry *e)
{
	static const char *const fields[] = { "tool", "total", "protected", "unprotected",
					      "ours_protected", "ours_switch", "ours_unprotected",
					      "disagreements", "instructions", NULL };
	static const char *const ifields[] = { "address", "status", "function", "ours",
					       "disagree", "why", NULL };
	struct th_reach_verify_r *v;
	unsigned long long u[8];
	const char *tool;
	json_t *insns, *x;
	size_t i, base = strlen(r->where), disagree = 0;
	unsigned ours[3] = { 0 };

	if (only(r, o, fields) || get_str(r, o, "tool", false, &tool))
		return -1;
	for (int k = 0; k < 7; k++)
		if (get_uint(r, o, fields[k + 1], UINT32_MAX, &u[k]))
			return -1;
	insns = json_object_get(o, "instructions");
	if (!json_is_array(insns))
		return rerr(r, "instructions: expected an array");
	if (json_array_size(insns) != u[0])
		return rerr(r, "total is %llu but %zu instructions are listed", u[0], json_array_size(insns));
	if (u[1] + u[2] != u[0] || u[3] + u[4] + u[5] != u[0])
		return rerr(r, "protected + unprotected (tool's and ours) must each be total (%llu)", u[0]);
	if (!(v = e->verify = calloc(1, sizeof(*v))) || !(v->tool = th_results_strdup(tool)) ||
	    !(v->insns = calloc(json_array_size(insns) + 1, sizeof(*v->insns))))
		return rerr(r, "out of memory");
	v->total = (unsigned)u[0];
	v->protected_ = (unsigned)u[1];
	v->unprotected = (unsigned)u[2];
	v->ours_protected = (unsigned)u[3];
	v->ours_switch = (unsigned)u[4];
	v->ours_unprotected = (unsigned)u[5];
	v->disagreements = (unsigned)u[6];
	json_array_foreach(insns, i, x) {
		struct th_reach_insn_r *in = &v->insns[i];
		const char *st, *fn, *ours_s, *why;
		unsigned long long addr;

		snprintf(r->where + base, sizeof(r->where) - base, ".instructions[%zu]", i);
		if (only(r, x, ifields) || get_addr(r, x, "address", &addr) ||
		    get_str(r, x, "status", false, &st) || get_str(r, x, "function", false, &fn) ||
		    get_str(r, x, "ours", false, &ours_s) || get_str(r, x, "why", false, &why) ||
		    get_bool(r, x, "disagree", &in->disagree))
			return -1;
		if (strcmp(ours_s, "protected") && strcmp(ours_s, "switch") &&
		    strcmp(ours_s, "unprotected") && strcmp(ours_s, "unknown"))
			return rerr(r, "ours: \"%s\" is not protected, switch, unprotected or unknown", ours_s);
		ours[0] += !strcmp(ours_s, "protected");
		ours[1] += !strcmp(ours_s, "switch");
		ours[2] += !strcmp(ours_s, "unprotected");
		in->address = addr;
		v->ninsns++;
		if (!(in->status = th_results_strdup(st)) || !(in->function = th_results_strdup(fn)) ||
		    !(in->ours = th_results_strdup(ours_s)) || !(in->why = th_results_strdup(why)))
			return rerr(r, "out of memory");
		disagree += in->disagree;
	}
	r->where[base] = 0;
	if (disagree != v->disagreements || ours[0] != v->ours_protected ||
	    ours[1] != v->ours_switch || ours[2] != v->ours_unprotected)
		return rerr(r, "the counts do not match the instructions listed");
	return 0;
}

static int load_entry(struct rd *r, const json_t *o, struct th_results *res)
{
	static const char *const fields[] = {
		"toolchain", "variant", "config", "binary", "function", "scheme", "check",
		"functions_total", "count", "unchecked", "undecided", "other_admitted", "privileged",
		"members", "hops", "cfi_verify", NULL };
	static const char *const mfields[] = { "name", "body", "privileged", "unchecked", NULL };
	static const char *const hfields[] = { "via", "site", "scheme", "reaches", "origin", NULL };
	static const char *const optional[] = { "uses", "platform", "api", "site", NULL };
	static const char *const ufields[] = { "via", "site", "call", "indirect", "check", NULL };
	const char *tc, *var, *cfg, *bin, *fn, *scheme, *check, *plat = TH_PLATFORM_MODEL;
	const char *apiname = NULL, *site = NULL;
	enum th_api api = TH_API_TIMER;
	unsigned long long total, count, unchecked, undecided, other;
	struct th_reach_entry *e;
	json_t *a, *x, *priv;
	size_t i, base = strlen(r->where), nunchecked = 0, npriv = 0;
	enum th_variant v;
	bool known = false;

	if (only_opt(r, o, fields, optional) || get_str(r, o, "toolchain", false, &tc) ||
	    get_str(r, o, "variant", false, &var) || get_str(r, o, "config", false, &cfg) ||
	    get_str(r, o, "binary", false, &bin) || get_str(r, o, "function", false, &fn) ||
	    get_str(r, o, "scheme", false, &scheme) || get_str(r, o, "check", false, &check) ||
	    get_uint(r, o, "functions_total", SIZE_MAX / 2, &total) ||
	    get_uint(r, o, "count", SIZE_MAX / 2, &count) ||
	    get_uint(r, o, "unchecked", SIZE_MAX / 2, &unchecked) ||
	    get_uint(r, o, "undecided", SIZE_MAX / 2, &undecided) ||
	    get_uint(r, o, "other_admitted", SIZE_MAX / 2, &other))
		return -1;
	/* A file from before platforms has none: its entries are the model's. */
	if (!json_object_get(o, "platform") && r->need_platform)
		return rerr(r, "missing field \"platform\" (every reach entry of a file with "
			    "platforms, or whose cells or entries say their platform, says its own)");
	if (json_object_get(o, "platform")) {
		if (get_str(r, o, "platform", false, &plat))
			return -1;
		if (!th_platform_is_model(plat) && !th_results_find_platform(res, plat)) {
			char known[512];
			size_t off = (size_t)snprintf(known, sizeof(known), TH_PLATFORM_MODEL);

			for (size_t k = 0; k < res->nplatforms && off < sizeof(known); k++)
				off += (size_t)snprintf(known + off, sizeof(known) - off, ", %s",
							res->platforms[k].name);
			return rerr(r, "platform: unknown platform \"%s\" (%s: %s)", plat,
				    th_platform_name_valid(plat) ? "declare it in platforms; platforms" :
				    "\"model\" or \"linux-<release>\"; declared", known);
		}
	}
	/* A file from before the tasklet family has no api: the timer's. */
	if (json_object_get(o, "api")) {
		if (get_str(r, o, "api", false, &apiname))
			return -1;
		if ((api = th_api_parse(apiname)) == TH_API_INVALID)
			return rerr(r, "api: \"%s\" is not one of %s", apiname, th_api_names());
		if (strcmp(fn, th_api_dispatch(api)))
			return rerr(r, "function: \"%s\" is not the %s family's dispatch (%s)", fn,
				    apiname, th_api_dispatch(api));
	}
	if (json_object_get(o, "site")) {
		if (get_str(r, o, "site", false, &site))
			return -1;
		if (strcmp(site, "func") && strcmp(site, "callback"))
			return rerr(r, "site: \"%s\" is not func or callback", site);
	}
	if (!th_results_find_toolchain(res, tc))
		return rerr(r, "toolchain \"%s\" is not declared in toolchains", tc);
	if (!th_results_find_config(res, cfg))
		return rerr(r, "config \"%s\" is not declared in configs", cfg);
	if ((v = th_variant_parse(var)) == TH_VARIANT_INVALID)
		return rerr(r, "variant \"%s\" is not legacy, transitional or modern", var);
	/* The schemes the binary reader names (binread/cfi_scheme.h). */
	for (int k = TH_CFI_NONE; k <= TH_CFI_UNKNOWN; k++)
		known |= !strcmp(scheme, th_cfi_scheme_name((enum th_cfi_scheme)k));
	if (!known) {
		char names[128] = "";
		size_t len = 0;

		for (int k = TH_CFI_NONE; k <= TH_CFI_UNKNOWN && len < sizeof(names); k++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						k == TH_CFI_NONE ? "" : k == TH_CFI_UNKNOWN ? " or " : ", ",
						th_cfi_scheme_name((enum th_cfi_scheme)k));
		return rerr(r, "scheme \"%s\" is not %s", scheme, names);
	}
	if (th_reach_find_site(res, plat, api, site, tc, v, cfg))
		return rerr(r, "a second entry for %s%s%s%s%s %s %s%s%s",
			    api == TH_API_TIMER ? "" : th_api_name(api), site ? " " : "",
			    site ? site : "", api == TH_API_TIMER && !site ? "" : " ", tc, var, cfg,
			    th_platform_is_model(plat) ? "" : " on ", th_platform_is_model(plat) ? "" : plat);
	if (count > total)
		return rerr(r, "count %llu exceeds functions_total %llu", count, total);
	if (!(e = th_reach_add_entry_on(res, plat, tc, v, cfg, bin, fn)) ||
	    th_reach_set_site(e, api, site) || th_reach_set_text(&e->scheme, scheme) ||
	    th_reach_set_text(&e->check, check))
		return rerr(r, "out of memory");
	e->functions_total = total;
	e->unchecked = unchecked;
	e->undecided = undecided;
	e->other_admitted = other;
	a = json_object_get(o, "members");
	if (!json_is_array(a) || json_array_size(a) != count)
		return rerr(r, "members: expected an array of count (%llu) members", count);
	json_array_foreach(a, i, x) {
		const char *name, *body;
		bool p, u;

		snprintf(r->where + base, sizeof(r->where) - base, ".members[%zu]", i);
		if (only(r, x, mfields) || get_str(r, x, "name", true, &name) ||
		    get_str(r, x, "body", true, &body) || get_bool(r, x, "privileged", &p) ||
		    get_bool(r, x, "unchecked", &u))
			return -1;
		if (!name && !body)
			return rerr(r, "neither a name nor a body");
		if (th_reach_add_member(e, name, body, p, u))
			return rerr(r, "out of memory");
		nunchecked += u;
		npriv += p;
	}
	r->where[base] = 0;
	if (nunchecked != unchecked)
		return rerr(r, "unchecked is %llu but %zu members are marked unchecked", unchecked, nunchecked);
	priv = json_object_get(o, "privileged");
	if (!json_is_array(priv) || json_array_size(priv) != npriv)
		return rerr(r, "privileged: expected the names of the %zu members marked privileged", npriv);
	for (size_t k = 0, j = 0; k < e->nmembers; k++) {
		const struct th_reach_member_r *m = &e->members[k];
		json_t *n;

		if (!m->privileged)
			continue;
		n = json_array_get(priv, j++);
		if (!json_is_string(n) || strcmp(json_string_value(n), m->name ? m->name : m->body))
			return rerr(r, "privileged[%zu]: not the %zu-th member marked privileged", j - 1, j);
	}
	a = json_object_get(o, "hops");
	if (!json_is_array(a))
		return rerr(r, "hops: expected an array");
	json_array_foreach(a, i, x) {
		const char *via, *hs, *reaches, *origin;
		unsigned long long site;

		snprintf(r->where + base, sizeof(r->where) - base, ".hops[%zu]", i);
		if (only(r, x, hfields) || get_str(r, x, "via", false, &via) ||
		    get_addr(r, x, "site", &site) || get_str(r, x, "scheme", false, &hs) ||
		    get_str(r, x, "reaches", false, &reaches) || get_str(r, x, "origin", false, &origin))
			return -1;
		if (th_reach_add_hop(e, via, site, hs, reaches, origin))
			return rerr(r, "out of memory");
	}
	r->where[base] = 0;
	a = json_object_get(o, "uses");
	if (a && (!json_is_array(a) || !json_array_size(a)))
		return rerr(r, "uses: expected a non-empty array (absent when there is none)");
	json_array_foreach(a, i, x) {
		const char *via, *call, *check;
		unsigned long long site;
		bool ind;

		snprintf(r->where + base, sizeof(r->where) - base, ".uses[%zu]", i);
		if (only(r, x, ufields) || get_str(r, x, "via", false, &via) ||
		    get_addr(r, x, "site", &site) || get_str(r, x, "call", false, &call) ||
		    get_bool(r, x, "indirect", &ind) || get_str(r, x, "check", false, &check))
			return -1;
		if (th_reach_add_use(e, via, site, call, ind, check))
			return rerr(r, "out of memory");
	}
	r->where[base] = 0;
	x = json_object_get(o, "cfi_verify");
	if (json_is_null(x))
		return 0;
	snprintf(r->where + base, sizeof(r->where) - base, ".cfi_verify");
	return load_verify(r, x, e);
}

int th_reach_from_json(const json_t *j, struct th_results *res, bool need_platform,
		       char *err, size_t errlen)
{
	struct rd r = { err, errlen, "reach", need_platform };
	json_t *o;
	size_t i;

	if (!json_is_array(j))
		return rerr(&r, "expected an array");
	/* One entry that says its platform: every entry must. */
	json_array_foreach((json_t *)j, i, o)
		r.need_platform |= json_is_object(o) && json_object_get(o, "platform");
	json_array_foreach((json_t *)j, i, o) {
		snprintf(r.where, sizeof(r.where), "reach[%zu]", i);
		if (load_entry(&r, o, res))
			return -1;
	}
	if (!res->reach && !(res->reach = calloc(1, sizeof(*res->reach))))
		return rerr(&r, "out of memory");
	return 0;
}
