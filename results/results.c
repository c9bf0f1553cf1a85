/* SPDX-License-Identifier: MIT */
/* The in-memory results model: owned strings, growable arrays, a hash index
 * of cells by (platform, attack, variant, config, toolchain). */
#define _POSIX_C_SOURCE 200809L
#include "results.h"
#include "bench_figures.h"
#include "fuzz_summary.h"
#include "reach.h"
#include "results_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define OOM(err, errlen) th_results_errf(err, errlen, "out of memory")

int th_results_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			int c = strncmp(a, b, (size_t)(ea - a));
			if (c)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	if (*a || *b)
		return *a ? 1 : -1;
	return 0;
}

/* The registry's order (attacks/registry.h), the timer's then the tasklet's. */
static const char *const techniques[] = {
	"memcpy-intra", "index-intra", "strcpy-intra", "heap-neighbour", "uaf-realloc",
	"ring-block-overflow", "tasklet-memcpy-intra", "hso-index",
};
static const char *const timings[] = { "before-arm", "pending", "-" };

int th_results_technique_rank(const char *t)
{
	for (size_t i = 0; i < sizeof(techniques) / sizeof(techniques[0]); i++)
		if (!strcmp(t, techniques[i]))
			return (int)i;
	return (int)(sizeof(techniques) / sizeof(techniques[0]));
}

int th_results_timing_rank(const char *t)
{
	for (size_t i = 0; i < sizeof(timings) / sizeof(timings[0]); i++)
		if (!strcmp(t, timings[i]))
			return (int)i;
	return -1;
}

static const char *const variant_names[TH_VARIANT_COUNT] = {
	[TH_VARIANT_LEGACY] = "legacy",
	[TH_VARIANT_TRANSITIONAL] = "transitional",
	[TH_VARIANT_MODERN] = "modern",
};

const char *th_variant_name(enum th_variant v)
{
	return (v >= 0 && v < TH_VARIANT_COUNT) ? variant_names[v] : NULL;
}

enum th_variant th_variant_parse(const char *s)
{
	for (int i = 0; s && i < TH_VARIANT_COUNT; i++)
		if (!strcmp(s, variant_names[i]))
			return (enum th_variant)i;
	return TH_VARIANT_INVALID;
}

static const struct {
	const char *name, *dispatch;
} api_rows[TH_API_COUNT] = {
#define X(id, name, folder, dispatch, kstruct) [TH_API_##id] = { name, dispatch },
#include "api.def"
#undef X
};

const char *th_api_name(enum th_api a)
{
	return (a >= 0 && a < TH_API_COUNT) ? api_rows[a].name : NULL;
}

enum th_api th_api_parse(const char *s)
{
	for (int i = 0; s && i < TH_API_COUNT; i++)
		if (!strcmp(s, api_rows[i].name))
			return (enum th_api)i;
	return TH_API_INVALID;
}

const char *th_api_dispatch(enum th_api a)
{
	return (a >= 0 && a < TH_API_COUNT) ? api_rows[a].dispatch : NULL;
}

const char *th_api_names(void)
{
	static char buf[256];

	if (!buf[0])
		for (int i = 0; i < TH_API_COUNT; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 i ? ", " : "", api_rows[i].name);
	return buf;
}

/* ---- cell index: open addressing, linear probing, never shrinks ---- */

struct th_cell_index {
	struct th_cell **slot;
	size_t cap;		/* power of two */
	size_t used;
};

static uint64_t fnv_str(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff;		/* separator: ("ab","c") != ("a","bc") */
	return h * 0x100000001b3ULL;
}

static uint64_t cell_hash(const char *platform, const char *attack, enum th_variant v,
			  const char *config, const char *toolchain)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = fnv_str(h, platform);
	h = fnv_str(h, attack);
	h ^= (uint64_t)(v + 1);
	h *= 0x100000001b3ULL;
	h = fnv_str(h, config);
	return fnv_str(h, toolchain);
}

static bool cell_is(const struct th_cell *c, const char *platform, const char *attack,
		    enum th_variant v, const char *config, const char *toolchain)
{
	return c->variant == v && !strcmp(c->attack, attack) &&
	       !strcmp(c->config, config) && !strcmp(c->toolchain, toolchain) &&
	       !strcmp(c->platform, platform);
}

static int index_insert(struct th_cell_index *ix, struct th_cell *c)
{
	if ((ix->used + 1) * 2 > ix->cap) {
		size_t ncap = ix->cap ? ix->cap * 2 : 64;
		struct th_cell **ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return -1;
		for (size_t i = 0; i < ix->cap; i++) {
			struct th_cell *o = ix->slot[i];

			if (!o)
				continue;
			size_t j = cell_hash(o->platform, o->attack, o->variant, o->config,
					     o->toolchain) & (ncap - 1);
			while (ns[j])
				j = (j + 1) & (ncap - 1);
			ns[j] = o;
		}
		free(ix->slot);
		ix->slot = ns;
		ix->cap = ncap;
	}
	size_t j = cell_hash(c->platform, c->attack, c->variant, c->config, c->toolchain) &
		   (ix->cap - 1);
	while (ix->slot[j])
		j = (j + 1) & (ix->cap - 1);
	ix->slot[j] = c;
	ix->used++;
	return 0;
}

