/* SPDX-License-Identifier: MIT */
/*
 * What the strict JSON loaders of the model share (results_json.c,
 * fuzz_summary.c, bench_figures.c): where an error is, and which fields an
 * object may and must have. Every error reads "FILE: PLACE: what". And
 * what the writers share (results.json, reach, check's --json).
 */
#ifndef TH_RESULTS_JSON_LOAD_H
#define TH_RESULTS_JSON_LOAD_H

#include <jansson.h>
#include <stddef.h>

struct th_jload {
	const char *file;	/* NULL: a string, no file */
	char *err;
	size_t errlen;
};

/* "FILE: WHERE: what" into l->err (each part left out when empty). Return: -1. */
int th_jload_err(const struct th_jload *l, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* o is an object whose keys are all in keys (NULL-terminated) and, when
 * all_required, holds every one of them. Return: 0, or th_jload_err(). */
int th_jload_only(const struct th_jload *l, const json_t *o, const char *where,
		  const char *const *keys, int all_required);

/* json_object_set_new() that also fails on a NULL value (out of memory,
 * or a string that is not UTF-8). Return: 0, or -1. */
int th_json_put(json_t *o, const char *key, json_t *v);
/* s as a JSON string, NULL as null (a new reference). */
json_t *th_json_str_or_null(const char *s);

#endif
