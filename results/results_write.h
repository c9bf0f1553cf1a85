/* SPDX-License-Identifier: MIT */
/*
 * Writing results' files: staged so several are replaced as a set, or one
 * atomically, never through a link; results.json's text; the string helpers
 * its writers and loaders share (an error message, UTF-8, a safe strdup).
 * For every folder that writes a file the model's way (report/, fuzz/, bench/).
 */
#ifndef TH_RESULTS_WRITE_H
#define TH_RESULTS_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "results.h"

/* snprintf into err (if any); always returns -1 so callers can return it. */
int th_results_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The code point of the valid UTF-8 sequence at s, its length in *n; *n is
 * 0 when s does not start one (overlong, surrogate, beyond U+10FFFF,
 * truncated: jansson's rules). */
unsigned long th_results_utf8(const unsigned char *s, size_t *n);

/* strdup that maps NULL to "", every byte that is not UTF-8 made '?'. */
char *th_results_strdup(const char *s);

/* path may be replaced: it does not exist or is a regular file (*exists
 * then true, *st its lstat). A symbolic link, a device node, a FIFO, a
 * socket or a directory is refused (-1, err says which): rename() would
 * replace the node itself, never write where it leads. */
int th_results_check_target(const char *path, struct stat *st, bool *exists,
			    char *err, size_t errlen);

/* A file written in two steps, so several can be replaced as a set: stage
 * writes path.tmp.<pid> (with the mode, and where allowed the owner, of
 * the file it will replace) and fsyncs it; commit renames it over path and
 * fsyncs the directory; discard removes it. Each failing call leaves path
 * untouched and nothing staged. */
struct th_results_staged {
	const char *path;	/* borrowed */
	char *tmp;		/* NULL when nothing is staged */
};
int th_results_stage(const char *path, const char *buf, size_t len,
		     struct th_results_staged *st, char *err, size_t errlen);
int th_results_commit(struct th_results_staged *st, char *err, size_t errlen);
void th_results_discard(struct th_results_staged *st);

/* Atomically replace path with len bytes of buf: stage, then commit. On
 * failure path is untouched. */
int th_results_write_atomic(const char *path, const char *buf, size_t len,
			    char *err, size_t errlen);

/* results.json's text (validated as th_results_write does); malloc'd. */
int th_results_serialise(const struct th_results *res, char **buf, size_t *len,
			 char *err, size_t errlen);

#endif
