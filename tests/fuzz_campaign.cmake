# `timerharness fuzz` end to end on this build: one campaign of one second
# (legacy/none), a summary that loads and that the gate judges.
#   cmake -DTH=timerharness -DCHECK=fuzz_check -DBUILD=dir -DEXPECT=tsv -DTOOLCHAIN=t -DDIR=d -P fuzz_campaign.cmake
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TH} fuzz --build-root ${BUILD} --toolchain ${TOOLCHAIN} --variant legacy
                        --config none --time 1 --jobs 1 --seed 1 --out ${DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz: exit ${rc}\n${out}\n${err}")
endif()
if(NOT err MATCHES "fuzz: [0-9]+s 1/1 done, 0 running \\| [0-9]+ execs" OR NOT err MATCHES "wrote ${DIR}/fuzz.json")
  message(FATAL_ERROR "no progress or summary line:\n${err}")
endif()
file(READ ${DIR}/fuzz.json json)
string(JSON n LENGTH "${json}" campaigns)
string(JSON status GET "${json}" campaigns 0 status)
string(JSON execs GET "${json}" campaigns 0 executions)
string(JSON partial GET "${json}" partial)
if(NOT n EQUAL 1 OR NOT status STREQUAL "ran" OR execs LESS 100 OR NOT partial STREQUAL "OFF")
  message(FATAL_ERROR "summary: ${n} campaigns, status ${status}, ${execs} executions, partial ${partial}")
endif()
# Every finding's reproducer is there and was replayed in a fresh process.
string(JSON nf LENGTH "${json}" campaigns 0 findings)
if(nf GREATER 0)
  math(EXPR last "${nf} - 1")
  foreach(i RANGE ${last})
    string(JSON rep GET "${json}" campaigns 0 findings ${i} reproducer)
    if(NOT EXISTS ${DIR}/${rep})
      message(FATAL_ERROR "finding ${i}: reproducer ${rep} missing")
    endif()
  endforeach()
endif()
# The gate reads it (a one-second slice: findings judged, requirements not).
execute_process(COMMAND ${CHECK} --allow-slice ${DIR}/fuzz.json ${EXPECT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
  message(FATAL_ERROR "check of the summary: exit ${rc}\n${out}\n${err}")
endif()
if(NOT out MATCHES "check fuzz: 1 campaigns \\(1 ran\\)")
  message(FATAL_ERROR "check output:\n${out}")
endif()
