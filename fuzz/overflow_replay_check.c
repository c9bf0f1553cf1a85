/* SPDX-License-Identifier: MIT */
/*
 * th-fuzz-replay-check: replay saved inputs of the overflow target in a
 * fresh process each and compare what they do with fuzz/expected.tsv's
 * `replay` rules (make test: one CTest test per input and binary).
 *
 *   th-fuzz-replay-check EXPECTED.tsv TOOLCHAIN VARIANT CONFIG BINARY INPUT...
 *
 * For each INPUT: BINARY runs it with TH_FUZZ_REPLAY=1; its TH-FUZZ-RESULT
 * line gives the signature (OUTCOME:CHAIN_ID); the first replay rule
 * matching the input's file name, VARIANT, CONFIG and TOOLCHAIN gives the
 * expected one. A finding that no longer reproduces where it is declared
 * fails, as does a finding (or any other outcome) where another is declared,
 * and an input no rule declares.
 * Exit: 0 every input as declared; 1 one is not (each printed with its
 * chain); 2 bad input (rules unreadable, binary not runnable).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_expect.h"
#include "overflow_session.h"

#define TIMEOUT_S 60

/* The result line of one replay, or a message saying why there is none. */
static int replay(const char *bin, const char *input, char *line, size_t n)
{
	int p[2], status = 0;
	pid_t pid;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	time_t until = time(NULL) + TIMEOUT_S;
	const char *res;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(p[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		setenv("TH_FUZZ_REPLAY", "1", 1);
		execl(bin, bin, input, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pf = { p[0], POLLIN, 0 };
		ssize_t got;

		if (time(NULL) > until) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&pf, 1, 1000) <= 0)
			continue;
		if (len + 4096 > cap) {
			cap = cap ? 2 * cap : 16384;
			if (!(buf = realloc(buf, cap)))
				break;
		}
		got = read(p[0], buf + len, cap - len - 1);
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	if (!buf) {
		snprintf(line, n, "no output");
		return 1;
	}
	buf[len] = 0;
	res = strstr(buf, TH_FZ_RESULT_PREFIX);
	if (!res) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(line, n, "%s could not be run", bin);
		else if (WIFSIGNALED(status))
			snprintf(line, n, "no result line: killed by signal %d", WTERMSIG(status));
		else
			snprintf(line, n, "no result line: exit %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		free(buf);
		return 1;
	}
	snprintf(line, n, "%.*s", (int)strcspn(res, "\n"), res + strlen(TH_FZ_RESULT_PREFIX));
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct th_fz_expect *e;
	char err[1024];
	int failed = 0;

	if (argc < 7) {
		fprintf(stderr, "usage: %s EXPECTED.tsv TOOLCHAIN VARIANT CONFIG BINARY INPUT...\n", argv[0]);
		return 2;
	}
	if (th_fz_expect_load(argv[1], &e, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (access(argv[5], X_OK)) {
		fprintf(stderr, "%s: %s\n", argv[5], strerror(errno));
		th_fz_expect_free(e);
		return 2;
	}
	for (int i = 6; i < argc; i++) {
		char *copy = strdup(argv[i]), line[4096], sig[128] = "";
		const char *name = basename(copy);
		const struct th_fz_rule *r = th_fz_expect_match(e, TH_FZ_RULE_REPLAY, name, argv[3], argv[4],
								argv[2]);
		int rc = replay(argv[5], argv[i], line, sizeof(line));
		const char *s = strstr(line, "sig=");

		if (!rc && s)
			snprintf(sig, sizeof(sig), "%.*s", (int)strcspn(s + 4, " "), s + 4);
		if (!r) {
			printf("FAIL %s on %s/%s/%s: %s, and no replay rule of %s declares it\n  %s\n", name,
			       argv[3], argv[4], argv[2], rc ? "no result" : sig, argv[1], line);
			failed = 1;
		} else if (rc || strcmp(sig, r->sig)) {
			printf("FAIL %s on %s/%s/%s: %s, declared %s (%s: %s)\n  %s\n", name, argv[3], argv[4],
			       argv[2], rc ? "no result" : sig, r->sig, r->where, r->reason, line);
			failed = 1;
		} else {
			printf("ok %s on %s/%s/%s: %s (%s)\n", name, argv[3], argv[4], argv[2], sig, r->where);
		}
		free(copy);
	}
	th_fz_expect_free(e);
	return failed;
}
