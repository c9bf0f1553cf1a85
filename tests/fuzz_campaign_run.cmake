# SPDX-License-Identifier: MIT
# `timerharness fuzz` end to end on this build: one campaign of legacy/none,
# a summary that loads, every finding's reproducer kept and replayed, and
# the gate judging it (tests/fuzz_campaign.cmake registers it).
#   cmake -DTH=timerharness -DCHECK=fuzz_check -DBUILD=dir -DEXPECT=tsv -DTOOLCHAIN=t -DDIR=d
#         [-DSEEDS=dir -DGOAL=1 -DTIME=s] -P fuzz_campaign_run.cmake
# GOAL: the seed corpus is the goal's input (write_cr4(0x407f0) through the
# ring's own timer): the goal must be a finding of its own, saved, replayed
# in a fresh process to the same signature, and timed; the engine, restarted
# after it, goes on (TIME long enough for the restart).
file(REMOVE_RECURSE ${DIR})
set(_seeds "")
if(NOT TIME)
  set(TIME 1)
endif()
if(SEEDS)
  set(_seeds --seeds ${SEEDS})
endif()
execute_process(COMMAND ${TH} fuzz --build-root ${BUILD} --toolchain ${TOOLCHAIN} --variant legacy
                        --config none --time ${TIME} --jobs 1 --seed 1 --out ${DIR} ${_seeds}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz: exit ${rc}\n${out}\n${err}")
endif()
if(NOT err MATCHES "wrote ${DIR}/fuzz.json")
  message(FATAL_ERROR "no summary line:\n${err}")
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
set(goal_found FALSE)
string(JSON nf LENGTH "${json}" campaigns 0 findings)
if(nf GREATER 0)
  math(EXPR last "${nf} - 1")
  foreach(i RANGE ${last})
    string(JSON rep GET "${json}" campaigns 0 findings ${i} reproducer)
    string(JSON sig GET "${json}" campaigns 0 findings ${i} sig)
    string(JSON replayed GET "${json}" campaigns 0 findings ${i} replayed)
    string(JSON reproduced GET "${json}" campaigns 0 findings ${i} reproduced)
    if(NOT EXISTS ${DIR}/${rep})
      message(FATAL_ERROR "finding ${i} (${sig}): reproducer ${rep} missing")
    endif()
    if(sig STREQUAL "HIJACKED:WRITE_CR4_407F0_VIA_RING_TIMER")
      if(NOT replayed STREQUAL "HIJACKED" OR NOT reproduced STREQUAL "ON")
        message(FATAL_ERROR "the goal's finding replayed to ${replayed}, reproduced ${reproduced}")
      endif()
      set(goal_found TRUE)
    endif()
  endforeach()
endif()
if(GOAL)
  string(JSON goal_type TYPE "${json}" campaigns 0 goal_reached)
  if(NOT goal_found OR NOT goal_type STREQUAL "OBJECT")
    message(FATAL_ERROR "the goal is not a saved, replayed finding (found: ${goal_found}, goal_reached: ${goal_type}):\n${json}")
  endif()
endif()
# The gate reads it: every finding declared (a campaign this short may miss
# what the rules require of a full one: with the goal it may not).
execute_process(COMMAND ${CHECK} --allow-slice ${DIR}/fuzz.json ${EXPECT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 AND (GOAL OR NOT rc EQUAL 1 OR out MATCHES "regression: [^\n]*: found "))
  message(FATAL_ERROR "check of the summary: exit ${rc}\n${out}\n${err}")
endif()
if(NOT out MATCHES "check fuzz: 1 campaigns \\(1 ran\\)")
  message(FATAL_ERROR "check output:\n${out}")
endif()
