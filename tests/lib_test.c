/* SPDX-License-Identifier: MIT */
/* lib/: the TSV reader (lib/tsv.h) on the inputs every table of the project
 * may meet: comments, CRLF, empty fields, long lines, NUL bytes, a count of
 * fields that differs, a directory. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/tsv.h"

/* A stream over @text (@len bytes: it may hold a NUL). */
static FILE *stream(const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");

	assert_non_null(f);
	return f;
}

static void rows_and_comments(void **state)
{
	static const char text[] = "# a comment\n\na\tb\t\tc\r\n  \t \n-\tx\n#\tnot a row\nlast\tline";
	FILE *f = stream(text, sizeof(text) - 1);
	struct th_tsv t;
	char err[256], *c[4];

	(void)state;
	assert_int_equal(th_tsv_init(&t, f, "mem.tsv", err, sizeof(err)), 0);
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(t.line, 3);
	assert_int_equal(t.raw_len, strlen("a\tb\t\tc\r\n"));
	assert_int_equal(th_tsv_fields(&t, c, 4, "one two three four", err, sizeof(err)), 0);
	/* Two TABs are an empty field, never one separator; CRLF is a line end. */
	assert_string_equal(c[0], "a");
	assert_string_equal(c[1], "b");
	assert_string_equal(c[2], "");
	assert_string_equal(c[3], "c");
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(t.line, 5);
	assert_int_equal(th_tsv_split(&t, c, 4, err, sizeof(err)), 2);
	assert_string_equal(th_tsv_value(c[0]), "");
	assert_string_equal(th_tsv_value(c[1]), "x");
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(t.line, 7);
	assert_int_equal(th_tsv_split(&t, c, 4, err, sizeof(err)), 2);
	assert_string_equal(c[1], "line");
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 0);
	th_tsv_close(&t);
	fclose(f);
}

static void field_counts(void **state)
{
	static const char text[] = "a\tb\tc\na\tb\tc\td\te\n";
	FILE *f = stream(text, sizeof(text) - 1);
	struct th_tsv t;
	char err[256], *c[4];

	(void)state;
	assert_int_equal(th_tsv_init(&t, f, "mem.tsv", err, sizeof(err)), 0);
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(th_tsv_fields(&t, c, 4, "w x y z", err, sizeof(err)), -1);
	assert_string_equal(err, "mem.tsv:1: 3 TAB-separated fields, expected 4 (w x y z)");
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(th_tsv_split(&t, c, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "mem.tsv:2: more than 4 TAB-separated fields");
	th_tsv_close(&t);
	fclose(f);
}

static void long_line_whole(void **state)
{
	size_t n = 100000;
	char *text = malloc(n + 8), err[256], *c[2];
	FILE *f;
	struct th_tsv t;

	(void)state;
	assert_non_null(text);
	memset(text, 'x', n);
	memcpy(text + n, "\tend\n", 6);
	f = stream(text, n + 5);
	assert_int_equal(th_tsv_init(&t, f, "long.tsv", err, sizeof(err)), 0);
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(th_tsv_fields(&t, c, 2, "a b", err, sizeof(err)), 0);
	assert_int_equal(strlen(c[0]), n);
	assert_string_equal(c[1], "end");
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 0);
	th_tsv_close(&t);
	fclose(f);
	free(text);
}

static void nul_byte(void **state)
{
	static const char text[] = "ok\trow\nbad\0row\n";
	FILE *f = stream(text, sizeof(text) - 1);
	struct th_tsv t;
	char err[256];

	(void)state;
	assert_int_equal(th_tsv_init(&t, f, "nul.tsv", err, sizeof(err)), 0);
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), 1);
	assert_int_equal(th_tsv_next(&t, err, sizeof(err)), -1);
	assert_string_equal(err, "nul.tsv:2: NUL byte in the line");
	th_tsv_close(&t);
	fclose(f);
}

static void open_errors(void **state)
{
	struct th_tsv t;
	char err[256];

	(void)state;
	assert_int_equal(th_tsv_open(&t, "/nonexistent/x.tsv", err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x.tsv: No such file or directory");
	assert_int_equal(th_tsv_open(&t, "/", err, sizeof(err)), -1);
	assert_string_equal(err, "/: Is a directory");
	th_tsv_close(&t);	/* a failed open leaves nothing to close; harmless */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_and_comments),
		cmocka_unit_test(field_counts),
		cmocka_unit_test(long_line_whole),
		cmocka_unit_test(nul_byte),
		cmocka_unit_test(open_errors),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
