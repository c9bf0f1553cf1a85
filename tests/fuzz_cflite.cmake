# SPDX-License-Identifier: MIT
# .clusterfuzzlite/build.sh run here as OSS-Fuzz's builder runs it (the
# Dockerfile cannot be built without Docker): the environment of an address
# build with libFuzzer, then every fuzzer that should ship must be in $OUT
# with its seed corpus, options and dictionary, link nothing $OUT lacks, and
# run one of its seeds.
#   cmake -DSRC_DIR=<source> -DWORK_DIR=<scratch> -DCC=clang-22 -DCXX=clang++-22
#         -P fuzz_cflite.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v SRC_DIR WORK_DIR CC CXX)
  if(NOT ${v})
    message(FATAL_ERROR "fuzz_cflite.cmake: -D${v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/out ${WORK_DIR}/work ${WORK_DIR}/src ${WORK_DIR}/seeds)

# infra/base-images/base-builder: what compile exports for SANITIZER=address,
# FUZZING_ENGINE=libfuzzer. CXXFLAGS lack -stdlib=libc++: Debian's clang has
# no libc++ here, and nothing of ours is C++.
set(flags "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link")
set(ENV{CC} ${CC})
set(ENV{CXX} ${CXX})
set(ENV{CCC} ${CXX})
set(ENV{CFLAGS} "${flags}")
set(ENV{CXXFLAGS} "${flags}")
set(ENV{LIB_FUZZING_ENGINE} "-fsanitize=fuzzer")
set(ENV{OUT} ${WORK_DIR}/out)
set(ENV{SRC} ${WORK_DIR}/src)
set(ENV{WORK} ${WORK_DIR}/work)
set(ENV{SANITIZER} address)
set(ENV{FUZZING_ENGINE} libfuzzer)
set(ENV{FUZZING_LANGUAGE} c)
set(ENV{ARCHITECTURE} x86_64)
unset(ENV{MAKEFLAGS})

execute_process(COMMAND bash ${SRC_DIR}/.clusterfuzzlite/build.sh
                WORKING_DIRECTORY ${SRC_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
file(WRITE ${WORK_DIR}/build.log "${log}")
if(rc)
  string(LENGTH "${log}" len)
  if(len GREATER 6000)
    math(EXPR from "${len} - 6000")
    string(SUBSTRING "${log}" ${from} -1 log)
  endif()
  message(FATAL_ERROR "build.sh failed (${rc}); log in ${WORK_DIR}/build.log, its end:\n${log}")
endif()

# What must ship, decided here, not read from what was built.
set(fuzzers wheel_diff trace_lang results_json expected_tsv classify manifest_tsv binread)
if(EXISTS ${SRC_DIR}/fuzz/overflow.c)
  list(APPEND fuzzers overflow-modern-cfi-icall overflow-modern-kcfi)
endif()
set(out ${WORK_DIR}/out)
foreach(f IN LISTS fuzzers)
  string(REGEX REPLACE "-.*" "" target ${f})
  foreach(file ${f} ${f}_seed_corpus.zip ${f}.options)
    if(NOT EXISTS ${out}/${file})
      message(FATAL_ERROR "${f}: ${out}/${file} missing")
    endif()
  endforeach()
  if(EXISTS ${SRC_DIR}/fuzz/dicts/${target}.dict AND NOT EXISTS ${out}/${f}.dict)
    message(FATAL_ERROR "${f}: ${out}/${f}.dict missing")
  endif()
  # The runner holds $OUT and a bare system: no library of ours, no jansson.
  execute_process(COMMAND ldd ${out}/${f} OUTPUT_VARIABLE libs RESULT_VARIABLE rc)
  string(REGEX MATCHALL "[^\n\t ]+\\.so[^\n\t ]*" libs "${libs}")
  foreach(l IN LISTS libs)
    if(NOT l MATCHES "(linux-vdso|ld-linux[^/]*|lib(c|m|dl|pthread|rt|gcc_s|stdc\\+\\+|c\\+\\+|c\\+\\+abi|util|resolv))\\.so")
      message(FATAL_ERROR "${f} needs ${l}, which OSS-Fuzz's runner does not have (link it statically)")
    endif()
  endforeach()
  # One seed, run by libFuzzer without fuzzing.
  set(seeds ${WORK_DIR}/seeds/${f})
  file(MAKE_DIRECTORY ${seeds})
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf ${out}/${f}_seed_corpus.zip
                  WORKING_DIRECTORY ${seeds} RESULT_VARIABLE rc)
  file(GLOB inputs ${seeds}/*)
  list(SORT inputs)
  if(rc OR NOT inputs)
    message(FATAL_ERROR "${f}: ${f}_seed_corpus.zip does not unpack to seeds (${rc})")
  endif()
  list(GET inputs 0 input)
  execute_process(COMMAND ${out}/${f} ${input} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(rc OR NOT e MATCHES "Executed ")
    message(FATAL_ERROR "${f} ${input}: exit ${rc}\n${o}${e}")
  endif()
  message(STATUS "${f}: built, packaged, ran ${input}")
endforeach()
