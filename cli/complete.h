/* SPDX-License-Identifier: MIT */
/* What the bash completion asks the program (cli/complete.c). */
#ifndef TH_CLI_COMPLETE_H
#define TH_CLI_COMPLETE_H

/* timerharness --complete-options: every option of every command's parser. */
int th_cli_complete_options(int argc, char **argv);
/* timerharness --complete-values PARSE OPTION [BUILD_ROOT]. */
int th_cli_complete_values(int argc, char **argv);

#endif
