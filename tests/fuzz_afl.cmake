# SPDX-License-Identifier: MIT
# The fuzz targets build with AFL++ (CC=afl-clang-fast, its libFuzzer-style
# driver as the engine) and afl-fuzz runs one: wheel_diff, configured apart
# from the preset build, fuzzed for a few hundred executions.
#   cmake -DSRC_DIR=<source> -DWORK_DIR=<scratch> -DAFL_CC=afl-clang-fast
#         -DAFL_FUZZ=afl-fuzz -P fuzz_afl.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v SRC_DIR WORK_DIR AFL_CC AFL_FUZZ)
  if(NOT ${v})
    message(FATAL_ERROR "fuzz_afl.cmake: -D${v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/in)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
  if(rc)
    message(FATAL_ERROR "${ARGN}: exit ${rc}\n${o}")
  endif()
  set(out "${o}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} -S ${SRC_DIR} -B ${WORK_DIR}/build -DCMAKE_C_COMPILER=${AFL_CC}
    -DTIMERHARNESS_FUZZ_ENGINE=afl -DTIMERHARNESS_TOOLCHAIN=afl-clang-fast -DCMAKE_BUILD_TYPE=RelWithDebInfo)
if(NOT out MATCHES "timerharness fuzz: afl-clang-fast: [0-9]+ targets, engine afl")
  message(FATAL_ERROR "the AFL++ build does not say it built for AFL++:\n${out}")
endif()
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target th-fuzz-wheel_diff)
set(bin ${WORK_DIR}/build/fuzz/wheel_diff)

# AFL++'s driver runs a file given on the command line once.
file(GLOB seeds ${SRC_DIR}/fuzz/corpora/wheel_diff/*)
file(COPY ${seeds} DESTINATION ${WORK_DIR}/in)
list(GET seeds 0 seed)
run(${bin} ${seed})
if(NOT out MATCHES "Execution successful")
  message(FATAL_ERROR "${bin} ${seed} did not run the input:\n${out}")
endif()

# afl-fuzz drives it in persistent mode for about 300 executions.
set(ENV{AFL_SKIP_CPUFREQ} 1)
set(ENV{AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES} 1)
set(ENV{AFL_NO_UI} 1)
set(ENV{AFL_NO_AFFINITY} 1)
set(ENV{AFL_BENCH_UNTIL_CRASH} 0)
run(${AFL_FUZZ} -E 300 -V 60 -G 1024 -i ${WORK_DIR}/in -o ${WORK_DIR}/out -- ${bin})
file(STRINGS ${WORK_DIR}/out/default/fuzzer_stats stats REGEX "^(execs_done|saved_crashes|saved_hangs) ")
message(STATUS "afl-fuzz: ${stats}")
if(NOT stats MATCHES "execs_done *: *[1-9]")
  message(FATAL_ERROR "afl-fuzz ran no execution: ${stats}")
endif()
if(NOT stats MATCHES "saved_crashes *: *0;" OR NOT stats MATCHES "saved_hangs *: *0")
  message(FATAL_ERROR "afl-fuzz found something in wheel_diff (see ${WORK_DIR}/out/default): ${stats}")
endif()
