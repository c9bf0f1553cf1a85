# SPDX-License-Identifier: MIT
# report/ tests: one CTest test per cmocka case. Case names are read from the
# test sources (each indented `TH_CASE(name)` or `cmocka_unit_test*(name`
# line), so the list cannot drift from the code.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

# One executable per source; each case a CTest test named report.<case>.
set(TH_REPORT_TEST_SOURCES ${CMAKE_CURRENT_LIST_DIR}/report_test.c
                           ${CMAKE_CURRENT_LIST_DIR}/report_parts_test.c
                           ${CMAKE_CURRENT_LIST_DIR}/platform_test.c)
pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TH_REPORT_TEST_SOURCES})
# The report fixtures' declarations, read from gate.json and platform.json
# (report_fixtures.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/report_fixtures.cmake)
th_report_fixtures_inc(${CMAKE_CURRENT_BINARY_DIR}/report_gate/report_fixtures.inc)
foreach(src IN LISTS TH_REPORT_TEST_SOURCES)
  get_filename_component(exe ${src} NAME_WE)
  add_executable(${exe} ${src})
  # check is judged by a declaration: the fixtures' expectations go through
  # the loader the command uses (attacks/expect.c); the SARIF log and the
  # schema are read with jansson.
  target_link_libraries(${exe} PRIVATE th_report th_expect PkgConfig::CMOCKA PkgConfig::JANSSON)
  # check --consoles classifies a real kernel's console again (kernel/console.h).
  target_link_libraries(${exe} PRIVATE th_kernel)
  target_include_directories(${exe} PRIVATE ${CMAKE_SOURCE_DIR}/report
                             ${CMAKE_CURRENT_BINARY_DIR}/report_gate)
  target_compile_options(${exe} PRIVATE ${TH_WARN_FLAGS})
  target_compile_definitions(${exe} PRIVATE
    TH_REPORT_TEST_DATA="${CMAKE_CURRENT_LIST_DIR}/data/report"
    TH_SCHEMA_DIR="${CMAKE_SOURCE_DIR}/docs/schema"
    TH_TEST_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  file(STRINGS ${src} lines REGEX "^[ \t]+(TH_CASE|cmocka_unit_test[a-z_]*)\\(")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "(TH_CASE|cmocka_unit_test[a-z_]*)\\(([A-Za-z0-9_]+)" _ "${line}")
    if(CMAKE_MATCH_2)
      add_test(NAME report.${CMAKE_MATCH_2} COMMAND ${exe} ${CMAKE_MATCH_2})
      set_tests_properties(report.${CMAKE_MATCH_2} PROPERTIES LABELS report TIMEOUT 60)
    endif()
  endforeach()
endforeach()

# `timerharness report` (cli/cmd_report.c) on its own: options, exit statuses,
# messages, stdout and atomic files, tested apart from its dispatch in main.c.
add_executable(report_cli ${CMAKE_CURRENT_LIST_DIR}/report_cli_main.c
               ${CMAKE_SOURCE_DIR}/cli/cmd_report.c ${CMAKE_SOURCE_DIR}/cli/args.c)
target_include_directories(report_cli PRIVATE ${CMAKE_SOURCE_DIR}/cli)
target_link_libraries(report_cli PRIVATE th_report)
target_compile_options(report_cli PRIVATE ${TH_WARN_FLAGS})

set(_rd ${CMAKE_CURRENT_LIST_DIR}/data/report)
set(_ro ${CMAKE_CURRENT_BINARY_DIR}/report_cli.out)
file(MAKE_DIRECTORY ${_ro})
# th_report_cli(NAME RC STDERR_REGEX [STDOUT golden] [SENTINEL file] ARGS ...)
function(th_report_cli name rc regex)
  cmake_parse_arguments(PARSE_ARGV 3 A "" "STDOUT;SENTINEL" "ARGS")
  set(extra)
  if(A_STDOUT)
    list(APPEND extra -DSTDOUT_FILE=${A_STDOUT})
  endif()
  if(A_SENTINEL)
    list(APPEND extra -DSENTINEL=${A_SENTINEL})
  endif()
  add_test(NAME report.cli.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:report_cli>;${A_ARGS}" -DRC=${rc}
            "-DSTDERR_REGEX=${regex}" ${extra} -P ${CMAKE_CURRENT_LIST_DIR}/run_expect.cmake)
  set_tests_properties(report.cli.${name} PROPERTIES LABELS report TIMEOUT 60)
