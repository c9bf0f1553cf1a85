/* SPDX-License-Identifier: MIT */
/* The bench's JSON files, loaded strictly (bench_figures.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_figures.h"
#include "json_load.h"
#include "results_internal.h"
#include "lib/fs.h"
#include "lib/text.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const th_bench_impl_names[TH_BENCH_NIMPL] = { "legacy", "transitional", "modern", "heap" };
const char *const th_bench_op_names[TH_BENCH_NOP] = { "add", "mod", "del", "expire", "step" };

/* A string field, copied (every byte that is not UTF-8 made '?'). */
static int str(struct th_jload *l, const json_t *o, const char *where, const char *key, char **out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		return th_jload_err(l, where, "\"%s\" must be a string", key);
	*out = th_results_strdup(json_string_value(v));
	return *out ? 0 : th_jload_err(l, where, "out of memory");
}

/* A name: not empty, no blanks or controls (configs, toolchains). */
static int name(struct th_jload *l, const json_t *o, const char *where, const char *key, char **out)
{
	if (str(l, o, where, key, out))
		return -1;
	if (!**out)
		return th_jload_err(l, where, "\"%s\" must not be empty", key);
	for (const unsigned char *p = (const unsigned char *)*out; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return th_jload_err(l, where, "\"%s\" must be a name without blanks", key);
	return 0;
}

static int integer(struct th_jload *l, const json_t *o, const char *where, const char *key,
		   long long min, long long *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < min)
		return th_jload_err(l, where, "\"%s\" must be an integer >= %lld", key, min);
	*out = json_integer_value(v);
	return 0;
}

static int boolean(struct th_jload *l, const json_t *o, const char *where, const char *key, bool *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_boolean(v))
		return th_jload_err(l, where, "\"%s\" must be a boolean", key);
	*out = json_is_true(v);
	return 0;
}

/* A figure: a non-negative number, or (when nullable) null as NAN. */
static int figure(struct th_jload *l, const json_t *o, const char *where, const char *key, bool nullable,
		  double *out)
{
	json_t *v = json_object_get(o, key);

	if (nullable && json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return th_jload_err(l, where, "\"%s\" must be a non-negative number%s", key,
			    nullable ? " or null" : "");
	*out = json_number_value(v);
	return 0;
}

static int one_of(struct th_jload *l, const json_t *o, const char *where, const char *key,
		  const char *const *names, int n, int *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		return th_jload_err(l, where, "\"%s\" must be a string", key);
	for (int i = 0; i < n; i++)
		if (!strcmp(json_string_value(v), names[i])) {
			*out = i;
			return 0;
		}
	return th_jload_err(l, where, "unknown %s \"%s\"", key, json_string_value(v));
}

static int created(struct th_jload *l, const char *c)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";

	for (size_t i = 0; i < sizeof(pat) - 1; i++)
		if (pat[i] == 'd' ? !(c[i] >= '0' && c[i] <= '9') : c[i] != pat[i])
			return th_jload_err(l, "created", "\"%s\" is not YYYY-MM-DDTHH:MM:SSZ", c);
	if (c[sizeof(pat) - 1])
		return th_jload_err(l, "created", "\"%s\" is not YYYY-MM-DDTHH:MM:SSZ", c);
	return 0;
}

static int host(struct th_jload *l, const json_t *root, char **hostname, char **kernel, long long *cpus)
{
	static const char *const keys[] = { "hostname", "kernel", "cpus", NULL };
	const json_t *h = json_object_get(root, "host");

	return th_jload_only(l, h, "host", keys, 1) || str(l, h, "host", "hostname", hostname) ||
	       str(l, h, "host", "kernel", kernel) || integer(l, h, "host", "cpus", 0, cpus) ? -1 : 0;
}

static json_t *open_json(struct th_jload *l, const char *schema)
{
	json_error_t je;
	json_t *root, *s;
	struct stat st;

	const char *why;
	int fd;

	/* Never blocks: a FIFO or a device (/dev/zero) is refused, not read. */
	if ((fd = th_open_read(l->file, &why)) < 0)
		return th_jload_err(l, "", "cannot open: %s", why), NULL;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return th_jload_err(l, "", "empty file, not the bench's figures"), NULL;
	}
	root = json_loadfd(fd, JSON_REJECT_DUPLICATES, &je);
	close(fd);
	if (!root)
		return th_jload_err(l, "", "not JSON: line %d column %d: %s", je.line, je.column, je.text), NULL;
	s = json_object_get(root, "schema");
	if (!json_is_object(root) || !json_is_string(s) || strcmp(json_string_value(s), schema)) {
		th_jload_err(l, "", "schema is not \"%s\"", schema);
		json_decref(root);
		return NULL;
	}
	return root;
}

