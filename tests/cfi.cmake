# SPDX-License-Identifier: MIT
#
# Tests of cfi/ and runner/ (included from tests/CMakeLists.txt, after every
# folder: paths are relative to this file). One add_test per case;
# tests/cfi_test.c (`th-cfi-test <case> [args]`) and tests/cfi_binread_test.c.
# A case that needs what this toolchain lacks exits 77: CTest shows it skipped.

if(TARGET PkgConfig::CMOCKA)
  set(_th_cmocka PkgConfig::CMOCKA)
else()
  find_library(TH_CMOCKA_LIB cmocka)
  find_path(TH_CMOCKA_INCLUDE cmocka.h)
  if(TH_CMOCKA_LIB AND TH_CMOCKA_INCLUDE)
    add_library(th_cfi_cmocka INTERFACE)
    target_include_directories(th_cfi_cmocka INTERFACE ${TH_CMOCKA_INCLUDE})
    target_link_libraries(th_cfi_cmocka INTERFACE ${TH_CMOCKA_LIB})
    set(_th_cmocka th_cfi_cmocka)
  else()
    message(WARNING "cmocka not found: cfi tests not built (apt-get install libcmocka-dev)")
    set(_th_cmocka "")
  endif()
endif()

# A function, not return(): this file may be include()d by tests/CMakeLists.txt.
function(_th_cfi_tests)