struct th_cell *th_results_find_cell(const struct th_results *res, const char *platform,
				     const char *attack, enum th_variant variant,
				     const char *config, const char *toolchain)
{
	const struct th_cell_index *ix = res->index_;

	if (!platform)
		platform = TH_PLATFORM_MODEL;
	if (!ix->cap || !attack || !config || !toolchain)
		return NULL;
	size_t j = cell_hash(platform, attack, variant, config, toolchain) & (ix->cap - 1);
	for (; ix->slot[j]; j = (j + 1) & (ix->cap - 1)) {
		struct th_cell *c = ix->slot[j];

		/* A view (report_internal.h) shares the index of the cells it
		 * shows part of: it finds only its own platform's. */
		if (cell_is(c, platform, attack, variant, config, toolchain) &&
		    (!res->view_platform_ || !strcmp(res->view_platform_, platform)))
			return c;
	}
	return NULL;
}

/* ---- growable arrays ---- */

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 8;
	void *p = realloc(*arr, ncap * elem);

	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* ---- create / free ---- */

struct th_results *th_results_create(const char *version)
{
	struct th_results *res = calloc(1, sizeof(*res));
	struct utsname u;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;

	if (!res)
		return NULL;
	res->index_ = calloc(1, sizeof(*res->index_));
	res->version = th_results_strdup(version);
	if (gmtime_r(&t, &tm) && strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm))
		res->created = strdup(now);
	else
		res->created = strdup("1970-01-01T00:00:00Z");
	if (uname(&u) == 0) {
		res->host.hostname = strdup(u.nodename);
		res->host.kernel = strdup(u.release);
	} else {
		res->host.hostname = strdup("");
		res->host.kernel = strdup("");
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	res->host.cpus = n > 0 ? (int)n : 0;
	if (!res->index_ || !res->version || !res->created || !res->host.hostname ||
	    !res->host.kernel) {
		th_results_free(res);
		return NULL;
	}
	return res;
}

static void free_cell(struct th_cell *c)
{
	if (!c)
		return;
	free(c->attack);
	free(c->technique);
	free(c->timing);
	free(c->payload);
	free(c->config);
	free(c->toolchain);
	free(c->evidence);
	free(c->rerun);
	free(c->platform);
	free(c);
}

static void free_platform(struct th_platform *p)
{
	free(p->name);
	free(p->source);
	free(p->compiler);
	free(p->qemu);
	free(p->cpu);
	for (size_t i = 0; i < p->nconfigs; i++) {
		free(p->configs[i].name);
		free(p->configs[i].kconfig);
	}
	free(p->configs);
}

void th_results_free(struct th_results *res)
{
	if (!res)
		return;
	th_reach_section_free(res->reach);
	th_fz_summary_free(res->fuzz);
	th_bench_set_free(res->bench);
	free(res->version);
	free(res->created);
	free(res->interrupted);
	free(res->expect_path);
	free(res->expect_sha256);
	free(res->selection.toolchains);
	free(res->selection.configs);
	free(res->selection.variants);
	free(res->selection.attacks);
	free(res->shard.indexes);
	free(res->host.hostname);
	free(res->host.kernel);
	for (size_t i = 0; i < res->ntoolchains; i++) {
		free(res->toolchains[i].name);
		free(res->toolchains[i].version);
		free(res->toolchains[i].path);
	}
	free(res->toolchains);
	for (size_t i = 0; i < res->nconfigs; i++) {
		struct th_config *c = &res->configs[i];

		free(c->name);
		free(c->flags);
		free(c->description);
		for (size_t j = 0; j < c->nsupport; j++) {
			free(c->support[j].toolchain);
			free(c->support[j].reason);
		}
		free(c->support);
	}
	free(res->configs);
	for (size_t i = 0; i < res->ncells; i++)
		free_cell(res->cells[i]);
	free(res->cells);
	for (size_t i = 0; i < res->nmetrics; i++) {
		free(res->metrics[i].name);
		free(res->metrics[i].s);
	}
	free(res->metrics);
	for (size_t i = 0; i < res->nplatforms; i++)
		free_platform(&res->platforms[i]);
	free(res->platforms);
	th_agreement_free(res->agreement, res->nagreement);
	if (res->index_)
		free(res->index_->slot);
	free(res->index_);
	free(res);
}

/* Replace *dst with a copy of s. */
static int set_str(char **dst, const char *s, char *err, size_t errlen)
{
	char *n = th_results_strdup(s);

	if (!n)
		return OOM(err, errlen);
	free(*dst);
	*dst = n;
	return 0;
}

static bool valid_iso_utc(const char *s)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	for (i = 0; pat[i]; i++) {
		if (pat[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pat[i])
			return false;
	}
	if (s[i] == '.') {	/* optional fraction */
		if (!isdigit((unsigned char)s[++i]))
			return false;
		while (isdigit((unsigned char)s[i]))
			i++;
	}
	return s[i] == 'Z' && !s[i + 1];
}

