/* SPDX-License-Identifier: MIT */
/* `timerharness bench`: the timer wheel's variants against a binary min-heap. */
#ifndef TH_BENCH_H
#define TH_BENCH_H

/**
 * th_bench_main() - run the benchmark and print its tables
 * @argc: argument count; @argv[0] is the command's name ("bench")
 * @argv: see `timerharness bench --help` and bench/README.md
 *
 * Return: 0 when it ran, 1 if a correctness check of a wheel or the heap
 * failed, 2 for bad arguments, 3 if stdout or the --json file could not be
 * written.
 */
int th_bench_main(int argc, char **argv);

#endif
