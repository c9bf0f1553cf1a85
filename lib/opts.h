/* SPDX-License-Identifier: MIT */
/*
 * The options a command's parser knows, as it asks about them. Every parser
 * tests an argument against each option it accepts by th_optname() (or
 * cli/args.h's th_optval(), which calls it); while probing, each name asked
 * about is recorded. `timerharness --complete-options CMD` (cli/complete.c)
 * runs CMD's parser on one argument no option matches, so that every test
 * is made, and prints what was recorded: the bash completion offers exactly
 * the options the parser accepts, read from the parser itself.
 */
#ifndef TH_LIB_OPTS_H
#define TH_LIB_OPTS_H

#include <stdbool.h>
#include <stdio.h>

/* Is @arg the option @name? Recorded (with @valued: it takes a value)
 * while probing. */
bool th_optname(const char *arg, const char *name, bool valued);

/* Start recording (forgetting what was recorded before). */
void th_opt_probe_start(void);

/* What was recorded, in the order first asked about: one line per option,
 * "NAME\tvalue" or "NAME\tflag". Return: the number of options. */
size_t th_opt_probe_print(FILE *f);

#endif
