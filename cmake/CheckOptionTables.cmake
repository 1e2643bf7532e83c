# cmake -DROOT=<repo> [-DDOCS_ROOT=<dir>] [-DONLY=<guide>] -P CheckOptionTables.cmake
#
# Every field of a public options struct, and every scheduler, must be
# named in a table of its guide: a row (a line starting with `|`) that
# holds the name in backticks, or after `.` or `::` (`.seed = 1`,
# `CheckOptions::seed`). A field added to the code and not to the guide's
# table fails the check, naming the field, the header and the guide.
#
# The headers are read under ROOT, the guides under DOCS_ROOT (default
# ROOT); ONLY limits the check to the entries of one guide (docs/<ONLY>.md).
# tests/docs/ runs it on a fixture guide with fields missing, to show they
# are caught.
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED DOCS_ROOT)
  set(DOCS_ROOT ${ROOT})
endif()

# header | struct or enum | guide
set(entries
  "explore/include/merilo/explore/explore.hpp|struct ExploreOptions|explore"
  "explore/include/merilo/explore/simulate.hpp|struct SimulateOptions|explore"
  "fuzz/include/merilo/fuzz/target.hpp|struct TargetOptions|fuzz"
  "linearize/include/merilo/linearize/history.hpp|struct HistoryOptions|linearize"
  "parallel/include/merilo/parallel/spec.hpp|struct CheckOptions|parallel"
  "parallel/include/merilo/parallel/spec.hpp|enum class Scheduler|parallel"
  "statem/include/merilo/statem/statem.hpp|struct CheckOptions|statem"
  "sync/include/merilo/sync/model.hpp|struct ModelOptions|threads")

set(failures 0)
set(checked 0)
foreach(entry IN LISTS entries)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 header)
  list(GET parts 1 what)
  list(GET parts 2 guide)
  if(DEFINED ONLY AND NOT guide STREQUAL ONLY)
    continue()
  endif()
  file(READ ${ROOT}/${header} text)
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  # The body: from "<what> ... {" to the first "\n};" after it.
  string(FIND "${text}" "${what} " start)
  if(start EQUAL -1)
    string(FIND "${text}" "${what}{" start)
  endif()
  if(start EQUAL -1)
    message(SEND_ERROR "${header}: `${what}` not found (update cmake/CheckOptionTables.cmake)")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  string(SUBSTRING "${text}" ${start} -1 body)
  string(FIND "${body}" "\n};" stop)
  string(SUBSTRING "${body}" 0 ${stop} body)
  string(REPLACE ";" "\\;" body "${body}")
  string(REPLACE "\n" ";" lines "${body}")
  set(names "")
  foreach(line IN LISTS lines)
    if(what MATCHES "^enum")
      if(line MATCHES "^  ([a-z_][a-z0-9_]*)( = [^,]*)?,?$")
        list(APPEND names ${CMAKE_MATCH_1})
      endif()
    elseif(line MATCHES "^  [A-Za-z_][A-Za-z0-9_:<>, ]*[ &*>]([a-z_][a-z0-9_]*) *[=;{]")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(NOT names)
    message(SEND_ERROR "${header}: no fields read from `${what}` (update cmake/CheckOptionTables.cmake)")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  set(doc ${DOCS_ROOT}/docs/${guide}.md)
  if(NOT EXISTS ${doc})
    message(SEND_ERROR "docs/${guide}.md is missing (it documents `${what}`)")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  file(STRINGS ${doc} rows REGEX "^\\|")
  string(REPLACE ";" " " rows "${rows}")
  foreach(name IN LISTS names)
    math(EXPR checked "${checked} + 1")
    if(NOT rows MATCHES "[`.:]${name}[` =]")
      message(SEND_ERROR "`${name}` of `${what}` (${header}) is not named in a table of docs/${guide}.md")
      math(EXPR failures "${failures} + 1")
    endif()
  endforeach()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} option names missing from their guides' tables")
endif()
message(STATUS "every one of ${checked} option fields and schedulers is named in its guide's table")
