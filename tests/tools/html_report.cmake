# cmake -DEXE=<merilo-lincheck> -DARGS=<a|b|c> -DCODE=<exit status> -DOUT=<page.html>
#       [-DMAX_BYTES=<n>] -P html_report.cmake
#
# Runs merilo-lincheck ARGS --explain --html OUT and checks that the page
# says what the terminal said: the summary line and the --explain text
# word for word (HTML-escaped), and, when the history is not linearizable,
# exactly one bar marked stuck, on the line the summary names. With
# MAX_BYTES, the page must be smaller than that.
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE "${OUT}")
execute_process(COMMAND ${EXE} ${args} --explain --html ${OUT}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code STREQUAL "${CODE}")
  message(FATAL_ERROR "expected exit ${CODE}, got ${code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "no page written to ${OUT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
file(READ "${OUT}" page)
string(LENGTH "${page}" bytes)
if(DEFINED MAX_BYTES AND NOT bytes LESS MAX_BYTES)
  message(FATAL_ERROR "the page has ${bytes} bytes, not fewer than ${MAX_BYTES}")
endif()

function(escaped text var)
  string(REPLACE "&" "&amp;" text "${text}")
  string(REPLACE "<" "&lt;" text "${text}")
  string(REPLACE ">" "&gt;" text "${text}")
  string(REPLACE "\"" "&quot;" text "${text}")
  string(REPLACE "'" "&#39;" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# The summary: stdout's first line.
string(FIND "${out}" "\n" newline)
string(SUBSTRING "${out}" 0 ${newline} summary)
escaped("${summary}" summary_html)
string(FIND "${page}" "id=\"summary\">${summary_html}</p>" at)
if(at LESS 0)
  message(FATAL_ERROR "the page's summary is not the terminal's:\n${summary}")
endif()

# The explanation: everything after the blank line that follows it.
math(EXPR from "${newline} + 2")
string(SUBSTRING "${out}" ${from} -1 explanation)
escaped("${explanation}" explanation_html)
string(FIND "${page}" "<pre id=\"explanation\">${explanation_html}</pre>" at)
if(at LESS 0)
  message(FATAL_ERROR "the page's explanation is not --explain's:\n${explanation}")
endif()

# The stuck operation: the one the summary names, and only that one.
set(stuck_tag "<div class=\"op[^\"]* stuck\"[^>]*>")
string(REGEX MATCH "${stuck_tag}" first "${page}")
if(summary MATCHES "stuck at the [^ ]+ on line ([0-9]+) ")
  set(line ${CMAKE_MATCH_1})
  if(NOT first MATCHES "data-line=\"${line}\"")
    message(FATAL_ERROR "the summary names line ${line}; the stuck bar is:\n${first}")
  endif()
  string(FIND "${page}" "${first}" at)
  string(LENGTH "${first}" length)
  math(EXPR after "${at} + ${length}")
  string(SUBSTRING "${page}" ${after} -1 rest)
  string(REGEX MATCH "${stuck_tag}" second "${rest}")
  if(second)
    message(FATAL_ERROR "a second bar is marked stuck:\n${second}")
  endif()
  message(STATUS "the stuck bar is on line ${line}, as the summary says")
elseif(first)
  message(FATAL_ERROR "no stuck operation in the summary, but a bar is marked stuck:\n${first}")
endif()
message(STATUS "the page (${bytes} bytes) says what the terminal said:\n${out}")
