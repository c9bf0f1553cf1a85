# SPDX-License-Identifier: MIT
# fuzz/: every corpus and every saved input replayed through the -replay
# binaries (no engine), on every toolchain; what the fuzz infrastructure
# itself must do. Included by tests/CMakeLists.txt.
if(NOT TARGET th-fuzz-all)
  return()
endif()

set(TH_FUZZ_TESTS ${CMAKE_CURRENT_SOURCE_DIR})
get_property(_th_fuzz_names GLOBAL PROPERTY TH_FUZZ_NAMES)

# Saved inputs of a directory: every file but notes.
function(_th_fuzz_inputs dir out)
  file(GLOB files LIST_DIRECTORIES false "${dir}/*")
  list(FILTER files EXCLUDE REGEX "/(\\.[^/]*|README[^/]*|[^/]*\\.(md|txt|chain|json|tsv))$")
  list(SORT files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

foreach(name IN LISTS _th_fuzz_names)
  get_property(replay GLOBAL PROPERTY TH_FUZZ_${name}_REPLAY)
  if(NOT replay)
    continue()
  endif()
  foreach(f TARGET VARIANT CONFIG CORPUS REGRESSIONS FINDINGS EXPECT_FUNCTION)
    get_property(${f} GLOBAL PROPERTY TH_FUZZ_${name}_${f})
  endforeach()
  set(exe th-fuzz-${name}-replay)

  # The seed corpus: an input that ends in a finding fails the test (and a
  # target without a corpus fails too: replay refuses an empty set).
  if(CORPUS)
    add_test(NAME fuzz.${name}.corpus COMMAND ${exe} ${CORPUS})
  else()
    add_test(NAME fuzz.${name}.corpus COMMAND ${exe} ${CMAKE_SOURCE_DIR}/fuzz/corpora/${TARGET})
  endif()

  # Regressions: inputs that once found a bug; each must now run clean,
  # except those open.tsv lists (a bug still open in code fuzz/ does not
  # own): each of those must still be found, so the day it is fixed the test
  # says so and the line goes.
  if(REGRESSIONS)
    set(open "")
    if(EXISTS ${REGRESSIONS}/open.tsv)
      file(STRINGS ${REGRESSIONS}/open.tsv rows REGEX "^[^#]")
      foreach(row IN LISTS rows)
        string(REGEX MATCH "^[^\t]+" f "${row}")
        if(NOT EXISTS ${REGRESSIONS}/${f})
          message(FATAL_ERROR "${REGRESSIONS}/open.tsv: no file '${f}' beside it")
        endif()
        list(APPEND open ${f})
      endforeach()
    endif()
    _th_fuzz_inputs(${REGRESSIONS} files)
    foreach(file IN LISTS files)
      get_filename_component(base ${file} NAME)
      if(base IN_LIST open)
        add_test(NAME fuzz.${name}.open.${base} COMMAND ${exe} --expect finding ${file})
      else()
        add_test(NAME fuzz.${name}.regression.${base} COMMAND ${exe} ${file})
      endif()
    endforeach()
  endif()

  # Findings of a target that has them: each one must end as the target
  # declares for this binary (a finding that no longer reproduces where it is
  # expected fails, as does one that appears where it is not).
  if(FINDINGS)
    _th_fuzz_inputs(${FINDINGS} files)
    foreach(file IN LISTS files)
      get_filename_component(base ${file} NAME)
      cmake_language(CALL ${EXPECT_FUNCTION} ${file} ${VARIANT} ${CONFIG} ${TIMERHARNESS_TOOLCHAIN} want)
      if(want STREQUAL "skip")
        continue()
      endif()
      if(NOT want MATCHES "^(clean|finding)$")
        message(FATAL_ERROR "${EXPECT_FUNCTION}(${file} ${VARIANT} ${CONFIG}): '${want}' is neither clean, finding nor skip")
      endif()
      add_test(NAME fuzz.${name}.finding.${base} COMMAND ${exe} --expect ${want} ${file})
    endforeach()
  endif()
endforeach()

# ClusterFuzzLite: build.sh under OSS-Fuzz's environment, with this tree's
# clang (>= 16); one toolchain is enough. The address build in full, its
# fuzzers run on a seed each, is `make cflite` (label cflite-build, which the
# test presets leave out: 143 s of a loaded make test for what
# fuzz.cflite.configure checks of every sanitizer at configure level, and
# ClusterFuzzLite's own build does on every pull request; .ci/run runs it).
if(TH_CLANG_MAJOR GREATER_EQUAL 16)
  get_filename_component(_cc_dir ${CMAKE_C_COMPILER} DIRECTORY)
  find_program(TH_FUZZ_CXX NAMES clang++-${TH_CLANG_MAJOR} HINTS ${_cc_dir} NO_CACHE)
  if(TH_FUZZ_CXX)
    add_test(NAME fuzz.cflite.build_sh
      COMMAND ${CMAKE_COMMAND} -DSRC_DIR=${CMAKE_SOURCE_DIR} -DWORK_DIR=${CMAKE_BINARY_DIR}/fuzz-cflite
              -DCC=${CMAKE_C_COMPILER} -DCXX=${TH_FUZZ_CXX} -P ${TH_FUZZ_TESTS}/fuzz_cflite.cmake)
    set_tests_properties(fuzz.cflite.build_sh PROPERTIES TIMEOUT 900 LABELS "fuzz;cflite-build")
    # Every sanitizer the cflite_*.yml workflows build with, configure step
    # only (build.sh --configure-only): each fuzzer that ships is planned.
    add_test(NAME fuzz.cflite.configure
      COMMAND ${CMAKE_COMMAND} -DSRC_DIR=${CMAKE_SOURCE_DIR} -DWORK_DIR=${CMAKE_BINARY_DIR}/fuzz-cflite-configure
              -DCC=${CMAKE_C_COMPILER} -DCXX=${TH_FUZZ_CXX} -P ${TH_FUZZ_TESTS}/fuzz_cflite_configure.cmake)
    set_tests_properties(fuzz.cflite.configure PROPERTIES TIMEOUT 300)
  endif()
endif()

# wheel_diff's oracle catches each kind of corruption with its local check
# alone (the full timers_check() pushed out of reach): a wheel damaged once,
# right after the operation that put two timers in one bucket.
if(TARGET th-fuzz-wheel_diff-replay)
  set(_seed ${CMAKE_SOURCE_DIR}/fuzz/corpora/wheel_diff/two_timers_one_bucket)
  foreach(kind_regex
      "bitmap|transitional: pending_map\\[0\\] 0, the model's timers need"
      "order|transitional: bucket [0-9]+: t[0-9]+ out of order"
      "expires|transitional: t1 expires [0-9]+, the model's [0-9]+"
      "link|transitional: bucket [0-9]+: t[0-9]+ pprev"
      "next|transitional: next_expiry [0-9]+, the model's next collection [0-9]+")
    string(REGEX MATCH "^[^|]+" kind "${kind_regex}")
    string(REGEX REPLACE "^[^|]+\\|" "" regex "${kind_regex}")
    add_test(NAME fuzz.wheel_diff.catches_${kind}
      COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:th-fuzz-wheel_diff-replay>;--expect;finding;${_seed}"
              -DRC=0 "-DSTDERR_REGEX=fuzz: wheel_diff: op 4 \\(mod t1\\), ${regex}" -P ${TH_RUN_EXPECT})
    set_tests_properties(fuzz.wheel_diff.catches_${kind} PROPERTIES
      ENVIRONMENT "TH_WHEEL_DIFF_CORRUPT=${kind};TH_WHEEL_DIFF_FULL_EVERY=1000000")
  endforeach()
endif()

# binread's regressions within the reader's budgets: each in its own
# process, a few seconds at most (a symbol whose size runs 16 MiB into a
# segment's zero-filled memory took 49 s and 2.9 GB before decode was bounded
# by the bytes the file holds; one of 4 TiB allocated 4 TiB first).
if(TARGET th-fuzz-binread-replay)
  add_test(NAME fuzz.binread.budget
    COMMAND th-fuzz-binread-replay --fork --timeout 5 ${CMAKE_SOURCE_DIR}/fuzz/regressions/binread)
  set_tests_properties(fuzz.binread.budget PROPERTIES TIMEOUT 120)
endif()

# AFL++: the same targets built with afl-clang-fast and run by afl-fuzz. In
# the clang-14 tree only: Debian's afl++ is built on clang 14.
if(TH_CLANG_MAJOR EQUAL 14)
  find_program(TH_AFL_CC afl-clang-fast NO_CACHE)
  find_program(TH_AFL_FUZZ afl-fuzz NO_CACHE)
  if(TH_AFL_CC AND TH_AFL_FUZZ)
    add_test(NAME fuzz.afl.wheel_diff
      COMMAND ${CMAKE_COMMAND} -DSRC_DIR=${CMAKE_SOURCE_DIR} -DWORK_DIR=${CMAKE_BINARY_DIR}/fuzz-afl
              -DAFL_CC=${TH_AFL_CC} -DAFL_FUZZ=${TH_AFL_FUZZ} -P ${TH_FUZZ_TESTS}/fuzz_afl.cmake)
    set_tests_properties(fuzz.afl.wheel_diff PROPERTIES TIMEOUT 600)
  endif()
endif()
