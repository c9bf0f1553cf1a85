/* SPDX-License-Identifier: MIT */
/* The strict JSON loaders' shared pieces (json_load.h). */
#define _POSIX_C_SOURCE 200809L
#include "json_load.h"
#include "results_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int th_jload_err(const struct th_jload *l, const char *where, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int w = where && *where;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return th_results_errf(l->err, l->errlen, "%s%s%s%s%s", l->file ? l->file : "",
			       l->file ? ": " : "", w ? where : "", w ? ": " : "", msg);
}

int th_jload_only(const struct th_jload *l, const json_t *o, const char *where,
		  const char *const *keys, int all_required)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return th_jload_err(l, where, "must be an object");
	json_object_foreach((json_t *)o, k, v) {
		const char *const *a = keys;

		while (*a && strcmp(*a, k))
			a++;
		if (!*a)
			return th_jload_err(l, where, "unknown field \"%s\"", k);
	}
	for (const char *const *a = keys; all_required && *a; a++)
		if (!json_object_get(o, *a))
			return th_jload_err(l, where, "missing field \"%s\"", *a);
	return 0;
}

json_t *th_json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int th_json_put(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}
