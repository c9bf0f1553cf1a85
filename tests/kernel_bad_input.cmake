# SPDX-License-Identifier: MIT
# `timerharness kernel` on bad input and on a boot loop driven by a stand-in
# QEMU (data/kernel/fake-qemu): exit statuses, messages, time limits, and
# that nothing already in --out is lost. -DTH -DDATA -DWORK.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/out)
file(WRITE ${WORK}/out/results.json "{\"kept\": true}\n")

function(fake_build dir cfi unit)
  file(MAKE_DIRECTORY ${dir}/arch/x86/boot ${dir}/include/config)
  file(WRITE ${dir}/arch/x86/boot/bzImage "not a kernel\n")
  file(WRITE ${dir}/include/config/kernel.release "6.1.192\n")
  set(c "# Linux/x86 6.1.192 Kernel Configuration\nCONFIG_CC_VERSION_TEXT=\"Debian clang version 22.1.8\"\nCONFIG_CLANG_VERSION=220108\n")
  if(cfi)
    string(APPEND c "CONFIG_CFI_CLANG=y\n")
  else()
    string(APPEND c "# CONFIG_CFI_CLANG is not set\n")
  endif()
  if(unit)
    string(APPEND c "CONFIG_TIMERHARNESS=y\n")
  endif()
  file(WRITE ${dir}/.config "${c}")
endfunction()

# run(<name> <want-exit> <regex on stdout+stderr> args...)
function(run name want regex)
  # kernel/kernels.tsv's 6.1 kernels: <build>/6.1/<config>/.
  set(args ${ARGN})
  list(GET args 0 first)
  if(NOT first STREQUAL "classify")
    list(PREPEND args --release 6.1)
  endif()
  execute_process(COMMAND ${TH} kernel ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL want)
    message(SEND_ERROR "${name}: exit ${rc}, want ${want}\n${out}${err}")
  elseif(NOT "${out}${err}" MATCHES "${regex}")
    message(SEND_ERROR "${name}: output does not match '${regex}':\n${out}${err}")
  endif()
  file(READ ${WORK}/out/results.json kept)
  if(NOT kept STREQUAL "{\"kept\": true}\n" AND want STREQUAL "2")
    message(SEND_ERROR "${name}: bad input changed ${WORK}/out/results.json")
  endif()
endfunction()

fake_build(${WORK}/good/6.1/kcfi TRUE TRUE)
fake_build(${WORK}/good/6.1/none FALSE TRUE)
# kernels.tsv's 6.1 kcfi-smp: the kcfi kernel built with CONFIG_SMP.
fake_build(${WORK}/good/6.1/kcfi-smp TRUE TRUE)
file(APPEND ${WORK}/good/6.1/kcfi-smp/.config "CONFIG_SMP=y\n")
file(WRITE ${WORK}/good/initramfs.cpio "")
fake_build(${WORK}/nounit/6.1/kcfi TRUE FALSE)
fake_build(${WORK}/nounit/6.1/none FALSE FALSE)
file(WRITE ${WORK}/nounit/initramfs.cpio "")
fake_build(${WORK}/lost/6.1/kcfi FALSE TRUE)
fake_build(${WORK}/lost/6.1/none FALSE TRUE)
file(WRITE ${WORK}/lost/initramfs.cpio "")
# CONFIG_CFI_PERMISSIVE reports and calls on: never kcfi, and none may be one.
fake_build(${WORK}/permissive/6.1/kcfi TRUE TRUE)
file(APPEND ${WORK}/permissive/6.1/kcfi/.config "CONFIG_CFI_PERMISSIVE=y\n")
fake_build(${WORK}/permissive/6.1/none TRUE TRUE)
file(APPEND ${WORK}/permissive/6.1/none/.config "CONFIG_CFI_PERMISSIVE=y\n")
file(WRITE ${WORK}/permissive/initramfs.cpio "")

