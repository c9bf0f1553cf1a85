# report.md and report.html gain "Fuzzing campaigns" from fuzz.json beside the
# results (and without one, nothing); an invalid fuzz.json is bad input (2).
#   cmake -DREPORT=report_cli -DRESULTS=results.json -DFUZZ=fuzz.json -DDIR=d -P fuzz_report.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
configure_file(${RESULTS} ${DIR}/results.json COPYONLY)
execute_process(COMMAND ${REPORT} --results ${DIR}/results.json --format md
                RESULT_VARIABLE rc OUTPUT_VARIABLE without ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR without MATCHES "## Fuzzing campaigns" OR NOT without MATCHES "Fuzzing campaigns: not run")
  message(FATAL_ERROR "without fuzz.json: exit ${rc}, section present or error: ${err}")
endif()
configure_file(${FUZZ} ${DIR}/fuzz.json COPYONLY)
foreach(fmt md html)
  execute_process(COMMAND ${REPORT} --results ${DIR}/results.json --format ${fmt}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${fmt}: exit ${rc}: ${err}")
  endif()
  foreach(want "Fuzzing campaigns" "Fuzzing the overwrite \\(fuzz\\.json|<a href=\"#fuzzing\">Fuzzing the overwrite</a>" "never hijacked" "4.14 setup_timer\\(\\): legacy" "4.15 timer_setup\\(\\): modern"
          "WRITE_CR4_VIA_RING_TIMER" "write_cr4\\(0x407f0\\), the argument is the attacker.*s own bytes"
          "CRED_VIA_LIST" "unsupported: clang 14 .* required by kcfi"
          "Verdict\\.(\\*\\*|</strong>) legacy: hijacked through the timer.*s own call on"
          "Verdict\\.(\\*\\*|</strong>) modern: no hijack through the timer.*s own call on")
    if(NOT out MATCHES "${want}")
      message(FATAL_ERROR "${fmt}: no '${want}' in:\n${out}")
    endif()
  endforeach()
endforeach()
file(WRITE ${DIR}/fuzz.json "{\"schema\": \"timerharness/fuzz/v1\"}\n")
execute_process(COMMAND ${REPORT} --results ${DIR}/results.json --format md
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "fuzz.json: missing field")
  message(FATAL_ERROR "invalid fuzz.json: exit ${rc}, stderr: ${err}")
endif()