int th_results_set_created(struct th_results *res, const char *iso_utc,
			   char *err, size_t errlen)
{
	if (!iso_utc || !valid_iso_utc(iso_utc))
		return th_results_errf(err, errlen,
				       "created \"%s\" is not UTC ISO-8601 (YYYY-MM-DDTHH:MM:SSZ)",
				       iso_utc ? iso_utc : "(null)");
	return set_str(&res->created, iso_utc, err, errlen);
}

int th_results_set_host(struct th_results *res, const char *hostname,
			const char *kernel, int cpus, char *err, size_t errlen)
{
	if (cpus < 0)
		return th_results_errf(err, errlen, "host cpus %d is negative", cpus);
	if (set_str(&res->host.hostname, hostname, err, errlen) ||
	    set_str(&res->host.kernel, kernel, err, errlen))
		return -1;
	res->host.cpus = cpus;
	return 0;
}

int th_results_set_partial(struct th_results *res, bool partial,
			   const char *reason, char *err, size_t errlen)
{
	if (!partial) {
		free(res->interrupted);
		res->interrupted = NULL;
		res->partial = false;
		return 0;
	}
	if (!reason || !*reason)
		return th_results_errf(err, errlen, "a partial result needs the reason it was interrupted");
	if (set_str(&res->interrupted, reason, err, errlen))
		return -1;
	res->partial = true;
	return 0;
}

int th_results_set_expectations(struct th_results *res, const char *path,
				const char *sha256, char *err, size_t errlen)
{
	size_t n = 0;

	if (!path || !*path)
		return th_results_errf(err, errlen, "expectations: empty path");
	for (; sha256 && isxdigit((unsigned char)sha256[n]) && !isupper((unsigned char)sha256[n]); n++)
		;
	if (!sha256 || n != 64 || sha256[n])
		return th_results_errf(err, errlen, "expectations: sha256 \"%s\" is not 64 lower-case hex digits",
				       sha256 ? sha256 : "");
	if (set_str(&res->expect_path, path, err, errlen) ||
	    set_str(&res->expect_sha256, sha256, err, errlen))
		return -1;
	return 0;
}

