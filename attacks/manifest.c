/* SPDX-License-Identifier: MIT */
/* The build manifest's reader (manifest.h), on the project's TSV reader
 * (lib/tsv.h). */
#define _GNU_SOURCE
#include "manifest.h"
#include "lib/tsv.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	struct th_tsv t;
	size_t tools_before = b->ntools;
	int got;

	if (th_tsv_open(&t, path, err, n)) {
		snprintf(err, n, "%s: cannot read the build manifest: %s (rebuild: make build)", path,
			 strerror(errno));
		return -1;
	}
	while ((got = th_tsv_next(&t, err, n)) > 0) {
		char *f[9];
		int k = th_tsv_split(&t, f, 9, err, n);

		if (k == 4 && !strcmp(f[0], "toolchain")) {
			b->tools = th_xrealloc(b->tools, (b->ntools + 1) * sizeof(*b->tools));
			b->tools[b->ntools++] = (struct th_mtool){ th_xstrdup(th_tsv_value(f[1])),
								   th_xstrdup(th_tsv_value(f[2])),
								   th_xstrdup(th_tsv_value(f[3])),
								   cold_build_seconds(path) };
		} else if (k == 9 && (!strcmp(f[0], "attack") || !strcmp(f[0], "probe"))) {
			struct th_mbin m = { .kind = th_xstrdup(f[0]) };
			char **f9[] = { &m.toolchain, &m.config, &m.variant, &m.seed, &m.path,
					&m.status, &m.reason, &m.flags };
			char where[4200];

			for (size_t i = 0; i < 8; i++)
				*f9[i] = th_xstrdup(th_tsv_value(f[i + 1]));
			snprintf(where, sizeof(where), "%s:%lu", path, t.line);
			m.where = th_xstrdup(where);
			/* An installed manifest names binaries relative to itself. */
			if (*m.path && *m.path != '/') {
				const char *slash = strrchr(path, '/');
				char abs[4200];

				snprintf(abs, sizeof(abs), "%.*s/%s", slash ? (int)(slash - path) : 1,
					 slash ? path : ".", m.path);
				free(m.path);
				m.path = th_xstrdup(abs);
			}
			if (b->nbins == b->capbins) {
				b->capbins = b->capbins ? 2 * b->capbins : 64;
				b->bins = th_xrealloc(b->bins, b->capbins * sizeof(*b->bins));
			}
			b->bins[b->nbins++] = m;
		} else {
			th_tsv_fail(&t, err, n, "malformed manifest line: toolchain NAME VERSION PATH, or "
				    "attack|probe and 8 fields (rebuild: make build)");
			got = -1;
			break;
		}
	}
	th_tsv_close(&t);
	if (got < 0)
		return -1;
	/* Binaries without their toolchain would silently drop out of the run. */
	if (b->ntools == tools_before) {
		snprintf(err, n, "%s: no toolchain line: not a complete build manifest (rebuild: make build)",
			 path);
		return -1;
	}
	return 0;
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