add_executable(th-cfi-test ${CMAKE_CURRENT_LIST_DIR}/cfi_test.c)
target_link_libraries(th-cfi-test PRIVATE th_cfi th_runner ${_th_cmocka})
target_compile_options(th-cfi-test PRIVATE ${TH_WARN_FLAGS})
set_target_properties(th-cfi-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")

function(th_cfi_test name)
  add_test(NAME cfi.${name} COMMAND th-cfi-test ${ARGN})
  set_tests_properties(cfi.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS cfi)
endfunction()

# ---- the classifier on canned observations ---------------------------------------------
foreach(case
    config_table classify_target_chosen classify_chosen_in_argument classify_foreign_token
    classify_timeout classify_asan_overflow classify_asan_wrong_exit classify_asan_wrong_pid
    classify_asan_segv classify_ubsan_bounds classify_fortify_field classify_glibc_fortify
    classify_detected_control classify_cfi_diag_untraced classify_exit_nonzero
    classify_exit0_no_done classify_done_legit classify_done_legit_wrong
    classify_done_nonzero_exit classify_asan_line_ends classify_asan_line_ends_cut
    classify_target_unchosen classify_crash_after_target classify_privileged_state
    classify_fault_after_target classify_asan_fault_after_target classify_target_then_exit
    cr4_gp_rules classify_gp_mov_cr4
    classify_harness_error classify_evidence_truncated classify_fuzz
    fortify_macro_in_range fortify_macro_field_overflow runner_exec_fails runner_ptrace_denied
    runner_no_idle)
  th_cfi_test(${case} ${case})
endforeach()

# ---- crafted children (tests/cfi_forge.c) through the runner and the classifier --------
# Which forgery runs under which config: none for what a payload prints, the
# CFI configs for the checks (cfi-icall in trap and diag mode, kcfi).
set(_th_test_bin "${CMAKE_BINARY_DIR}/tests")
set(_th_forge_none fake-chosen fake-token nul-line fake-diag fake-asan asan-cut huge legit
  lost-timer cr4-write segv wild-jump)
set(_th_forge_cfi-icall bad-call legit-trap fake-trap-line trap-elsewhere cfi-elsewhere)
set(_th_forge_cfi-icall-diag bad-call legit-trap cfi-elsewhere)
set(_th_forge_kcfi bad-call legit-trap fake-trap-line trap-elsewhere cfi-elsewhere)
set(_th_forge_asan segv)
foreach(config IN LISTS TH_CONFIGS)
  if(NOT DEFINED _th_forge_${config})
    continue()
  endif()
  th_config_supported(${config} _ok _why)
  if(_ok)
    add_executable(th-cfi-forge-${config} ${CMAKE_CURRENT_LIST_DIR}/cfi_forge.c)
    target_link_libraries(th-cfi-forge-${config} PRIVATE th_cfi_runtime)
    target_compile_options(th-cfi-forge-${config} PRIVATE ${TH_WARN_FLAGS})
    th_config_apply(th-cfi-forge-${config} ${config} -)
    set_target_properties(th-cfi-forge-${config} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY "${_th_test_bin}")
  endif()
  foreach(mode IN LISTS _th_forge_${config})
    string(REPLACE "-" "_" _fn "forge_${mode}")
    if(_ok)
      th_cfi_test(forge.${config}.${mode} ${_fn} $<TARGET_FILE:th-cfi-forge-${config}> ${config})
    else()
      th_cfi_test(forge.${config}.${mode} skip "${config}: ${_why}")
    endif()
  endforeach()
endforeach()

# ---- the binary reader (binread/binread.h) on this toolchain's attack binaries ----------
add_executable(th-binread-test ${CMAKE_CURRENT_LIST_DIR}/cfi_binread_test.c)
target_link_libraries(th-binread-test PRIVATE th_binread ${_th_cmocka})
target_compile_options(th-binread-test PRIVATE ${TH_WARN_FLAGS})
set_target_properties(th-binread-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${_th_test_bin}")
function(th_binread_test name)
  add_test(NAME cfi.binread.${name} COMMAND th-binread-test ${ARGN})
  set_tests_properties(cfi.binread.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS cfi)
endfunction()
# The check each config puts at call_timer_fn (th_config_scheme, cfi/configs.cmake):
# every config built once per toolchain (randstruct's builds are per seed).
foreach(config IN LISTS TH_CONFIGS)
  th_config_field(${config} cflags _raw)
  if(_raw MATCHES "@SEED@")
    continue()
  endif()
  th_config_scheme(${config} _scheme)
  foreach(variant legacy transitional modern)
    if(TARGET th-attack-${variant}-${config})
      th_binread_test(site.${variant}.${config} site $<TARGET_FILE:th-attack-${variant}-${config}>
        ${variant} ${config} ${_scheme} ${PROJECT_SOURCE_DIR}/timer_core)
      # tasklet_action_common's calls, one check each (tests/cfi_binread_test.c tasklet_site).
      th_binread_test(tasklet.${variant}.${config} tasklet_site $<TARGET_FILE:th-attack-${variant}-${config}>
        ${variant} ${config} ${_scheme})
    else()
      th_config_supported(${config} _ok _why)
      th_binread_test(site.${variant}.${config} skip "${config}: ${_why}")
      th_binread_test(tasklet.${variant}.${config} skip "${config}: ${_why}")
    endif()
  endforeach()
endforeach()
# The decoded check against behaviour: every attack of each CFI binary, traced.
th_configs_type_cfi(_th_type_cfi)
foreach(config IN LISTS _th_type_cfi)
  foreach(variant legacy transitional modern)
    if(TARGET th-attack-${variant}-${config})
      th_cfi_test(binread.agrees.${variant}.${config} reader_agrees
        $<TARGET_FILE:th-attack-${variant}-${config}>)
    else()
      th_config_supported(${config} _ok _why)
      th_cfi_test(binread.agrees.${variant}.${config} skip "${config}: ${_why}")
    endif()
  endforeach()
endforeach()
# Two static functions of one name, and a switch: built here, no config.
add_executable(th-binread-dup ${CMAKE_CURRENT_LIST_DIR}/cfi_binread_dup.c
  ${CMAKE_CURRENT_BINARY_DIR}/cfi_binread_dup_b.c)
# file(CONFIGURE) writes it only when its text changes: file(WRITE) at every
# configure (scripts/build configures on each build) made every build after
# the first recompile and relink th-binread-dup.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/cfi_binread_dup_b.c
  CONTENT "#define TH_DUP_MAIN 1\n#define TH_DUP_SIDE b\n#include \"${CMAKE_CURRENT_LIST_DIR}/cfi_binread_dup.c\"\n")
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cfi_binread_dup.c PROPERTIES
  COMPILE_DEFINITIONS "TH_DUP_SIDE=a;TH_DUP_MAIN=0")