/* A selection list: NULL, or non-empty items separated by single commas. */
static bool valid_list(const char *s)
{
	if (!s)
		return true;
	if (!*s || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

int th_results_set_selection(struct th_results *res, const struct th_selection *sel,
			     char *err, size_t errlen)
{
	const char *lists[] = { sel->toolchains, sel->configs, sel->variants, sel->attacks };
	static const char *const names[] = { "toolchains", "configs", "variants", "attacks" };
	char **dst[] = { &res->selection.toolchains, &res->selection.configs,
			 &res->selection.variants, &res->selection.attacks };

	for (int i = 0; i < 4; i++)
		if (!valid_list(lists[i]))
			return th_results_errf(err, errlen, "selection.%s \"%s\": an empty list or item, or a blank",
					       names[i], lists[i]);
	for (int i = 0; i < 4; i++) {
		free(*dst[i]);
		*dst[i] = NULL;
		if (lists[i] && !(*dst[i] = th_results_strdup(lists[i])))
			return OOM(err, errlen);
	}
	res->selection.selftests = sel->selftests;
	res->has_selection = true;
	return 0;
}

bool th_selection_is_slice(const struct th_selection *sel)
{
	return sel->toolchains || sel->configs || sel->variants || sel->attacks;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int th_results_set_shard(struct th_results *res, unsigned count, const unsigned *indexes,
			 size_t n, char *err, size_t errlen)
{
	unsigned *copy = NULL;

	if (count > TH_SHARD_MAX)
		return th_results_errf(err, errlen, "shard count %u is above %u", count, TH_SHARD_MAX);
	if (count && (!n || n > count))
		return th_results_errf(err, errlen, "shard: %zu indexes of %u shards", n, count);
	if (count) {
		if (!(copy = malloc(n * sizeof(*copy))))
			return OOM(err, errlen);
		memcpy(copy, indexes, n * sizeof(*copy));
		qsort(copy, n, sizeof(*copy), cmp_unsigned);
		for (size_t i = 0; i < n; i++) {
			if (copy[i] < 1 || copy[i] > count || (i && copy[i] == copy[i - 1])) {
				unsigned bad = copy[i];

				free(copy);
				return th_results_errf(err, errlen, "shard index %u: %s", bad,
						       bad < 1 || bad > count ? "out of 1..count" : "given twice");
			}
		}
	}
	free(res->shard.indexes);
	res->shard.count = count;
	res->shard.indexes = copy;
	res->shard.nindexes = count ? n : 0;
	return 0;
}

bool th_results_is_slice(const struct th_results *res)
{
	return th_selection_is_slice(&res->selection) || res->shard.count;
}

unsigned th_shard_of(const char *attack, const char *variant, const char *config,
		     const char *toolchain, unsigned count)
{
	const char *parts[] = { attack, variant, config, toolchain };
	uint64_t h = 0xcbf29ce484222325ULL;

	if (!count)
		return 0;
	for (int i = 0; i < 4; i++) {
		if (i) {
			h ^= '/';
			h *= 0x100000001b3ULL;
		}
		for (const char *p = parts[i] ? parts[i] : ""; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 0x100000001b3ULL;
		}
	}
	return (unsigned)(h % count) + 1;
}

int th_shard_parse(const char *s, unsigned *index, unsigned *count, char *err, size_t errlen)
{
	unsigned long i, n;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		goto bad;
	i = strtoul(s, &end, 10);
	if (*end != '/' || !isdigit((unsigned char)end[1]))
		goto bad;
	n = strtoul(end + 1, &end, 10);
	if (*end || !i || i > n || n > TH_SHARD_MAX)
		goto bad;
	*index = (unsigned)i;
	*count = (unsigned)n;
	return 0;
bad:
	return th_results_errf(err, errlen, "'%s' is not a shard I/N (1 <= I <= N <= %u)", s ? s : "",
			       TH_SHARD_MAX);
}

bool th_results_holds_shard(const struct th_results *res, const char *attack, enum th_variant v,
			    const char *config, const char *toolchain)
{
	unsigned k;

	if (!res->shard.count)
		return true;
	k = th_shard_of(attack, th_variant_name(v), config, toolchain, res->shard.count);
	for (size_t i = 0; i < res->shard.nindexes; i++)
		if (res->shard.indexes[i] == k)
			return true;
	return false;
}

/* ---- toolchains and configs ---- */

const struct th_toolchain *th_results_find_toolchain(const struct th_results *res,
						     const char *name)
{
	for (size_t i = 0; name && i < res->ntoolchains; i++)
		if (!strcmp(res->toolchains[i].name, name))
			return &res->toolchains[i];
	return NULL;
}

const struct th_config *th_results_find_config(const struct th_results *res,
					       const char *name)
{
	for (size_t i = 0; name && i < res->nconfigs; i++)
		if (!strcmp(res->configs[i].name, name))
			return &res->configs[i];
	return NULL;
}

const struct th_support *th_config_support(const struct th_config *cfg,
					   const char *toolchain)
{
	for (size_t i = 0; toolchain && i < cfg->nsupport; i++)
		if (!strcmp(cfg->support[i].toolchain, toolchain))
			return &cfg->support[i];
	return NULL;
}

size_t th_results_config_pos(const struct th_results *res, const char *name)
{
	const struct th_config *c = th_results_find_config(res, name);

	return c ? (size_t)(c - res->configs) : res->nconfigs;
}

/* A name used as a key or column: non-empty, printable, no blanks. */
static bool valid_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return false;
	return true;
}

int th_results_add_toolchain(struct th_results *res, const char *name,
			     const char *version, const char *path,
			     char *err, size_t errlen)
{
	if (!valid_name(name))
		return th_results_errf(err, errlen, "toolchain name \"%s\" is empty or has blanks",
				       name ? name : "");
	if (th_results_find_toolchain(res, name))
		return th_results_errf(err, errlen, "toolchain \"%s\" added twice", name);
	if (grow((void **)&res->toolchains, &res->cap_toolchains_, res->ntoolchains,
		 sizeof(*res->toolchains)))
		return OOM(err, errlen);
	struct th_toolchain t = {
		th_results_strdup(name), th_results_strdup(version), th_results_strdup(path)
	};
	if (!t.name || !t.version || !t.path) {
		free(t.name);
		free(t.version);
		free(t.path);
		return OOM(err, errlen);
	}
	res->toolchains[res->ntoolchains++] = t;
	return 0;
}

int th_results_add_config(struct th_results *res, const char *name,
			  const char *flags, const char *description,
			  char *err, size_t errlen)
{
	if (!valid_name(name))
		return th_results_errf(err, errlen, "config name \"%s\" is empty or has blanks",
				       name ? name : "");
	if (th_results_find_config(res, name))
		return th_results_errf(err, errlen, "config \"%s\" added twice", name);
	if (grow((void **)&res->configs, &res->cap_configs_, res->nconfigs,
		 sizeof(*res->configs)))
		return OOM(err, errlen);
	struct th_config c = {
		.name = th_results_strdup(name),
		.flags = th_results_strdup(flags),
		.description = th_results_strdup(description),
	};
	if (!c.name || !c.flags || !c.description) {
		free(c.name);
		free(c.flags);
		free(c.description);
		return OOM(err, errlen);
	}
	res->configs[res->nconfigs++] = c;
	return 0;
}

int th_results_set_support(struct th_results *res, const char *config,
			   const char *toolchain, bool supported,
			   const char *reason, char *err, size_t errlen)
{
	struct th_config *cfg = (struct th_config *)th_results_find_config(res, config);

	if (!cfg)
		return th_results_errf(err, errlen, "support for unknown config \"%s\"",
				       config ? config : "");
	if (!th_results_find_toolchain(res, toolchain))
		return th_results_errf(err, errlen, "config \"%s\": support for unknown toolchain \"%s\"",
				       config, toolchain ? toolchain : "");
	struct th_support *s = (struct th_support *)th_config_support(cfg, toolchain);

	if (s) {
		if (set_str(&s->reason, reason, err, errlen))
			return -1;
		s->supported = supported;
		return 0;
	}
	if (grow((void **)&cfg->support, &cfg->cap_support_, cfg->nsupport,
		 sizeof(*cfg->support)))
		return OOM(err, errlen);
	struct th_support n = { th_results_strdup(toolchain), supported, th_results_strdup(reason) };

	if (!n.toolchain || !n.reason) {
		free(n.toolchain);
		free(n.reason);
		return OOM(err, errlen);
	}
	cfg->support[cfg->nsupport++] = n;
	return 0;
}

/* ---- platforms ---- */

bool th_platform_is_model(const char *s)
{
	return !s || !strcmp(s, TH_PLATFORM_MODEL);
}

bool th_platform_name_valid(const char *s)
{
	if (!s)
		return false;
	if (!strcmp(s, TH_PLATFORM_MODEL))
		return true;
	if (strncmp(s, "linux-", 6) || !s[6] || strlen(s) > 64)
		return false;
	for (s += 6; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+~-", *s))
			return false;
	return true;
}

const struct th_platform *th_results_find_platform(const struct th_results *res,
						   const char *name)
{
	for (size_t i = 0; name && i < res->nplatforms; i++)
		if (!strcmp(res->platforms[i].name, name))
			return &res->platforms[i];
	return NULL;
}

const struct th_platform_config *th_platform_find_config(const struct th_platform *p,
							 const char *config)
{
	for (size_t i = 0; p && config && i < p->nconfigs; i++)
		if (!strcmp(p->configs[i].name, config))
			return &p->configs[i];
	return NULL;
}

int th_results_add_platform(struct th_results *res, const struct th_platform_in *in,
			    char *err, size_t errlen)
{
	struct th_platform p = { 0 };

	if (!th_platform_name_valid(in->name) || th_platform_is_model(in->name))
		return th_results_errf(err, errlen, "platform name \"%s\" is not \"linux-<release>\" "
				       "(a release of letters, digits and ._+~-)", in->name ? in->name : "");
	if (th_results_find_platform(res, in->name))
		return th_results_errf(err, errlen, "platform \"%s\" added twice", in->name);
	if (!(in->boot_seconds_median < 1e12))	/* NaN fails too; < 0: not recorded */
		return th_results_errf(err, errlen, "platform %s: boot_seconds_median %g is not a duration",
				       in->name, in->boot_seconds_median);
	if (grow((void **)&res->platforms, &res->cap_platforms_, res->nplatforms,
		 sizeof(*res->platforms)))
		return OOM(err, errlen);
	p.name = th_results_strdup(in->name);
	p.source = th_results_strdup(in->source);
	p.compiler = th_results_strdup(in->compiler);
	p.qemu = th_results_strdup(in->qemu);
	p.cpu = th_results_strdup(in->cpu);
	p.boot_seconds_median = in->boot_seconds_median < 0 ? -1 : in->boot_seconds_median;
	if (!p.name || !p.source || !p.compiler || !p.qemu || !p.cpu) {
		free_platform(&p);
		return OOM(err, errlen);
	}
	res->platforms[res->nplatforms++] = p;
	return 0;
}

int th_results_add_platform_config(struct th_results *res, const char *platform,
				   const char *config, const char *kconfig,
				   char *err, size_t errlen)
{
	struct th_platform *p = (struct th_platform *)th_results_find_platform(res, platform);
	struct th_platform_config c;

	if (!p)
		return th_results_errf(err, errlen, "kernel config for unknown platform \"%s\"",
				       platform ? platform : "");
	if (!th_results_find_config(res, config))
		return th_results_errf(err, errlen, "platform %s: unknown config \"%s\" (add it first)",
				       platform, config ? config : "");
	if (th_platform_find_config(p, config))
		return th_results_errf(err, errlen, "platform %s: config \"%s\" added twice", platform,
				       config);
	if (grow((void **)&p->configs, &p->cap_configs_, p->nconfigs, sizeof(*p->configs)))
		return OOM(err, errlen);
	c.name = th_results_strdup(config);
	c.kconfig = th_results_strdup(kconfig);
	if (!c.name || !c.kconfig) {
		free(c.name);
		free(c.kconfig);
		return OOM(err, errlen);
	}
	p->configs[p->nconfigs++] = c;
	return 0;
}

/* ---- cells ---- */

bool th_results_valid_attack_id(const char *s)
{
	if (!s || !isupper((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* The outcome of a set of runs: a harness error if any run is one (what
 * the other runs did cannot be judged without it), else the most severe. */
static enum th_outcome worst_count(const unsigned counts[TH_OUTCOME_COUNT])
{
	if (counts[TH_HARNESS_ERROR])
		return TH_HARNESS_ERROR;
	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		if (counts[i])
			return (enum th_outcome)i;
	return TH_OUTCOME_INVALID;
}

enum th_outcome th_cell_observed(const struct th_cell *c)
{
	enum th_outcome w = worst_count(c->counts);

	if (w == TH_HARNESS_ERROR || c->outcome == TH_HARNESS_ERROR)
		return TH_HARNESS_ERROR;
	/* Enum order is severity order, real outcomes before UNSUPPORTED and
	 * NOT_APPLICABLE: a counted real run beats an "UNSUPPORTED" label. */
	if (w != TH_OUTCOME_INVALID && (c->outcome < 0 || w < c->outcome))
		return w;
	return c->outcome;
}

th_outcome_set th_cell_seen(const struct th_cell *c)
{
	enum th_outcome o = th_cell_observed(c);
	th_outcome_set s = th_outcome_name(o) ? TH_OUTCOME_BIT(o) : 0;

	for (int i = 0; i < TH_OUTCOME_COUNT; i++)
		if (c->counts[i])
			s |= TH_OUTCOME_BIT(i);
	return s;
}

th_outcome_set th_cell_expected_set(const struct th_cell *c)
{
	if (c->expected_set)
		return c->expected_set;
	return th_outcome_name(c->expected) ? TH_OUTCOME_BIT(c->expected) : 0;
}

char *th_cell_expected_text(const struct th_cell *c, char *buf, size_t n)
{
	return th_outcome_set_format(th_cell_expected_set(c), buf, n);
}

enum th_verdict th_cell_verdict(const struct th_cell *c, enum th_outcome baseline)
{
	return th_verdict_set(th_cell_observed(c), th_cell_seen(c), th_cell_expected_set(c), baseline);
}

static void update_verdict(struct th_cell *c)
{
	c->verdict = th_cell_verdict(c, TH_OUTCOME_INVALID);
}

struct th_cell *th_results_add_cell(struct th_results *res,
				    const struct th_cell_in *in,
				    char *err, size_t errlen)
{
	const char *timing = in->timing ? in->timing : "-";
	unsigned counts[TH_OUTCOME_COUNT] = { 0 };
	enum th_outcome outcome = in->outcome;
	unsigned runs = in->runs;

	if (!th_results_valid_attack_id(in->attack))
		return th_results_errf(err, errlen, "attack \"%s\" is not an upper-case ID ([A-Z][A-Z0-9_]*)",
				       in->attack ? in->attack : ""), NULL;
	if (!valid_name(in->technique))
		return th_results_errf(err, errlen, "%s: technique is empty or has blanks", in->attack), NULL;
	if (!valid_name(in->payload))
		return th_results_errf(err, errlen, "%s: payload is empty or has blanks", in->attack), NULL;
	if (th_results_timing_rank(timing) < 0)
		return th_results_errf(err, errlen, "%s: unknown timing \"%s\" (before-arm, pending or -)",
				       in->attack, timing), NULL;
	if (!th_variant_name(in->variant))
		return th_results_errf(err, errlen, "%s: invalid variant %d", in->attack,
				       (int)in->variant), NULL;
	if (!th_api_name(in->api))
		return th_results_errf(err, errlen, "%s: invalid api %d", in->attack,
				       (int)in->api), NULL;
	if (!th_results_find_config(res, in->config))
		return th_results_errf(err, errlen, "%s: unknown config \"%s\" (add it first)",
				       in->attack, in->config ? in->config : ""), NULL;
	if (!th_results_find_toolchain(res, in->toolchain))
		return th_results_errf(err, errlen, "%s: unknown toolchain \"%s\" (add it first)",
				       in->attack, in->toolchain ? in->toolchain : ""), NULL;
	if (in->expected != TH_OUTCOME_INVALID && !th_outcome_name(in->expected))
		return th_results_errf(err, errlen, "%s: invalid expected outcome %d", in->attack,
				       (int)in->expected), NULL;
	if (in->counts) {
		unsigned sum = 0;

		for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
			if (in->counts[i] > UINT32_MAX - sum)
				return th_results_errf(err, errlen, "%s: counts overflow", in->attack), NULL;
			counts[i] = in->counts[i];
			sum += counts[i];
		}
		if (runs && runs != sum)
			return th_results_errf(err, errlen, "%s: runs %u but counts sum to %u",
					       in->attack, runs, sum), NULL;
		runs = sum;
		enum th_outcome w = worst_count(counts);
		if (outcome == TH_OUTCOME_INVALID)
			outcome = w;
		if (outcome == TH_OUTCOME_INVALID)
			return th_results_errf(err, errlen, "%s: no outcome and no counts", in->attack), NULL;
		if (w != TH_OUTCOME_INVALID && w != outcome)
			return th_results_errf(err, errlen, "%s: outcome %s is not the most severe of its counts (%s)",
					       in->attack, th_outcome_name(outcome) ? th_outcome_name(outcome) : "?",
					       th_outcome_name(w)), NULL;
	} else {
		if (!th_outcome_name(outcome))
			return th_results_errf(err, errlen, "%s: invalid outcome %d", in->attack,
					       (int)outcome), NULL;
		counts[outcome] = runs;
	}
	if (!th_outcome_name(outcome))
		return th_results_errf(err, errlen, "%s: invalid outcome %d", in->attack, (int)outcome), NULL;
	if (!(in->seconds >= 0 && in->seconds < 1e12))	/* NaN fails too */
		return th_results_errf(err, errlen, "%s: seconds %g is not a duration", in->attack,
				       in->seconds), NULL;
	const char *platform = in->platform ? in->platform : TH_PLATFORM_MODEL;
	const struct th_platform *pf = th_results_find_platform(res, platform);

	if (!th_platform_is_model(platform) && !pf)
		return th_results_errf(err, errlen, "%s: unknown platform \"%s\" (%s)", in->attack, platform,
				       th_platform_name_valid(platform) ?
				       "add it first" : "\"model\" or \"linux-<release>\""), NULL;
	if (pf && !th_platform_find_config(pf, in->config))
		return th_results_errf(err, errlen, "%s: config \"%s\" is not a kernel config of platform "
				       "%s (add it to the platform first)", in->attack, in->config,
				       platform), NULL;
	if (th_results_find_cell(res, platform, in->attack, in->variant, in->config, in->toolchain))
		return th_results_errf(err, errlen, "%s %s/%s/%s%s%s: cell added twice", in->attack,
				       th_variant_name(in->variant), in->config, in->toolchain,
				       pf ? " on " : "", pf ? platform : ""), NULL;

	struct th_cell *c = calloc(1, sizeof(*c));
	if (!c)
		return OOM(err, errlen), NULL;
	c->attack = th_results_strdup(in->attack);
	c->technique = th_results_strdup(in->technique);
	c->timing = th_results_strdup(timing);
	c->payload = th_results_strdup(in->payload);
	c->config = th_results_strdup(in->config);
	c->toolchain = th_results_strdup(in->toolchain);
	c->evidence = th_results_strdup(in->evidence);
	c->api = in->api;
	c->variant = in->variant;
	c->outcome = outcome;
	c->runs = runs;
	memcpy(c->counts, counts, sizeof(counts));
	c->expected = in->expected;
	/* A set of one is its outcome alone. */
	c->expected_set = th_outcome_set_size(in->expected_set) > 1 ? in->expected_set : 0;
	if (c->expected_set)
		c->expected = th_outcome_set_worst(c->expected_set);
	c->seconds = in->seconds;
	c->rerun = th_results_strdup(in->rerun);
	c->expected_line = in->expected_line;
	c->platform = th_results_strdup(platform);
	update_verdict(c);
	if (!c->attack || !c->technique || !c->timing || !c->payload || !c->config ||
	    !c->toolchain || !c->evidence || !c->rerun || !c->platform ||
	    grow((void **)&res->cells, &res->cap_cells_, res->ncells, sizeof(*res->cells)) ||
	    index_insert(res->index_, c)) {
		free_cell(c);
		return OOM(err, errlen), NULL;
	}
	res->cells[res->ncells++] = c;
	return c;
}

struct th_cell *th_results_copy_cell(struct th_results *res, const struct th_cell *c,
				     const char *platform, char *err, size_t errlen)
{
	struct th_cell_in ci = {
		.attack = c->attack, .technique = c->technique, .timing = c->timing,
		.payload = c->payload, .api = c->api, .variant = c->variant, .config = c->config,
		.toolchain = c->toolchain, .outcome = c->outcome, .evidence = c->evidence,
		.expected = c->expected, .expected_set = c->expected_set,
		.seconds = c->seconds > 0 ? c->seconds : 0,
		.rerun = c->rerun, .expected_line = c->expected_line,
		.platform = platform ? platform : c->platform,
	};
	struct th_cell *d = th_results_add_cell(res, &ci, err, errlen);

	if (!d)
		return NULL;
	memcpy(d->counts, c->counts, sizeof(d->counts));
	d->runs = c->runs;
	d->verdict = c->verdict;
	d->seconds = c->seconds;
	return d;
}

int th_cell_record_run(struct th_cell *c, enum th_outcome o, char *err, size_t errlen)
{
	if (!th_outcome_name(o))
		return th_results_errf(err, errlen, "%s: invalid outcome %d", c->attack, (int)o);
	if (c->runs == UINT32_MAX)
		return th_results_errf(err, errlen, "%s: too many runs", c->attack);
	c->counts[o]++;
	c->runs++;
	c->outcome = worst_count(c->counts);
	update_verdict(c);
	return 0;
}

int th_cell_set_evidence(struct th_cell *c, const char *evidence, char *err, size_t errlen)
{
	return set_str(&c->evidence, evidence, err, errlen);
}

int th_cell_set_rerun(struct th_cell *c, const char *rerun, char *err, size_t errlen)
{
	return set_str(&c->rerun, rerun, err, errlen);
}

/* ---- metrics ---- */

static struct th_metric *metric_slot(struct th_results *res, const char *name,
				     char *err, size_t errlen)
{
	if (!valid_name(name))
		return th_results_errf(err, errlen, "metric name \"%s\" is empty or has blanks",
				       name ? name : ""), NULL;
	for (size_t i = 0; i < res->nmetrics; i++) {
		if (!strcmp(res->metrics[i].name, name)) {
			free(res->metrics[i].s);
			res->metrics[i].s = NULL;
			return &res->metrics[i];
		}
	}
	if (grow((void **)&res->metrics, &res->cap_metrics_, res->nmetrics,
		 sizeof(*res->metrics)))
		return OOM(err, errlen), NULL;
	struct th_metric *m = &res->metrics[res->nmetrics];

	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	if (!m->name)
		return OOM(err, errlen), NULL;
	res->nmetrics++;
	return m;
}

int th_results_set_metric_int(struct th_results *res, const char *name,
			      long long v, char *err, size_t errlen)
{
	struct th_metric *m = metric_slot(res, name, err, errlen);

	if (!m)
		return -1;
	m->type = TH_METRIC_INT;
	m->i = v;
	return 0;
}

int th_results_set_metric_real(struct th_results *res, const char *name,
			       double v, char *err, size_t errlen)
{
	if (v != v || v - v != 0)	/* NaN, inf: JSON cannot say them */
		return th_results_errf(err, errlen, "metric %s: %g is not a finite number",
				       name ? name : "", v);
	struct th_metric *m = metric_slot(res, name, err, errlen);

	if (!m)
		return -1;
	m->type = TH_METRIC_REAL;
	m->d = v;
	return 0;
}

int th_results_set_metric_string(struct th_results *res, const char *name,
				 const char *v, char *err, size_t errlen)
{
	char *s = th_results_strdup(v);

	if (!s)
		return OOM(err, errlen);
	struct th_metric *m = metric_slot(res, name, err, errlen);

	if (!m) {
		free(s);
		return -1;
	}
	m->type = TH_METRIC_STRING;
	m->s = s;
	return 0;
}

size_t th_results_count(const struct th_results *res, const char *toolchain,
			unsigned counts[TH_OUTCOME_COUNT])
{
	size_t n = 0;

	memset(counts, 0, sizeof(unsigned) * TH_OUTCOME_COUNT);
	for (size_t i = 0; i < res->ncells; i++) {
		const struct th_cell *c = res->cells[i];
		enum th_outcome o = th_cell_observed(c);

		/* The model's cells (a view's: its platform's). */
		if (!res->view_platform_ && !th_platform_is_model(c->platform))
			continue;
		if ((!toolchain || !strcmp(c->toolchain, toolchain)) && th_outcome_name(o)) {
			counts[o]++;
			n++;
		}
	}
	return n;
}

int th_results_set_count_metrics(struct th_results *res, char *err, size_t errlen)
{
	unsigned counts[TH_OUTCOME_COUNT];
	char name[64];

	size_t n = th_results_count(res, NULL, counts);

	if (th_results_set_metric_int(res, "cells_total", (long long)n, err, errlen))
		return -1;
	for (int i = 0; i < TH_OUTCOME_COUNT; i++) {
		snprintf(name, sizeof(name), "cells_%s", th_outcome_name((enum th_outcome)i));
		if (th_results_set_metric_int(res, name, counts[i], err, errlen))
			return -1;
	}
	return 0;
}

/* ---- output order ---- */

struct sort_ctx {
	const struct th_results *res;
	const struct th_cell *cell;
	th_results_cell_cmp *cmp;
};

static int cmp_ctx(const void *pa, const void *pb)
{
	const struct sort_ctx *a = pa, *b = pb;

	return a->cmp(a->res, a->cell, b->cell);
}

const struct th_cell **th_results_sort_cells(const struct th_results *res,
					     th_results_cell_cmp *cmp, int *oom)
{
	struct sort_ctx *tmp;
	const struct th_cell **out;

	*oom = 0;
	if (!res->ncells)
		return NULL;
	tmp = malloc(res->ncells * sizeof(*tmp));
	out = malloc(res->ncells * sizeof(*out));
	if (!tmp || !out) {
		free(tmp);
		free(out);
		*oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < res->ncells; i++)
		tmp[i] = (struct sort_ctx){ res, res->cells[i], cmp };
	qsort(tmp, res->ncells, sizeof(*tmp), cmp_ctx);
	for (size_t i = 0; i < res->ncells; i++)
		out[i] = tmp[i].cell;
	free(tmp);
	return out;
}

int th_results_platform_cmp(const char *a, const char *b)
{
	int r;

	if (th_platform_is_model(a) != th_platform_is_model(b))
		return th_platform_is_model(a) ? -1 : 1;
	if ((r = th_results_natcmp(a, b)))
		return r;
	return strcmp(a, b);
}

static int cmp_output(const struct th_results *res, const struct th_cell *a,
		      const struct th_cell *b)
{
	int r;

	if ((r = th_results_platform_cmp(a->platform, b->platform)))
		return r;
	if ((r = th_results_natcmp(a->toolchain, b->toolchain)))
		return r;
	if (a->variant != b->variant)
		return a->variant < b->variant ? -1 : 1;
	size_t ca = th_results_config_pos(res, a->config), cb = th_results_config_pos(res, b->config);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	if ((r = strcmp(a->config, b->config)))
		return r;
	if ((r = strcmp(a->attack, b->attack)))
		return r;
	return strcmp(a->toolchain, b->toolchain);
}

const struct th_cell **th_results_sorted_cells(const struct th_results *res,
					       char *err, size_t errlen)
{
	int oom;
	const struct th_cell **out = th_results_sort_cells(res, cmp_output, &oom);

	if (err && errlen)
		*err = '\0';
	if (oom)
		OOM(err, errlen);
	return out;
}
