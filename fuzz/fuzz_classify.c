/* SPDX-License-Identifier: MIT */
/*
 * classify: the cell classifier (cfi/classify.h, th_classify()) on anything
 * a child could print and however it could end, as the runner observes it
 * (runner/child.h, struct th_child_obs). Fuzzing it is how a NULL+7 crash
 * was found.
 *
 * Input (missing bytes read as 0):
 *   byte 0  bit 0 exited, 1 signaled, 2 timed out, 3 a control run, 4-5 the
 *           binary read to prove a trap (an empty path, this very
 *           executable, a path that does not exist), 6 traced, 7 exec
 *           succeeded
 *   byte 1  exit code; byte 2 signal; byte 3 config (an index into
 *           cfi/configs.tsv's table, modulo its size)
 *   byte 4  bit 0 a trap was observed, 1 the privileged state was read, 2
 *           stdout cut, 3 stderr cut, 4 a harness error, 5 built by
 *           clang-14 (else clang-22), 6 the dispatch function watched, 7 the
 *           sanitizers' exit code is the exit code (else 1)
 *   byte 5  entries into the dispatch function (may exceed the array, as
 *           the runner may count more than it records)
 *   byte 6  privileged fields read (at most TH_CHILD_MAX_STATE)
 *   then    the trap (struct th_trap_obs, raw, nbytes at most 16), the
 *           recorded dispatches, the fields (names NUL-terminated), the
 *           load bias: raw bytes as the tracer stores them
 *   then    2 bytes (little-endian) the length of stdout, stdout, and the
 *           rest is stderr (both may hold NULs and end in one, as captured)
 * The run's pid is 4242 and its token 0123456789abcdef (the dictionary has
 * both). Within the runner's contract (runner/child.h): the binary and the
 * config are always named; left out are diag-mode handler calls
 * (handler_hit), whose site and guard indices the runner takes from the
 * binary reader and the classifier trusts.
 * Oracle: a valid outcome; evidence NUL-terminated inside its buffer, also
 * when the buffer is tiny; a control run never BLOCKED_CFI nor DETECTED
 * (cfi/classify.h: there was no attack, so that is a FALSE_POSITIVE); a
 * harness error whenever the runner reported one; and the same answer twice.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfi/classify.h"
#include "cfi/config_table.h"
#include "fuzz.h"
#include "results/outcome.h"

#define TH_FUZZ_TARGET "classify"

struct reader {
	const uint8_t *p, *end;
};

static void take(struct reader *r, void *dst, size_t n)
{
	size_t have = (size_t)(r->end - r->p) < n ? (size_t)(r->end - r->p) : n;

	memcpy(dst, r->p, have);
	memset((char *)dst + have, 0, n - have);
	r->p += have;
}

static unsigned int get8(struct reader *r)
{
	return r->p < r->end ? *r->p++ : 0;
}

/* Captured bytes as the runner hands them over: NUL-terminated. */
static char *captured(struct reader *r, size_t n, size_t *len)
{
	char *buf = malloc(n + 1);

	if (!buf)
		abort();
	take(r, buf, n);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static TH_FUZZ_ORACLE enum th_outcome classify(const struct th_child_obs *o, int control,
					       char *ev, size_t n)
{
	enum th_outcome r;

	/* Canaries on both sides: the evidence must stay inside n bytes. */
	memset(ev, 0x5a, n + 16);
	r = th_classify(o, control, ev + 8, n);
	for (size_t i = 0; i < 8; i++)
		if ((unsigned char)ev[i] != 0x5a || (unsigned char)ev[8 + n + i] != 0x5a)
			TH_FUZZ_FAIL("evidence written outside its %zu-byte buffer", n);
	if (n && !memchr(ev + 8, '\0', n))
		TH_FUZZ_FAIL("evidence not NUL-terminated in its %zu-byte buffer", n);
	if ((int)r < 0 || r >= TH_OUTCOME_COUNT || !th_outcome_name(r))
		TH_FUZZ_FAIL("outcome %d is not an outcome", (int)r);
	if (control && (r == TH_BLOCKED_CFI || r == TH_DETECTED))
		TH_FUZZ_FAIL("a control run classified %s (a defence stopping a legitimate call is FALSE_POSITIVE): %s",
			     th_outcome_name(r), ev + 8);
	if (o->harness_error[0] && r != TH_HARNESS_ERROR)
		TH_FUZZ_FAIL("the runner reported a harness error, the classifier %s", th_outcome_name(r));
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const binaries[] = { "", "/proc/self/exe", "/nonexistent/th-fuzz-binary",
						 "/proc/self/exe" };
	static struct th_child_obs o;	/* large: off the stack */
	struct reader r = { data, data + size };
	char ev1[256 + 16], ev2[256 + 16], tiny[8 + 16];
	unsigned int b0, b4, nout;
	enum th_outcome r1, r2;
	char *out, *err;
	int control;

	memset(&o, 0, sizeof(o));
	b0 = get8(&r);
	o.exited = b0 & 1;
	o.signaled = b0 >> 1 & 1;
	o.timed_out = b0 >> 2 & 1;
	control = b0 >> 3 & 1;
	o.binary = binaries[b0 >> 4 & 3];
	o.traced = b0 >> 6 & 1;
	o.execed = b0 >> 7 & 1;
	o.exit_code = (int)get8(&r);
	o.signo = (int)(get8(&r) % 65);
	{
		unsigned int c = get8(&r);

		o.config = th_configs[c % th_config_count].name;
	}
	b4 = get8(&r);
	o.have_trap = b4 & 1;
	o.state_read = b4 >> 1 & 1;
	o.out_cut = b4 >> 2 & 1;
	o.err_cut = b4 >> 3 & 1;
	if (b4 >> 4 & 1)
		snprintf(o.harness_error, sizeof(o.harness_error), "fuzz: the runner could not observe it");
	o.toolchain = b4 >> 5 & 1 ? "clang-14" : "clang-22";
	o.site_func = b4 >> 6 & 1 ? TH_CFI_SITE_FUNC : NULL;
	o.san_exitcode = b4 >> 7 & 1 ? o.exit_code : 1;
	o.ndispatch = get8(&r);
	o.nstate = get8(&r) % (TH_CHILD_MAX_STATE + 1);
	o.pid = 4242;
	memcpy(o.token, "0123456789abcdef", TH_TOKEN_LEN);
	o.token[TH_TOKEN_LEN] = '\0';
	o.seconds = 0.5;

	take(&r, &o.trap, sizeof(o.trap));
	if (o.trap.nbytes > sizeof(o.trap.bytes))
		o.trap.nbytes = sizeof(o.trap.bytes);
	take(&r, o.dispatch, sizeof(o.dispatch[0]) *
	     (o.ndispatch < TH_CHILD_MAX_DISPATCH ? o.ndispatch : TH_CHILD_MAX_DISPATCH));
	for (size_t i = 0; i < o.nstate; i++) {
		take(&r, &o.state[i], sizeof(o.state[i]));
		o.state[i].object[sizeof(o.state[i].object) - 1] = '\0';
		o.state[i].field[sizeof(o.state[i].field) - 1] = '\0';
	}
	take(&r, &o.bias, sizeof(o.bias));

	nout = get8(&r);
	nout |= get8(&r) << 8;
	if (nout > (size_t)(r.end - r.p))
		nout = (unsigned int)(r.end - r.p);
	out = captured(&r, nout, &o.out_len);
	err = captured(&r, (size_t)(r.end - r.p), &o.err_len);
	o.out = out;
	o.err = err;

	r1 = classify(&o, control, ev1, 256);
	r2 = classify(&o, control, ev2, 256);
	if (r1 != r2 || strcmp(ev1 + 8, ev2 + 8))
		TH_FUZZ_FAIL("two classifications of the same run differ: %s '%s' / %s '%s'",
			     th_outcome_name(r1), ev1 + 8, th_outcome_name(r2), ev2 + 8);
	if (classify(&o, control, tiny, 8) != r1)
		TH_FUZZ_FAIL("the evidence buffer's size changed the outcome");
	free(out);
	free(err);
	return 0;
}