target_compile_options(th-binread-dup PRIVATE -O2 ${TH_WARN_FLAGS})
set_target_properties(th-binread-dup PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${_th_test_bin}")
# A stripped copy of the none attack binary.
add_custom_command(OUTPUT ${_th_test_bin}/th-binread-stripped
  COMMAND ${CMAKE_OBJCOPY} --strip-all $<TARGET_FILE:th-attack-legacy-none> ${_th_test_bin}/th-binread-stripped
  DEPENDS th-attack-legacy-none VERBATIM)
# (The target is not named as the file: Ninja refuses a phony target that is
# also an output's path.)
add_custom_target(th-binread-stripped-copy ALL DEPENDS ${_th_test_bin}/th-binread-stripped)
th_binread_test(not-elf not_elf)
th_binread_test(stripped stripped ${_th_test_bin}/th-binread-stripped)
th_binread_test(no-function no_function $<TARGET_FILE:th-attack-legacy-none>)
th_binread_test(no-cfi no_cfi $<TARGET_FILE:th-attack-legacy-none>)
th_binread_test(duplicate duplicate $<TARGET_FILE:th-binread-dup>)
th_binread_test(switch-table switch_table $<TARGET_FILE:th-binread-dup>)
th_binread_test(cache cache $<TARGET_FILE:th-attack-legacy-none>)

# ---- the field-spanning write check vs glibc's whole-object FORTIFY ------------------
add_executable(th-cfi-fortify-field ${CMAKE_CURRENT_LIST_DIR}/cfi_fortify_target.c)
add_executable(th-cfi-fortify-glibc ${CMAKE_CURRENT_LIST_DIR}/cfi_fortify_target.c)
foreach(t th-cfi-fortify-field th-cfi-fortify-glibc)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_options(${t} PRIVATE ${TH_WARN_FLAGS})
  set_target_properties(${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${_th_test_bin}")
endforeach()
th_config_apply(th-cfi-fortify-field fortify -)
target_compile_options(th-cfi-fortify-glibc PRIVATE -O2 -g -D_FORTIFY_SOURCE=3)
th_cfi_test(fortify.field-check-catches fortify_field_catches
  $<TARGET_FILE:th-cfi-fortify-field>)
th_cfi_test(fortify.glibc-misses-field fortify_glibc_misses_field
  $<TARGET_FILE:th-cfi-fortify-glibc>)
th_cfi_test(fortify.glibc-catches-object fortify_glibc_catches_object
  $<TARGET_FILE:th-cfi-fortify-glibc>)

# ---- probe judge on real probe runs ---------------------------------------------------
# Each accepted config must pass its probes, except the one measured gap:
# -fsanitize=function does nothing in C before clang 17 (the judge must say so).
# Negative control: th-probe-none passes no check.
foreach(config IN LISTS TH_CONFIGS)
  th_config_field(${config} probes _probes)
  string(REPLACE "," ";" _probes "${_probes}")
  th_config_supported(${config} _ok _why)
  foreach(check IN LISTS _probes)
    if(NOT _ok)
      th_cfi_test(probe.${config}.${check} skip "${config}: ${_why}")
      continue()
    endif()
    set(_expect 1)
    # The one expectation from the compiler's version: the function
    # sanitizer checks C calls from clang 17 (the judge finds out by running).
    if(check STREQUAL "function" AND TH_CLANG_MAJOR LESS 17)
      set(_expect 0)
    endif()
    set(_paths $<TARGET_FILE:th-probe-${config}>)
    if(TARGET th-probe-${config}-seed2)
      list(APPEND _paths $<TARGET_FILE:th-probe-${config}-seed2>)
    endif()
    th_cfi_test(probe.${config}.${check} probe_judge ${check} ${config} ${_expect} ${_paths})
  endforeach()
endforeach()
foreach(check IN LISTS TH_PROBE_CHECKS)
  th_cfi_test(probe.none-control.${check} probe_judge ${check} none 0
    $<TARGET_FILE:th-probe-none>)
endforeach()
endfunction()

if(_th_cmocka)
  _th_cfi_tests()
endif()
