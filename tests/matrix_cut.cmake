# A cut of the matrix through `timerharness matrix`, then the gate.
#   -DTH=timerharness -DBUILD=<build dir> -DOUT=<dir> [-DCONFIG=c] [-DATTACKS=globs]
#   [-DSELFTESTS=1] [-DKINDS="HIJACKED;..."]   (each listed outcome must be observed;
#   UNSUPPORTED is only required where some config is unsupported)
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
set(args matrix --build-root ${BUILD} --out ${OUT} --quiet --timeout 2)
if(DEFINED CONFIG)
  list(APPEND args --config ${CONFIG})
endif()
if(DEFINED ATTACKS)
  list(APPEND args --attack ${ATTACKS})
endif()
if(SELFTESTS)
  list(APPEND args --selftests)
endif()
execute_process(COMMAND ${TH} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "matrix exited ${rc}\n${out}\n${err}")
endif()
# A cut is a slice of the plan: judged as one.
execute_process(COMMAND ${TH} check --results ${OUT}/results.json --allow-slice
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check exited ${rc}: a cell is more severe than declared\n${err}")
endif()
# A clean run has no improvement: every cell is what its rule declares (a
# randstruct cell one of its rule's set), so a real improvement stands out
# (docs/gate.md, "Probabilistic cells: a declared set").
if(out MATCHES "[0-9]+[ \n]+improvement")
  message(FATAL_ERROR "a clean cut reports improvements: a declaration is not what its cells "
                      "show (rerun check --verbose on ${OUT}/results.json)")
endif()
if(KINDS)
  file(READ ${OUT}/results.json json)
  set(kinds ${KINDS})
  # UNSUPPORTED can only be seen where some config is unsupported.
  if("UNSUPPORTED" IN_LIST kinds AND NOT json MATCHES "\"supported\": false")
    list(REMOVE_ITEM kinds UNSUPPORTED)
    message("every config is supported on this toolchain: UNSUPPORTED cannot be observed here")
  endif()
  foreach(k ${kinds})
    string(FIND "${json}" "\"outcome\": \"${k}\"" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "outcome ${k} was not observed in this cut (${OUT}/results.json)")
    endif()
  endforeach()
endif()
