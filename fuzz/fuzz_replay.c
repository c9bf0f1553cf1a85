/* SPDX-License-Identifier: MIT */
/* One saved input replayed by the build that ran its campaign: fuzz_replay.h. */
#define _GNU_SOURCE
#include "fuzz_replay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/overflow_session.h"
#include "lib/clock.h"

const char *th_fz_kv(const char *line, const char *key, char *buf, size_t n)
{
	size_t k = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p += k)
		if ((p == line || p[-1] == ' ') && p[k] == '=') {
			size_t len = strcspn(p + k + 1, " \n");

			if (len >= n)
				len = n - 1;
			memcpy(buf, p + k + 1, len);
			buf[len] = 0;
			return buf;
		}
	return NULL;
}

/* The replay in its own process group, its stdout on @out_fd, stderr
 * discarded, @env_add added to the environment. */
static pid_t spawn_replay(char *const argv[], char *const env_add[], int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		setpgid(0, 0);
		/* One address layout for every replay of an input: a target that
		 * acts on an address made of attacker bytes and the layout's
		 * (a partial overwrite) faults or not by where things are, so
		 * the loop that records a finding and the gate that replays it
		 * must see the same layout to see the same outcome. */
		personality(ADDR_NO_RANDOMIZE | (unsigned long)personality(0xffffffff));
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(out_fd, STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		for (int i = 0; env_add && env_add[i]; i++)
			putenv(env_add[i]);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

int th_fz_replay_input(const char *binary, const char *options, const char *input,
		       enum th_outcome *o, char *sig, size_t sign, char *chain, size_t chn)
{
	int p[2];
	char *argv[] = { (char *)binary, (char *)input, NULL };
	char *env[] = { "TH_FUZZ_REPLAY=1", NULL, NULL };
	char *buf = NULL;
	size_t len = 0, cap = 0;
	double until = th_now_s() + TH_FZ_REPLAY_TIMEOUT_S;
	pid_t pid;
	int status = 0;
	const char *res, *ch;

	*o = TH_HARNESS_ERROR;
	snprintf(sig, sign, "HARNESS_ERROR:-");
	snprintf(chain, chn, "the replay printed no result");
	if (getenv("TH_FUZZ_NO_LEAK") || (options && options[0]))
		env[1] = options && strstr(options, "no-leak") ? "TH_FUZZ_NO_LEAK=1" : NULL;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = spawn_replay(argv, env, p[1]);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	for (;;) {
		struct pollfd pf = { p[0], POLLIN, 0 };
		int left = (int)((until - th_now_s()) * 1000);

		if (left <= 0) {
			kill(-pid, SIGKILL);
			break;
		}
		if (poll(&pf, 1, left) <= 0)
			continue;
		if (len + 4096 > cap) {
			cap = cap ? 2 * cap : 16384;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		ssize_t got = read(p[0], buf + len, cap - len - 1);

		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	if (!buf)
		return -1;
	buf[len] = 0;
	res = strstr(buf, TH_FZ_RESULT_PREFIX);
	if (res) {
		char name[40];

		if (th_fz_kv(res, "outcome", name, sizeof(name)))
			*o = th_outcome_parse(name);
		if (*o == TH_OUTCOME_INVALID)
			*o = TH_HARNESS_ERROR;
		th_fz_kv(res, "sig", sig, sign);
		ch = strstr(res, " chain=");
		snprintf(chain, chn, "%s", ch ? ch + 7 : "");
		chain[strcspn(chain, "\n")] = 0;
	} else if (WIFSIGNALED(status)) {
		snprintf(chain, chn, "the replay died by signal %d before its result", WTERMSIG(status));
	}
	free(buf);
	return 0;
}

