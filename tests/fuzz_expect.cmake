# Run CMD (a ;-list); check its exit status and its stdout and stderr
# against regexes (CMake regex: '.' matches a newline too; stdout's wrapped
# lines joined):
#   cmake -DCMD=... -DRC=N [-DSTDOUT_REGEX=r] [-DSTDOUT_NOT_REGEX=r] [-DSTDERR_REGEX=r] -P fuzz_expect.cmake
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# Summary lines wrapped at 80 columns (continued two spaces in) read as one.
string(REPLACE "\n  " " " out "${out}")
if(NOT "${rc}" STREQUAL "${RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}':\n${out}")
endif()
if(DEFINED STDOUT_NOT_REGEX AND out MATCHES "${STDOUT_NOT_REGEX}")
  message(FATAL_ERROR "stdout matches '${STDOUT_NOT_REGEX}', which it must not:\n${out}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
