/* SPDX-License-Identifier: MIT */
/*
 * The one reader of the project's TAB-separated files (attacks/expected.tsv,
 * fuzz/expected.tsv, fuzz/campaigns.tsv, kernel/cells.tsv, the build's
 * manifests): a line is a row of fields split at every TAB (an empty field
 * stays a field: two TABs are never one); blank lines and lines whose first
 * character is '#' are comments; a line may end in "\n" or "\r\n", be as long
 * as memory allows (no line is silently cut), and must not hold a NUL byte.
 * Every error names the file and the line: "PATH:LINE: what".
 *
 *	struct th_tsv t;
 *	char *f[4];
 *	if (th_tsv_open(&t, path, err, n)) return -1;
 *	while ((r = th_tsv_next(&t, err, n)) > 0)
 *		if (th_tsv_fields(&t, f, 4, "kind name value reason", err, n)) break;
 *	th_tsv_close(&t);
 */
#ifndef TH_LIB_TSV_H
#define TH_LIB_TSV_H
#include <stddef.h>
#include <stdio.h>

struct th_tsv {
	FILE *f;
	int own;		/* opened here: closed by th_tsv_close() */
	char *path;		/* for messages */
	unsigned long line;	/* of the row th_tsv_next() returned last */
	char *buf;		/* that row, its line ending removed (th_tsv_fields() cuts it) */
	size_t cap, len;
	const char *raw;	/* the line as read, line ending included (a file's hash) */
	size_t raw_len;
	int keep_comments;	/* th_tsv_next() returns comment and blank lines too */
};

/* Open @path (a directory is refused: EISDIR). Return: 0, or -1 with
 * "PATH: strerror" in @err and errno set. */
int th_tsv_open(struct th_tsv *t, const char *path, char *err, size_t n);
/* Read an open stream (not closed by th_tsv_close()); @path names it. */
int th_tsv_init(struct th_tsv *t, FILE *f, const char *path, char *err, size_t n);
/* The next row into t->buf. Return: 1, 0 at the end of the file, -1 with the
 * error in @err (a read error, a NUL byte, out of memory). */
int th_tsv_next(struct th_tsv *t, char *err, size_t n);
/* Split t->buf into exactly @nf fields; @names (space-separated, one per
 * field) makes the message when the count differs: "PATH:LINE: 3
 * TAB-separated fields, expected 4 (kind name value reason)". Return: 0 or -1. */
int th_tsv_fields(struct th_tsv *t, char **f, int nf, const char *names, char *err, size_t n);
/* Split t->buf into at most @max fields. Return: how many, or -1 ("more than
 * @max TAB-separated fields" in @err). */
int th_tsv_split(struct th_tsv *t, char **f, int max, char *err, size_t n);
/* "-" stands for an empty value in a field that must not be empty. */
static inline const char *th_tsv_value(const char *field)
{
	return field[0] == '-' && !field[1] ? "" : field;
}
/* "PATH:LINE: " + the message into @err. Return: -1. */
int th_tsv_fail(const struct th_tsv *t, char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void th_tsv_close(struct th_tsv *t);
#endif
