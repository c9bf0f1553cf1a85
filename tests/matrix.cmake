# SPDX-License-Identifier: MIT
# The matrix through the `timerharness` command: a representative cut per
# config (every outcome kind observed at least once), the gate's three exit
# statuses on a real run, bad input, and Ctrl-C.
if(NOT (TARGET th_report AND TARGET th_cfi AND TARGET th_expect))
  return()
endif()
set(TH_BIN $<TARGET_FILE:timerharness>)
set(TH_MOUT ${CMAKE_CURRENT_BINARY_DIR}/matrix-out)
# One technique x payload row per kind of defence, both timings where it matters.
set(TH_CUT "MEMCPY_INTRA_BEFORE_ARM_*,MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4,INDEX_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4,INDEX_INTRA_BEFORE_ARM_FUNC_WRITE_CR4,HEAP_NEIGHBOUR_PENDING_FUNC_DATA_WRITE_CR4,HEAP_NEIGHBOUR_PENDING_FUNC_WRITE_CR4,UAF_REALLOC_PENDING_FUNC_WRITE_CR4,STRCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4,SELFTEST_*")

foreach(config ${TH_CONFIGS})
  add_test(NAME matrix.cut.${config}
    COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/${config}
            -DCONFIG=${config} "-DATTACKS=${TH_CUT}" -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_cut.cmake)
  set_tests_properties(matrix.cut.${config} PROPERTIES LABELS matrix)
endforeach()
# Every outcome kind at least once: the attacks' kinds over every config, and
# the runner's self-test cells (config none) for HANG.
add_test(NAME matrix.cut.every_outcome_kind
  COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/kinds
          "-DATTACKS=${TH_CUT}"
          "-DKINDS=HIJACKED;REDIRECTED;CRASHED;FALSE_POSITIVE;BLOCKED_CFI;DETECTED;NO_EFFECT;UNSUPPORTED;NOT_APPLICABLE"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_cut.cmake)
add_test(NAME matrix.cut.selftests
  COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/selftests
          -DCONFIG=none "-DATTACKS=SELFTEST_*" -DSELFTESTS=1 "-DKINDS=HANG;CRASHED"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_cut.cmake)
add_test(NAME matrix.lockup
  COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DPY=${TH_PYTHON3} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/lockup
          -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_lockup.cmake)
