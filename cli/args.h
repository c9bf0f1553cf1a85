/* SPDX-License-Identifier: MIT */
/* Option values, read the same way by every command. */
#ifndef TH_CLI_ARGS_H
#define TH_CLI_ARGS_H

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

#endif
