/* SPDX-License-Identifier: MIT */
/* File-system helpers of the commands. */
#ifndef TH_LIB_FS_H
#define TH_LIB_FS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * th_mkdir_p() - create dir and its missing parents (mkdir -p), mode 0777
 * less the umask. A dir that exists is fine when it is a directory.
 * Return: 0, or -1 with errno set (ENOTDIR: dir, or a parent, is not a
 * directory; ENAMETOOLONG: the path does not fit PATH_MAX).
 */
int th_mkdir_p(const char *dir);

/* What a file of st_mode @mode is, for a message: "a FIFO", "a character
 * device", "a directory", ... ("a regular file" for one). */
const char *th_file_kind(mode_t mode);

/*
 * th_open_read() - open @path to read without ever blocking on it: opened
 * O_NONBLOCK (a FIFO without a writer holds a plain open(2) forever), kept
 * only when fstat(2) says a regular file (a FIFO, a device such as
 * /dev/zero or a directory never ends or never starts), then made blocking
 * again for its reader. Every input file of the commands is opened so.
 * @why: set on failure to what was wrong, a static text (strerror's, "Is
 * a directory" among them, or "a FIFO, not a regular file").
 * Return: the descriptor (close-on-exec), or -1 with errno set (EISDIR for
 * a directory, EINVAL for any other file that is not a regular one).
 */
int th_open_read(const char *path, const char **why);

/* th_open_read() as a stdio stream (mode "r" or "rb"); NULL likewise. */
FILE *th_fopen_read(const char *path, const char *mode, const char **why);

/*
 * th_is_regular() - @path (followed) names a regular file, by stat(2),
 * without opening it. Return: true, or false with @why and errno set as
 * th_open_read() sets them.
 */
bool th_is_regular(const char *path, const char **why);

#endif
