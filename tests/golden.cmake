# SPDX-License-Identifier: MIT
# Byte-exact goldens of every report format (tests/golden.py): a case of
# tests/golden/cases.tsv a test, each format of `timerharness report` equal
# to tests/golden/report/<case>/. `make golden` records them again.
if(NOT TARGET timerharness)
  return()
endif()

file(STRINGS ${CMAKE_SOURCE_DIR}/tests/golden/cases.tsv _golden_lines)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/golden/cases.tsv)
foreach(line IN LISTS _golden_lines)
  if(line MATCHES "^#" OR line STREQUAL "")
    continue()
  endif()
  string(REGEX MATCH "^[^\t]+" _case "${line}")
  add_test(NAME golden.report.${_case}
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/golden.py check --th $<TARGET_FILE:timerharness>
            --case ${_case})
endforeach()
