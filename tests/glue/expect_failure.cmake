# cmake -DEXE=<program> -DFRAMEWORK=catch2|doctest -DCASE=<test case name>
#       -DSOURCE=<file> -DCALL=<text of the failing call> -DEXPECT=<a@@b@@...>
#       -P expect_failure.cmake
#
# Runs one test case of a glue test program alone and fails unless the
# program fails, the framework reports the failure at the line of SOURCE
# holding CALL (the caller's line, not the glue's), and the output holds
# every @@-separated string of EXPECT, literally.
if(FRAMEWORK STREQUAL "catch2")
  set(args "${CASE}")
else()
  set(args "--test-case=${CASE}")
endif()
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(text "${out}${err}")
if(code EQUAL 0)
  message(FATAL_ERROR "'${CASE}' passed; it must fail\n${text}")
endif()

# The line of the call: each framework prints the place of a failure its
# own way: "file:line: FAILED:" (Catch2), "file:line: ERROR:" (doctest).
file(READ ${SOURCE} source)
string(FIND "${source}" "${CALL}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no line of ${SOURCE} holds '${CALL}'")
endif()
string(SUBSTRING "${source}" 0 ${at} before)
string(REGEX REPLACE "[^\n]" "" newlines "${before}")
string(LENGTH "${newlines}" found)
math(EXPR found "${found} + 1")
get_filename_component(name ${SOURCE} NAME)
if(FRAMEWORK STREQUAL "catch2")
  set(place "${name}:${found}: FAILED")
else()
  set(place "${name}:${found}: ERROR")
endif()
string(REPLACE "@@" ";" expected "${EXPECT}")
list(APPEND expected "${place}")
set(missing "")
foreach(e IN LISTS expected)
  string(FIND "${text}" "${e}" at)
  if(at EQUAL -1)
    string(APPEND missing "\n  ${e}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "the output of '${CASE}' lacks:${missing}\noutput:\n${text}")
endif()
message(STATUS "'${CASE}' failed as expected (exit ${code}), at ${place}")