set_tests_properties(matrix.lockup PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: this build has no randstruct")
# Fork servers against an exec per run (tests/matrix_fsrv.cmake says what each checks).
foreach(case same_outcomes server_killed hang no_server_mode)
  add_test(NAME matrix.fsrv.${case}
    COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DPY=${TH_PYTHON3} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/fsrv-${case}
            -DCASE=${case} -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_fsrv.cmake)
  set_tests_properties(matrix.fsrv.${case} PROPERTIES LABELS matrix TIMEOUT 300)
endforeach()
add_test(NAME matrix.gate
  COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/gate
          -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_gate.cmake)
# A real kernel's cells beside the run, through the kernel command's API.
add_executable(kernel_leg ${CMAKE_CURRENT_SOURCE_DIR}/kernel_leg_main.c)
target_link_libraries(kernel_leg PRIVATE th_report th_expect)
target_include_directories(kernel_leg PRIVATE ${CMAKE_SOURCE_DIR}/report)
target_compile_options(kernel_leg PRIVATE ${TH_WARN_FLAGS})
add_test(NAME matrix.kernel_leg
  COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DLEG=$<TARGET_FILE:kernel_leg> -DBUILD=${CMAKE_BINARY_DIR}
          -DSRC=${CMAKE_SOURCE_DIR} -DOUT=${TH_MOUT}/kernel -P ${CMAKE_CURRENT_SOURCE_DIR}/kernel_leg.cmake)
add_test(NAME matrix.interrupt
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/matrix_interrupt.sh ${TH_BIN} ${CMAKE_BINARY_DIR} ${TH_MOUT}/interrupt)
set_tests_properties(matrix.cut.every_outcome_kind matrix.cut.selftests matrix.lockup matrix.gate matrix.interrupt
  matrix.kernel_leg PROPERTIES LABELS matrix)

# Bad input: exit 2, a message saying what, and nothing overwritten.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/bad-expected.tsv "# attack variant config toolchain outcome reason\n*\t*\t*\t*\tPWNED\toops\n")
set(_bad
  "unknown_config|--config nope|unknown config 'nope' \\(known: none, cfi-icall"
  "unknown_variant|--variant legacy,vintage|unknown variant 'vintage'"
  "unknown_toolchain|--toolchain gcc-12|unknown toolchain 'gcc-12'"
  "attack_matches_nothing|--attack NO_SUCH_*|--attack 'NO_SUCH_\\*' matches no attack"
  "bad_jobs|--jobs zero|--jobs needs a number from 1 to 32"
  "bad_timeout|--timeout -1|--timeout needs a number"
  "unknown_option|--frobnicate|unknown argument '--frobnicate'"
  "missing_build|--build-root /nonexistent/build|no build under /nonexistent/build"
  "bad_expectations|--expect ${CMAKE_CURRENT_BINARY_DIR}/bad-expected.tsv|bad-expected.tsv:2: .*PWNED"
  "empty_config|--config=|--config '': an empty config name"
  "empty_config_item|--config none,,asan|--config 'none,,asan': an empty config name"
  "empty_attack|--attack=|--attack '': an empty attack name")
foreach(row ${_bad})
  string(REGEX MATCH "^([^|]+)\\|([^|]*)\\|(.*)$" _m "${row}")
  set(name "${CMAKE_MATCH_1}")
  string(REPLACE " " ";" args "${CMAKE_MATCH_2}")
  set(regex "${CMAKE_MATCH_3}")
  add_test(NAME matrix_error.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=${TH_BIN};matrix;--build-root;${CMAKE_BINARY_DIR};--out;${TH_MOUT}/bad-${name};${args}"
            -DRC=2 "-DSTDERR_REGEX=${regex}" -DSENTINEL=${TH_MOUT}/bad-${name}/results.json
            -P ${TH_RUN_EXPECT})
endforeach()
# An --out that is a file is refused.
add_test(NAME matrix_error.out_is_a_file
  COMMAND ${CMAKE_COMMAND} "-DCMD=${TH_BIN};matrix;--build-root;${CMAKE_BINARY_DIR};--config;none;--variant;legacy;--attack;MEMCPY_INTRA_BEFORE_ARM_NONE;--out;${TH_MOUT}/file-out/results.json"
          -DRC=2 "-DSTDERR_REGEX=not a directory" -DSENTINEL=${TH_MOUT}/file-out/results.json -P ${TH_RUN_EXPECT})
# The runner never fails open (tests/matrix_runner.cmake says what each does).
foreach(case missing_binary unrunnable_binary missing_probe manifest_is_a_directory
        manifest_dangling manifest_without_toolchain out_in_use out_file_is_a_symlink full_disk
        metrics)
  add_test(NAME matrix_runner.${case}
    COMMAND ${CMAKE_COMMAND} -DTH=${TH_BIN} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${TH_MOUT}/runner-${case}
            -DCASE=${case} -P ${CMAKE_CURRENT_SOURCE_DIR}/matrix_runner.cmake)
  set_tests_properties(matrix_runner.${case} PROPERTIES LABELS matrix)
endforeach()
add_test(NAME check_error.unknown_option
  COMMAND ${CMAKE_COMMAND} "-DCMD=${TH_BIN};check;--frobnicate" -DRC=2
          "-DSTDERR_REGEX=unknown argument '--frobnicate'" -P ${TH_RUN_EXPECT})

# CR4 is a register (tests/cr4_register.py): no cell changes it to a value the
# CPU refuses or without write_cr4's load; the victim's own argument is #GP(0).
add_test(NAME matrix.cr4_register
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/cr4_register.py --th ${TH_BIN}
          --build ${CMAKE_BINARY_DIR} --out ${TH_MOUT}/cr4-register)
set_tests_properties(matrix.cr4_register PROPERTIES LABELS matrix TIMEOUT 300)

# The command on real runs (tests/cli_runs.py says what each case checks):
# shards merged into the unsharded run's outcomes, each cell's rerun
# command, slices kept apart from a full run, NO_COLOR, --version, install.
foreach(case shards rerun slice color version install)
  add_test(NAME matrix.cli.${case}
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/cli_runs.py ${case} --th ${TH_BIN}
            --build ${CMAKE_BINARY_DIR} --toolchain ${TIMERHARNESS_TOOLCHAIN}
            --out ${TH_MOUT}/cli-${case} --source ${CMAKE_SOURCE_DIR}
            --project-version ${PROJECT_VERSION})
  set_tests_properties(matrix.cli.${case} PROPERTIES LABELS matrix TIMEOUT 300)
endforeach()