run(unknown_option 2 "unknown argument '--bogus'" --bogus)
run(no_build 2 "bzImage: No such file or directory.*make kernel" --build ${WORK}/absent --out ${WORK}/out)
run(no_qemu 2 "not found or not executable.*qemu-system-x86" --build ${WORK}/good --qemu ${WORK}/no-such-qemu --out ${WORK}/out)
run(no_unit 2 "CONFIG_TIMERHARNESS is not y: this kernel has no timerharness unit" --build ${WORK}/nounit --out ${WORK}/out)
run(lost_defence 2 "config kcfi without CONFIG_CFI_CLANG=y: the defence is lost" --build ${WORK}/lost --out ${WORK}/out)
run(cells_none 2 "selects no cell" --build ${WORK}/good --cells 'NOPE*' --out ${WORK}/out)
run(config_none 2 "names no config" --build ${WORK}/good --config nope --out ${WORK}/out)
run(own_partial 2 "needs --bzimage, --dotconfig and --name together" --bzimage ${WORK}/good/6.1/kcfi/arch/x86/boot/bzImage)
run(permissive_kcfi 2 "kcfi/.config: config kcfi with CONFIG_CFI_PERMISSIVE=y: .*blocks nothing \\(judge it as none"
    --build ${WORK}/permissive --out ${WORK}/out)
# As none it is taken (refused here only for want of a QEMU, which comes later).
run(permissive_none 2 "not found or not executable" --build ${WORK}/permissive --config none
    --qemu ${WORK}/no-such-qemu --out ${WORK}/out)
run(classify_args 2 "needs a LOG" classify --cell X)
# A console from anywhere: the cell and token from its own kernel command line.
run(classify_own_args 0 "^BLOCKED_CFI\tCFI failure at call_timer_fn.*cell MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4, token 9fc476cc34de5222: from its kernel command line"
    classify ${DATA}/console/kcfi-MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4.log)
run(classify_no_token 2 "no \"Kernel command line:\" with timerharness.token= on the console: name it \\(--token\\)"
    classify ${DATA}/console/hostile-garbage.log)
file(READ ${DATA}/console/kcfi-MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4.log one)
file(READ ${DATA}/console/kcfi-MEMCPY_INTRA_PENDING_FUNC_SAME_CLASS.log two)
file(WRITE ${WORK}/two-boots.log "${one}${two}")
run(classify_two_boots 2 "boots with timerharness.cell=MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 and timerharness.cell=MEMCPY_INTRA_PENDING_FUNC_SAME_CLASS: name the one to classify \\(--cell\\)"
    classify ${WORK}/two-boots.log)
run(classify_one_of_two 0 "^REDIRECTED\tcall_timer_fn called th_neighbour_release"
    classify --cell MEMCPY_INTRA_PENDING_FUNC_SAME_CLASS --token 2c04a3b0e0c3eb54 ${WORK}/two-boots.log)
run(classify_end 2 "--end is exited, timeout or failed" classify --cell X --token t --end sideways ${WORK}/out/results.json)
# Standard input that never ends is cut, said, not read until memory runs out.
execute_process(COMMAND ${TH} kernel classify --cell X --token t - INPUT_FILE /dev/zero TIMEOUT 30
                RESULT_VARIABLE rc ERROR_VARIABLE e OUTPUT_QUIET)
if(NOT rc STREQUAL "2" OR NOT e MATCHES "^timerharness kernel classify: standard input: more than 64 MiB: not one boot's console")
  message(SEND_ERROR "classify_stdin_zero: exit ${rc}, want 2 and the limit said:\n${e}")
