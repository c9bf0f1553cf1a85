/* SPDX-License-Identifier: MIT */
/* What every fuzz target shares (fuzz.h): failing, and a scratch directory. */
#define _GNU_SOURCE
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void th_fuzz_fail(const char *target, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: %s: ", target);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

static char scratch[4096];
static pid_t scratch_owner;

/* Only the process that made the directory removes it: AFL++'s fork server
 * and libFuzzer's -fork children exit through the same atexit list. */
static void scratch_remove(void)
{
	DIR *d;
	struct dirent *e;

	if (!scratch[0] || getpid() != scratch_owner)
		return;
	d = opendir(scratch);
	if (d) {
		while ((e = readdir(d))) {
			char path[4096 + 256];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", scratch, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(scratch);
}

const char *th_fuzz_scratch_dir(void)
{
	const char *bases[] = { "/dev/shm", getenv("TMPDIR"), "/tmp" };

	if (scratch[0])
		return scratch;
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!bases[i] || !*bases[i])
			continue;
		snprintf(scratch, sizeof(scratch), "%s/th-fuzz.XXXXXX", bases[i]);
		if (mkdtemp(scratch)) {
			scratch_owner = getpid();
			atexit(scratch_remove);
			return scratch;
		}
	}
	fprintf(stderr, "fuzz: cannot create a scratch directory in /dev/shm, $TMPDIR or /tmp: %s\n",
		strerror(errno));
	abort();
}

const char *th_fuzz_scratch_path(const char *name, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", th_fuzz_scratch_dir(), name);
	return path;
}

void th_fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		abort();
	}
	for (size_t off = 0; off < size;) {
		ssize_t w = write(fd, data + off, size - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "fuzz: writing %s: %s\n", path, w < 0 ? strerror(errno) : "short write");
			abort();
		}
		off += (size_t)w;
	}
	close(fd);
}
