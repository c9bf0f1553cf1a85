# SPDX-License-Identifier: MIT
# One command given a FIFO without a writer, or /dev/zero, where it reads a
# file or a directory: it must refuse it at once, naming the argument and
# the path, with its bad-input status; a command that blocks in open(2) or
# reads without end is killed after 10 s and fails here.
#   cmake -DTH=prog -DWORK=dir -DKIND=fifo|zero "-DARGS=a;%IN%;..." -DRC=2
#         "-DREGEX=...%IN%..." -P inputs_run.cmake
# %IN% is the FIFO's path or /dev/zero (in REGEX, escaped); %REG% a regular
# file, for the arguments that must be good for the bad one to be reached.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/reg "a regular file\n")
if(KIND STREQUAL "fifo")
  set(in ${WORK}/fifo)
  execute_process(COMMAND mkfifo ${in} RESULT_VARIABLE mk)
  if(NOT mk EQUAL 0)
    message(FATAL_ERROR "mkfifo ${in}: ${mk}")
  endif()
  set(kind "a FIFO")
else()
  set(in /dev/zero)
  set(kind "a character device")
endif()
string(REPLACE "%IN%" "${in}" args "${ARGS}")
string(REPLACE "%REG%" "${WORK}/reg" args "${args}")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" in_re "${in}")
string(REPLACE "%IN%" "${in_re}" regex "${REGEX}")
string(REPLACE "%KIND%" "${kind}" regex "${regex}")
execute_process(COMMAND ${TH} ${args} WORKING_DIRECTORY ${WORK} TIMEOUT 10
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "timerharness ${args}: no answer in 10 s (${rc}): blocked on ${in}\n${out}${err}")
endif()
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "timerharness ${args}: exit ${rc}, want ${RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT err MATCHES "${regex}")
  message(FATAL_ERROR "timerharness ${args}: stderr does not match '${regex}':\n${err}")
endif()
