/* SPDX-License-Identifier: MIT */
/*
 * `timerharness check --json`: the gate's answer as data on standard
 * output, schema timerharness/check/v1 (docs/schema/check.schema.json).
 * The same judgement as the text: the same findings (each with its text as
 * the message), counts and exit status.
 */
#ifndef TH_REPORT_CHECK_JSON_H
#define TH_REPORT_CHECK_JSON_H

#include <jansson.h>
#include <stdio.h>

#define TH_CHECK_JSON_SCHEMA "timerharness/check/v1"

struct th_check_json;

/* A JSON string of the gate's text (escaped by it: ASCII, or UTF-8 passed
 * on); bytes that are not UTF-8 as '?'; NULL as "". NULL: out of memory. */
json_t *th_check_jstr(const char *s);

/* What the fuzzing gate counted (report/check_fuzz.h fills it). */
struct th_check_fuzz_counts {
	unsigned campaigns, ran, as_declared, regressed, harness_error;
	unsigned missing, lost_coverage, unplanned, reproducers, findings;
	unsigned replayed_otherwise, unreplayed, below_floor;
};

struct th_check_json *th_check_json_create(void);

/*
 * The results' gate: returns the object to hand th_check_main() as
 * th_check_opts.json (it fills counts, slice, partial and findings), or
 * NULL when out of memory.
 */
void *th_check_json_results(struct th_check_json *cj, const char *path, const char *expect_path,
			    const char *expect_sha256, const char *baseline);
/* That gate's exit status. */
void th_check_json_results_exit(struct th_check_json *cj, int rc);

/*
 * The campaigns' gate: its files, exit status, counts (NULL: it could not
 * judge) and the lines it wrote (text: every "KIND: ..." line becomes a
 * finding of that kind, "expected" a "declared finding"; summary lines and
 * sentences are not findings).
 */
void th_check_json_fuzz(struct th_check_json *cj, const char *path, const char *expect,
			const char *plan, int rc, const struct th_check_fuzz_counts *k,
			const char *text);

/* Messages the gates wrote to standard error (one a line). */
void th_check_json_errors(struct th_check_json *cj, const char *text);

/*
 * Write the document, {"schema", "status", "exit", "results", "fuzz",
 * "findings", "errors"}, on out (one line, then a newline), with rc the
 * combined exit status, and free it. Return: 0, or -1 when it cannot be
 * written (out of memory, a write error).
 */
int th_check_json_write(struct th_check_json *cj, int rc, FILE *out);

#endif
