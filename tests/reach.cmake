# SPDX-License-Identifier: MIT
#
# Tests of CFI's reach (cfi/reach.h) and `timerharness reach`, on this
# toolchain's attack binaries. Included by tests/CMakeLists.txt.
# One add_test per case and binary; a case that needs what this toolchain
# lacks exits 77 (skipped).

find_library(TH_REACH_CMOCKA_LIB cmocka)
find_path(TH_REACH_CMOCKA_INCLUDE cmocka.h)
if(NOT TARGET th_reach OR NOT TH_REACH_CMOCKA_LIB OR NOT TH_REACH_CMOCKA_INCLUDE)
  message(WARNING "th_reach or cmocka missing: reach tests not built")
  return()
endif()
if(NOT DEFINED TH_RUN_EXPECT)
  set(TH_RUN_EXPECT ${PROJECT_SOURCE_DIR}/tests/run_expect.cmake)
endif()

add_executable(th-reach-test ${CMAKE_CURRENT_LIST_DIR}/reach_test.c)
target_include_directories(th-reach-test PRIVATE ${TH_REACH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
target_link_libraries(th-reach-test PRIVATE th_reach ${TH_REACH_CMOCKA_LIB})
target_compile_options(th-reach-test PRIVATE ${TH_WARN_FLAGS})
set_target_properties(th-reach-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")

function(th_reach_test name)
  add_test(NAME reach.${name} COMMAND th-reach-test ${ARGN})
  set_tests_properties(reach.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS reach)
endfunction()

# The check each config puts at call_timer_fn (as tests/cfi.cmake):
# -fsanitize=function checks C calls from clang 17.
set(_th_reach_fn_scheme none)
if(TH_CLANG_MAJOR GREATER_EQUAL 17)
  set(_th_reach_fn_scheme function)
endif()
foreach(config none cfi-icall cfi-icall-diag cfi-icall-generalized defence-in-depth kcfi fsanitize-function)
  set(_scheme none)
  if(config MATCHES "^cfi-icall|^defence-in-depth$")
    set(_scheme cfi-icall)
  elseif(config STREQUAL "kcfi")
    set(_scheme kcfi)
  elseif(config STREQUAL "fsanitize-function")
    set(_scheme ${_th_reach_fn_scheme})
  endif()
  foreach(variant legacy transitional modern)
    if(TARGET th-attack-${variant}-${config})
      th_reach_test(set.${variant}.${config} set $<TARGET_FILE:th-attack-${variant}-${config}>
        ${variant} ${config} ${_scheme})
      set(_prot protected)
      if(_scheme STREQUAL "none")
        set(_prot unprotected)
      endif()
      th_reach_test(verify.${variant}.${config} verify
        $<TARGET_FILE:th-attack-${variant}-${config}> ${_prot})
    else()
      th_config_supported(${config} _ok _why)
      th_reach_test(set.${variant}.${config} skip "${config}: ${_why}")
      th_reach_test(verify.${variant}.${config} skip "${config}: ${_why}")
    endif()
  endforeach()
endforeach()

# ---- `timerharness reach` ----------------------------------------------------------
set(_th_reach_cli $<TARGET_FILE:timerharness>;reach)
add_test(NAME reach.cli.cfi-icall
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;$<TARGET_FILE:th-attack-legacy-cfi-icall>;--function;call_timer_fn"
          -DRC=0 "-DSTDOUT_REGEX=cfi-icall: target in the jump table of _ZTSFvmE.*can reach [0-9]+ of [0-9]+ functions, 1 privileged.* write_cr4  \\[privileged\\]  \\(body write_cr4.cfi"
          -P ${TH_RUN_EXPECT})
if(TARGET th-attack-modern-kcfi)
  add_test(NAME reach.cli.kcfi
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;$<TARGET_FILE:th-attack-modern-kcfi>;--function;call_timer_fn"
            -DRC=0 "-DSTDOUT_REGEX=kcfi: hash 0x[0-9a-f]+ at target-4.*, 0 privileged\n.*prb_retire_rx_blk_timer_expired"
            -P ${TH_RUN_EXPECT})
endif()
add_test(NAME reach.cli.no-cfi
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;$<TARGET_FILE:th-attack-legacy-none>;--function;call_timer_fn"
          -DRC=2 "-DSTDERR_REGEX=th-attack-legacy-none: no CFI: no check guards the indirect calls of call_timer_fn"
          -P ${TH_RUN_EXPECT})
add_test(NAME reach.cli.stripped
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;${CMAKE_BINARY_DIR}/tests/th-binread-stripped;--function;call_timer_fn"
          -DRC=2 "-DSTDERR_REGEX=th-binread-stripped: no .symtab \\(a stripped binary\\)"
          -P ${TH_RUN_EXPECT})
add_test(NAME reach.cli.no-function
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;$<TARGET_FILE:th-attack-legacy-cfi-icall>;--function;call_timer"
          -DRC=2 "-DSTDERR_REGEX=no function named exactly 'call_timer'"
          -P ${TH_RUN_EXPECT})
add_test(NAME reach.cli.not-elf
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;${CMAKE_CURRENT_LIST_DIR}/reach.cmake;--function;f"
          -DRC=2 "-DSTDERR_REGEX=reach.cmake: not an ELF file" -P ${TH_RUN_EXPECT})
add_test(NAME reach.cli.usage
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;x"
          -DRC=2 "-DSTDERR_REGEX=--binary FILE and --function NAME are required" -P ${TH_RUN_EXPECT})

# ---- the static set proven by behaviour: aimed attacks (tests/reach_agree_test.c) ----
if(TARGET th_cfi)
  add_executable(th-reach-agree-test ${CMAKE_CURRENT_LIST_DIR}/reach_agree_test.c)
  target_include_directories(th-reach-agree-test PRIVATE ${TH_REACH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
  target_link_libraries(th-reach-agree-test PRIVATE th_reach th_cfi ${TH_REACH_CMOCKA_LIB})
  target_compile_options(th-reach-agree-test PRIVATE ${TH_WARN_FLAGS})
  set_target_properties(th-reach-agree-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  foreach(config none cfi-icall cfi-icall-diag cfi-icall-generalized defence-in-depth kcfi fsanitize-function)
    foreach(variant legacy transitional modern)
      if(TARGET th-attack-${variant}-${config})
        add_test(NAME reach.agree.${variant}.${config}
          COMMAND th-reach-agree-test $<TARGET_FILE:th-attack-${variant}-${config}> ${config})
      else()
        th_config_supported(${config} _ok _why)
        add_test(NAME reach.agree.${variant}.${config} COMMAND th-reach-agree-test skip "${config}: ${_why}")
      endif()
      set_tests_properties(reach.agree.${variant}.${config} PROPERTIES
        SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS reach)
    endforeach()
  endforeach()
endif()

# ---- the results' reach section: JSON, strict loading, rendering --------------------
if(TARGET th_report)
  add_executable(th-reach-report-test ${CMAKE_CURRENT_LIST_DIR}/reach_report_test.c)
  target_include_directories(th-reach-report-test PRIVATE ${TH_REACH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
  target_link_libraries(th-reach-report-test PRIVATE th_report ${TH_REACH_CMOCKA_LIB})
  target_compile_options(th-reach-report-test PRIVATE ${TH_WARN_FLAGS})
  set_target_properties(th-reach-report-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  foreach(case roundtrip absent doctored answer)
    add_test(NAME reach.report.${case} COMMAND th-reach-report-test ${case})
    set_tests_properties(reach.report.${case} PROPERTIES TIMEOUT 60 LABELS reach)
  endforeach()
endif()

# ---- the matrix writes the section (tests/reach_matrix.cmake) ------------------------
if(TARGET th_reach_collect AND TARGET th-attack-legacy-cfi-icall)
  add_test(NAME reach.matrix
    COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness> -DBUILD=${CMAKE_BINARY_DIR}
            -DOUT=${CMAKE_BINARY_DIR}/tests/reach-matrix-out -P ${CMAKE_CURRENT_LIST_DIR}/reach_matrix.cmake)
  set_tests_properties(reach.matrix PROPERTIES TIMEOUT 300 LABELS reach)
endif()
