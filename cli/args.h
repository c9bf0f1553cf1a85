/* SPDX-License-Identifier: MIT */
/* Option values, read the same way by every command. */
#ifndef TH_CLI_ARGS_H
#define TH_CLI_ARGS_H

#include <stdio.h>

#include "lib/opts.h"	/* th_optname(): the flags a parser tests, for completion */

/*
 * The value of `NAME VALUE` or `NAME=VALUE` at argv[*i] (advancing *i past
 * a separate value), else NULL. A NAME with no value says so on stderr,
 * prefixed "timerharness CMD: ", sets *bad and returns NULL.
 */
const char *th_optval(int argc, char **argv, int *i, const char *cmd, const char *name, int *bad);

/*
 * @v as a whole decimal number in [lo, hi]. Return: 0, or -1 after saying
 * on stderr what NAME needed.
 */
int th_optnum(const char *cmd, const char *name, const char *v, long lo, long hi, long *out);

/* What an option's path must name. */
enum th_optpath_kind {
	TH_OPT_FILE,	/* a regular file, read */
	TH_OPT_DIR,	/* a directory */
};

/*
 * @path, the value of NAME (or, NAME "", an operand), checked by stat(2)
 * before anything opens it: one that is there but of another kind (a FIFO,
 * a device such as /dev/zero, a directory, where a file is read; anything
 * but a directory where one is) is said on @err as "timerharness CMD: NAME
 * PATH: a FIFO, not a regular file" (the path escaped: \xNN). One that is
 * not there is left to its reader, which says so in its own words.
 * Return: 0, or -1 when it was said (bad input).
 */
int th_optpath(FILE *err, const char *cmd, const char *name, const char *path,
	       enum th_optpath_kind kind);

#endif
