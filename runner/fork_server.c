/* SPDX-License-Identifier: MIT */
/* The server side of runner/fork_server.h, compiled into each attack binary
 * with its config's flags. */
#define _GNU_SOURCE
#include "runner/fork_server.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* sanitizer/common_interface_defs.h, in every runtime that reports (ASan,
 * UBSan standalone); weak: absent from a build without one. */
extern int __sanitizer_get_module_and_offset_for_pc(void *pc, char *module_path,
						     size_t module_path_len, void **pc_offset)
	__attribute__((weak));

/* Kept by the linker and LTO: the runner's test for the mode. */
TH_STATE_MAP_ATTR const char th_fork_server_abi[] = TH_FSRV_ABI;

/* The run's argv: static, so that the child starts from the server's heap
 * as it was (nothing allocated for the request). */
static char fsrv_bytes[TH_FSRV_MAX_BYTES + 1];
static char *fsrv_argv[TH_FSRV_MAX_ARGS + 1];

static void fsrv_fail(const char *what)
{
	dprintf(2, "th-fork-server: %s\n", what);
	_exit(TH_FSRV_EXIT_BAD);
}

/* In the child: become the run, as the runner's exec path sets one up
 * (runner/child.c child_setup()), then back to main(). */
static void fsrv_child(const struct th_fsrv_req *rq, int out, int err, char *tok,
		       const sigset_t *mask)
{
	struct rlimit cpu = { rq->cpu_soft, rq->cpu_hard };

	setpgid(0, 0);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	close(TH_FSRV_FD);
	setrlimit(RLIMIT_CPU, &cpu);
	memcpy(tok, rq->token, TH_TOKEN_LEN);
	sigprocmask(SIG_SETMASK, mask, NULL);
}

int th_fork_server(int *argc, char ***argv)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	static char msg[sizeof(struct th_fsrv_req) + TH_FSRV_MAX_BYTES];
	struct th_fsrv_req rq;
	sigset_t chld, old;
	char *tok;

	if (*argc != 2 || strcmp((*argv)[1], TH_FSRV_ARG))
		return 0;
	/* The token is rewritten in place in each child: no setenv(), no
	 * allocation. The runner starts the server with one of the length. */
	tok = getenv(TH_TOKEN_ENV);
	if (!tok || strlen(tok) != TH_TOKEN_LEN)
		fsrv_fail("no " TH_TOKEN_ENV " of the token's length in the environment");
	/* The runner's LD_BIND_NOW has been read by the dynamic loader: every
	 * symbol bound once, here, not in each run; the runs' environment is
	 * an exec'd run's again (unsetenv() allocates nothing). */
	unsetenv("LD_BIND_NOW");
	/* Children's exits stay pending, not a signal stop per run for the
	 * tracer: each child gets the mask back. */
	/* A sanitizer report names a pc's module and offset (symbolize=0): its
	 * runtime reads /proc/self/maps into its list of modules once, at the
	 * first lookup, and keeps it. Looked up here, every run starts with
	 * the list the server's (and so its own) memory has, instead of each
	 * report reading and parsing the maps again: what the report says is
	 * the same, the modules being the same. */
	if (__sanitizer_get_module_and_offset_for_pc) {
		char module[8];
		void *offset;

		__sanitizer_get_module_and_offset_for_pc((void *)th_fork_server, module,
							 sizeof(module), &offset);
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	for (;;) {
		struct iovec iov = { msg, sizeof(msg) };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.buf,
				     .msg_controllen = sizeof(cm.buf) };
		struct cmsghdr *c;
		size_t len, used = 0;
		int fds[2];
		ssize_t n;
		pid_t pid;

		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		n = recvmsg(TH_FSRV_FD, &mh, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fsrv_fail("recvmsg failed");
		if (n == 0)
			_exit(0);
		c = CMSG_FIRSTHDR(&mh);
		if ((size_t)n < sizeof(rq) || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || !c ||
		    c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len != CMSG_LEN(2 * sizeof(int)))
			fsrv_fail("malformed request (size, or not two fds)");
		memcpy(fds, CMSG_DATA(c), sizeof(fds));
		memcpy(&rq, msg, sizeof(rq));
		len = (size_t)n - sizeof(rq);
		if (memcmp(rq.magic, TH_FSRV_ABI, sizeof(TH_FSRV_ABI)) || !rq.argc ||
		    rq.argc > TH_FSRV_MAX_ARGS || !len || msg[n - 1])
			fsrv_fail("malformed request (magic, argc or argv)");
		memcpy(fsrv_bytes, msg + sizeof(rq), len);
		for (uint32_t k = 0; k < rq.argc; k++) {
			if (used >= len)
				fsrv_fail("malformed request (fewer strings than argc)");
			fsrv_argv[k] = fsrv_bytes + used;
			used += strlen(fsrv_bytes + used) + 1;
		}
		fsrv_argv[rq.argc] = NULL;
		/* _Fork() (glibc 2.34), not fork(): no atfork handler runs. This
		 * process has one thread, in no runtime's call, so they have no
		 * lock to hold across the fork; and ASan's (its stack depot's
		 * million bucket locks taken and released: 4 MiB written on each
		 * side, copied on write) cost 30-50 ms a run. The child is the
		 * same memory either way. */
		pid = _Fork();
		if (pid == 0) {
			fsrv_child(&rq, fds[0], fds[1], tok, &old);
			*argc = (int)rq.argc;
			*argv = fsrv_argv;
			return 0;
		}
		close(fds[0]);
		close(fds[1]);
		if (pid < 0)
			fsrv_fail("fork failed");
	}
}
