# cmake -DROOT=<repo> [-DDOCS_ROOT=<dir>] -P CheckDocNames.cmake
#
# Every `merilo::...` name written in README.md or docs/**/*.md, or in a
# comment of a public header (*/include/merilo/**/*.hpp), must name
# something the code declares: each part after `merilo::` has to appear as
# an identifier in the code (comments left out) of the component the name
# starts with (`merilo::explore::Trace`: `Trace` in explore/'s headers and
# sources), or, for a namespace no folder is named after
# (`merilo::testing`), in any component's code; `merilo::<name>` alone may
# also be a CMake target (`merilo::fuzz_main`). A name the code no longer
# has (a function renamed or removed) fails the check, naming the file.
# A document that names an old name on purpose (a migration table) says so
# in an HTML comment, which does not render:
#   <!-- old names: merilo::explore::FireTable -->
#
# The documents and headers are read under DOCS_ROOT (default ROOT); the
# code is always ROOT's. tests/docs/ runs the check on a fixture with a
# stale name, to show it is caught. Included by CheckDocSnippets.cmake, so
# `docs.snippets_in_sync` fails on a stale name too; sets `name_failures`.
cmake_minimum_required(VERSION 3.25)  # IN_LIST and the other policies of the project
if(NOT DEFINED DOCS_ROOT)
  set(DOCS_ROOT ${ROOT})
endif()
set(merilo_folders fsm core sync explore fuzz statem linearize parallel glue)

# The code of each component, comments removed, and all of it together.
set(all_code "")
foreach(folder IN LISTS merilo_folders)
  file(GLOB_RECURSE sources ${ROOT}/${folder}/include/*.hpp ${ROOT}/${folder}/src/*.cpp
    ${ROOT}/${folder}/src/*.hpp)
  set(code "")
  foreach(source IN LISTS sources)
    file(READ ${source} text)
    string(REGEX REPLACE "//[^\n]*" "" text "${text}")
    string(APPEND code "${text}\n")
  endforeach()
  set(code_${folder} "${code}")
  string(APPEND all_code "${code}")
endforeach()
# CMake targets: merilo::<name> aliases.
set(targets "")
file(GLOB cmake_lists ${ROOT}/*/CMakeLists.txt)
foreach(lists IN LISTS cmake_lists)
  file(READ ${lists} text)
  string(REGEX MATCHALL "add_library\\(merilo::[A-Za-z0-9_]+ ALIAS" aliases "${text}")
  foreach(alias IN LISTS aliases)
    string(REGEX REPLACE "add_library\\(merilo::([A-Za-z0-9_]+) ALIAS" "\\1" alias "${alias}")
    list(APPEND targets ${alias})
  endforeach()
endforeach()

# Where the names are written: documents whole, headers' comments only.
file(GLOB_RECURSE docs ${DOCS_ROOT}/docs/*.md)
if(EXISTS ${DOCS_ROOT}/README.md)
  list(APPEND docs ${DOCS_ROOT}/README.md)
endif()
file(GLOB_RECURSE headers ${DOCS_ROOT}/*/include/merilo/*.hpp)
set(name_failures 0)
set(names_checked 0)
foreach(file IN LISTS docs headers)
  file(READ ${file} text)
  if(file MATCHES "\\.hpp$")
    string(REGEX MATCHALL "//[^\n]*" comments "${text}")
    string(JOIN "\n" text ${comments})
  endif()
  set(old_names "")
  string(REGEX MATCHALL "<!-- old names: [^>]*-->" notes "${text}")
  foreach(note IN LISTS notes)
    string(REGEX MATCHALL "merilo(::[A-Za-z_][A-Za-z0-9_]*)+" listed "${note}")
    list(APPEND old_names ${listed})
  endforeach()
  string(REGEX MATCHALL "merilo(::[A-Za-z_][A-Za-z0-9_]*)+" names "${text}")
  list(REMOVE_DUPLICATES names)
  if(old_names)
    list(REMOVE_ITEM names ${old_names})
  endif()
  file(RELATIVE_PATH shown ${DOCS_ROOT} ${file})
  foreach(name IN LISTS names)
    math(EXPR names_checked "${names_checked} + 1")
    string(REPLACE "::" ";" parts "${name}")
    list(REMOVE_AT parts 0)  # merilo
    list(GET parts 0 first)
    list(LENGTH parts count)
    if(count EQUAL 1 AND first IN_LIST targets)
      continue()
    endif()
    if(first IN_LIST merilo_folders)
      set(where "${first}/")
      set(code_var code_${first})
    else()
      set(where "any component")
      set(code_var all_code)
    endif()
    foreach(part IN LISTS parts)
      if(part IN_LIST merilo_folders)
        continue()  # a component's namespace
      endif()
      if(NOT DEFINED seen_${code_var}_${part})
        if("${${code_var}}" MATCHES "(^|[^A-Za-z0-9_])${part}([^A-Za-z0-9_]|$)")
          set(seen_${code_var}_${part} TRUE)
        else()
          set(seen_${code_var}_${part} FALSE)
        endif()
      endif()
      if(NOT seen_${code_var}_${part})
        message("ERROR: ${shown}: ${name} is not declared: no `${part}` in the code of ${where}")
        math(EXPR name_failures "${name_failures} + 1")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
if(names_checked EQUAL 0)
  message(FATAL_ERROR "no merilo:: names found under ${DOCS_ROOT}: the check would be vacuous")
endif()
message(STATUS "${names_checked} merilo:: names checked, ${name_failures} not declared")
if(CMAKE_CURRENT_LIST_FILE STREQUAL CMAKE_SCRIPT_MODE_FILE AND name_failures GREATER 0)
  message(FATAL_ERROR "docs or header comments name merilo:: names the code does not declare")
endif()