/* ---- timerharness/bench/v1 ---- */

void th_bench_free(struct th_bench *b)
{
	if (!b)
		return;
	free(b->path);
	free(b->version);
	free(b->created);
	free(b->hostname);
	free(b->kernel);
	free(b->toolchain);
	free(b->toolchain_version);
	free(b->config);
	free(b->order);
	free(b->clock);
	free(b->instr_tool);
	free(b->instr_status);
	free(b->sizes);
	free(b->cells);
	free(b);
}

static int late(struct th_jload *l, const json_t *o, const char *where, const char *key,
		struct th_bench_late *out)
{
	static const char *const keys[] = { "mean", "max", NULL };
	const json_t *v = json_object_get(o, key);
	char w[160];

	snprintf(w, sizeof(w), "%s.%s", where, key);
	return th_jload_only(l, v, w, keys, 1) || figure(l, v, w, "mean", false, &out->mean) ||
	       integer(l, v, w, "max", 0, &out->max) ? -1 : 0;
}

static int bench_sizes(struct th_jload *l, const json_t *a, struct th_bench *b)
{
	static const char *const keys[] = { "n", "rounds", "lateness_jiffies", NULL };
	static const char *const late_keys[] = { "wheel", "wheel_stepped", "heap_stepped", NULL };
	const json_t *x;
	size_t i;

	if (!json_is_array(a) || !json_array_size(a))
		return th_jload_err(l, "sizes", "must be an array of at least one size");
	b->sizes = calloc(json_array_size(a), sizeof(*b->sizes));
	if (!b->sizes)
		return th_jload_err(l, "sizes", "out of memory");
	json_array_foreach(a, i, x) {
		struct th_bench_size *s = &b->sizes[i];
		const json_t *lj = json_object_get(x, "lateness_jiffies");
		char w[64], w2[96];

		snprintf(w, sizeof(w), "sizes[%zu]", i);
		snprintf(w2, sizeof(w2), "%s.lateness_jiffies", w);
		if (th_jload_only(l, x, w, keys, 1) || integer(l, x, w, "n", 1, &s->n) ||
		    integer(l, x, w, "rounds", 1, &s->rounds) || th_jload_only(l, lj, w2, late_keys, 1) ||
		    late(l, lj, w2, "wheel", &s->wheel) ||
		    late(l, lj, w2, "wheel_stepped", &s->wheel_stepped) ||
		    late(l, lj, w2, "heap_stepped", &s->heap_stepped))
			return -1;
		for (size_t k = 0; k < i; k++)
			if (b->sizes[k].n == s->n)
				return th_jload_err(l, w, "n %lld twice", s->n);
		b->nsizes = i + 1;
	}
	return 0;
}

static int bench_cells(struct th_jload *l, const json_t *a, struct th_bench *b)
{
	static const char *const keys[] = { "n", "impl", "op", "ns_per_op", "ns_min", "ns_max",
					    "ratio_to_heap", "instructions_per_op",
					    "instructions_whole_phase", NULL };
	const json_t *x;
	size_t i;

	if (!json_is_array(a))
		return th_jload_err(l, "cells", "must be an array");
	b->cells = calloc(json_array_size(a) + 1, sizeof(*b->cells));
	if (!b->cells)
		return th_jload_err(l, "cells", "out of memory");
	json_array_foreach(a, i, x) {
		struct th_bench_cell *c = &b->cells[i];
		char w[64];
		size_t k;

		snprintf(w, sizeof(w), "cells[%zu]", i);
		if (th_jload_only(l, x, w, keys, 1) || integer(l, x, w, "n", 1, &c->n) ||
		    one_of(l, x, w, "impl", th_bench_impl_names, TH_BENCH_NIMPL, &c->impl) ||
		    one_of(l, x, w, "op", th_bench_op_names, TH_BENCH_NOP, &c->op) ||
		    figure(l, x, w, "ns_per_op", true, &c->ns) || figure(l, x, w, "ns_min", true, &c->ns_min) ||
		    figure(l, x, w, "ns_max", true, &c->ns_max) ||
		    figure(l, x, w, "ratio_to_heap", true, &c->ratio_to_heap) ||
		    figure(l, x, w, "instructions_per_op", true, &c->instructions) ||
		    boolean(l, x, w, "instructions_whole_phase", &c->whole_phase))
			return -1;
		for (k = 0; k < b->nsizes && b->sizes[k].n != c->n; k++)
			;
		if (k == b->nsizes)
			return th_jload_err(l, w, "n %lld is not one of sizes", c->n);
		for (k = 0; k < i; k++)
			if (b->cells[k].n == c->n && b->cells[k].impl == c->impl && b->cells[k].op == c->op)
				return th_jload_err(l, w, "n %lld %s %s twice", c->n, th_bench_impl_names[c->impl],
					    th_bench_op_names[c->op]);
		b->ncells = i + 1;
	}
	return 0;
}

