# SPDX-License-Identifier: MIT
# The bench's figures beside results.json in report.md and report.html
# (results/bench_figures.c, report/render_bench.c), one test per case of
# tests/bench_report.py; the fixtures are tests/data/bench (make_fixtures.py).
# schema and real read what bench.quick, bench.own_program and bench.configs
# wrote: the files `timerharness bench --json` really produces.
if(NOT TARGET timerharness)
  return()
endif()
set(_br_py ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/bench_report.py)
set(_br_data ${CMAKE_CURRENT_SOURCE_DIR}/data/bench)
set(_br_work ${CMAKE_CURRENT_BINARY_DIR}/bench_report)
set(_br_common --th $<TARGET_FILE:timerharness> --data ${_br_data}
               --results ${CMAKE_CURRENT_SOURCE_DIR}/data/report/small.json)
foreach(case section absent bad twice)
  add_test(NAME bench_report.${case} COMMAND ${_br_py} ${case} ${_br_common} --work ${_br_work}/${case})
endforeach()
add_test(NAME bench_report.matrix
  COMMAND ${_br_py} matrix --th $<TARGET_FILE:timerharness> --data ${_br_data} --work ${_br_work}/matrix
          --build ${CMAKE_BINARY_DIR} --toolchain ${TIMERHARNESS_TOOLCHAIN})
# The files the bench tests wrote.
set(_br_bench ${CMAKE_CURRENT_BINARY_DIR}/bench)
add_test(NAME bench_report.schema
  COMMAND ${_br_py} schema --schema-dir ${CMAKE_SOURCE_DIR}/docs/schema --data ${_br_data} ${_br_bench})
add_test(NAME bench_report.real COMMAND ${_br_py} real ${_br_common} --work ${_br_work}/real ${_br_bench})
foreach(t bench.quick bench.own_program bench.configs)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES FIXTURES_SETUP th_bench_json)
  endif()
endforeach()
set_tests_properties(bench_report.schema bench_report.real PROPERTIES FIXTURES_REQUIRED th_bench_json)
set_tests_properties(bench_report.section bench_report.absent bench_report.bad bench_report.twice
  bench_report.matrix bench_report.schema bench_report.real PROPERTIES LABELS report TIMEOUT 120)
