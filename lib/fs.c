// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int th_mkdir_p(const char *dir)
{
	char tmp[PATH_MAX];
	struct stat st;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return errno = ENAMETOOLONG, -1;
	/* The parents: one that exists already is fine; the last mkdir says. */
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(tmp, 0777);
		*p = '/';
	}
	if (mkdir(tmp, 0777) && errno != EEXIST)
		return -1;
	if (stat(tmp, &st))
		return -1;
	return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
}

const char *th_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "a file of an unknown kind";
}

/* Why a file of @mode is not read, a static text; errno set to match. */
static const char *not_regular(mode_t mode)
{
	static const char *const why[] = {
		"a FIFO, not a regular file", "a character device, not a regular file",
		"a block device, not a regular file", "a socket, not a regular file",
		"not a regular file",
	};

	/* A directory in read(2)'s own words, as an open that read it says. */
	if (S_ISDIR(mode))
		return strerror(errno = EISDIR);
	errno = EINVAL;
	return S_ISFIFO(mode) ? why[0] : S_ISCHR(mode) ? why[1] : S_ISBLK(mode) ? why[2] :
	       S_ISSOCK(mode) ? why[3] : why[4];
}

int th_open_read(const char *path, const char **why)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		*why = strerror(errno = e);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		*why = not_regular(st.st_mode);
		return -1;
	}
	/* A regular file never blocks; the flag goes all the same, so the
	 * reader sees the descriptor it would have had. */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

FILE *th_fopen_read(const char *path, const char *mode, const char **why)
{
	int fd = th_open_read(path, why), e;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, mode))) {
		e = errno;
		close(fd);
		*why = strerror(errno = e);
	}
	return f;
}

bool th_is_regular(const char *path, const char **why)
{
	struct stat st;

	if (stat(path, &st)) {
		*why = strerror(errno);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = not_regular(st.st_mode);
		return false;
	}
	return true;
}
