# SPDX-License-Identifier: MIT
# The real-kernel leg's host side, without a kernel: the console classifier
# on captured Linux 6.1 boots and on hostile consoles made from them
# (tests/data/kernel/console: NAME.log, NAME.want; update with
#   python3 tests/kernel_console.py build/clang-22/cli/timerharness tests/data/kernel/console --update
# and read the diff; the forged-* and made-* consoles are made from the real
# ones by python3 tests/kernel_console_forge.py tests/data/kernel/console),
# the plan's parser, the command's bad input, and its
# boot loop driven by a stand-in QEMU (kernel_loop.cmake).
# The boots themselves are `make kernel` (.ci/run runs it after make test).
if(TARGET timerharness AND TARGET th_kernel)
  add_test(NAME kernel.console_goldens
    COMMAND ${TH_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel_console.py
            $<TARGET_FILE:timerharness> ${CMAKE_CURRENT_SOURCE_DIR}/data/kernel/console)
  add_test(NAME kernel.bad_input
    COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness>
            -DDATA=${CMAKE_CURRENT_SOURCE_DIR}/data/kernel -DWORK=${CMAKE_CURRENT_BINARY_DIR}/kernel_bad
            -P ${CMAKE_CURRENT_SOURCE_DIR}/kernel_bad_input.cmake)
  add_test(NAME kernel.boot_loop
    COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness>
            -DDATA=${CMAKE_CURRENT_SOURCE_DIR}/data/kernel -DWORK=${CMAKE_CURRENT_BINARY_DIR}/kernel_loop
            -DBUILD_ROOT=${CMAKE_BINARY_DIR} -DTOOLCHAIN=${TIMERHARNESS_TOOLCHAIN}
            -DSRC=${CMAKE_SOURCE_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/kernel_loop.cmake)
  set_tests_properties(kernel.boot_loop PROPERTIES TIMEOUT 120 LABELS kernel)
endif()
