# SPDX-License-Identifier: MIT
#
# Tests of CFI's reach (cfi/target_set.h) and `timerharness reach`, on this
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

# The check each config puts at call_timer_fn (th_config_scheme, cfi/configs.cmake):
# the baseline and every type-based CFI config (configs.tsv's scheme).
th_configs_type_cfi(_th_type_cfi)
foreach(config none ${_th_type_cfi})
  th_config_scheme(${config} _scheme)
  foreach(variant legacy transitional modern)
    if(TARGET th-attack-${variant}-${config})
      th_reach_test(set.${variant}.${config} set $<TARGET_FILE:th-attack-${variant}-${config}>
        ${variant} ${config} ${_scheme})
      # tasklet_action_common's calls, each its own check's set (tests/reach_test.c tasklet).
      th_reach_test(tasklet.${variant}.${config} tasklet $<TARGET_FILE:th-attack-${variant}-${config}>
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
      th_reach_test(tasklet.${variant}.${config} skip "${config}: ${_why}")
      th_reach_test(verify.${variant}.${config} skip "${config}: ${_why}")
    endif()
  endforeach()
endforeach()

# llvm-cfi-verify's output fetched ahead (the matrix's reach section) is what
# a run of its own gives, read once; a file changed since is run again.
if(TARGET th-attack-legacy-cfi-icall)
  th_reach_test(verify.prefetch prefetch $<TARGET_FILE:th-attack-legacy-cfi-icall>
    ${CMAKE_CURRENT_BINARY_DIR}/reach-prefetch-copy)
else()
  th_reach_test(verify.prefetch skip "no cfi-icall build")
endif()

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
# A branch decides on the target only through flags the function set
# (tests/reach_flags.c, hand-made): a je on the entry's flags, or on flags a
# shift rewrote after the compare, then ud2, then jmp rax, is no check (this
# binary has no CFI tables: "no CFI", exit 2); the compare on the target is.
set(_rf_bin ${CMAKE_BINARY_DIR}/tests/th-reach-flags)
add_custom_command(OUTPUT ${_rf_bin}
  COMMAND ${CMAKE_C_COMPILER} -nostdlib -static -fno-pic -fno-pie -o ${_rf_bin}
          ${CMAKE_CURRENT_LIST_DIR}/reach_flags.c
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/reach_flags.c VERBATIM)
# (Targets here are not named as their files: Ninja refuses a phony target
# that is also an output's path.)
add_custom_target(th-reach-flags-bin ALL DEPENDS ${_rf_bin})
foreach(fn entry_flags clobbered)
  add_test(NAME reach.cli.flags.${fn}
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;${_rf_bin};--function;${fn}" -DRC=2
            "-DSTDERR_REGEX=th-reach-flags: no CFI: no check guards the indirect calls of ${fn}"
            -P ${TH_RUN_EXPECT})
endforeach()
add_test(NAME reach.cli.flags.cmp_set
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;${_rf_bin};--function;cmp_set" -DRC=0
          "-DSTDOUT_REGEX=check: cfi-icall: .*; ud2 at 0x" -P ${TH_RUN_EXPECT})
th_reach_test(flags flags ${_rf_bin})
set_tests_properties(reach.cli.flags.entry_flags reach.cli.flags.clobbered reach.cli.flags.cmp_set
  PROPERTIES LABELS reach TIMEOUT 60)

# ---- the static set proven by behaviour: aimed attacks (tests/reach_agree_test.c) ----
if(TARGET th_cfi)
  add_executable(th-reach-agree-test ${CMAKE_CURRENT_LIST_DIR}/reach_agree_test.c)
  target_include_directories(th-reach-agree-test PRIVATE ${TH_REACH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
  target_link_libraries(th-reach-agree-test PRIVATE th_reach th_cfi ${TH_REACH_CMOCKA_LIB})
  target_compile_options(th-reach-agree-test PRIVATE ${TH_WARN_FLAGS})
  set_target_properties(th-reach-agree-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  foreach(config none ${_th_type_cfi})
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
      # tasklet_action_common's call the aimed tasklet overwrite goes through.
      # Under defence-in-depth none lands: fortify stops tasklet-memcpy-intra
      # (a field-spanning memcpy), bounds stops hso-index.
      if(config STREQUAL "defence-in-depth")
        add_test(NAME reach.agree.tasklet.${variant}.${config}
          COMMAND th-reach-agree-test skip "${config}: no tasklet overwrite lands (fortify stops tasklet-memcpy-intra, bounds hso-index): its set is held by reach.tasklet.* and cfi-icall's agreement")
      elseif(TARGET th-attack-${variant}-${config})
        add_test(NAME reach.agree.tasklet.${variant}.${config}
          COMMAND th-reach-agree-test $<TARGET_FILE:th-attack-${variant}-${config}> ${config}
                  tasklet ${variant})
      else()
        add_test(NAME reach.agree.tasklet.${variant}.${config}
          COMMAND th-reach-agree-test skip "${config}: ${_why}")
      endif()
      set_tests_properties(reach.agree.tasklet.${variant}.${config} PROPERTIES
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
  foreach(case roundtrip absent doctored answer platform oldfile tasklet)
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

# th_reach_collect() and th_reach_collect_vmlinux() into a results file
# (tests/reach_collect_test.c): the model's binaries below, a kernel-like one
# where this compiler builds it.
if(TARGET th_reach_collect)
  add_executable(th-reach-collect-test ${CMAKE_CURRENT_LIST_DIR}/reach_collect_test.c)
  target_include_directories(th-reach-collect-test PRIVATE ${TH_REACH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
  target_link_libraries(th-reach-collect-test PRIVATE th_reach_collect ${TH_REACH_CMOCKA_LIB})
  target_compile_options(th-reach-collect-test PRIVATE ${TH_WARN_FLAGS})
  set_target_properties(th-reach-collect-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
endif()

# ---- what a vmlinux needs, on a small binary laid out as one ---------------------------
# tests/reach_kernel_like.c (+ .ld): ET_EXEC with no PT_LOAD mapping the
# header, -mcmodel=kernel at 0xffffffff81000000, the traps in __kcfi_traps;
# again with retpolines (calls through __x86_indirect_thunk_<reg>), and with
# a 64 GiB executable segment of which the file holds a page. The kcfi
# attack binary with a second .kcfi_traps section (llvm-objcopy) is the
# heap overflow's regression. Built and read by th-reach-san-test: the
# reader compiled with AddressSanitizer and UndefinedBehaviorSanitizer
# (no qsort(NULL, 0), no write past an array), every error fatal.
set(_kl_src ${CMAKE_CURRENT_LIST_DIR}/reach_kernel_like.c)
set(_kl_flags -O2 -fsanitize=kcfi -ffreestanding -fno-pic -fno-pie -fno-asynchronous-unwind-tables
  -nostdlib -static -fuse-ld=lld -Wl,-T,${CMAKE_CURRENT_LIST_DIR}/reach_kernel_like.ld)
set(_kl_kernel -mcmodel=kernel -Wl,--defsym,BASE=0xffffffff81000000,--defsym,BIG=0)
set(_kl_bin ${CMAKE_BINARY_DIR}/tests)
# Can this compiler build it (kcfi: clang 16; lld)? Asked once per configure.
execute_process(COMMAND ${CMAKE_C_COMPILER} ${_kl_flags} ${_kl_kernel}
                        -o ${CMAKE_CURRENT_BINARY_DIR}/th-reach-kl-probe ${_kl_src}
                RESULT_VARIABLE _kl_rc ERROR_VARIABLE _kl_err OUTPUT_QUIET)
string(REGEX REPLACE "\n.*" "" _kl_err "${_kl_err}")
set(_kl_cases kernel-like kernel-like.retpoline kernel-like.retpoline-labels big-segment doubled
  kcfi-traps-twice)
if(NOT _kl_rc EQUAL 0 OR NOT TARGET th-attack-modern-kcfi)
  foreach(case ${_kl_cases})
    th_reach_test(${case} skip "${CMAKE_C_COMPILER} cannot build a kcfi kernel-like binary: ${_kl_err}")
  endforeach()
else()
  add_custom_command(OUTPUT ${_kl_bin}/th-reach-kernel-like
    COMMAND ${CMAKE_C_COMPILER} ${_kl_flags} ${_kl_kernel} -o ${_kl_bin}/th-reach-kernel-like ${_kl_src}
    DEPENDS ${_kl_src} ${CMAKE_CURRENT_LIST_DIR}/reach_kernel_like.ld VERBATIM)
  add_custom_command(OUTPUT ${_kl_bin}/th-reach-kernel-like-retpoline
    COMMAND ${CMAKE_C_COMPILER} ${_kl_flags} ${_kl_kernel} -DTH_RETPOLINE -mretpoline-external-thunk
            -o ${_kl_bin}/th-reach-kernel-like-retpoline ${_kl_src}
    DEPENDS ${_kl_src} ${CMAKE_CURRENT_LIST_DIR}/reach_kernel_like.ld VERBATIM)
  add_custom_command(OUTPUT ${_kl_bin}/th-reach-kernel-like-retpoline-labels
    COMMAND ${CMAKE_C_COMPILER} ${_kl_flags} ${_kl_kernel} -DTH_RETPOLINE -DTH_RETPOLINE_LABELS
            -mretpoline-external-thunk -o ${_kl_bin}/th-reach-kernel-like-retpoline-labels ${_kl_src}
    DEPENDS ${_kl_src} ${CMAKE_CURRENT_LIST_DIR}/reach_kernel_like.ld VERBATIM)
  add_custom_command(OUTPUT ${_kl_bin}/th-reach-kernel-like-big
    COMMAND ${CMAKE_C_COMPILER} ${_kl_flags} -Wl,--defsym,BASE=0x400000,--defsym,BIG=0x1000000000
            -o ${_kl_bin}/th-reach-kernel-like-big ${_kl_src}
    DEPENDS ${_kl_src} ${CMAKE_CURRENT_LIST_DIR}/reach_kernel_like.ld VERBATIM)
  add_custom_command(OUTPUT ${_kl_bin}/th-reach-kcfi-traps-twice
    COMMAND ${CMAKE_OBJCOPY} --dump-section .kcfi_traps=${_kl_bin}/th-reach-kcfi-traps.bin
            $<TARGET_FILE:th-attack-modern-kcfi> ${_kl_bin}/th-reach-kcfi-traps-once
    COMMAND ${CMAKE_OBJCOPY} --add-section .kcfi_traps=${_kl_bin}/th-reach-kcfi-traps.bin
            $<TARGET_FILE:th-attack-modern-kcfi> ${_kl_bin}/th-reach-kcfi-traps-twice
    DEPENDS th-attack-modern-kcfi VERBATIM)
  add_custom_target(th-reach-kernel-like-bins ALL DEPENDS ${_kl_bin}/th-reach-kernel-like
    ${_kl_bin}/th-reach-kernel-like-retpoline ${_kl_bin}/th-reach-kernel-like-retpoline-labels
    ${_kl_bin}/th-reach-kernel-like-big
    ${_kl_bin}/th-reach-kcfi-traps-twice)

  pkg_check_modules(TH_REACH_SAN_LIBS REQUIRED IMPORTED_TARGET libelf capstone)
  add_executable(th-reach-san-test ${CMAKE_CURRENT_LIST_DIR}/reach_test.c
    ${PROJECT_SOURCE_DIR}/binread/binread_elf.c ${PROJECT_SOURCE_DIR}/binread/binread_x86.c
    ${PROJECT_SOURCE_DIR}/cfi/target_set.c ${PROJECT_SOURCE_DIR}/cfi/reach_verify.c ${PROJECT_SOURCE_DIR}/lib/stats.c
    ${PROJECT_SOURCE_DIR}/lib/fs.c)
  target_include_directories(th-reach-san-test PRIVATE ${TH_REACH_CMOCKA_INCLUDE} ${PROJECT_SOURCE_DIR})
  target_compile_options(th-reach-san-test PRIVATE ${TH_WARN_FLAGS} -O1 -fno-omit-frame-pointer
    -fsanitize=address,undefined -fno-sanitize-recover=all)
  target_link_options(th-reach-san-test PRIVATE -fsanitize=address,undefined)
  target_link_libraries(th-reach-san-test PRIVATE PkgConfig::TH_REACH_SAN_LIBS ${TH_REACH_CMOCKA_LIB})
  set_target_properties(th-reach-san-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  function(th_reach_san_test name)
    add_test(NAME reach.${name} COMMAND th-reach-san-test ${ARGN})
    set_tests_properties(reach.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS reach)
  endfunction()
  th_reach_san_test(kernel-like kernel_like ${_kl_bin}/th-reach-kernel-like plain)
  th_reach_san_test(kernel-like.retpoline kernel_like ${_kl_bin}/th-reach-kernel-like-retpoline retpoline)
  # 6.12's thunks: labels inside __x86_indirect_thunk_array, not functions.
  th_reach_san_test(kernel-like.retpoline-labels kernel_like
    ${_kl_bin}/th-reach-kernel-like-retpoline-labels retpoline-labels)
  th_reach_san_test(big-segment big_segment ${_kl_bin}/th-reach-kernel-like-big)
  th_reach_san_test(doubled doubled ${_kl_bin}/th-reach-kernel-like)
  th_reach_san_test(kcfi-traps-twice traps_twice ${_kl_bin}/th-reach-kcfi-traps-twice
    ${_kl_bin}/th-reach-kcfi-traps-once)
  th_reach_san_test(flags.sanitized flags ${_rf_bin})
  set_tests_properties(reach.big-segment reach.doubled PROPERTIES TIMEOUT 20)
  # The command on it: a kernel's privileged names by default (linux_banner),
  # the container-confusion candidates and what their containers give.
  add_test(NAME reach.cli.kernel-like
    COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;${_kl_bin}/th-reach-kernel-like;--function;call_timer_fn"
            -DRC=0 "-DSTDOUT_REGEX=can reach 3 of [0-9]+ functions, 0 privileged.*one hop further: delayed_fn calls \\*\\(arg0 - 16\\) at 0x[0-9a-f]+ \\(kcfi\\), which can reach commit_creds\n    container confusion: 3 members .*process_timeout: wake_up_process\\(rdi = \\*\\(arg0 \\+ 40\\)\\)"
            -P ${TH_RUN_EXPECT})
  add_test(NAME reach.cli.escape
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_cli.py escape $<TARGET_FILE:timerharness>
            ${CMAKE_OBJCOPY} ${_kl_bin}/th-reach-kernel-like ${_kl_bin}/th-reach-escape)
  set_tests_properties(reach.cli.kernel-like reach.cli.escape PROPERTIES LABELS reach TIMEOUT 60)
  # The kernel command's way into results.json (th_reach_collect_vmlinux),
  # the file then validated against docs/schema.
  if(TARGET th-reach-collect-test)
    set(_kl_results ${CMAKE_BINARY_DIR}/tests/reach-collect-results.json)
    add_test(NAME reach.collect.vmlinux
      COMMAND th-reach-collect-test ${_kl_bin}/th-reach-kernel-like ${_kl_results})
    add_test(NAME reach.collect.schema
      COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_cli.py schema ${_kl_results}
              ${PROJECT_SOURCE_DIR}/docs/schema)
    set_tests_properties(reach.collect.vmlinux PROPERTIES FIXTURES_SETUP th_reach_collect)
    set_tests_properties(reach.collect.schema PROPERTIES FIXTURES_REQUIRED th_reach_collect)
    set_tests_properties(reach.collect.vmlinux reach.collect.schema PROPERTIES LABELS reach TIMEOUT 60)
  endif()
endif()

# ---- every family's dispatch into results.json (th_reach_collect) -------------------------
# The tasklet's calls as each generation makes them: legacy func, transitional
# callback and func (one `call rax` behind two checks under cfi-icall: each
# its own check's set), modern callback; the file then validated against
# docs/schema.
if(TARGET th-reach-collect-test)
  foreach(config none ${_th_type_cfi})
    if(TARGET th-attack-legacy-${config} AND TARGET th-attack-transitional-${config}
       AND TARGET th-attack-modern-${config})
      th_config_scheme(${config} _scheme)
      set(_mr ${CMAKE_BINARY_DIR}/tests/reach-collect-model-${config}.json)
      add_test(NAME reach.collect.model.${config}
        COMMAND th-reach-collect-test model ${config} ${_scheme} $<TARGET_FILE:th-attack-legacy-${config}>
                $<TARGET_FILE:th-attack-transitional-${config}> $<TARGET_FILE:th-attack-modern-${config}> ${_mr})
      add_test(NAME reach.collect.model.${config}.schema
        COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_cli.py schema-tasklet ${_mr}
                ${PROJECT_SOURCE_DIR}/docs/schema)
      set_tests_properties(reach.collect.model.${config} PROPERTIES FIXTURES_SETUP th_reach_model_${config})
      set_tests_properties(reach.collect.model.${config}.schema PROPERTIES FIXTURES_REQUIRED th_reach_model_${config})
      set_tests_properties(reach.collect.model.${config} reach.collect.model.${config}.schema
        PROPERTIES LABELS reach TIMEOUT 60)
    endif()
  endforeach()
endif()

# --privileged keeps every name: the 70th marks write_cr4.
set(_many "")
foreach(i RANGE 1 69)
  string(APPEND _many "not_privileged_${i},")
endforeach()
add_test(NAME reach.cli.privileged-many
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_th_reach_cli};--binary;$<TARGET_FILE:th-attack-legacy-cfi-icall>;--function;call_timer_fn;--privileged;${_many}write_cr4"
          -DRC=0 "-DSTDOUT_REGEX=1 privileged.* write_cr4  \\[privileged\\]" -P ${TH_RUN_EXPECT})
set_tests_properties(reach.cli.privileged-many PROPERTIES LABELS reach TIMEOUT 60)

# ---- a real kCFI vmlinux, when one is given ---------------------------------------------
# A vmlinux cannot be committed: point -DTIMERHARNESS_VMLINUX=FILE (or, when
# the test runs, $TH_VMLINUX) at one built with clang and CONFIG_CFI_CLANG;
# without either, the kcfi vmlinux `make kernel` built (build/kernel/6.1/kcfi).
# tests/reach_vmlinux_check.py reads the __cfi_ preambles and the check's
# hash with llvm-nm and llvm-objdump and compares reach's set with theirs;
# without a vmlinux it prints the reason and is skipped.
set(TIMERHARNESS_VMLINUX "" CACHE FILEPATH "a kCFI Linux vmlinux for the reach.vmlinux test")
find_program(TH_LLVM_OBJDUMP NAMES llvm-objdump-${TH_CLANG_MAJOR} llvm-objdump)
find_program(TH_LLVM_NM NAMES llvm-nm-${TH_CLANG_MAJOR} llvm-nm)
# make kernel's own vmlinux is taken only by a toolchain whose llvm-objdump
# reads kCFI's checks (clang >= 16, as kcfi itself): clang-14's does not.
set(_th_kernel_vmlinux "")
if(TH_CLANG_MAJOR GREATER_EQUAL 16)
  set(_th_kernel_vmlinux "${PROJECT_SOURCE_DIR}/build/kernel/6.1/kcfi/vmlinux")
endif()
if(TH_LLVM_OBJDUMP AND TH_LLVM_NM)
  add_test(NAME reach.vmlinux
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_vmlinux_check.py
            --th $<TARGET_FILE:timerharness> --objdump ${TH_LLVM_OBJDUMP} --nm ${TH_LLVM_NM}
            "--vmlinux=${TIMERHARNESS_VMLINUX}"
            "--kernel-build=${_th_kernel_vmlinux}")
  # tasklet_action_common's two calls, each its own hash's set.
  add_test(NAME reach.vmlinux.tasklet
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_vmlinux_check.py
            --th $<TARGET_FILE:timerharness> --objdump ${TH_LLVM_OBJDUMP} --nm ${TH_LLVM_NM}
            "--vmlinux=${TIMERHARNESS_VMLINUX}"
            "--kernel-build=${_th_kernel_vmlinux}" --function tasklet_action_common)
else()
  add_test(NAME reach.vmlinux COMMAND th-reach-test skip "llvm-objdump or llvm-nm not found")
  add_test(NAME reach.vmlinux.tasklet COMMAND th-reach-test skip "llvm-objdump or llvm-nm not found")
endif()
set_tests_properties(reach.vmlinux reach.vmlinux.tasklet PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
  LABELS reach)

# ---- speed: a generated binary of tens of thousands of functions ------------------------
# tests/reach_perf.py generates and compiles it once per build tree (tests/
# reach-perf/), then times reach (median of 5 runs): 40000 kcfi functions,
# all of the timer's type (every one a member whose code is read), and 60000
# without CFI (the "no CFI" answer). A regression to quadratic work exceeds
# the limit by far (these took 35 s and 16 s before). Not RUN_SERIAL: the
# medians are 0.71 s and 0.16 s against limits of 8 s and 5 s (quiet, one
# run each), so a test running beside them cannot bring them near; in a
# fresh tree their time is compiling the generated sources, which then
# overlaps the other tests (issue 18).
if(_kl_rc EQUAL 0)
  add_test(NAME reach.perf.kcfi-40k
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_perf.py --cc ${CMAKE_C_COMPILER}
            --th $<TARGET_FILE:timerharness> --dir ${CMAKE_BINARY_DIR}/tests/reach-perf
            --functions 40000 --share 1 --cfi kcfi --runs 5 --limit 8)
else()
  th_reach_test(perf.kcfi-40k skip "${CMAKE_C_COMPILER} cannot build kcfi: ${_kl_err}")
endif()
add_test(NAME reach.perf.nocfi-60k
  COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/reach_perf.py --cc ${CMAKE_C_COMPILER}
          --th $<TARGET_FILE:timerharness> --dir ${CMAKE_BINARY_DIR}/tests/reach-perf
          --functions 60000 --cfi none --runs 5 --limit 5)
set_tests_properties(reach.perf.kcfi-40k reach.perf.nocfi-60k PROPERTIES
  TIMEOUT 600 LABELS "reach;perf")
