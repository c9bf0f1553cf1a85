# SPDX-License-Identifier: MIT
# The exact goal, write_cr4(0x407f0) hijacked, is a finding of its own
# (fuzz/overflow_oracle.h: the step WRITE_CR4_407F0): a campaign whose seed
# corpus is the goal's input (the ring's own timer) must save it with its
# reproducer, replay it in a fresh process to the same signature, time it
# (goal_reached), go on after the restart, and pass the gate
# (tests/fuzz_campaign.cmake registers it as fuzz.campaign.goal_saved).
# Another API family's campaign the same way (fuzz.campaign.tasklet_goal:
# the tasklet's downgrade on transitional under cfi-icall): -DFZ_TARGET,
# -DVARIANT, -DCONFIG and the goal's -DSIG, and the campaign must name its
# family (-DAPI, fuzz.json's "api") and keep its files in its own folder
# (<toolchain>/[<target>-]<variant>-<config>); check replays the finding
# with the binary that found it.
#   cmake -DTH=timerharness -DCHECK=fuzz_check -DBUILD=dir -DEXPECT=tsv -DPLAN=tsv
#         -DTOOLCHAIN=t -DSEEDS=dir -DTIME=s -DDIR=d [-DFZ_TARGET=overflow -DVARIANT=legacy
#         -DCONFIG=none -DSIG=HIJACKED:WRITE_CR4_407F0_VIA_RING_TIMER -DAPI=timer] -P fuzz_goal.cmake
foreach(v "FZ_TARGET;overflow" "VARIANT;legacy" "CONFIG;none" "SIG;HIJACKED:WRITE_CR4_407F0_VIA_RING_TIMER"
          "API;timer")
  list(GET v 0 name)
  list(GET v 1 default)
  if(NOT DEFINED ${name})
    set(${name} ${default})
  endif()
endforeach()
if(FZ_TARGET STREQUAL "overflow")
  set(folder "${VARIANT}-${CONFIG}")
else()
  set(folder "${FZ_TARGET}-${VARIANT}-${CONFIG}")
endif()
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TH} fuzz --build-root ${BUILD} --toolchain ${TOOLCHAIN} --target ${FZ_TARGET}
                        --variant ${VARIANT} --config ${CONFIG} --time ${TIME} --jobs 1 --seed 1 --quiet
                        --out ${DIR} --seeds ${SEEDS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz: exit ${rc}\n${out}\n${err}")
endif()
file(READ ${DIR}/fuzz.json json)
string(JSON status GET "${json}" campaigns 0 status)
string(JSON execs GET "${json}" campaigns 0 executions)
string(JSON restarts GET "${json}" campaigns 0 restarts)
string(JSON target GET "${json}" campaigns 0 target)
string(JSON api GET "${json}" campaigns 0 api)
if(NOT target STREQUAL FZ_TARGET OR NOT api STREQUAL API)
  message(FATAL_ERROR "summary: target ${target}, api ${api}; expected ${FZ_TARGET}, ${API}:\n${json}")
endif()
# Went on after the goal's restart: more runs than the one goal input (not a
# rate: a loaded machine and hanging mutants, each a watchdog's milliseconds,
# gave 91 executions in 3 s once).
if(NOT status STREQUAL "ran" OR execs LESS 10 OR restarts LESS 2)
  message(FATAL_ERROR "summary: status ${status}, ${execs} executions, ${restarts} engine starts:\n${json}")
endif()
set(goal_found FALSE)
string(JSON nf LENGTH "${json}" campaigns 0 findings)
math(EXPR last "${nf} - 1")
foreach(i RANGE ${last})
  string(JSON sig GET "${json}" campaigns 0 findings ${i} sig)
  if(sig STREQUAL SIG)
    string(JSON rep GET "${json}" campaigns 0 findings ${i} reproducer)
    string(JSON replayed GET "${json}" campaigns 0 findings ${i} replayed)
    string(JSON reproduced GET "${json}" campaigns 0 findings ${i} reproduced)
    if(NOT EXISTS ${DIR}/${rep} OR NOT replayed STREQUAL "HIJACKED" OR NOT reproduced STREQUAL "ON" OR
       NOT rep MATCHES "/${TOOLCHAIN}/${folder}/findings/")
      message(FATAL_ERROR "the goal's finding: reproducer ${rep}, replayed ${replayed}, reproduced ${reproduced}")
    endif()
    set(goal_found TRUE)
  endif()
endforeach()
string(JSON goal_type TYPE "${json}" campaigns 0 goal_reached)
if(NOT goal_found OR NOT goal_type STREQUAL "OBJECT")
  message(FATAL_ERROR "the goal is not a saved, replayed finding (found: ${goal_found}, goal_reached: ${goal_type}):\n${json}")
endif()
# The gate: every finding declared, the required hijack met by the goal.
execute_process(COMMAND ${CHECK} --plan ${PLAN} --build-root ${BUILD} --allow-slice ${DIR}/fuzz.json ${EXPECT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check of the summary: exit ${rc}\n${out}\n${err}")
endif()
