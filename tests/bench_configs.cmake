# SPDX-License-Identifier: MIT
# `timerharness bench --configs` (bench/bench_configs.c): each config's build
# of the bench side by side. Behaviour, not speed: no figure is compared with
# a number of nanoseconds (tests/bench_configs_check.cmake).
if(NOT TARGET th_bench)
  return()
endif()
set(_bc $<TARGET_FILE:timerharness>)
set(_bcdir ${CMAKE_CURRENT_BINARY_DIR}/bench)
file(MAKE_DIRECTORY ${_bcdir})
# Every config whose row says bench (cfi/configs.tsv) and that this compiler
# builds; the type-based CFI among them by the row's scheme with this
# compiler (th_config_scheme(): -fsanitize=function checks nothing before 17).
set(_bc_configs "")
set(_bc_cfi "")
set(_bc_unbuilt "")
th_configs_where(bench bench _bc_all)
foreach(_c IN LISTS _bc_all)
  if(NOT TARGET th-bench-${_c})
    list(APPEND _bc_unbuilt ${_c})
    continue()
  endif()
  list(APPEND _bc_configs ${_c})
  th_config_scheme(${_c} _s)
  if(NOT _s STREQUAL "none")
    list(APPEND _bc_cfi ${_c})
  endif()
endforeach()
string(JOIN "," _bc_csv ${_bc_configs})
add_test(NAME bench.configs
  COMMAND ${CMAKE_COMMAND}
          "-DCMD=${_bc};bench;--configs;${_bc_csv};--sizes;1000;--runs;2;--reps;1;--json;${_bcdir}/configs.json"
          -DJSON=${_bcdir}/configs.json "-DCONFIGS=${_bc_configs}" "-DCFI=${_bc_cfi}" -DCOUNT=1
          -P ${CMAKE_CURRENT_LIST_DIR}/bench_configs_check.cmake)
set_tests_properties(bench.configs PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)

# Bad arguments: exit 2, said before anything runs.
add_test(NAME bench.configs_need_none
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_bc};bench;--configs;cfi-icall" -DRC=2
          "-DSTDERR_REGEX=--configs: none is required \\(the baseline of every ratio\\)"
          -P ${TH_RUN_EXPECT})
add_test(NAME bench.configs_unknown
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_bc};bench;--configs;none,nope" -DRC=2
          "-DSTDERR_REGEX=--configs: no build of the bench for config 'nope'" -P ${TH_RUN_EXPECT})
# A benched config this compiler refuses (kcfi on clang 14): said, not run.
if(_bc_unbuilt)
  list(GET _bc_unbuilt 0 _c)
  add_test(NAME bench.configs_not_built
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_bc};bench;--configs;none,${_c}" -DRC=2
            "-DSTDERR_REGEX=--configs: ${_c} is not built by ${TIMERHARNESS_TOOLCHAIN}: "
            -P ${TH_RUN_EXPECT})
endif()
add_test(NAME bench.configs_json_not_a_file
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_bc};bench;--configs;none;--json;/dev/null" -DRC=2
          "-DSTDERR_REGEX=--json /dev/null: exists and is not a regular file" -P ${TH_RUN_EXPECT})
