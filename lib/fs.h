/* SPDX-License-Identifier: MIT */
/* File-system helpers of the commands. */
#ifndef TH_LIB_FS_H
#define TH_LIB_FS_H

/*
 * th_mkdir_p() - create dir and its missing parents (mkdir -p), mode 0777
 * less the umask. A dir that exists is fine when it is a directory.
 * Return: 0, or -1 with errno set (ENOTDIR: dir, or a parent, is not a
 * directory; ENAMETOOLONG: the path does not fit PATH_MAX).
 */
int th_mkdir_p(const char *dir);

#endif