endif()
# A results.json that does not load is said before any boot, and kept.
run(results_bad 2 "results.json" --build ${WORK}/good --qemu ${DATA}/fake-qemu --out ${WORK}/out)
file(GLOB_RECURSE booted ${WORK}/out/kernel/*.log)
if(booted)
  message(SEND_ERROR "results_bad: booted before refusing: ${booted}")
endif()

# Your own kernel's --name is a config of kernel/configs/, checked before any
# boot (exit 2): nothing booted or written, though --out holds results a boot
# would join (the kcfi run first shows it would), no file outside --out for
# a name with a path in it; a name or a .config's release with a control
# character is printed escaped (\x1b), never raw.
string(ASCII 27 esc)
file(WRITE ${WORK}/good/esc.config "# Linux/x86 6.1.192${esc}[2J Kernel Configuration\nCONFIG_CLANG_VERSION=220108\nCONFIG_TIMERHARNESS=y\nCONFIG_CFI_CLANG=y\n")
function(named name want regex)
  set(out ${WORK}/named/out)
  file(REMOVE_RECURSE ${WORK}/named)
  file(MAKE_DIRECTORY ${out})
  file(COPY_FILE ${DATA}/../report/small.json ${out}/results.json)
  execute_process(COMMAND ${TH} kernel --bzimage ${WORK}/good/6.1/kcfi/arch/x86/boot/bzImage
                          --dotconfig ${WORK}/good/6.1/kcfi/.config --build ${WORK}/good
                          --qemu ${DATA}/fake-qemu --out ${out} --cells MEMCPY_INTRA_PENDING_NONE
                          --timeout 5 ${ARGN}
                  TIMEOUT 60 RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc STREQUAL want)
    message(SEND_ERROR "${name}: exit ${rc}, want ${want}\n${o}${e}")
  elseif(NOT "${o}${e}" MATCHES "${regex}")
    message(SEND_ERROR "${name}: output does not match '${regex}':\n${o}${e}")
  endif()
  if("${o}${e}" MATCHES "${esc}")
    message(SEND_ERROR "${name}: a raw ESC in the output:\n${o}${e}")
  endif()
  # Whatever the end, the lock it took is gone (docs/outputs.md).
  if(EXISTS ${out}/.timerharness.lock)
    message(SEND_ERROR "${name}: ${out}/.timerharness.lock left behind")
  endif()
  file(GLOB_RECURSE logs ${WORK}/named/*.log)
  if(want STREQUAL "0" AND NOT logs)
    message(SEND_ERROR "${name}: the control booted nothing: the refusals below prove nothing")
  elseif(NOT want STREQUAL "0")
    if(logs)
      message(SEND_ERROR "${name}: booted before refusing: ${logs}")
    endif()
    file(READ ${out}/results.json after)
    file(READ ${DATA}/../report/small.json before)
    if(NOT after STREQUAL before)
      message(SEND_ERROR "${name}: bad input changed ${out}/results.json")
    endif()
  endif()
endfunction()
named(name_control 0 "kernel: kcfi: linux-6.1.192" --name kcfi)
named(name_unknown 2 "--name 'asan' is not a kernel config of [^\n]*configs \\(fineibt, kcfi, kcfi-smp, none\\)" --name asan)
named(name_path 2 "--name '../escaped': a config's name, not a path" --name ../escaped)
named(name_dotdot 2 "--name '..': a config's name, not a path" --name ..)
named(name_escaped 2 "--name 'x\\\\x1b\\[31m' is not a kernel config" --name "x${esc}[31m")
named(release_escaped 2 "esc.config: kernel release '6.1.192\\\\x1b\\[2J' is not one a platform is named by"
      --name kcfi --dotconfig ${WORK}/good/esc.config)
# A release no platform can be named by is said before the boots, not when
# their cells are added.
file(WRITE ${WORK}/good/paren.config "# Linux/x86 6.1.192(x) Kernel Configuration\nCONFIG_CLANG_VERSION=220108\nCONFIG_TIMERHARNESS=y\nCONFIG_CFI_CLANG=y\n")
named(release_unnamed 2 "paren.config: kernel release '6.1.192\\(x\\)' is not one a platform is named by \\(linux-<release>"
      --name kcfi --dotconfig ${WORK}/good/paren.config)
# An initramfs QEMU would wait on (a FIFO) is refused before any boot.
file(MAKE_DIRECTORY ${WORK}/fifo-initrd)
execute_process(COMMAND mkfifo ${WORK}/fifo-initrd/initramfs.cpio)
named(initrd_fifo 2 "fifo-initrd/initramfs.cpio: a FIFO, not a regular file" --name kcfi
      --build ${WORK}/fifo-initrd)
