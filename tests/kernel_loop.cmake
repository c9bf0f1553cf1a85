# SPDX-License-Identifier: MIT
# `timerharness kernel`'s boot loop end to end, without a kernel: a stand-in
# QEMU (data/kernel/fake-qemu) prints what the unit and the kernel would for
# each cell, and the command must classify each boot, keep its console log,
# put the cells beside a model slice's in results.json (the model's cells
# kept as they were), count a boot that never reaches its call as a harness
# error (exit 3), and keep what a slice of cells did not boot.
# -DTH -DDATA -DWORK -DBUILD_ROOT -DTOOLCHAIN -DSRC (the source tree)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# A kernel build as kernel/build leaves it, but a stand-in bzImage: its
# .config the compiler's lines and its fragment's settings
# (kernel/configs/<fragment>.config: CONFIG_CFI_CLANG, CONFIG_SMP, ...).
function(fake_build dir fragment)
  file(MAKE_DIRECTORY ${dir}/arch/x86/boot ${dir}/include/config)
  file(WRITE ${dir}/arch/x86/boot/bzImage "not a kernel\n")
  file(WRITE ${dir}/include/config/kernel.release "6.1.192\n")
  set(c "CONFIG_CC_VERSION_TEXT=\"Debian clang version 22.1.8\"\nCONFIG_CLANG_VERSION=220108\nCONFIG_TIMERHARNESS=y\n")
  file(STRINGS ${SRC}/kernel/configs/${fragment}.config set REGEX "^CONFIG_")
  foreach(line IN LISTS set)
    string(APPEND c "${line}\n")
  endforeach()
  file(WRITE ${dir}/.config "${c}")
endfunction()
# Every 6.1 kernel of kernel/kernels.tsv (release config fragment boot:
# kcfi, none, and kcfi-smp, booted -smp 2, a config of the real kernel only).
set(configs "")
file(STRINGS ${SRC}/kernel/kernels.tsv rows REGEX "^6\\.1\t")
foreach(row IN LISTS rows)
  string(REPLACE "\t" ";" f "${row}")
  list(GET f 2 cfg)
  list(GET f 3 fragment)
  fake_build(${WORK}/build/6.1/${cfg} ${fragment})
  list(APPEND configs ${cfg})
endforeach()
list(LENGTH configs nconfigs)
if(nconfigs LESS 2)
  message(FATAL_ERROR "kernel/kernels.tsv: ${nconfigs} 6.1 kernels, the test needs two or more")
endif()
file(WRITE ${WORK}/build/initramfs.cpio "")

# The model's side: a slice of the matrix, this build's attack binaries.
execute_process(COMMAND ${TH} matrix --build-root ${BUILD_ROOT} --toolchain ${TOOLCHAIN}
                        --config none,kcfi --variant modern --attack MEMCPY_INTRA_PENDING_*
                        --out ${WORK}/out --replace --quiet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the model's slice: exit ${rc}\n${out}${err}")
endif()
file(READ ${WORK}/out/results.json before)
string(JSON nbefore LENGTH "${before}" cells)

set(cells "MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4,MEMCPY_INTRA_PENDING_NONE,MEMCPY_INTRA_PENDING_FUNC_MID_FUNCTION")
execute_process(COMMAND ${TH} kernel --release 6.1 --build ${WORK}/build --qemu ${DATA}/fake-qemu --out ${WORK}/out
                        --cells ${cells} --timeout 2 --jobs 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
  message(SEND_ERROR "a boot that never reached its call is a harness error: exit ${rc}, want 3\n${out}${err}")
endif()
if(NOT err MATCHES "3 cells are HARNESS_ERROR")
  message(SEND_ERROR "the harness errors are not said:\n${err}")
endif()
foreach(cfg IN LISTS configs)
  foreach(c MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 MEMCPY_INTRA_PENDING_NONE MEMCPY_INTRA_PENDING_FUNC_MID_FUNCTION)
    if(NOT EXISTS ${WORK}/out/kernel/6.1/${cfg}/${c}.log)
      message(SEND_ERROR "no console log for ${cfg} ${c}")
    endif()
  endforeach()
endforeach()

# Every cell of the results, "platform config attack outcome".
function(cells_of json var)
  string(JSON n LENGTH "${json}" cells)
  math(EXPR last "${n} - 1")
  set(l "")
  foreach(i RANGE ${last})
    string(JSON p GET "${json}" cells ${i} platform)
    string(JSON cfg GET "${json}" cells ${i} config)
    string(JSON a GET "${json}" cells ${i} attack)
    string(JSON o GET "${json}" cells ${i} outcome)
    list(APPEND l "${p} ${cfg} ${a} ${o}")
  endforeach()
  set(${var} "${l}" PARENT_SCOPE)
endfunction()
file(READ ${WORK}/out/results.json after)
cells_of("${before}" model_before)
cells_of("${after}" all)
foreach(c IN LISTS model_before)
  list(FIND all "${c}" at)
  if(at EQUAL -1)
    message(SEND_ERROR "the model's cell '${c}' was not kept")
  endif()
endforeach()
foreach(want
    "linux-6.1.192 kcfi MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 BLOCKED_CFI"
    "linux-6.1.192 kcfi MEMCPY_INTRA_PENDING_NONE NO_EFFECT"
    "linux-6.1.192 none MEMCPY_INTRA_PENDING_NONE NO_EFFECT"
    "linux-6.1.192 kcfi MEMCPY_INTRA_PENDING_FUNC_MID_FUNCTION HARNESS_ERROR"
    "linux-6.1.192 none MEMCPY_INTRA_PENDING_FUNC_MID_FUNCTION HARNESS_ERROR"
    "linux-6.1.192 kcfi-smp MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 BLOCKED_CFI"
    "linux-6.1.192 kcfi-smp MEMCPY_INTRA_PENDING_FUNC_MID_FUNCTION HARNESS_ERROR")
  list(FIND all "${want}" at)
  if(at EQUAL -1)
    message(SEND_ERROR "no cell '${want}' in results.json:\n${all}")
  endif()
endforeach()
string(JSON nafter LENGTH "${after}" cells)
math(EXPR nwant "${nbefore} + 3 * ${nconfigs}")
if(NOT nafter EQUAL nwant)
  message(SEND_ERROR "${nafter} cells after the boots, want ${nbefore} + 3 cells x ${nconfigs} kernels")
endif()
string(JSON platform GET "${after}" platforms 0 name)
if(NOT platform STREQUAL "linux-6.1.192")
  message(SEND_ERROR "platforms[0] is '${platform}'")
endif()

# A slice of cells boots those alone and keeps the platform's others.
execute_process(COMMAND ${TH} kernel --release 6.1 --build ${WORK}/build --qemu ${DATA}/fake-qemu --out ${WORK}/out
                        --cells MEMCPY_INTRA_PENDING_NONE --timeout 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(SEND_ERROR "the slice: exit ${rc}\n${out}${err}")
endif()
file(READ ${WORK}/out/results.json again)
cells_of("${again}" all2)
if(NOT all2 STREQUAL all)
  message(SEND_ERROR "a slice of cells changed the results' cells:\nbefore: ${all}\nafter: ${all2}")
endif()
