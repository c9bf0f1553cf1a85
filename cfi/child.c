/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_AS_LIMIT	((rlim_t)4 << 30)

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

int th_child_spawn(struct th_child *c, const char *const argv[], double timeout, bool cap_memory)
{
	int out[2], err[2], saved;

	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = -1;
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		saved = errno;
		close(out[0]);
		close(out[1]);
		errno = saved;
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		saved = errno;
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		c->pid = 0;
		errno = saved;
		return -1;
	}
	if (c->pid == 0) {
		struct rlimit core = { 0, 0 }, fsize = { 64 << 20, 64 << 20 };
		struct rlimit cpu = { (rlim_t)timeout + 2, (rlim_t)timeout + 3 };

		setpgid(0, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		setrlimit(RLIMIT_CORE, &core);
		setrlimit(RLIMIT_FSIZE, &fsize);
		setrlimit(RLIMIT_CPU, &cpu);
		if (cap_memory) {
			struct rlimit as = { CHILD_AS_LIMIT, CHILD_AS_LIMIT };

			setrlimit(RLIMIT_AS, &as);
		}
		signal(SIGINT, SIG_DFL);
		/* The trap reporter (trap_report.c) sees the signals, not ASan's
		 * handlers; leaks are not this harness's business. */
		setenv("ASAN_OPTIONS", "detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigill=0:"
		       "handle_sigfpe=0:handle_abort=0:symbolize=0:print_summary=1", 1);
		setenv("UBSAN_OPTIONS", "print_stacktrace=0:halt_on_error=1:symbolize=0", 1);
		execv(argv[0], (char *const *)argv);
		dprintf(2, "timerharness: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(c->pid, c->pid);
	close(out[1]);
	close(err[1]);
	c->fd[0] = out[0];
	c->fd[1] = err[0];
	fcntl(c->fd[0], F_SETFL, O_NONBLOCK);
	fcntl(c->fd[1], F_SETFL, O_NONBLOCK);
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	return 0;
}

static void drain(struct th_child *c, int k)
{
	char tmp[65536];
	ssize_t r;

	while ((r = read(c->fd[k], tmp, sizeof(tmp))) > 0) {
		size_t keep = (size_t)r;
		char *grown;

		if (c->len[k] + keep > TH_CHILD_OUT_CAP)
			keep = TH_CHILD_OUT_CAP - c->len[k];
		grown = realloc(c->buf[k], c->len[k] + keep + 1);
		if (!grown) {
			fprintf(stderr, "timerharness: out of memory\n");
			exit(1);
		}
		c->buf[k] = grown;
		memcpy(c->buf[k] + c->len[k], tmp, keep);
		c->len[k] += keep;
		c->buf[k][c->len[k]] = '\0';
	}
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		close(c->fd[k]);
		c->fd[k] = -1;
	}
}

bool th_child_done(const struct th_child *c)
{
	return c->reaped && c->fd[0] < 0 && c->fd[1] < 0;
}

void th_child_pump(struct th_child *cs, int n, double timeout)
{
	struct pollfd pfd[64];
	int map[64][2], np = 0;

	for (int i = 0; i < n && np < 63; i++)
		for (int k = 0; k < 2; k++)
			if (cs[i].pid && cs[i].fd[k] >= 0) {
				pfd[np] = (struct pollfd){ .fd = cs[i].fd[k], .events = POLLIN };
				map[np][0] = i;
				map[np++][1] = k;
			}
	if (poll(pfd, (nfds_t)np, 20) > 0)
		for (int j = 0; j < np; j++)
			if (pfd[j].revents)
				drain(&cs[map[j][0]], map[j][1]);
	for (int i = 0; i < n; i++) {
		struct th_child *c = &cs[i];
		struct timespec now;

		if (!c->pid || c->reaped)
			continue;
		if (waitpid(c->pid, &c->status, WNOHANG) == c->pid) {
			c->reaped = true;
			clock_gettime(CLOCK_MONOTONIC, &c->end);
			/* Anything the group left holding the pipes goes too. */
			kill(-c->pid, SIGKILL);
			for (int k = 0; k < 2; k++)
				if (c->fd[k] >= 0)
					drain(c, k);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (seconds(&c->start, &now) > timeout && !c->timed_out) {
			c->timed_out = true;
			kill(-c->pid, SIGKILL);
		}
	}
}

void th_child_observe(struct th_child_obs *o, const struct th_child *c, const char *config,
		      const char *binary)
{
	memset(o, 0, sizeof(*o));
	o->config = config;
	o->binary = binary;
	o->exited = WIFEXITED(c->status);
	o->exit_code = o->exited ? WEXITSTATUS(c->status) : 0;
	o->signaled = WIFSIGNALED(c->status);
	o->signo = o->signaled ? WTERMSIG(c->status) : 0;
	o->timed_out = c->timed_out;
	o->seconds = seconds(&c->start, &c->end);
	o->out = c->buf[0] ? c->buf[0] : "";
	o->err = c->buf[1] ? c->buf[1] : "";
}

void th_child_free(struct th_child *c)
{
	for (int k = 0; k < 2; k++) {
		if (c->fd[k] >= 0)
			close(c->fd[k]);
		free(c->buf[k]);
	}
	memset(c, 0, sizeof(*c));
	c->fd[0] = c->fd[1] = -1;
}

int th_child_run(struct th_child *c, const char *const argv[], double timeout, bool cap_memory)
{
	if (th_child_spawn(c, argv, timeout, cap_memory))
		return -1;
	while (!th_child_done(c))
		th_child_pump(c, 1, timeout);
	return 0;
}
