/* SPDX-License-Identifier: MIT */
/* One run's files, written as a set: all of them from the same run, or none. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "report_internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	th_report_render_fn *fn;	/* NULL: results.json */
} set[] = {
	{ "report.md", th_render_markdown_to },
	{ "report.html", th_render_html_to },
	{ "junit.xml", th_render_junit_to },
	/* Last: whoever sees the new results.json sees the reports made from it. */
	{ "results.json", NULL },
};
#define NSET (sizeof(set) / sizeof(set[0]))

const char *th_render_set_name(size_t i)
{
	return i < NSET ? set[i].name : NULL;
}

int th_render_output_set(const struct th_results *res, const char *dir, char *err, size_t errlen)
{
	struct th_report_staged st[NSET];
	char *path[NSET] = { 0 }, e[1024];
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	size_t staged = 0, i;
	int rc = -1;

	memset(st, 0, sizeof(st));
	/* A file-size limit is a write error here (EFBIG), not a death that
	 * would leave a temporary file behind. */
	sigaction(SIGXFSZ, &ign, &old);
	for (i = 0; i < NSET; i++) {
		char *buf;
		size_t len, plen = strlen(dir) + strlen(set[i].name) + 2;

		if (!(path[i] = malloc(plen))) {
			th_report_errf(err, errlen, "%s: out of memory", dir);
			goto out;
		}
		snprintf(path[i], plen, "%s/%s", dir, set[i].name);
		if (set[i].fn ? th_report_render_buf(set[i].fn, res, &buf, &len, e, sizeof(e)) :
				th_results_serialise(res, &buf, &len, e, sizeof(e))) {
			th_report_errf(err, errlen, "%s: not written: %s", path[i], e);
			goto out;
		}
		int r = th_report_stage(path[i], buf, len, &st[i], err, errlen);

		free(buf);
		if (r)
			goto out;
		staged++;
	}
	/* Every file is on disk: only renames are left, and they need no space. */
	for (i = 0; i < NSET; i++) {
		if (th_report_commit(&st[i], e, sizeof(e))) {
			if (i)
				th_report_errf(err, errlen, "%s (%zu of the %zu files were replaced: the set "
					       "is mixed, rerun)", e, i, NSET);
			else
				th_report_errf(err, errlen, "%s (none of the set replaced)", e);
			goto out;
		}
	}
	rc = 0;
out:
	for (i = 0; i < staged; i++)
		th_report_discard(&st[i]);
	for (i = 0; i < NSET; i++)
		free(path[i]);
	sigaction(SIGXFSZ, &old, NULL);
	return rc;
}