static int bench_from(struct th_jload *l, const json_t *root, struct th_bench *b)
{
	static const char *const keys[] = { "schema", "version", "created", "host", "toolchain",
					    "config", "settings", "instructions", "sizes", "cells", NULL };
	static const char *const tc_keys[] = { "name", "version", NULL };
	static const char *const set_keys[] = { "hz", "spread_bits", "seed", "reps", "order", "step",
						"quick", "clock", "clock_read_ns", NULL };
	static const char *const ins_keys[] = { "tool", "max_n", "status", NULL };
	static const char *const orders[] = { "array", "shuffled" };
	const json_t *tc = json_object_get(root, "toolchain"), *st = json_object_get(root, "settings"),
		     *ins = json_object_get(root, "instructions");
	long long seed;
	int order;

	if (th_jload_only(l, root, "", keys, 1) || str(l, root, "", "version", &b->version) ||
	    str(l, root, "", "created", &b->created) || created(l, b->created) ||
	    host(l, root, &b->hostname, &b->kernel, &b->cpus) || th_jload_only(l, tc, "toolchain", tc_keys, 1) ||
	    name(l, tc, "toolchain", "name", &b->toolchain) ||
	    str(l, tc, "toolchain", "version", &b->toolchain_version) ||
	    name(l, root, "", "config", &b->config) || th_jload_only(l, st, "settings", set_keys, 1) ||
	    integer(l, st, "settings", "hz", 1, &b->hz) ||
	    integer(l, st, "settings", "spread_bits", 0, &b->spread_bits) ||
	    integer(l, st, "settings", "seed", 0, &seed) || integer(l, st, "settings", "reps", 1, &b->reps) ||
	    one_of(l, st, "settings", "order", orders, 2, &order) ||
	    integer(l, st, "settings", "step", 1, &b->step) || boolean(l, st, "settings", "quick", &b->quick) ||
	    str(l, st, "settings", "clock", &b->clock) ||
	    figure(l, st, "settings", "clock_read_ns", true, &b->clock_read_ns) ||
	    th_jload_only(l, ins, "instructions", ins_keys, 1) || str(l, ins, "instructions", "tool", &b->instr_tool) ||
	    integer(l, ins, "instructions", "max_n", 0, &b->instr_max_n) ||
	    str(l, ins, "instructions", "status", &b->instr_status) ||
	    bench_sizes(l, json_object_get(root, "sizes"), b) ||
	    bench_cells(l, json_object_get(root, "cells"), b))
		return -1;
	b->seed = (unsigned long long)seed;
	b->order = th_results_strdup(orders[order]);
	return b->order ? 0 : th_jload_err(l, "settings", "out of memory");
}

int th_bench_load(const char *path, struct th_bench **out, char *err, size_t errlen)
{
	struct th_jload l = { path, err, errlen };
	struct th_bench *b;
	json_t *root;

	*out = NULL;
	if (!(root = open_json(&l, TH_BENCH_SCHEMA)))
		return -1;
	b = calloc(1, sizeof(*b));
	if (!b || !(b->path = th_results_strdup(path)) || bench_from(&l, root, b)) {
		if (!b || !b->path)
			th_jload_err(&l, "", "out of memory");
		th_bench_free(b);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	*out = b;
	return 0;
}

/* ---- timerharness/bench-configs/v1 ---- */

void th_bench_configs_free(struct th_bench_configs *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nconfigs; i++) {
		free(c->configs[i].name);
		free(c->configs[i].program);
		free(c->configs[i].instructions);
	}
	free(c->configs);
	free(c->cells);
	free(c->path);
	free(c->version);
	free(c->created);
	free(c->hostname);
	free(c->kernel);
	free(c->toolchain);
	free(c->clock);
	free(c);
}

