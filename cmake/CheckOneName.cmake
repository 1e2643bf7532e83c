# cmake -DROOT=<dir> -P CheckOneName.cmake
#
# One name per idea, in the library's headers and sources under ROOT
# (<component>/include/**.hpp, <component>/src/*.cpp, glue/include):
#   - `Outcome` is fsm's (moved, ignored, rejected, invalid); no other
#     component declares a type of that name;
#   - a spec's types are spelled `model_t<S>`, `command_t<S>`,
#     `response_t<S>`, `sut_t<S>` — no `command_of<S>`, and no
#     `typename std::remove_cvref_t<S>::command_type` outside the alias
#     itself;
#   - parallel's own violation tags (its `k...Tag` constants) start with
#     `parallel.`.
# Each finding names the file and what to write instead. tests/docs/ runs
# the check on a fixture tree that breaks each rule, to show it is caught.
cmake_minimum_required(VERSION 3.25)

file(GLOB_RECURSE sources RELATIVE ${ROOT}
  ${ROOT}/*/include/*.hpp ${ROOT}/*/src/*.cpp)
set(failures 0)
foreach(rel IN LISTS sources)
  if(rel MATCHES "^(build|tests|examples|bench|docs)/")
    continue()
  endif()
  file(READ ${ROOT}/${rel} text)
  string(REGEX REPLACE "//[^\n]*" "" code "${text}")
  if(NOT rel MATCHES "^fsm/" AND code MATCHES "(struct|class|enum|using)[ \t]+Outcome[^A-Za-z0-9_]")
    message("${rel}: declares a type named Outcome; that name is fsm's (what a fire did): "
            "name this one for what it holds")
    math(EXPR failures "${failures} + 1")
  endif()
  string(REGEX MATCH "[^A-Za-z0-9_](model|command|response|sut)_of<" hit "${code}")
  if(hit)
    message("${rel}: spells a spec's type `${CMAKE_MATCH_1}_of<S>`; write `${CMAKE_MATCH_1}_t<S>`")
    math(EXPR failures "${failures} + 1")
  endif()
  # The remove_cvref spelling is allowed only where an alias is defined.
  string(REGEX REPLACE "using [a-z]+_t = typename std::remove_cvref_t<S>::[a-z]+_type;" "" rest
    "${code}")
  string(REGEX MATCH "typename std::remove_cvref_t<[A-Za-z_]+>::(model|command|response|sut)_type"
    hit "${rest}")
  if(hit)
    message("${rel}: spells a spec's type `${hit}`; write `${CMAKE_MATCH_1}_t<S>`")
    math(EXPR failures "${failures} + 1")
  endif()
  if(rel MATCHES "^parallel/")
    string(REGEX MATCHALL "k[A-Za-z]+Tag = \"statem\\.[a-z_]+\"" hits "${code}")
    foreach(h IN LISTS hits)
      message("${rel}: ${h}: a violation parallel's check finds is tagged `parallel.*`")
      math(EXPR failures "${failures} + 1")
    endforeach()
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} names that say an idea a second way (cmake/CheckOneName.cmake)")
endif()
message(STATUS "one name per idea: ok")
