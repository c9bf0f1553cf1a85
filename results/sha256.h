/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4), so results.json can name the exact expectations file
 * a run was judged by and `check` can tell whether it is judging by the same
 * one, and fuzz.json the exact bytes of each finding's reproducer. Not for
 * secrets: a plain, portable implementation.
 */
#ifndef TH_RESULTS_SHA256_H
#define TH_RESULTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct th_sha256 {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char block[64];
	size_t used;
};

void th_sha256_init(struct th_sha256 *s);
void th_sha256_update(struct th_sha256 *s, const void *data, size_t n);
/* 64 lower-case hex digits and a NUL into hex[65]. */
void th_sha256_hex(struct th_sha256 *s, char hex[65]);

/* The SHA-256 of what fd reads until its end, into hex[65].
 * Return: 0, or -1 with errno set (a read error). */
int th_sha256_fd(int fd, char hex[65]);

#endif
