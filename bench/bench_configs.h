/* SPDX-License-Identifier: MIT */
/*
 * `timerharness bench --configs none,cfi-icall,...`: what each hardening
 * config costs the wheel, the dispatch loop above all (the CFI check sits in
 * call_timer_fn). Each config's build of the bench (th-bench-<config>,
 * bench/CMakeLists.txt) is run as its own process, the configs interleaved
 * (rotated each run), and the figures compared as ratios to `none` taken
 * within each run, then the median over runs; instructions per op are
 * counted by callgrind in each build. bench/README.md, "Per config".
 */
#ifndef TH_BENCH_CONFIGS_H
#define TH_BENCH_CONFIGS_H

/* Is --configs among @argv (then th_bench_configs_main() handles them)? */
int th_bench_wants_configs(int argc, char **argv);

/* The configs built for this toolchain, comma-separated ("" for none):
 * what --configs takes (the completion offers them). */
const char *th_bench_configs_built(void);

/* Return: 0 ran; 1 a config's program failed (or its figures are missing);
 * 2 bad arguments or a config not built for this toolchain; 3 the output
 * could not be written. */
int th_bench_configs_main(int argc, char **argv);

#endif
