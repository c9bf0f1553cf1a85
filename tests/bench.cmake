# SPDX-License-Identifier: MIT
# bench/: `timerharness bench` works and measures what it says. Not timed:
# no test compares a figure with a speed.
set(_bench $<TARGET_FILE:timerharness>)
set(_bdir ${CMAKE_CURRENT_BINARY_DIR}/bench)
file(MAKE_DIRECTORY ${_bdir})

# Once, in --quick mode: ratios, instructions (callgrind), the JSON file.
add_test(NAME bench.quick
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_bench};bench;--quick;--json;${_bdir}/quick.json"
          -DJSON=${_bdir}/quick.json -DSIZES=2 -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_check.cmake)
set_tests_properties(bench.quick PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE)

# The same bench as a program of its own (how a hardening config's wheel is
# measured): it counts its own instructions.
add_test(NAME bench.own_program
  COMMAND ${CMAKE_COMMAND}
          "-DCMD=$<TARGET_FILE:th-bench-count>;--sizes;300;--reps;1;--order;shuffled;--step;7;--json;${_bdir}/own.json"
          -DJSON=${_bdir}/own.json -DSIZES=1 -P ${CMAKE_CURRENT_SOURCE_DIR}/bench_check.cmake)
set_tests_properties(bench.own_program PROPERTIES TIMEOUT 300)

# Output that cannot be written is an error (exit 3), not a silent success.
add_test(NAME bench.dev_full
  COMMAND ${CMAKE_COMMAND}
          "-DCMD=sh;-c;exec \"$0\" bench --sizes 100 --reps 1 --no-instructions > /dev/full;${_bench}"
          -DRC=3 "-DSTDERR_REGEX=^timerharness bench: cannot write stdout: No space left on device\n$"
          -P ${TH_RUN_EXPECT})
# --json never replaces what is not a regular file, nor aims at a directory
# that cannot take it, and says so before running.
add_test(NAME bench.json_no_dir
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_bench};bench;--json;/nonexistent/x.json" -DRC=2
          "-DSTDERR_REGEX=--json /nonexistent/x.json: cannot create it in /nonexistent"
          -P ${TH_RUN_EXPECT})
add_test(NAME bench.json_not_a_file
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_bench};bench;--json;/dev/null" -DRC=2
          "-DSTDERR_REGEX=--json /dev/null: exists and is not a regular file" -P ${TH_RUN_EXPECT})

# Bad arguments: exit 2 and say what (timerharness bench, th-bench-floor).
set(_floor $<TARGET_FILE:th-bench-floor>)
foreach(case "bad_order|${_bench};bench;--order;random|--order: expected array or shuffled, got 'random'"
              "bad_step|${_bench};bench;--step;0|--step: expected a whole number of jiffies"
              "bad_sizes|${_bench};bench;--sizes;1000,1000|--sizes: 1000 twice"
              "bad_unknown|${_bench};bench;--fast|unknown argument '--fast'"
              "floor_bad_reps|${_floor};--reps;0|--reps: '0' is not a number in range"
              "floor_bad_scale|${_floor};--scale;101|--scale: '101' is not a number in range"
              "floor_unknown|${_floor};--fast|unknown argument '--fast'")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts -1 regex)
  list(REMOVE_AT parts 0 -1)
  add_test(NAME bench.${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=${parts}" -DRC=2 "-DSTDERR_REGEX=${regex}" -P ${TH_RUN_EXPECT})
endforeach()
add_test(NAME bench.json_symlink
  COMMAND ${CMAKE_COMMAND}
          "-DCMD=sh;-c;ln -sfn \"$1\" \"$2\" && exec \"$0\" bench --json \"$2\";${_bench};${_bdir}/target;${_bdir}/link"
          -DSENTINEL=${_bdir}/target -DRC=2 "-DSTDERR_REGEX=/link: exists and is not a regular file"
          -P ${TH_RUN_EXPECT})

# th-bench-floor prints each of its seven figures, a number on each line
# (its bad input: above). The two page figures are differences of two timed
# loops (a child that touches the pages less one that does not): at one
# sample of the smallest scale they can come out below zero, within noise
# (measured: -1.52 us once in a make test), so a sign is allowed there.
set(_num "[0-9]+(\\.[0-9]+)?")
set(_diff "-?[0-9]+(\\.[0-9]+)?")
add_test(NAME bench.floor
  COMMAND ${CMAKE_COMMAND} "-DCMD=${_floor};--reps;1;--scale;1" -DRC=0
          "-DSTDOUT_REGEX=^th-bench-floor: median of 1 samples each[^\n]*\nprocess [^\n]* +${_num} us\nprocesses, two [^\n]* +${_num} a second in all\npage first read [^\n]* +${_diff} us\npage first written [^\n]* +${_diff} us\nptrace stop [^\n]* +${_num} us\nSIGSEGV caught[^\n]* +${_num} us\nsystem call [^\n]* +${_num} us\n$"
          -P ${TH_RUN_EXPECT})
