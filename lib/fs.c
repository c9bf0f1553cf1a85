// SPDX-License-Identifier: MIT
#include "fs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

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
