/* SPDX-License-Identifier: MIT */
/*
 * Running a cell (or a probe) the way the classifier expects to observe it:
 * its own process group, stdout and stderr captured, a time limit, resource
 * limits, and the sanitizer options that leave signals to the trap reporter.
 * Several children can run at once: spawn them, pump them until done.
 */
#ifndef TH_CFI_CHILD_H
#define TH_CFI_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "classify.h"

/* Per stream; a child printing more is cut (the protocol lines come first). */
#define TH_CHILD_OUT_CAP	(1 << 20)

struct th_child {
	pid_t pid;		/* 0: slot not in use */
	int fd[2];		/* stdout, stderr; -1 when closed */
	char *buf[2];
	size_t len[2];
	bool reaped;
	int status;		/* waitpid() status once reaped */
	bool timed_out;		/* killed at the time limit */
	struct timespec start, end;
};

/*
 * Start @argv (argv[0] a path) in its own process group with a CPU limit a
 * little above @timeout, no core files, 64 MiB of output files and, with
 * @cap_memory, a 4 GiB address space (ASan reserves terabytes of shadow:
 * never cap it). Return: 0, or -1 with errno set (nothing left open).
 */
int th_child_spawn(struct th_child *c, const char *const argv[], double timeout, bool cap_memory);

/* Poll @n children once (up to 20 ms): read output, reap, kill the process
 * group of any past @timeout seconds. */
void th_child_pump(struct th_child *cs, int n, double timeout);

/* Reaped, and both pipes read to the end. */
bool th_child_done(const struct th_child *c);

/* What the classifier reads, of a finished child; strings stay owned by @c. */
void th_child_observe(struct th_child_obs *o, const struct th_child *c, const char *config,
		      const char *binary);

/* Close and free; the slot is reusable. */
void th_child_free(struct th_child *c);

/* Spawn and pump one child to completion. Return: 0, or -1 (errno). */
int th_child_run(struct th_child *c, const char *const argv[], double timeout, bool cap_memory);

#endif
