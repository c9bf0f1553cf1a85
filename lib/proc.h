/* SPDX-License-Identifier: MIT */
/*
 * Waiting for a child process. Header-only, as clock.h, so that a program
 * that links nothing of the project's (fuzz/replay.c) has the same one.
 */
#ifndef TH_LIB_PROC_H
#define TH_LIB_PROC_H

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>

/* waitpid(@pid, @status, 0), again when a signal interrupts it.
 * Return: 0, or -1 (errno; *@status not set). */
static inline int th_wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

#endif
