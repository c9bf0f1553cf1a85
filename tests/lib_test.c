/* SPDX-License-Identifier: MIT */
/* lib/: the TSV reader (lib/tsv.h) on the inputs every table of the project
 * may meet: comments, CRLF, empty fields, long lines, NUL bytes, a count of
 * fields that differs, a directory; and lib/fs.h's reading open on what
 * would block (a FIFO with no writer, /dev/zero) and lib/text.h's escape and
 * comma-list splitter. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fs.h"
#include "lib/text.h"
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
	/* Refused, not read for ever. */
	assert_int_equal(th_tsv_open(&t, "/dev/zero", err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/zero: a character device, not a regular file");
}

/* A FIFO without a writer would hold a plain open(2) for ever (the test's
 * time limit says so if it does); /dev/zero, a directory would never end. */
static void open_read_never_blocks(void **state)
{
	char dir[] = "/tmp/th-lib-test-XXXXXX", fifo[64], file[64];
	const char *why = NULL;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(th_open_read(fifo, &why), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(why, "a FIFO, not a regular file");
	assert_null(th_fopen_read("/dev/zero", "rb", &why));
	assert_string_equal(why, "a character device, not a regular file");
	assert_null(th_fopen_read(dir, "r", &why));
	assert_int_equal(errno, EISDIR);
	assert_false(th_is_regular(fifo, &why));
	assert_string_equal(why, "a FIFO, not a regular file");
	assert_false(th_is_regular("/nonexistent/x", &why));
	assert_int_equal(errno, ENOENT);
	/* A regular file opens, blocking as any other descriptor. */
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
	assert_true(th_is_regular(file, &why));
	fd = th_open_read(file, &why);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	unlink(fifo);
	unlink(file);
	rmdir(dir);
}

static void escape(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(th_escape(buf, sizeof(buf), "a\x1b[2J\\b"), "a\\x1b[2J\\\\b");
	/* Cut short, never in the middle of an escape. */
	assert_string_equal(th_escape(buf, 6, "ab\n"), "ab");
	assert_string_equal(th_escape(buf, 7, "ab\n"), "ab\\x0a");
}

/* th_list_split() against strtok_r(3), which it replaces: the same items,
 * empty ones skipped, in place. */
static void list_split(void **state)
{
	static const char *const lists[] = { "", ",", "a", "a,b", ",a,,b,", "none,cfi-icall,kcfi",
					     ",,", "a,", ",a" };

	(void)state;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		char a[64], b[64], *save = NULL, *p = b, *x, *y;

		snprintf(a, sizeof(a), "%s", lists[i]);
		snprintf(b, sizeof(b), "%s", lists[i]);
		x = strtok_r(a, ",", &save);
		y = th_list_split(&p);
		for (; x; x = strtok_r(NULL, ",", &save), y = th_list_split(&p)) {
			assert_non_null(y);
			assert_string_equal(x, y);
		}
		assert_null(y);
		assert_null(th_list_split(&p));	/* and stays at the end */
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_and_comments),
		cmocka_unit_test(field_counts),
		cmocka_unit_test(long_line_whole),
		cmocka_unit_test(nul_byte),
		cmocka_unit_test(open_errors),
		cmocka_unit_test(open_read_never_blocks),
		cmocka_unit_test(escape),
		cmocka_unit_test(list_split),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