endfunction()

th_report_cli(help 0 "^$" ARGS --help)
th_report_cli(no_format 2 "--format is required" ARGS --results ${_rd}/small.json)
th_report_cli(unknown_format 2 "unknown format 'pdf' \\(formats: md, html, junit, sarif, ktap, matrix, verdict, codequality\\)"
  ARGS --results ${_rd}/small.json --format pdf)
th_report_cli(unknown_option 2 "unknown argument '--colour'" ARGS --format md --colour)
th_report_cli(missing_value 2 "--format needs a value" ARGS --format)
th_report_cli(missing_results 2
  "nope.json: cannot open: No such file or directory\n.*run 'timerharness matrix'"
  ARGS --results ${_ro}/nope.json --format md)
# Bad input writes nothing: the file named by --out is left as it was.
th_report_cli(bad_results 2 "cells\\[3\\]\\.outcome: unknown outcome \"FOO\""
  SENTINEL ${_ro}/bad_results.html
  ARGS --results ${_rd}/unknown_outcome.json --format=html --out ${_ro}/bad_results.html)
th_report_cli(wrong_schema 2 "schema is \"timerharness/results/v0\""
  ARGS --results ${_rd}/wrong_schema.json --format sarif)
# A real kernel's cells: an undeclared platform, a cell without its platform
# in a file with platforms (tests/data/report/README.md).
th_report_cli(platform_unknown 2 "platform_unknown.json: cells\\[15\\]\\.platform: unknown platform \"linux-6\\.9\""
  SENTINEL ${_ro}/platform_unknown.md
  ARGS --results ${_rd}/platform_unknown.json --format md --out ${_ro}/platform_unknown.md)
th_report_cli(platform_missing 2 "platform_missing.json: cells\\[0\\]: missing field \"platform\""
  ARGS --results ${_rd}/platform_missing.json --format junit)
th_report_cli(platform_config 2 "is not a kernel config of linux-6\\.1\\.192 \\(its configs: kcfi, none\\)"
  ARGS --results ${_rd}/platform_config.json --format sarif)
th_report_cli(out_dir_missing 1 "x.ktap: cannot create .*No such file or directory"
  ARGS --results ${_rd}/small.json --format ktap --out ${_ro}/no/such/dir/x.ktap)
# To stdout: the terminal matrix (not a terminal: no colour, no trailing blank).
th_report_cli(matrix_stdout 0 "^$" STDOUT ${_rd}/small.matrix.txt
  ARGS --results ${_rd}/small.json --format matrix)
th_report_cli(matrix_out_dash 0 "^$" STDOUT ${_rd}/small.matrix.txt
  ARGS --results=${_rd}/small.json --format matrix --out -)
foreach(fmt md html junit sarif ktap matrix codequality)
  th_report_cli(file_${fmt} 0 "^$" ARGS --results ${_rd}/small.json --format ${fmt}
    --out ${_ro}/small.${fmt})
endforeach()

# --out replaces regular files only, and keeps their mode: never a symbolic
# link (nor where it leads), a device node or a FIFO (tests/report_out.cmake).
foreach(case symlink fifo device mode)
  add_test(NAME report.cli.out_${case}
    COMMAND ${CMAKE_COMMAND} -DREPORT=$<TARGET_FILE:report_cli> -DRESULTS=${_rd}/small.json
            -DOUT=${_ro}/out-${case} -DCASE=${case} -P ${CMAKE_CURRENT_LIST_DIR}/report_out.cmake)
  set_tests_properties(report.cli.out_${case} PROPERTIES LABELS report TIMEOUT 60)
endforeach()
