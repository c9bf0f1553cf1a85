/* SPDX-License-Identifier: MIT */
/* One run's files, written as a set: all of them from the same run, or none. */
#define _POSIX_C_SOURCE 200809L
#include "render.h"
#include "render_bench.h"
#include "render_fuzz.h"
#include "report_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name;
	th_report_render_fn *fn;	/* NULL: results.json */
} set[] = {
	{ "report.md", th_render_markdown_to },
	{ "report.html", th_render_html_to },
	{ "junit.xml", th_render_junit_to },
	{ "report.sarif", th_render_sarif_to },
	/* Last: whoever sees the new results.json sees the reports made from it. */
	{ "results.json", NULL },
};
#define NSET (sizeof(set) / sizeof(set[0]))

const char *th_render_set_name(size_t i)
{
	return i < NSET ? set[i].name : NULL;
}

void th_render_outputs_line(FILE *out, const char *dir)
{
	size_t len = strlen("outputs in /:") + strlen(dir);

	for (size_t i = 0; i < NSET; i++)
		len += 1 + strlen(set[i].name);
	fputs("outputs in ", out);
	th_report_put_line(out, dir);
	fputs("/:", out);
	/* The names on a line of their own when the directory leaves no room. */
	if (len > TH_VERDICT_WIDTH)
		fputs("\n ", out);
	for (size_t i = 0; i < NSET; i++)
		fprintf(out, " %s", set[i].name);
	fputc('\n', out);
}

int th_render_output_set(const struct th_results *res, const char *dir, char *err, size_t errlen)
{
	struct th_results_staged st[NSET];
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
			th_results_errf(err, errlen, "%s: out of memory", dir);
			goto out;
		}
		snprintf(path[i], plen, "%s/%s", dir, set[i].name);
		if (set[i].fn ? th_report_render_buf(set[i].fn, res, &buf, &len, e, sizeof(e)) :
				th_results_serialise(res, &buf, &len, e, sizeof(e))) {
			th_results_errf(err, errlen, "%s: not written: %s", path[i], e);
			goto out;
		}
		int r = th_results_stage(path[i], buf, len, &st[i], err, errlen);

		free(buf);
		if (r)
			goto out;
		staged++;
	}
	/* Every file is on disk: only renames are left, and they need no space. */
	for (i = 0; i < NSET; i++) {
		if (th_results_commit(&st[i], e, sizeof(e))) {
			if (i)
				th_results_errf(err, errlen, "%s (%zu of the %zu files were replaced: the set "
						"is mixed, rerun)", e, i, NSET);
			else
				th_results_errf(err, errlen, "%s (none of the set replaced)", e);
			goto out;
		}
	}
	rc = 0;
out:
	for (i = 0; i < staged; i++)
		th_results_discard(&st[i]);
	for (i = 0; i < NSET; i++)
		free(path[i]);
	sigaction(SIGXFSZ, &old, NULL);
	return rc;
}

int th_render_lock_dir(const char *dir, const char *who, char *err, size_t errlen)
{
	char path[4096], held[96] = "", *sp;
	struct stat a, b;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/.timerharness.lock", dir);
	/* The holder unlinks the file when it is done (th_render_unlock_dir):
	 * a lock taken on a file that was unlinked meanwhile, or replaced by
	 * a newer one, is no lock; take it again on the file that is there. */
	for (int tries = 0;; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0)
			return th_results_errf(err, errlen, "%s: %s", path, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;

			n = read(fd, held, sizeof(held) - 1);
			held[n > 0 ? strcspn(held, "\n") : 0] = '\0';
			close(fd);
			if (e != EWOULDBLOCK)
				return th_results_errf(err, errlen, "%s: cannot lock: %s", path, strerror(e));
			/* "PID WHO"; a holder that said nothing is taken for a matrix run. */
			sp = strchr(held, ' ');
			if (sp)
				*sp++ = '\0';
			return th_results_errf(err, errlen, "%s is in use by another %s run%s%s%s: wait for it, or "
					       "choose another --out", dir, sp && *sp ? sp : "matrix",
					       *held ? " (pid " : "", held, *held ? ")" : "");
		}
		if (!fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(fd);
		if (tries == 100)
			return th_results_errf(err, errlen, "%s: cannot lock: the file keeps being replaced", path);
	}
	n = snprintf(held, sizeof(held), "%ld %s\n", (long)getpid(), who ? who : "timerharness");
	if (ftruncate(fd, 0) || pwrite(fd, held, (size_t)n, 0) != n) {
		/* The pid is only for the message of a refused run. */
	}
	return fd;
}

void th_render_unlock_dir(int fd, const char *dir)
{
	char path[4096];

	if (fd < 0)
		return;
	/* Unlinked while still held, so no one can lock the old file after. */
	snprintf(path, sizeof(path), "%s/.timerharness.lock", dir);
	unlink(path);
	close(fd);
}

static void warn_add(char *warn, size_t n, const char *e, const char *what)
{
	size_t len = strlen(warn);

	if (len < n)
		snprintf(warn + len, n - len, "%s%s: %s", len ? "\n" : "", e, what);
}

int th_render_write_set(struct th_results *res, const char *dir, char *warn, size_t warnlen,
			char *err, size_t errlen)
{
	char rpath[4096], e[768];

	if (warnlen)
		*warn = '\0';
	snprintf(rpath, sizeof(rpath), "%s/results.json", dir);
	if (th_results_load_fuzz_beside(res, rpath, e, sizeof(e)))
		warn_add(warn, warnlen, e, "the campaigns are left out of the reports");
	if (th_results_load_bench_beside(res, rpath, e, sizeof(e)))
		warn_add(warn, warnlen, e, "the bench's figures are left out of the reports");
	if (th_render_sarif_cap_note(res, e, sizeof(e)) > 0) {
		size_t len = strlen(warn);

		if (len < warnlen)
			snprintf(warn + len, warnlen - len, "%s%s", len ? "\n" : "", e);
	}
	return th_render_output_set(res, dir, err, errlen);
}
