/* SPDX-License-Identifier: MIT */
/*
 * classify: the cell classifier (cfi/classify.h, th_classify()) on anything
 * a child could print or however it could end. Fuzzing it is how its
 * NULL+7 crash was found.
 *
 * Input: byte 0: bit 0 exited, bit 1 signaled, bit 2 timed out, bit 3 a
 * control run, bits 4-5 the binary read to prove a trap site (none, this
 * very executable, a path that does not exist); byte 1 the exit code;
 * byte 2 the signal; byte 3 the config (an index into cfi/configs.tsv's
 * table, past its end: none); the rest is the child's stdout, then, after
 * the first NUL byte, its stderr.
 * Oracle: a valid outcome; evidence NUL-terminated inside its buffer, also
 * when the buffer is tiny; a control run never BLOCKED_CFI nor DETECTED
 * (cfi/classify.h: there was no attack, so that is a FALSE_POSITIVE); and
 * the same answer twice.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfi/classify.h"
#include "cfi/config_table.h"
#include "fuzz.h"
#include "report/outcome.h"

#define TH_FUZZ_TARGET "classify"

static enum th_outcome classify(const struct th_child_obs *o, int control, char *ev, size_t n)
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
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const binaries[] = { NULL, "/proc/self/exe", "/nonexistent/th-fuzz-binary", NULL };
	struct th_child_obs o = { 0 };
	char *out, *err, *nul;
	char ev1[256 + 16], ev2[256 + 16], tiny[8 + 16];
	enum th_outcome r1, r2;
	int control;

	if (size < 4)
		return 0;
	o.exited = data[0] & 1;
	o.signaled = data[0] >> 1 & 1;
	o.timed_out = data[0] >> 2 & 1;
	control = data[0] >> 3 & 1;
	o.binary = binaries[data[0] >> 4 & 3];
	o.exit_code = data[1];
	o.signo = data[2] % 65;
	o.config = data[3] < th_config_count ? th_configs[data[3]].name : NULL;
	o.seconds = 0.5;
	/* The child's output as the runner hands it over: NUL-terminated. */
	out = malloc(size - 4 + 1);
	if (!out)
		abort();
	memcpy(out, data + 4, size - 4);
	out[size - 4] = '\0';
	nul = memchr(out, '\0', size - 4);
	err = nul ? nul + 1 : out + (size - 4);
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
	return 0;
}