static int cfg_list(struct th_jload *l, const json_t *a, struct th_bench_configs *c)
{
	static const char *const keys[] = { "name", "program", "instructions", NULL };
	const json_t *x;
	size_t i;
	bool none = false;

	if (!json_is_array(a) || !json_array_size(a))
		return th_jload_err(l, "configs", "must be an array of at least one config");
	c->configs = calloc(json_array_size(a), sizeof(*c->configs));
	if (!c->configs)
		return th_jload_err(l, "configs", "out of memory");
	json_array_foreach(a, i, x) {
		struct th_bench_config *k = &c->configs[i];
		char w[64];

		snprintf(w, sizeof(w), "configs[%zu]", i);
		c->nconfigs = i + 1;
		if (th_jload_only(l, x, w, keys, 1) || name(l, x, w, "name", &k->name) ||
		    str(l, x, w, "program", &k->program) || str(l, x, w, "instructions", &k->instructions))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->configs[j].name, k->name))
				return th_jload_err(l, w, "config \"%s\" twice", k->name);
		if (!strcmp(k->name, "none")) {
			none = true;
			c->base = i;
		}
	}
	if (!none)
		return th_jload_err(l, "configs", "no config \"none\" (the baseline of every ratio)");
	return 0;
}

static int cfg_cells(struct th_jload *l, const json_t *a, struct th_bench_configs *c)
{
	static const char *const keys[] = { "n", "config", "impl", "op", "ns_per_op", "ns_min",
					    "ns_max", "ratio_to_none", "ratio_min", "ratio_max",
					    "instructions_per_op", "instructions_ratio_to_none", NULL };
	const json_t *x;
	size_t i;

	if (!json_is_array(a))
		return th_jload_err(l, "cells", "must be an array");
	c->cells = calloc(json_array_size(a) + 1, sizeof(*c->cells));
	if (!c->cells)
		return th_jload_err(l, "cells", "out of memory");
	json_array_foreach(a, i, x) {
		struct th_bench_cfg_cell *e = &c->cells[i];
		const json_t *cfg = json_object_get(x, "config");
		char w[64];
		size_t k;

		snprintf(w, sizeof(w), "cells[%zu]", i);
		if (th_jload_only(l, x, w, keys, 1) || integer(l, x, w, "n", 1, &e->n))
			return -1;
		if (!json_is_string(cfg))
			return th_jload_err(l, w, "\"config\" must be a string");
		for (k = 0; k < c->nconfigs && strcmp(c->configs[k].name, json_string_value(cfg)); k++)
			;
		if (k == c->nconfigs)
			return th_jload_err(l, w, "config \"%s\" is not one of configs", json_string_value(cfg));
		e->config = k;
		if (one_of(l, x, w, "impl", th_bench_impl_names, TH_BENCH_NIMPL, &e->impl) ||
		    one_of(l, x, w, "op", th_bench_op_names, TH_BENCH_NOP, &e->op) ||
		    figure(l, x, w, "ns_per_op", false, &e->ns) || figure(l, x, w, "ns_min", false, &e->ns_min) ||
		    figure(l, x, w, "ns_max", false, &e->ns_max) ||
		    figure(l, x, w, "ratio_to_none", true, &e->ratio) ||
		    figure(l, x, w, "ratio_min", true, &e->ratio_min) ||
		    figure(l, x, w, "ratio_max", true, &e->ratio_max) ||
		    figure(l, x, w, "instructions_per_op", true, &e->instructions) ||
		    figure(l, x, w, "instructions_ratio_to_none", true, &e->instructions_ratio))
			return -1;
		for (k = 0; k < i; k++)
			if (c->cells[k].n == e->n && c->cells[k].config == e->config &&
			    c->cells[k].impl == e->impl && c->cells[k].op == e->op)
				return th_jload_err(l, w, "n %lld %s %s %s twice", e->n, c->configs[e->config].name,
					    th_bench_impl_names[e->impl], th_bench_op_names[e->op]);
		c->ncells = i + 1;
	}
	return 0;
}

