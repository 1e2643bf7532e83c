# cmake -DEXE=<program> -DARGS=<a|b|c> [-DSTDIN=<file>] -DCODE=<exit status>
#       [-DMATCH=<regex>] [-DSTREAM=stdout|stderr] -P expect_exit.cmake
#
# Runs the program and fails unless it exits with CODE and (when MATCH is
# given) STREAM matches the regular expression MATCH.
string(REPLACE "|" ";" args "${ARGS}")
if(STDIN)
  execute_process(COMMAND ${EXE} ${args} INPUT_FILE ${STDIN}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
  execute_process(COMMAND ${EXE} ${args}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
if(NOT code STREQUAL "${CODE}")
  message(FATAL_ERROR "expected exit ${CODE}, got ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED MATCH)
  if(STREAM STREQUAL "stderr")
    set(text "${err}")
  else()
    set(text "${out}")
  endif()
  if(NOT text MATCHES "${MATCH}")
    message(FATAL_ERROR "${STREAM} does not match '${MATCH}'\nstdout:\n${out}\nstderr:\n${err}")
  endif()
endif()
message(STATUS "exit ${code} as expected\n${out}${err}")
