/* SPDX-License-Identifier: MIT */
/*
 * results_write.h: files replaced staged or atomically, never through a
 * link, and the string helpers the writers and loaders share. Apart from
 * the model (results.c) and its JSON (results_json.c), with nothing but libc
 * beneath it, so that a program that writes a file the model's way without
 * the model (the bench's per-config builds, bench/CMakeLists.txt) compiles
 * it in with its own flags.
 */
#define _POSIX_C_SOURCE 200809L
#include "results_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- strings ---- */

int th_results_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

unsigned long th_results_utf8(const unsigned char *s, size_t *n)
{
	unsigned long c = s[0], v;
	size_t len;

	*n = 0;
	if (c < 0x80) {
		*n = 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, v = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, v = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, v = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*n = len;
	return v;
}

/* Every string entering the model: evidence comes from crashing children and
 * may hold any byte, JSON holds only UTF-8, so invalid bytes become '?'. */
char *th_results_strdup(const char *s)
{
	char *d = strdup(s ? s : "");

	for (unsigned char *p = (unsigned char *)d; p && *p;) {
		size_t n;

		th_results_utf8(p, &n);

		if (n) {
			p += n;
		} else {
			*p++ = '?';
		}
	}
	return d;
}

/* ---- atomic replacement ---- */

static void fsync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	int fd;

	if (!dir)
		return;
	/* Best effort: the rename is already done, durability is a bonus. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

static const char *file_kind(mode_t m)
{
	return S_ISLNK(m) ? "a symbolic link" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a directory" : "not a regular file";
}

int th_results_check_target(const char *path, struct stat *st, bool *exists,
			    char *err, size_t errlen)
{
	int e;

	*exists = false;
	if (lstat(path, st)) {
		e = errno;
		if (e == ENOENT)
			return 0;
		return th_results_errf(err, errlen, "%s: %s", path, strerror(e));
	}
	/* rename() would replace a link or a device node itself, and a reader
	 * of the link would still see the old file: write regular files only. */
	if (!S_ISREG(st->st_mode))
		return th_results_errf(err, errlen, "%s: cannot replace it: %s, not a regular file",
				       path, file_kind(st->st_mode));
	*exists = true;
	return 0;
}

void th_results_discard(struct th_results_staged *st)
{
	if (st->tmp)
		unlink(st->tmp);
	free(st->tmp);
	st->tmp = NULL;
	st->path = NULL;
}

int th_results_stage(const char *path, const char *buf, size_t len,
		     struct th_results_staged *st, char *err, size_t errlen)
{
	size_t tlen = strlen(path) + 32;
	struct stat old;
	bool exists;
	int fd, e;

	st->path = path;
	st->tmp = NULL;
	if (th_results_check_target(path, &old, &exists, err, errlen))
		return -1;
	if (!(st->tmp = malloc(tlen)))
		return th_results_errf(err, errlen, "%s: out of memory", path);
	snprintf(st->tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
	fd = open(st->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST) {
		/* Our own pid's name: a leftover of this process, never another's. */
		unlink(st->tmp);
		fd = open(st->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	}
	if (fd < 0) {
		e = errno;
		th_results_errf(err, errlen, "%s: cannot create %s: %s", path, st->tmp, strerror(e));
		free(st->tmp);
		st->tmp = NULL;
		return -1;
	}
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			th_results_errf(err, errlen, "%s: writing %s: %s", path, st->tmp, strerror(e));
			goto fail;
		}
		off += (size_t)n;
	}
	/* The replacement keeps the mode (and, where allowed, the owner) of
	 * the file it replaces. */
	if (exists) {
		if (fchmod(fd, old.st_mode & 07777)) {
			e = errno;
			th_results_errf(err, errlen, "%s: cannot keep its mode on %s: %s", path, st->tmp,
					strerror(e));
			goto fail;
		}
		if (old.st_uid != geteuid() || old.st_gid != getegid())
			(void)!fchown(fd, old.st_uid, old.st_gid);
	}
	if (fsync(fd)) {
		e = errno;
		th_results_errf(err, errlen, "%s: fsync of %s: %s", path, st->tmp, strerror(e));
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		e = errno;
		th_results_errf(err, errlen, "%s: closing %s: %s", path, st->tmp, strerror(e));
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	th_results_discard(st);
	return -1;
}

int th_results_commit(struct th_results_staged *st, char *err, size_t errlen)
{
	struct stat now;
	bool exists;
	int e;

	/* Checked again: the path may have changed since it was staged. */
	if (th_results_check_target(st->path, &now, &exists, err, errlen)) {
		th_results_discard(st);
		return -1;
	}
	if (rename(st->tmp, st->path)) {
		e = errno;
		th_results_errf(err, errlen, "%s: cannot replace it with %s: %s", st->path, st->tmp,
				strerror(e));
		th_results_discard(st);
		return -1;
	}
	fsync_parent(st->path);
	free(st->tmp);
	st->tmp = NULL;
	return 0;
}

int th_results_write_atomic(const char *path, const char *buf, size_t len,
			    char *err, size_t errlen)
{
	struct th_results_staged st;

	if (th_results_stage(path, buf, len, &st, err, errlen))
		return -1;
	return th_results_commit(&st, err, errlen);
}
