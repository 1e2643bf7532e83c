# cmake -DEXE=<merilo-lincheck> -DDOC=<docs/lincheck.md> -DROOT=<repo> -P doc_output.cmake
#
# Every block in DOC introduced by a line
#   <!-- output of: merilo-lincheck ARGS... -->
# followed by a ```text block must be what merilo-lincheck prints for ARGS
# (paths relative to ROOT), except for the seconds it took ("0.00 s").
file(READ ${DOC} text)
string(REGEX MATCHALL "<!-- output of: merilo-lincheck [^>]*-->\n```text\n" heads "${text}")
list(LENGTH heads count)
if(count EQUAL 0)
  message(FATAL_ERROR "${DOC} has no <!-- output of: ... --> block: the check would be vacuous")
endif()
set(failures 0)
foreach(head IN LISTS heads)
  string(REGEX REPLACE "<!-- output of: merilo-lincheck ([^>]*) -->\n```text\n" "\\1" args "${head}")
  string(FIND "${text}" "${head}" start)
  string(LENGTH "${head}" skip)
  math(EXPR start "${start} + ${skip}")
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "```" stop)
  string(SUBSTRING "${rest}" 0 ${stop} documented)
  separate_arguments(argv UNIX_COMMAND "${args}")
  execute_process(COMMAND ${EXE} ${argv} WORKING_DIRECTORY ${ROOT} OUTPUT_VARIABLE printed)
  string(REGEX REPLACE "[0-9]+\\.[0-9][0-9] s" "X s" documented "${documented}")
  string(REGEX REPLACE "[0-9]+\\.[0-9][0-9] s" "X s" printed "${printed}")
  if(NOT documented STREQUAL printed)
    message(SEND_ERROR "${DOC}: the output shown for `merilo-lincheck ${args}` is not what it "
                       "prints; paste it again:\n${printed}")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} of ${count} documented outputs are out of date")
endif()
message(STATUS "${count} documented outputs match")
