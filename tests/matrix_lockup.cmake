# SPDX-License-Identifier: MIT
# The soft lockup is proven, not waited for (runner/child.h, lockup_func):
#  - a cell whose overwrite leaves TIMER_MIGRATING set spins in the model's
#    v4.14 lock_timer_base(): HANG, with the runner's proof as evidence
#    ("soft lockup: spinning in lock_timer_base+0x..");
#  - the runner's SELFTEST_HANG spins elsewhere: it is not a lockup, and
#    reaches the time limit ("no exit after");
#  - with --lockup-ms 0 the same spin is a HANG by the time limit.
# Behaviour only: no test of how long anything took.
#   cmake -DTH=timerharness -DPY=python3 -DBUILD=<build dir> -DOUT=<dir> -P matrix_lockup.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})

function(run_matrix dir)
  execute_process(COMMAND ${TH} matrix --build-root ${BUILD} --out ${OUT}/${dir} --quiet
                          --timeout 2 --jobs 2 ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "matrix ${ARGN} exited ${rc}\n${out}\n${err}")
  endif()
  # The cells, a line each (tests/cells.py: string(JSON) would parse the
  # whole document at each GET).
  execute_process(COMMAND ${PY} ${CMAKE_CURRENT_LIST_DIR}/cells.py ${OUT}/${dir}/results.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE tsv ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OUT}/${dir}/results.json: ${err}")
  endif()
  string(REGEX REPLACE "\n$" "" tsv "${tsv}")
  string(REPLACE "\n" ";" lines "${tsv}")
  set(lines "${lines}" PARENT_SCOPE)
endfunction()

# cell(<line> <prefix>): <prefix>_a (attack), _v (variant), _o (outcome),
# _ev (evidence) of a line of cells.py.
macro(cell line prefix)
  string(REPLACE "\t" ";" _f "${line}")
  list(GET _f 0 _key)
  list(GET _f 1 ${prefix}_o)
  list(GET _f 2 ${prefix}_ev)
  string(REPLACE "|" ";" _key "${_key}")
  list(GET _key 0 ${prefix}_a)
  list(GET _key 1 ${prefix}_v)
endmacro()

# The evidence of the cell of @attack (first match) into @var.
function(cell_evidence attack var)
  foreach(line IN LISTS lines)
    cell("${line}" c)
    if(c_a STREQUAL attack)
      set(${var} "${c_o}: ${c_ev}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no cell ${attack}")
endfunction()

run_matrix(selftest --config none --variant modern --attack SELFTEST_HANG --selftests)
cell_evidence(SELFTEST_HANG ev)
message("SELFTEST_HANG: ${ev}")
if(NOT ev MATCHES "^HANG: no exit after " OR ev MATCHES "soft lockup")
  message(FATAL_ERROR "a spin outside lock_timer_base was taken for a lockup: ${ev}")
endif()

# Only a build with randstruct has cells whose overwrite lands on .flags
# (clang-14 has no -frandomize-layout-seed): without one, the rest is
# skipped, said (SKIP_REGULAR_EXPRESSION in tests/matrix.cmake).
file(READ ${BUILD}/th-manifest.tsv manifest)
if(NOT manifest MATCHES "\nattack\t[^\t]+\trandstruct\t[^\t]+\t[^\t]+\t[^\t]+\tbuilt\t")
  message("SKIP: this build has no randstruct attack binary, so no cell spins in lock_timer_base")
  return()
endif()

# Under randstruct (seeds 1-5) .flags lies under some overflows; whether the
# bytes written there set TIMER_MIGRATING depends on ASLR for most of them,
# so which runs spin varies from run to run (docs/variants.md), and a cell
# is HANG only when none of its seeds crashed: a whole randstruct run has
# had 0-6 such cells. Up to five runs until one has some; each HANG cell
# must carry the runner's proof, never the time limit's "no exit after".
set(hangs 0)
foreach(try 1 2 3 4 5)
  run_matrix(spin${try} --config randstruct)
  foreach(line IN LISTS lines)
    cell("${line}" c)
    set(o ${c_o})
    if(o STREQUAL "HANG")
      set(ev "${c_ev}")
      set(a ${c_a})
      set(v ${c_v})
      message("${a} ${v}: ${ev}")
      if(NOT ev MATCHES "^seed [0-9]: soft lockup: spinning in lock_timer_base(\\.[^+]*)?\\+0x[0-9a-f]+ ")
        message(FATAL_ERROR "${a} ${v}: the lockup was not proven: ${ev}")
      endif()
      math(EXPR hangs "${hangs} + 1")
      set(one ${a})
      set(one_variant ${v})
    endif()
  endforeach()
  if(hangs GREATER 0)
    break()
  endif()
endforeach()
if(hangs EQUAL 0)
  message(FATAL_ERROR "no randstruct cell spun in five runs (ASLR): ${OUT}/spin*/results.json")
endif()

run_matrix(off --config randstruct --variant ${one_variant} --attack ${one} --lockup-ms 0)
cell_evidence(${one} ev)
if(ev MATCHES "soft lockup")
  message(FATAL_ERROR "--lockup-ms 0 still probed: ${ev}")
endif()
