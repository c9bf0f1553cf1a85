/* SPDX-License-Identifier: MIT */
/*
 * What every fuzz target shares: the libFuzzer entry points (the contract
 * with libFuzzer, AFL++'s driver, OSS-Fuzz and fuzz/replay.c), the one way
 * a target reports a finding, and a scratch file for code that reads paths.
 *
 * A target is one file holding LLVMFuzzerTestOneInput (and, where it needs
 * one-time setup, LLVMFuzzerInitialize). Its header comment states what the
 * input means and what the oracle asserts. A target never exits, never
 * keeps state from one input to the next, and reports a finding only with
 * TH_FUZZ_FAIL: the message says what disagreed, then abort() lets the
 * engine (or the replay driver's parent) see it.
 */
#ifndef TH_FUZZ_H
#define TH_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A finding: print "fuzz: <target>: <what>" to stderr and abort(). */
__attribute__((noreturn, format(printf, 2, 3)))
void th_fuzz_fail(const char *target, const char *fmt, ...);

/*
 * Oracle code (models, checks) is not what a target explores: kept out of
 * the coverage and comparison tracing the engine steers by, which would
 * otherwise count the oracle's loops as progress and spend most of an
 * execution recording them. Out of line: inlined into an instrumented
 * caller, the code would be instrumented there.
 */
#if defined(__clang__) && __clang_major__ >= 13
#define TH_FUZZ_ORACLE __attribute__((no_sanitize("coverage"), noinline))
/* Every function between the two, for a file that is all oracle. */
#define TH_FUZZ_ORACLE_BEGIN \
	_Pragma("clang attribute push(__attribute__((no_sanitize(\"coverage\"))), apply_to = function)")
#define TH_FUZZ_ORACLE_END _Pragma("clang attribute pop")
#else
#define TH_FUZZ_ORACLE
#define TH_FUZZ_ORACLE_BEGIN
#define TH_FUZZ_ORACLE_END
#endif

#define TH_FUZZ_FAIL(...) th_fuzz_fail(TH_FUZZ_TARGET, __VA_ARGS__)
#define TH_FUZZ_ASSERT(cond, ...) do {					\
	if (!(cond))							\
		th_fuzz_fail(TH_FUZZ_TARGET, __VA_ARGS__);		\
} while (0)

/*
 * A private scratch directory, created once per process: on tmpfs
 * (/dev/shm) where there is one, else $TMPDIR or /tmp (the only writable
 * place on OSS-Fuzz's runners). Removed at exit. Return: its path; a
 * process that cannot create it aborts (no target can run without it).
 */
const char *th_fuzz_scratch_dir(void);

/*
 * The path of @name in the scratch directory, written to @path (@n bytes).
 * Return: @path.
 */
const char *th_fuzz_scratch_path(const char *name, char *path, size_t n);

/*
 * Replace the file at @path with @size bytes of @data (no fsync: scratch).
 * A failed write aborts: the target would otherwise test a stale file.
 */
void th_fuzz_write_file(const char *path, const uint8_t *data, size_t size);

#endif
