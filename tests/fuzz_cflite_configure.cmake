# SPDX-License-Identifier: MIT
# Every sanitizer ClusterFuzzLite builds .clusterfuzzlite/build.sh with, at
# configure level: the sanitizers are read from the workflows themselves
# (.github/workflows/cflite_*.yml: a job matrix's `sanitizer:` list, a step's
# `sanitizer: NAME`, and address where build_fuzzers is given none, its
# default), and for each, build.sh --configure-only runs in OSS-Fuzz's
# environment for it (tests/cflite_env.cmake): the configure step must plan
# every fuzzer that ships (a config the compiler refuses with those flags,
# as clang refuses -fsanitize=kcfi beside the undefined build's function
# sanitizer, is not planned). Seconds each: build.sh configures with
# TIMERHARNESS_FUZZ_CFLITE, which leaves out all but the fuzz targets and
# their libraries (no compiler check of a config nothing shipped is built
# with: 13 CPU-seconds for the three, 41 when the whole tree was configured
# three times; issue 18). The full address build and its seeds are
# fuzz.cflite.build_sh.
#   cmake -DSRC_DIR=<source> -DWORK_DIR=<scratch> -DCC=clang-22 -DCXX=clang++-22
#         -P fuzz_cflite_configure.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v SRC_DIR WORK_DIR CC CXX)
  if(NOT ${v})
    message(FATAL_ERROR "fuzz_cflite_configure.cmake: -D${v}= is required")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/cflite_env.cmake)

# The sanitizers of the workflows' build_fuzzers steps.
file(GLOB workflows ${SRC_DIR}/.github/workflows/cflite_*.yml)
if(NOT workflows)
  message(FATAL_ERROR "no .github/workflows/cflite_*.yml")
endif()
set(sanitizers "")
foreach(wf IN LISTS workflows)
  file(STRINGS ${wf} lines)
  set(in_list FALSE)
  set(in_build FALSE)
  set(build_has_sanitizer FALSE)
  foreach(line IN LISTS lines)
    if(in_list AND line MATCHES "^ *- *([a-z]+) *$")
      list(APPEND sanitizers ${CMAKE_MATCH_1})
      continue()
    endif()
    set(in_list FALSE)
    if(line MATCHES "^ *sanitizer: *$")
      set(in_list TRUE)
    elseif(line MATCHES "^ *sanitizer: *'?([a-z]+)'? *$")
      list(APPEND sanitizers ${CMAKE_MATCH_1})
    endif()
    # A build_fuzzers step without a sanitizer builds address: closed by
    # the next step ("- name: ..." / "- uses: ...") or job ("  Name:").
    if(line MATCHES "^ *- [a-z-]+:" OR line MATCHES "^  [A-Za-z_-]+: *$")
      if(in_build AND NOT build_has_sanitizer)
        list(APPEND sanitizers address)
      endif()
      set(in_build FALSE)
    endif()
    if(line MATCHES "uses: google/clusterfuzzlite/actions/build_fuzzers")
      set(in_build TRUE)
      set(build_has_sanitizer FALSE)
    elseif(in_build AND line MATCHES "^ *sanitizer:")
      set(build_has_sanitizer TRUE)
    endif()
  endforeach()
  if(in_build AND NOT build_has_sanitizer)
    list(APPEND sanitizers address)
  endif()
endforeach()
list(REMOVE_DUPLICATES sanitizers)
list(SORT sanitizers)
foreach(s IN LISTS sanitizers)
  if(NOT s IN_LIST TH_CFLITE_SANITIZERS)
    message(FATAL_ERROR "the workflows build with sanitizer '${s}', which tests/cflite_env.cmake does not know")
  endif()
endforeach()
if(NOT "address" IN_LIST sanitizers OR NOT "undefined" IN_LIST sanitizers)
  message(FATAL_ERROR "read the sanitizers '${sanitizers}' from ${workflows}: address and undefined expected")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
set(failed "")
foreach(s IN LISTS sanitizers)
  th_cflite_env(${s} ${WORK_DIR}/${s} ${CC} ${CXX})
  execute_process(COMMAND bash ${SRC_DIR}/.clusterfuzzlite/build.sh --configure-only
                  WORKING_DIRECTORY ${SRC_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  file(WRITE ${WORK_DIR}/${s}.log "${log}")
  if(rc OR NOT log MATCHES "build.sh: SANITIZER=${s}: configured, every fuzzer planned")
    string(REGEX MATCHALL "build.sh:[^\n]*" said "${log}")
    string(JOIN "\n" said ${said})
    string(APPEND failed "\n${s} (exit ${rc}, log ${WORK_DIR}/${s}.log):\n${said}")
  else()
    message(STATUS "${s}: configured, every fuzzer planned")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "build.sh --configure-only failed:${failed}")
endif()
message(STATUS "sanitizers of the workflows, each configured: ${sanitizers}")
