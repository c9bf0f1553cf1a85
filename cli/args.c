/* SPDX-License-Identifier: MIT */
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/fs.h"
#include "lib/text.h"

const char *th_optval(int argc, char **argv, int *i, const char *cmd, const char *name, int *bad)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	bool is = th_optname(a, name, true);	/* recorded for completion */

	if (!is && !strncmp(a, name, n) && a[n] == '=')
		return a + n + 1;
	if (!is)
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "timerharness %s: %s needs a value (see --help)\n", cmd, name);
		*bad = 1;
		return NULL;
	}
	return argv[++*i];
}

int th_optnum(const char *cmd, const char *name, const char *v, long lo, long hi, long *out)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 10);
	if (!*v || *end || errno || x < lo || x > hi) {
		fprintf(stderr, "timerharness %s: %s needs a number from %ld to %ld (got '%s')\n",
			cmd, name, lo, hi, v);
		return -1;
	}
	*out = x;
	return 0;
}

int th_optpath(FILE *err, const char *cmd, const char *name, const char *path,
	       enum th_optpath_kind kind)
{
	struct stat st;

	if (stat(path, &st) || (kind == TH_OPT_DIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)))
		return 0;
	fprintf(err, "timerharness %s: %s%s", cmd, name, *name ? " " : "");
	th_put_escaped(err, path);
	fprintf(err, ": %s, not a %s\n", th_file_kind(st.st_mode),
		kind == TH_OPT_DIR ? "directory" : "regular file");
	return -1;
}
