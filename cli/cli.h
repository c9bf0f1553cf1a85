/* SPDX-License-Identifier: MIT */
#ifndef TH_CLI_H
#define TH_CLI_H

int th_cli_trace(int argc, char **argv);
int th_cli_bench(int argc, char **argv);
int th_cli_reach(int argc, char **argv);
int th_cli_matrix(int argc, char **argv);
int th_cli_check(int argc, char **argv);
int th_cli_report(int argc, char **argv);
int th_cli_merge(int argc, char **argv);
int th_cli_fuzz(int argc, char **argv);
int th_cli_kernel(int argc, char **argv);

#endif
