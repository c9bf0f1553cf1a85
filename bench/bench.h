/* SPDX-License-Identifier: MIT */
/* `timerharness bench`: the timer wheel's variants against a binary min-heap. */
#ifndef TH_BENCH_H
#define TH_BENCH_H

/**
 * th_bench_main() - run the benchmark and print its table
 * @argc: argument count; @argv[0] is the command's name ("bench")
 * @argv: [--quick] [--reps N] [--seed S] [--sizes N,...] [--help]
 *
 * Return: 0 when it ran (whether or not the bars are met), 1 if a
 * correctness check of a wheel or the heap failed, 2 for bad arguments.
 */
int th_bench_main(int argc, char **argv);

#endif
