# The gate's three exit statuses on a real run: 0 as run, 1 on a doctored
# copy (a BLOCKED_CFI cell turned HIJACKED), 2 on a corrupt or wrong-schema file;
# then every renderer through `timerharness report`.
#   -DTH=timerharness -DBUILD=<build dir> -DOUT=<dir>
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${TH} matrix --build-root ${BUILD} --out ${OUT} --quiet
                        --config none,cfi-icall --variant modern --attack MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "matrix exited ${rc}\n${out}\n${err}")
endif()
function(expect_check file rc_want regex)
  execute_process(COMMAND ${TH} check --results ${file} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL ${rc_want} OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "check ${file} ${ARGN}: exit ${rc} (want ${rc_want}), output must match '${regex}':\n${out}${err}")
  endif()
endfunction()
expect_check(${OUT}/results.json 0 "0 regression")
expect_check(${OUT}/results.json 0 "0 regression" --baseline ${OUT}/results.json)

file(READ ${OUT}/results.json json)
string(FIND "${json}" "\"outcome\": \"BLOCKED_CFI\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no BLOCKED_CFI cell to doctor: modern cfi-icall func:write_cr4 was not blocked")
endif()
string(SUBSTRING "${json}" 0 ${at} head)
math(EXPR tail_at "${at} + 24")	# length of "outcome": "BLOCKED_CFI"
string(SUBSTRING "${json}" ${tail_at} -1 tail)
file(WRITE ${OUT}/doctored.json "${head}\"outcome\": \"HIJACKED\"${tail}")
expect_check(${OUT}/doctored.json 1 "regression: MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4 modern/cfi-icall")
# The untouched run, judged against the doctored one as baseline, is fine.
expect_check(${OUT}/results.json 0 "0 regression" --baseline ${OUT}/doctored.json)

string(SUBSTRING "${json}" 0 200 trunc)
file(WRITE ${OUT}/corrupt.json "${trunc}")
expect_check(${OUT}/corrupt.json 2 "not JSON")
string(REPLACE "timerharness/results/v1" "timerharness/results/v9" wrong "${json}")
file(WRITE ${OUT}/wrong-schema.json "${wrong}")
expect_check(${OUT}/wrong-schema.json 2 "schema")
expect_check(${OUT}/missing.json 2 "missing.json")
expect_check(${OUT}/results.json 2 "corrupt.json" --baseline ${OUT}/corrupt.json)

# Every renderer, through the real command, reads the same run.
foreach(fmt md html junit sarif ktap matrix)
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
