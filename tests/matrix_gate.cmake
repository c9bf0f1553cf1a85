# The gate on a real run: 0 as run; 1 on a doctored copy (a BLOCKED_CFI cell
# turned HIJACKED), on a slice or a partial run not allowed; 2 when a stored
# expectation was edited, when the run used other expectations, on an empty,
# corrupt or wrong-schema file, and when its verdicts cannot be written; then
# every renderer through `timerharness report`.
#   -DTH=timerharness -DBUILD=<build dir> -DOUT=<dir>
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
set(cut --config none,cfi-icall --variant modern --attack MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4)
execute_process(COMMAND ${TH} matrix --build-root ${BUILD} --out ${OUT} --quiet ${cut}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "matrix exited ${rc}\n${out}\n${err}")
endif()
function(expect_check file rc_want regex)
  execute_process(COMMAND ${TH} check --results ${file} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # Lines wrapped at 80 columns read as one.
  string(REPLACE "\n  " " " out "${out}")
  if(NOT rc EQUAL ${rc_want} OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "check ${file} ${ARGN}: exit ${rc} (want ${rc_want}), output must match '${regex}':\n${out}${err}")
  endif()
endfunction()
# doctor(<name> <from> <to>): results.json with the first <from> replaced.
function(doctor name from to)
  string(FIND "${json}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "nothing to doctor: no '${from}' in ${OUT}/results.json")
  endif()
  string(LENGTH "${from}" len)
  string(SUBSTRING "${json}" 0 ${at} head)
  math(EXPR tail_at "${at} + ${len}")
  string(SUBSTRING "${json}" ${tail_at} -1 tail)
  file(WRITE ${OUT}/${name}.json "${head}${to}${tail}")
endfunction()

expect_check(${OUT}/results.json 0 "check: 2 cells \\(SLICE: configs none,cfi-icall; variants modern; attacks MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4\\): 2 pass, 0 regression" --allow-slice)
expect_check(${OUT}/results.json 0 "0 regression" --allow-slice --baseline ${OUT}/results.json)
# A slice is never judged as the whole plan.
expect_check(${OUT}/results.json 1 "missing: MEMCPY_INTRA_BEFORE_ARM_NONE legacy/none/.*slice: the run was asked for part of the plan only")

file(READ ${OUT}/results.json json)
doctor(doctored "\"outcome\": \"BLOCKED_CFI\"" "\"outcome\": \"HIJACKED\"")
# Its counts still say BLOCKED_CFI: the regression is named, and the cell is
# doctored (an outcome no run observed), which is bad input (exit 2).
expect_check(${OUT}/doctored.json 2 "regression: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/cfi-icall.*doctored: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/cfi-icall/[^:]*: outcome HIJACKED is not among its counts" --allow-slice)
# The untouched run, judged against the doctored one as baseline, is fine.
expect_check(${OUT}/results.json 0 "0 regression" --allow-slice --baseline ${OUT}/doctored.json)
# The regression hidden by editing its expectation as well: named, bad input.
doctor(hidden "\"expected\": \"BLOCKED_CFI\"" "\"expected\": null")
file(READ ${OUT}/hidden.json json)
doctor(hidden "\"outcome\": \"BLOCKED_CFI\"" "\"outcome\": \"HIJACKED\"")
expect_check(${OUT}/hidden.json 2 "doctored: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/cfi-icall/[^:]*: stored expected none, declared BLOCKED_CFI \\([^)]*expected.tsv:[0-9]+\\).*1 regression" --allow-slice)
file(READ ${OUT}/results.json json)
# A hand-set "partial" does not make missing cells acceptable.
doctor(partial "\"partial\": false,\n  \"interrupted\": null" "\"partial\": true,\n  \"interrupted\": \"by hand\"")
expect_check(${OUT}/partial.json 1 "partial: the run was interrupted; partial results pass only with --allow-partial" --allow-slice)
# No cells at all: no result.
string(REGEX REPLACE "\"cells\": \\[.*\\]\n}" "\"cells\": []\n}" empty "${json}")
file(WRITE ${OUT}/empty.json "${empty}")
expect_check(${OUT}/empty.json 2 "no cells: an empty run is no result" --allow-slice)
# A verdict nobody can read is no verdict.
execute_process(COMMAND ${TH} check --results ${OUT}/results.json --allow-slice
                OUTPUT_FILE /dev/full RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot write the verdicts: No space left on device")
  message(FATAL_ERROR "check with stdout on /dev/full: exit ${rc} (want 2)\n${err}")
endif()
# Nor is a run whose verdict screen was lost: exit 4, its files whole.
execute_process(COMMAND ${TH} matrix --build-root ${BUILD} --out ${OUT}/full ${cut}
                OUTPUT_FILE /dev/full RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 4 OR NOT err MATCHES "matrix: standard output: No space left on device \\(the files in [^ ]*/full are written\\)"
   OR NOT EXISTS ${OUT}/full/results.json)
  message(FATAL_ERROR "matrix with stdout on /dev/full: exit ${rc} (want 4)\n${err}")
endif()

# The run judged by lenient expectations (matrix --expect): the run records
# them, and check judges by the checkout's.
file(WRITE ${OUT}/lenient.tsv "# anything goes\n*\t*\t*\t*\tHIJACKED\tlenient\n")
execute_process(COMMAND ${TH} matrix --build-root ${BUILD} --out ${OUT}/lenient --quiet ${cut}
                        --expect ${OUT}/lenient.tsv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "matrix --expect lenient.tsv exited ${rc}\n${out}\n${err}")
endif()
expect_check(${OUT}/lenient/results.json 2 "expectations: the run judged its cells by [^ ]*lenient.tsv \\(sha256 [0-9a-f]+\\), check by [^ ]*expected.tsv" --allow-slice)
expect_check(${OUT}/lenient/results.json 0 "0 regression" --allow-slice --expect ${OUT}/lenient.tsv)

string(SUBSTRING "${json}" 0 200 trunc)
file(WRITE ${OUT}/corrupt.json "${trunc}")
expect_check(${OUT}/corrupt.json 2 "not JSON")
string(REPLACE "timerharness/results/v1" "timerharness/results/v9" wrong "${json}")
file(WRITE ${OUT}/wrong-schema.json "${wrong}")
expect_check(${OUT}/wrong-schema.json 2 "schema")
expect_check(${OUT}/missing.json 2 "missing.json")
expect_check(${OUT}/results.json 2 "corrupt.json" --baseline ${OUT}/corrupt.json)

# Every renderer, through the real command, reads the same run.
foreach(fmt md html junit sarif ktap matrix codequality)
  execute_process(COMMAND ${TH} report --results ${OUT}/results.json --format ${fmt} --out ${OUT}/report.${fmt}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  file(SIZE ${OUT}/report.${fmt} size)
  if(NOT rc EQUAL 0 OR size EQUAL 0)
    message(FATAL_ERROR "report --format ${fmt}: exit ${rc}, ${size} bytes\n${err}")
  endif()
endforeach()
file(READ ${OUT}/report.ktap ktap)
if(NOT ktap MATCHES "^KTAP version 1\n" OR NOT ktap MATCHES "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4")
  message(FATAL_ERROR "report.ktap is not KTAP naming the cell:\n${ktap}")
endif()
