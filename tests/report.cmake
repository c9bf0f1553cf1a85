# SPDX-License-Identifier: MIT
# report/ tests: one CTest test per cmocka case. Case names are read from the
# test sources (each indented `TH_CASE(name)` or `cmocka_unit_test*(name`
# line), so the list cannot drift from the code.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

set(TH_REPORT_TEST_SOURCES ${CMAKE_CURRENT_LIST_DIR}/report_test.c)
add_executable(report_test ${TH_REPORT_TEST_SOURCES})
target_link_libraries(report_test PRIVATE th_report PkgConfig::CMOCKA)
target_compile_options(report_test PRIVATE ${TH_WARN_FLAGS})
target_compile_definitions(report_test PRIVATE
  TH_REPORT_TEST_DATA="${CMAKE_CURRENT_LIST_DIR}/data/report")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TH_REPORT_TEST_SOURCES})

foreach(src IN LISTS TH_REPORT_TEST_SOURCES)
  file(STRINGS ${src} lines REGEX "^[ \t]+(TH_CASE|cmocka_unit_test[a-z_]*)\\(")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "(TH_CASE|cmocka_unit_test[a-z_]*)\\(([A-Za-z0-9_]+)" _ "${line}")
    if(CMAKE_MATCH_2)
      add_test(NAME report.${CMAKE_MATCH_2} COMMAND report_test ${CMAKE_MATCH_2})
      set_tests_properties(report.${CMAKE_MATCH_2} PROPERTIES LABELS report TIMEOUT 60)
    endif()
  endforeach()
endforeach()
