/* SPDX-License-Identifier: MIT */
/*
 * `timerharness report` on its own (tests/report.cmake): the command's code,
 * cli/cmd_report.c, run without the rest of the timerharness binary, so its
 * options and exit statuses are tested apart from the dispatch in main.c.
 */
int th_cli_report(int argc, char **argv);

int main(int argc, char **argv)
{
	return th_cli_report(argc, argv);
}
