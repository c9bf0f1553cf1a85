/* SPDX-License-Identifier: MIT */
/*
 * trace_lang: the trace language (timer_core/trace.h) on arbitrary text.
 *
 * Input: a trace, as `timerharness trace` reads it. It runs on each variant
 * (legacy, transitional, modern) at HZ 1000 and HZ 100, with the
 * consistency checker after every operation.
 * Oracle: every run ends 0 (ran) or 2 (bad input), never 3 (the checker
 * found a wheel inconsistent) nor anything else; bad input is reported as
 * "FILE:LINE: what" (or "FILE: what"); and the three variants print the
 * same lines and the same error, byte for byte (DESIGN.md: every variant
 * prints the same lines for the same trace).
 *
 * A trace may legitimately ask for unbounded work (`every t 0` then a run
 * over 2^60 jiffies fires once a jiffy): inputs whose `every` lines times
 * the jiffies their runs cover exceed 2^16 are skipped, so a slow input is
 * a bug, not a long trace.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trace.h"

#define TH_FUZZ_TARGET "trace_lang"
#define FNAME "fuzz.trace"
#define WORK_LIMIT (1UL << 16)

/* The number at the start of @p as the trace reads numbers (decimal or 0x). */
static unsigned long number(const char *p)
{
	return strtoul(p, NULL, (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10);
}

/* An upper bound of the callbacks `every` can cause, by a rough parse. */
static int too_much_work(const char *text, unsigned int hz)
{
	unsigned long everys = 0, span = 0, prev = TH_INITIAL_JIFFIES(hz);

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')
			p++;
		if (!strncmp(p, "every", 5) && isspace((unsigned char)p[5])) {
			everys++;
		} else if (!strncmp(p, "start", 5) && isspace((unsigned char)p[5])) {
			prev = number(p + 6 + strspn(p + 6, " \t"));
		} else if (!strncmp(p, "run", 3) && isspace((unsigned char)p[3])) {
			unsigned long now = number(p + 4 + strspn(p + 4, " \t"));

			if ((long)(now - prev) > 0) {
				span += now - prev;
				prev = now;
			}
		}
		if (everys && span && (span > WORK_LIMIT || everys * span > WORK_LIMIT))
			return 1;
	}
	return 0;
}

struct run {
	int rc;
	char *out, *err;
	size_t olen, elen;
};

static void run_trace(const char *v, unsigned int hz, char *text, size_t len, struct run *r)
{
	struct th_trace_opts o = { .variant = th_trace_variant(v), .hz = hz, .check = true };
	FILE *in = fmemopen(text, len, "r");
	FILE *out = open_memstream(&r->out, &r->olen);
	FILE *err = open_memstream(&r->err, &r->elen);

	if (!in || !out || !err || !o.variant)
		TH_FUZZ_FAIL("cannot set up a run (%s)", o.variant ? "memory streams" : v);
	r->rc = th_trace_run(&o, in, FNAME, out, err);
	/* Each run starts from a fresh debugobjects table: entries the trace
	 * forgot stay counted, and the table would grow with every input. */
	th_debugobj_reset();
	fclose(in);
	fclose(out);
	fclose(err);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	th_warn_set_count_only(true);	/* WARNs of refused misuse: counted, no text made */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const variants[] = { "legacy", "transitional", "modern" };
	static const unsigned int hzs[] = { 1000, 100 };
	/* A NUL-terminated copy for the pre-scan; the runs read exactly size. */
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t h = 0; h < 2; h++) {
		struct run r[3];

		if (too_much_work(text, hzs[h]))
			continue;
		for (size_t v = 0; v < 3; v++) {
			run_trace(variants[v], hzs[h], text, size, &r[v]);
			if (r[v].rc == 3)
				TH_FUZZ_FAIL("%s, HZ %u: the checker found the wheel inconsistent: %s",
					     variants[v], hzs[h], r[v].err);
			if (r[v].rc != 0 && r[v].rc != 2)
				TH_FUZZ_FAIL("%s, HZ %u: th_trace_run returned %d (0 or 2 expected)",
					     variants[v], hzs[h], r[v].rc);
			if (r[v].rc == 2 && strncmp(r[v].err, FNAME ":", sizeof(FNAME)))
				TH_FUZZ_FAIL("%s, HZ %u: bad input reported without FILE[:LINE]: '%s'",
					     variants[v], hzs[h], r[v].err);
			if (r[v].rc == 0 && r[v].elen)
				TH_FUZZ_FAIL("%s, HZ %u: ran, yet wrote to err: '%s'", variants[v], hzs[h],
					     r[v].err);
		}
		for (size_t v = 1; v < 3; v++) {
			if (r[v].rc != r[0].rc || r[v].olen != r[0].olen || memcmp(r[v].out, r[0].out, r[0].olen))
				TH_FUZZ_FAIL("HZ %u: %s and %s differ: rc %d/%d, output\n--- %s:\n%s--- %s:\n%s",
					     hzs[h], variants[0], variants[v], r[0].rc, r[v].rc, variants[0],
					     r[0].out, variants[v], r[v].out);
			if (strcmp(r[v].err, r[0].err))
				TH_FUZZ_FAIL("HZ %u: %s and %s report different errors: '%s' / '%s'", hzs[h],
					     variants[0], variants[v], r[0].err, r[v].err);
		}
		for (size_t v = 0; v < 3; v++) {
			free(r[v].out);
			free(r[v].err);
		}
	}
	free(text);
	return 0;
}
