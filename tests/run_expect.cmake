# Run CMD (a ;-list), check its exit status, stdout against a file, stderr
# against a regex:  cmake -DCMD=... -DRC=2 [-DSTDOUT_FILE=f] [-DSTDERR_REGEX=r]
#                         [-DSTDIN_FILE=f] -P run_expect.cmake
if(DEFINED STDIN_FILE)
  execute_process(COMMAND ${CMD} INPUT_FILE ${STDIN_FILE} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
  execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
if(NOT "${rc}" STREQUAL "${RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDOUT_FILE)
  file(READ ${STDOUT_FILE} want)
  if(NOT out STREQUAL want)
    message(FATAL_ERROR "stdout differs from ${STDOUT_FILE}\n--- got:\n${out}--- want:\n${want}")
  endif()
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
