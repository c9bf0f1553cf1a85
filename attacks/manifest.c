/* SPDX-License-Identifier: MIT */
/* The build manifest's reader (manifest.h), moved out of matrix.c; a bad binary
 * line no longer leaks the fields read before it. */
#define _GNU_SOURCE
#include "manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		fprintf(stderr, "timerharness: out of memory\n");
		exit(1);
	}
	return d;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "timerharness: out of memory\n");
		exit(1);
	}
	return p;
}

static char *field(char **p)
{
	char *s = *p, *tab;

	if (!s)
		return NULL;
	tab = strchr(s, '\t');
	if (tab) {
		*tab = '\0';
		*p = tab + 1;
	} else {
		*p = NULL;
	}
	return strcmp(s, "-") ? s : (char *)"";
}

/* `make build` leaves the wall time of a build tree's cold build (from an
 * empty tree, configure included) beside its manifest. */
static double cold_build_seconds(const char *manifest)
{
	char path[4096];
	const char *slash = strrchr(manifest, '/');
	double secs;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%.*s/th-cold-build-seconds",
		 slash ? (int)(slash - manifest) : 1, slash ? manifest : ".");
	if (!(f = fopen(path, "r")))
		return -1;
	ok = fscanf(f, "%lf", &secs) == 1 && secs >= 0;
	fclose(f);
	return ok ? secs : -1;
}

int th_manifest_load(struct th_manifest *b, const char *path, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, tools_before = b->ntools;
	unsigned long lineno = 0;

	if (!f) {
		snprintf(err, n, "%s: cannot read the build manifest: %s (rebuild: make build)", path,
			 strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		char *p = line, *kind;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		kind = field(&p);
		if (!strcmp(kind, "toolchain")) {
			char *name = field(&p), *ver = field(&p), *cpath = field(&p);

			if (!name || !ver || !cpath)
				goto bad;
			b->tools = xrealloc(b->tools, (b->ntools + 1) * sizeof(*b->tools));
			b->tools[b->ntools++] = (struct th_mtool){ xstrdup(name), xstrdup(ver), xstrdup(cpath),
								cold_build_seconds(path) };
		} else if (!strcmp(kind, "attack") || !strcmp(kind, "probe")) {
			struct th_mbin m = { .kind = xstrdup(kind) };
			char **f9[] = { &m.toolchain, &m.config, &m.variant, &m.seed, &m.path,
					&m.status, &m.reason, &m.flags };

			char where[4200];

			for (size_t i = 0; i < 8; i++) {
				char *v = field(&p);

				if (!v) {
					free(m.kind);
					while (i--)
						free(*f9[i]);
					goto bad;
				}
				*f9[i] = xstrdup(v);
			}
			snprintf(where, sizeof(where), "%s:%lu", path, lineno);
			m.where = xstrdup(where);
			if (b->nbins == b->capbins) {
				b->capbins = b->capbins ? 2 * b->capbins : 64;
				b->bins = xrealloc(b->bins, b->capbins * sizeof(*b->bins));
			}
			b->bins[b->nbins++] = m;
		} else {
			goto bad;
		}
	}
	if (ferror(f)) {
		snprintf(err, n, "%s: cannot read the build manifest: %s (rebuild: make build)", path,
			 strerror(errno));
		free(line);
		fclose(f);
		return -1;
	}
	free(line);
	fclose(f);
	/* Binaries without their toolchain would silently drop out of the run. */
	if (b->ntools == tools_before) {
		snprintf(err, n, "%s: no toolchain line: not a complete build manifest (rebuild: make build)",
			 path);
		return -1;
	}
	return 0;
bad:
	snprintf(err, n, "%s:%lu: malformed manifest line (rebuild: make build)", path, lineno);
	free(line);
	fclose(f);
	return -1;
}

void th_manifest_free(struct th_manifest *b)
{
	for (size_t i = 0; i < b->nbins; i++) {
		struct th_mbin *m = &b->bins[i];
		char *f[] = { m->kind, m->toolchain, m->config, m->variant, m->seed, m->path,
			      m->status, m->reason, m->flags, m->where };

		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
			free(f[k]);
	}
	for (size_t i = 0; i < b->ntools; i++) {
		free(b->tools[i].name);
		free(b->tools[i].version);
		free(b->tools[i].path);
	}
	free(b->bins);
	free(b->tools);
	memset(b, 0, sizeof(*b));
}
