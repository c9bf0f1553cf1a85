/* SPDX-License-Identifier: MIT */
/* Joining the results of the shards of one plan (merge.h). */
#define _POSIX_C_SOURCE 200809L
#include "merge.h"
#include "reach.h"
#include "results_internal.h"
#include "lib/text.h"

#include <jansson.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { th_results_errf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* The selection's lists in a fixed order, for comparing and joining. */
static const char *const list_names[] = { "toolchains", "configs", "variants", "attacks" };

static char **list_slot(struct th_selection *s, int i)
{
	char **slots[] = { &s->toolchains, &s->configs, &s->variants, &s->attacks };

	return slots[i];
}

static bool in_list(const char *list, const char *item, size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, item, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* a,b joined with the items of c that a,b lacks; NULL (everything) wins. */
static char *list_union(const char *a, const char *c)
{
	size_t la, lc;
	char *out;

	if (!a || !c)
		return NULL;
	la = strlen(a);
	lc = strlen(c);
	if (!(out = malloc(la + lc + 2)))
		return NULL;
	memcpy(out, a, la + 1);
	for (const char *p = c; *p;) {
		size_t n = strcspn(p, ",");

		if (!in_list(out, p, n)) {
			size_t lo = strlen(out);

			out[lo] = ',';
			memcpy(out + lo + 1, p, n);
			out[lo + 1 + n] = '\0';
		}
		p += n + (p[n] == ',');
	}
	return out;
}

/* Host names (or kernels) of every file, each once, joined with ", ". */
static int join_distinct(char **acc, const char *s)
{
	size_t la = *acc ? strlen(*acc) : 0, ls = strlen(s);
	char *n;

	if (*acc) {
		for (const char *p = *acc; *p;) {
			size_t k = strcspn(p, ",");

			if (k == ls && !strncmp(p, s, ls))
				return 0;
			p += k + (p[k] == ',');
			p += *p == ' ';
		}
	}
	if (!(n = realloc(*acc, la + ls + 3)))
		return -1;
	if (la)
		memcpy(n + la, ", ", 2), la += 2;
	memcpy(n + la, s, ls + 1);
	*acc = n;
	return 0;
}

static const struct th_metric *metric(const struct th_results *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static double metric_value(const struct th_metric *m)
{
	return m->type == TH_METRIC_INT ? (double)m->i : m->type == TH_METRIC_REAL ? m->d : 0;
}

/* Summed (run time, runs), the largest (jobs, a toolchain's build time),
 * recounted (cells_*), or kept when every file that has it agrees. */
static int merge_metrics(struct th_results *out, struct th_results *const *in, size_t n,
			 char *err, size_t errlen)
{
	static const char *const summed[] = { "run_seconds", "run_cpu_seconds", "runs" };

	for (size_t f = 0; f < n; f++) {
		for (size_t k = 0; k < in[f]->nmetrics; k++) {
			const struct th_metric *m = &in[f]->metrics[k];
			bool sum = false, max = !strcmp(m->name, "jobs") ||
						!strncmp(m->name, "build_seconds_", 14);
			bool all_int = true, agree = true, seen_before = false;
			double acc = 0;

			if (!strncmp(m->name, "cells_", 6) || !strcmp(m->name, "build_seconds"))
				continue;
			for (size_t s = 0; s < sizeof(summed) / sizeof(summed[0]); s++)
				sum |= !strcmp(m->name, summed[s]);
			for (size_t g = 0; g < f; g++)
				seen_before |= metric(in[g], m->name) != NULL;
			if (seen_before)
				continue;
			for (size_t g = f; g < n; g++) {
				const struct th_metric *o = metric(in[g], m->name);

				if (!o)
					continue;
				all_int &= o->type == TH_METRIC_INT;
				if (o->type == TH_METRIC_STRING || m->type == TH_METRIC_STRING)
					agree &= o->type == m->type && !strcmp(o->s, m->s);
				else
					agree &= metric_value(o) == metric_value(m);
				if (sum)
					acc += metric_value(o);
				else if (max && metric_value(o) > acc)
					acc = metric_value(o);
			}
			int rc = 0;

			if (sum || max)
				rc = all_int ? th_results_set_metric_int(out, m->name, (long long)acc, err, errlen)
					     : th_results_set_metric_real(out, m->name, acc, err, errlen);
			else if (agree && m->type == TH_METRIC_STRING)
				rc = th_results_set_metric_string(out, m->name, m->s, err, errlen);
			else if (agree)
				rc = m->type == TH_METRIC_INT ?
				     th_results_set_metric_int(out, m->name, m->i, err, errlen) :
				     th_results_set_metric_real(out, m->name, m->d, err, errlen);
			if (rc)
				return -1;
		}
	}
	/* build_seconds: the sum over the toolchains, when each has one. */
	double build = 0;
	bool known = out->ntoolchains > 0;

	for (size_t t = 0; t < out->ntoolchains; t++) {
		char name[160];
		const struct th_metric *b;

		snprintf(name, sizeof(name), "build_seconds_%s", out->toolchains[t].name);
		b = metric(out, name);
		known &= b != NULL;
		build += b ? metric_value(b) : 0;
	}
	if (known && th_results_set_metric_real(out, "build_seconds", build, err, errlen))
		return -1;
	return th_results_set_count_metrics(out, err, errlen);
}

static int merge_configs(struct th_results *out, struct th_results *const *in,
			 const char *const *names, size_t n, char *err, size_t errlen)
{
	for (size_t f = 0; f < n; f++) {
		for (size_t c = 0; c < in[f]->nconfigs; c++) {
			const struct th_config *cfg = &in[f]->configs[c];
			const struct th_config *have = th_results_find_config(out, cfg->name);
			size_t first = 0;

			while (first < f && !th_results_find_config(in[first], cfg->name))
				first++;
			if (have && (strcmp(have->flags, cfg->flags) ||
				     strcmp(have->description, cfg->description)))
				return th_results_errf(err, errlen, "config %s: its %s differ between %s and %s: "
						       "not runs of the same build", cfg->name,
						       strcmp(have->flags, cfg->flags) ? "flags" : "descriptions",
						       names[first], names[f]);
			if (!have && th_results_add_config(out, cfg->name, cfg->flags, cfg->description,
							   err, errlen))
				return -1;
			have = th_results_find_config(out, cfg->name);
			for (size_t s = 0; s < cfg->nsupport; s++) {
				const struct th_support *sp = &cfg->support[s];
				const struct th_support *hs = th_config_support(have, sp->toolchain);

				if (hs && hs->supported != sp->supported)
					return th_results_errf(err, errlen, "config %s on %s: %s in %s, %s in %s: "
							       "not the same toolchain", cfg->name,
							       sp->toolchain,
							       hs->supported ? "supported" : "unsupported",
							       names[first],
							       sp->supported ? "supported" : "unsupported",
							       names[f]);
				if (!hs && th_results_set_support(out, cfg->name, sp->toolchain, sp->supported,
								  sp->reason, err, errlen))
					return -1;
			}
		}
	}
	return 0;
}

/* The shards the files hold: all of one count, each index once. */
static int merge_shards(struct th_results *out, struct th_results *const *in,
			const char *const *names, size_t n, char *err, size_t errlen)
{
	unsigned count = in[0]->shard.count, *idx = NULL;
	const char **owner = NULL;
	size_t k = 0;
	int rc = -1;

	for (size_t f = 0; f < n; f++) {
		if (!in[f]->shard.count != !count)
			return th_results_errf(err, errlen, "%s is %s, %s is %s: merge shards with shards",
					       names[0], count ? "a shard" : "whole", names[f],
					       count ? "whole" : "a shard");
		if (in[f]->shard.count != count)
			return th_results_errf(err, errlen, "%s is a shard of %u, %s of %u: not one split",
					       names[f], in[f]->shard.count, names[0], count);
	}
	if (!count)
		return 0;
	idx = calloc(count, sizeof(*idx));
	owner = calloc(count + 1, sizeof(*owner));
	if (!idx || !owner) {
		th_results_errf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t f = 0; f < n; f++) {
		for (size_t i = 0; i < in[f]->shard.nindexes; i++) {
			unsigned s = in[f]->shard.indexes[i];

			if (owner[s]) {
				th_results_errf(err, errlen, "shard %u/%u is in %s and in %s: their cells "
						"overlap", s, count, owner[s], names[f]);
				goto out;
			}
			owner[s] = names[f];
			idx[k++] = s;
		}
	}
	/* Every shard there: the merge is the whole selection again. */
	rc = th_results_set_shard(out, k == count ? 0 : count, idx, k == count ? 0 : k, err, errlen);
out:
	free(idx);
	free(owner);
	return rc;
}

static int merge_selection(struct th_results *out, struct th_results *const *in,
			   const char *const *names, size_t n, char *err, size_t errlen)
{
	struct th_selection sel = in[0]->selection;
	int differs = -1;
	char *joined = NULL;
	int rc;

	for (size_t f = 1; f < n; f++) {
		struct th_selection *s = &in[f]->selection;

		if (s->selftests != sel.selftests)
			return th_results_errf(err, errlen, "%s was run %s --selftests and %s %s: not one plan",
					       names[f], s->selftests ? "with" : "without", names[0],
					       sel.selftests ? "with" : "without");
		for (int i = 0; i < 4; i++) {
			if (th_same_str(*list_slot(s, i), *list_slot(&in[0]->selection, i)))
				continue;
			if (differs >= 0 && differs != i)
				return th_results_errf(err, errlen, "%s differs from %s in its selection's %s and "
						       "%s: runs to merge may differ in one of them only",
						       names[f], names[0], list_names[differs], list_names[i]);
			differs = i;
		}
	}
	if (differs >= 0) {
		if (in[0]->shard.count)
			return th_results_errf(err, errlen, "shards of different selections (%s): run every "
					       "shard with the same selection", list_names[differs]);
		/* The union of the one list that differs; NULL wins. */
		joined = *list_slot(&in[0]->selection, differs) ?
			 strdup(*list_slot(&in[0]->selection, differs)) : NULL;
		for (size_t f = 1; f < n && joined; f++) {
			char *u = list_union(joined, *list_slot(&in[f]->selection, differs));

			free(joined);
			joined = u;
			if (!u && *list_slot(&in[f]->selection, differs))
				return th_results_errf(err, errlen, "out of memory");
		}
		*list_slot(&sel, differs) = joined;
	}
	rc = th_results_set_selection(out, &sel, err, errlen);
	free(joined);
	return rc;
}

/* The reach sections: the shards of one run each read every binary, so an
 * entry (platform, api, site, toolchain, variant, config) is taken from the first file that has
 * it and must be the same in every other (the binary's path aside): another
 * set is another build. Entries go through the section's own JSON, so what
 * is merged is what the loader accepts. */
static int merge_reach(struct th_results *out, struct th_results *const *in,
		       const char *const *names, size_t n, char *err, size_t errlen)
{
	json_t *have = json_array();
	int rc = -1;

	if (!have)
		return th_results_errf(err, errlen, "out of memory");
	for (size_t f = 0; f < n; f++) {
		json_t *entries, *e;
		size_t i;

		if (!in[f]->reach)
			continue;
		if (!(entries = th_reach_to_json(in[f], err, errlen)))
			goto out;
		json_array_foreach(entries, i, e) {
			json_t *h, *one;
			size_t k;
			bool found = false;

			json_array_foreach(have, k, h) {
				/* api and site: absent in an entry of a file from
				 * before them (the timer's), absent where the
				 * dispatch makes one call. */
				const char *keys[] = { "platform", "api", "site", "toolchain", "variant",
						       "config" };
				bool same_key = true;

				for (int x = 0; x < 6; x++) {
					json_t *kh = json_object_get(h, keys[x]), *ke = json_object_get(e, keys[x]);

					same_key &= (!kh && !ke) || json_equal(kh, ke);
				}
				if (!same_key)
					continue;
				found = true;
				json_t *a = json_deep_copy(h), *b = json_deep_copy(e);

				if (!a || !b) {
					json_decref(a);
					json_decref(b);
					json_decref(entries);
					th_results_errf(err, errlen, "out of memory");
					goto out;
				}
				json_object_del(a, "binary");
				json_object_del(b, "binary");
				bool eq = json_equal(a, b);

				json_decref(a);
				json_decref(b);
				if (!eq) {
					const char *pl = json_string_value(json_object_get(e, "platform"));
					bool model = th_platform_is_model(pl);

					const char *api = json_string_value(json_object_get(e, "api"));
					const char *site = json_string_value(json_object_get(e, "site"));
					bool timer = !api || !strcmp(api, "timer");

					th_results_errf(err, errlen, "reach of %s%s%s%s%s %s %s%s%s differs between the files "
							"(%s): not runs of the same build",
							timer ? "" : api, site ? " " : "", site ? site : "",
							timer && !site ? "" : " ",
							json_string_value(json_object_get(e, "toolchain")),
							json_string_value(json_object_get(e, "variant")),
							json_string_value(json_object_get(e, "config")),
							model ? "" : " on ", model ? "" : pl, names[f]);
					json_decref(entries);
					goto out;
				}
				break;
			}
			if (found)
				continue;
			if (!(one = json_array()) || json_array_append(one, e) ||
			    json_array_append(have, e) || th_reach_from_json(one, out, true, err, errlen)) {
				json_decref(one);
				json_decref(entries);
				if (!*err)
					th_results_errf(err, errlen, "out of memory");
				goto out;
			}
			json_decref(one);
		}
		json_decref(entries);
	}
	rc = 0;
out:
	json_decref(have);
	return rc;
}

/* The real-kernel platforms: each once, the same in every file that has it
 * (one kernel, one build, one QEMU). */
static int merge_platforms(struct th_results *out, struct th_results *const *in,
			   const char *const *names, size_t n, char *err, size_t errlen)
{
	for (size_t f = 0; f < n; f++) {
		for (size_t k = 0; k < in[f]->nplatforms; k++) {
			const struct th_platform *p = &in[f]->platforms[k];
			const struct th_platform *have = th_results_find_platform(out, p->name);
			size_t first = 0;

			while (first < f && !th_results_find_platform(in[first], p->name))
				first++;
			if (have) {
				bool same = !strcmp(have->source, p->source) &&
					    !strcmp(have->compiler, p->compiler) &&
					    !strcmp(have->qemu, p->qemu) && !strcmp(have->cpu, p->cpu) &&
					    have->nconfigs == p->nconfigs;

				for (size_t c = 0; same && c < p->nconfigs; c++) {
					const struct th_platform_config *hc =
						th_platform_find_config(have, p->configs[c].name);

					same = hc && !strcmp(hc->kconfig, p->configs[c].kconfig);
				}
				if (!same)
					return th_results_errf(err, errlen, "platform %s differs between %s and %s "
							       "(its source, compiler, QEMU, CPU or kernel "
							       "configs): not one kernel's runs", p->name,
							       names[first], names[f]);
				continue;
			}
			struct th_platform_in pi = { p->name, p->source, p->compiler, p->qemu, p->cpu,
						     p->boot_seconds_median };

			if (th_results_add_platform(out, &pi, err, errlen))
				return -1;
			for (size_t c = 0; c < p->nconfigs; c++)
				if (th_results_add_platform_config(out, p->name, p->configs[c].name,
								   p->configs[c].kconfig, err, errlen))
					return -1;
		}
	}
	return 0;
}

/* The agreement recomputed from the merged cells, with the declarations
 * the files stored (a row's reason holds while its outcomes still do). */
static int merge_agreement(struct th_results *out, struct th_results *const *in, size_t n,
			   char *err, size_t errlen)
{
	bool any = out->nplatforms > 0;

	for (size_t f = 0; f < n; f++) {
		any |= in[f]->has_agreement;
		for (size_t i = 0; i < in[f]->nagreement; i++)
			if (in[f]->agreement[i].reason &&
			    th_results_store_agreement_row(out, &in[f]->agreement[i], err, errlen))
				return -1;
	}
	return any ? th_results_set_agreement(out, NULL, NULL, err, errlen) : 0;
}

int th_results_merge(struct th_results *const *in, const char *const *names, size_t n,
		     struct th_results **out, char *err, size_t errlen)
{
	struct th_results *r = NULL;
	char *hosts = NULL, *kernels = NULL, *why = NULL;
	const char *created = NULL;
	int cpus = 0;
	char e[512];

	*out = NULL;
	if (!n)
		return th_results_errf(err, errlen, "nothing to merge");
	for (size_t f = 0; f < n; f++) {
		if (!in[f]->expect_path || !in[f]->has_selection)
			FAIL("%s records no %s: not made by this timerharness's matrix", names[f],
			     !in[f]->expect_path ? "expectations file" : "selection");
		if (!th_same_str(in[f]->version, in[0]->version))
			FAIL("%s was made by timerharness %s, %s by %s: one version at a time", names[f],
			     in[f]->version, names[0], in[0]->version);
		if (strcmp(in[f]->expect_sha256, in[0]->expect_sha256))
			FAIL("%s judged its cells by other expectations than %s (sha256 %.12s, %.12s)",
			     names[f], names[0], in[f]->expect_sha256, in[0]->expect_sha256);
	}
	if (!(r = th_results_create(in[0]->version)))
		FAIL("out of memory");
	if (th_results_set_expectations(r, in[0]->expect_path, in[0]->expect_sha256, e, sizeof(e)) ||
	    merge_selection(r, in, names, n, e, sizeof(e)) || merge_shards(r, in, names, n, e, sizeof(e)))
		FAIL("%s", e);
	for (size_t f = 0; f < n; f++) {
		const struct th_results *s = in[f];

		if (!created || strcmp(s->created, created) > 0)
			created = s->created;
		if (join_distinct(&hosts, s->host.hostname) || join_distinct(&kernels, s->host.kernel))
			FAIL("out of memory");
		cpus = s->host.cpus > cpus ? s->host.cpus : cpus;
		if (s->partial) {
			char part[512];

			snprintf(part, sizeof(part), "%s: %s", names[f], s->interrupted ? s->interrupted : "?");
			if (join_distinct(&why, part))
				FAIL("out of memory");
		}
		for (size_t t = 0; t < s->ntoolchains; t++) {
			const struct th_toolchain *tc = &s->toolchains[t];
			const struct th_toolchain *have = th_results_find_toolchain(r, tc->name);

			if (have && strcmp(have->version, tc->version))
				FAIL("toolchain %s is %s in %s and %s in an earlier file: merge runs of one "
				     "toolchain version", tc->name, tc->version, names[f], have->version);
			if (!have && th_results_add_toolchain(r, tc->name, tc->version, tc->path, e, sizeof(e)))
				FAIL("%s", e);
		}
	}
	if (th_results_set_created(r, created, e, sizeof(e)) ||
	    th_results_set_host(r, hosts, kernels, cpus, e, sizeof(e)) ||
	    (why && th_results_set_partial(r, true, why, e, sizeof(e))) ||
	    merge_configs(r, in, names, n, e, sizeof(e)) || merge_platforms(r, in, names, n, e, sizeof(e)))
		FAIL("%s", e);
	for (size_t f = 0; f < n; f++) {
		for (size_t i = 0; i < in[f]->ncells; i++) {
			const struct th_cell *c = in[f]->cells[i];
			bool model = th_platform_is_model(c->platform);

			/* Shards split the model's plan; a real kernel's cells are
			 * not sharded. */
			if (model && !th_results_holds_shard(in[f], c->attack, c->variant, c->config,
							     c->toolchain))
				FAIL("%s: cell %s %s/%s/%s is not in the file's shard: not a shard's results",
				     names[f], c->attack, th_variant_name(c->variant), c->config, c->toolchain);
			if (th_results_find_cell(r, c->platform, c->attack, c->variant, c->config,
						 c->toolchain)) {
				size_t g = 0;

				while (g < f && !th_results_find_cell(in[g], c->platform, c->attack, c->variant,
								     c->config, c->toolchain))
					g++;
				FAIL("cell %s %s/%s/%s%s%s is in %s and in %s: the runs overlap", c->attack,
				     th_variant_name(c->variant), c->config, c->toolchain, model ? "" : " on ",
				     model ? "" : c->platform, names[g], names[f]);
			}
			/* As stored: the counts, outcome and verdict the file says. */
			if (!th_results_copy_cell(r, c, NULL, e, sizeof(e)))
				FAIL("%s: %s", names[f], e);
		}
	}
	e[0] = '\0';
	if (merge_reach(r, in, names, n, e, sizeof(e)) || merge_metrics(r, in, n, e, sizeof(e)) ||
	    merge_agreement(r, in, n, e, sizeof(e)))
		FAIL("%s", e);
	free(hosts);
	free(kernels);
	free(why);
	*out = r;
	return 0;
fail:
	free(hosts);
	free(kernels);
	free(why);
	th_results_free(r);
	return -1;
}
