// SPDX-License-Identifier: MIT
/* The bench as a program of its own (th_bench_executable() in
 * bench/CMakeLists.txt): the same options as `timerharness bench`. */
#include "bench.h"

int main(int argc, char **argv)
{
	return th_bench_main(argc, argv);
}