static int configs_from(struct th_jload *l, const json_t *root, struct th_bench_configs *c)
{
	static const char *const keys[] = { "schema", "version", "created", "host", "toolchain",
					    "settings", "configs", "cells", NULL };
	static const char *const set_keys[] = { "runs", "reps", "clock", "confirm_llvm_cfi_median", NULL };
	const json_t *st = json_object_get(root, "settings");

	return th_jload_only(l, root, "", keys, 1) || str(l, root, "", "version", &c->version) ||
	       str(l, root, "", "created", &c->created) || created(l, c->created) ||
	       host(l, root, &c->hostname, &c->kernel, &c->cpus) ||
	       name(l, root, "", "toolchain", &c->toolchain) || th_jload_only(l, st, "settings", set_keys, 1) ||
	       integer(l, st, "settings", "runs", 1, &c->runs) ||
	       integer(l, st, "settings", "reps", 1, &c->reps) || str(l, st, "settings", "clock", &c->clock) ||
	       figure(l, st, "settings", "confirm_llvm_cfi_median", false, &c->confirm_median) ||
	       cfg_list(l, json_object_get(root, "configs"), c) ||
	       cfg_cells(l, json_object_get(root, "cells"), c) ? -1 : 0;
}

int th_bench_configs_load(const char *path, struct th_bench_configs **out, char *err, size_t errlen)
{
	struct th_jload l = { path, err, errlen };
	struct th_bench_configs *c;
	json_t *root;

	*out = NULL;
	if (!(root = open_json(&l, TH_BENCH_CONFIGS_SCHEMA)))
		return -1;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->path = th_results_strdup(path)) || configs_from(&l, root, c)) {
		if (!c || !c->path)
			th_jload_err(&l, "", "out of memory");
		th_bench_configs_free(c);
		json_decref(root);
		return -1;
	}
	json_decref(root);
	*out = c;
	return 0;
}

/* ---- beside results.json ---- */

void th_bench_set_free(struct th_bench_set *s)
{
	if (!s)
		return;
	th_bench_free(s->bench);
	for (size_t i = 0; i < s->nconfigs; i++)
		th_bench_configs_free(s->configs[i]);
	free(s->configs);
	free(s);
}

int th_bench_set_load_beside(const char *results_path, struct th_bench_set **out, char *err,
			     size_t errlen)
{
	const char *slash = strrchr(results_path, '/');
	char dir[4096], path[4352];
	char **names = NULL;
	size_t nnames = 0, plen = strlen(TH_BENCH_CONFIGS_PREFIX);
	struct th_bench_set *s;
	struct dirent *e;
	DIR *d;
	int rc = -1;

	*out = NULL;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - results_path) : 1,
		 slash ? results_path : ".");
	if (slash == results_path)
		snprintf(dir, sizeof(dir), "/");
	if (!(d = opendir(dir)))
		return 0;	/* no directory: no figures (the results' own load says why) */
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char **grown;

		if (strncmp(e->d_name, TH_BENCH_CONFIGS_PREFIX, plen) || len <= plen + 5 ||
		    strcmp(e->d_name + len - 5, ".json"))
			continue;
		grown = realloc(names, (nnames + 1) * sizeof(*names));
		if (!grown || !(grown[nnames] = th_results_strdup(e->d_name))) {
			names = grown ? grown : names;
			closedir(d);
			th_results_errf(err, errlen, "%s: out of memory", dir);
			goto out_names;
		}
		names = grown;
		nnames++;
	}
	closedir(d);
	qsort(names, nnames, sizeof(*names), th_cmp_str);
	snprintf(path, sizeof(path), "%s/%s", dir, TH_BENCH_FILE);
	if (!nnames && access(path, F_OK)) {
		rc = 0;
		goto out_names;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->configs = calloc(nnames + 1, sizeof(*s->configs)))) {
		free(s);
		th_results_errf(err, errlen, "%s: out of memory", dir);
		goto out_names;
	}
	if (!access(path, F_OK) && th_bench_load(path, &s->bench, err, errlen))
		goto fail;
	for (size_t i = 0; i < nnames; i++) {
		struct th_bench_configs *c;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (th_bench_configs_load(path, &c, err, errlen))
			goto fail;
		s->configs[s->nconfigs++] = c;
		/* One toolchain, one set of per-config figures: two would be two answers. */
		for (size_t k = 0; k + 1 < s->nconfigs; k++)
			if (!strcmp(s->configs[k]->toolchain, c->toolchain)) {
				th_results_errf(err, errlen, "%s: toolchain: %s's configs are already in %s",
						path, c->toolchain, s->configs[k]->path);
				goto fail;
			}
	}
	*out = s;
	rc = 0;
	goto out_names;
fail:
	th_bench_set_free(s);
out_names:
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return rc;
}
