# SPDX-License-Identifier: MIT
# No input hangs a command (issue 29): every file or directory argument of
# every `timerharness` command given a FIFO without a writer and /dev/zero,
# each a test inputs.<command>.<argument>.<fifo|zero> (inputs_run.cmake):
# refused within 10 s, naming the argument and the path, with the
# command's bad-input status (docs/cli.md).
if(NOT TARGET timerharness)
  return()
endif()
set(TH_INPUTS_RUN ${CMAKE_CURRENT_SOURCE_DIR}/inputs_run.cmake)
set(_not_file "%IN%: %KIND%, not a regular file")
set(_not_dir "%IN%: %KIND%, not a directory")

# th_input(<command> <argument> <exit> <stderr regex> <args>...): %IN% in args
# and regex is the bad input, %REG% a regular file.
function(th_input cmd arg rc regex)
  string(REGEX REPLACE "^-+" "" _name "${arg}")
  foreach(kind fifo zero)
    set(t inputs.${cmd}.${_name}.${kind})
    add_test(NAME ${t}
      COMMAND ${CMAKE_COMMAND} -DTH=$<TARGET_FILE:timerharness>
              -DWORK=${CMAKE_CURRENT_BINARY_DIR}/inputs/${cmd}-${_name}-${kind} -DKIND=${kind}
              "-DARGS=${ARGN}" -DRC=${rc} "-DREGEX=${regex}" -P ${TH_INPUTS_RUN})
    set_tests_properties(${t} PROPERTIES TIMEOUT 30)
  endforeach()
endfunction()

th_input(trace file 2 "^timerharness trace: ${_not_file}\n$" trace %IN%)
th_input(reach --binary 2 "^timerharness reach: --binary ${_not_file}\n$"
         reach --binary %IN% --function f)
if(TARGET th_bench)
  th_input(bench --json 2 "--json %IN%: exists and is not a regular file" bench --quick --json %IN%)
endif()
# The commands cli/CMakeLists.txt builds in, on the same conditions.
set(_matrix TARGET th_loops AND TARGET th_report AND TARGET th_cfi AND TARGET th_expect
    AND TARGET th_registry AND TARGET th_manifest)
if(${_matrix})
  th_input(matrix --expect 2 "^timerharness matrix: --expect ${_not_file}\n$"
           matrix --expect %IN%)
  th_input(matrix --build-root 2 "^timerharness matrix: --build-root ${_not_dir}\n$"
           matrix --build-root %IN%)
  th_input(matrix --out 2 "^timerharness matrix: --out ${_not_dir}\n$" matrix --out %IN%)
  foreach(arg --results --baseline --expect)
    th_input(check ${arg} 2 "^timerharness check: ${arg} ${_not_file}\n$" check ${arg} %IN%)
  endforeach()
  th_input(check --kernel 2 "^timerharness check: --kernel ${_not_dir}\n$" check --kernel %IN%)
  # --json: the refusal is in the document too, and on standard error.
  th_input(check json 2 "^timerharness check: --results ${_not_file}\n$"
           check --json --results %IN%)
  th_input(merge file 2 "^timerharness merge: ${_not_file}\n$" merge %IN% --out out)
  th_input(merge --out 2 "^timerharness merge: --out ${_not_dir}\n$" merge %REG% --out %IN%)
  th_input(report --results 2 "^timerharness report: --results ${_not_file}\n$"
           report --format md --results %IN%)
  th_input(report --out 2 "^timerharness report: --out .*not a regular file"
           report --format md --results %REG% --out %IN%)
endif()
if(${_matrix} AND TARGET th-fuzz-all)
  foreach(arg --fuzz --fuzz-only --fuzz-expect --fuzz-plan)
    th_input(check ${arg} 2 "^timerharness check: ${arg} ${_not_file}\n$" check ${arg} %IN%)
  endforeach()
  th_input(check --build-root 2 "^timerharness check: --build-root ${_not_dir}\n$"
           check --build-root %IN%)
  foreach(arg --build-root --seeds --out)
    th_input(fuzz ${arg} 2 "^timerharness fuzz: ${arg} ${_not_dir}\n$" fuzz ${arg} %IN%)
  endforeach()
endif()
if(TARGET th_kernel AND TARGET th_loops AND TARGET th_report)
  foreach(arg --bzimage --dotconfig --vmlinux)
    # Your own kernel's other files good; the later value of an option wins.
    th_input(kernel ${arg} 2 "^timerharness kernel: ${arg} ${_not_file}\n$"
             kernel --bzimage %REG% --dotconfig %REG% --name kcfi --out out ${arg} %IN%)
  endforeach()
  foreach(arg --build --out)
    th_input(kernel ${arg} 2 "^timerharness kernel: ${arg} ${_not_dir}\n$" kernel ${arg} %IN%)
  endforeach()
  th_input(kernel classify 2 "^timerharness kernel classify: ${_not_file}\n$"
           kernel classify --cell X --token t %IN%)
endif()
