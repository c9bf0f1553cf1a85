/* SPDX-License-Identifier: MIT */
/*
 * Declared expectations (attacks/expected.tsv; its header comment is the
 * format's documentation): per cell, the WORST acceptable outcome and why.
 * Loaded once per process; the runner compares each observed outcome with
 * th_expect_lookup() (more severe than declared = regression).
 */
#ifndef TH_ATTACKS_EXPECT_H
#define TH_ATTACKS_EXPECT_H

#include <stddef.h>

/*
 * Load (replacing any earlier table). Return: 0, or -1 with
 * "FILE:LINE: what is wrong" (or "FILE: <errno text>") in err.
 */
int th_expect_load(const char *path, char *err, size_t n);

/*
 * The first rule matching the cell. Return: the outcome name
 * ("HIJACKED", ...), or NULL if no rule matches or nothing is loaded;
 * *reason (if reason is not NULL) gets the rule's reason.
 */
const char *th_expect_lookup(const char *attack, const char *variant, const char *config,
			     const char *toolchain, const char **reason);

/* "FILE:LINE" of the rule th_expect_lookup() would use, or NULL. */
const char *th_expect_where(const char *attack, const char *variant, const char *config,
			    const char *toolchain);

/* The file loaded (as named to th_expect_load) and the SHA-256 of every
 * byte read from it (64 lower-case hex digits); NULL when none is loaded. */
const char *th_expect_path(void);
const char *th_expect_sha256(void);

/* Number of rules loaded. */
size_t th_expect_count(void);

/* Forget the table. */
void th_expect_free(void);

#endif
