/* SPDX-License-Identifier: MIT */
/*
 * A program's fork-server mode (AFL++'s forkserver, as the matrix uses it):
 * the exec, the dynamic loading and the sanitizer runtimes' start are paid
 * once per binary, and every run is still a process of its own.
 *
 * `prog --fork-server`, started by the runner (runner/child.h, struct
 * th_fsrv) with a unix socket (SOCK_SEQPACKET) at fd TH_FSRV_FD: for each
 * request on it (struct th_fsrv_req, then the run's argv, NUL-separated,
 * with its stdout and stderr as SCM_RIGHTS) the server forks; the child
 * takes its own process group, those two fds, its CPU limit and the run's
 * token (TH_TOKEN_ENV, rewritten in place), and returns from
 * th_fork_server() into main() with that argv: the run is main()'s, as if
 * exec'd with it. The server itself never runs a cell, never writes to a
 * cell's fds, never allocates (the children start from its memory), and
 * reaps its children. The runner starts it with LD_BIND_NOW=1 (every
 * symbol bound once, at its start, not in each run) and it takes that out
 * of its environment before serving. At the socket's end it exits 0; on a malformed
 * request it exits TH_FSRV_EXIT_BAD, saying why on its stderr.
 *
 * What the runner judges still comes from outside (ptrace, exit status,
 * /proc): the server never reports on a run.
 */
#ifndef TH_RUNNER_FORK_SERVER_H
#define TH_RUNNER_FORK_SERVER_H

#include <stdint.h>

#include "runner/contract.h"

#define TH_FSRV_ARG		"--fork-server"
/* The socket's fd in the server (AFL++ uses 198/199 for its own). */
#define TH_FSRV_FD		198
#define TH_FSRV_EXIT_BAD	125
/* A binary that has the mode defines this symbol (kept, like the state map):
 * the runner reads it from the file before starting a server. */
#define TH_FSRV_ABI_SYMBOL	"th_fork_server_abi"
#define TH_FSRV_ABI		"th-fsrv-1"
#define TH_FSRV_MAX_ARGS	16
#define TH_FSRV_MAX_BYTES	4096

struct th_fsrv_req {
	char magic[12];			/* TH_FSRV_ABI */
	uint32_t id;			/* the runner's, for its own bookkeeping */
	uint32_t argc;			/* 1..TH_FSRV_MAX_ARGS */
	uint32_t cpu_soft, cpu_hard;	/* RLIMIT_CPU, seconds */
	char token[TH_TOKEN_LEN];	/* the run's TH_TOKEN_ENV */
};

/*
 * Call first in main(). Without TH_FSRV_ARG: returns at once. With it: this
 * process serves, and the call returns only in a forked child, with
 * @argc and @argv the run's. Return: 0.
 */
int th_fork_server(int *argc, char ***argv);

#endif
