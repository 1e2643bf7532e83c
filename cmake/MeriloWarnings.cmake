# merilo_warnings(<target>): the warning set every merilo target, example and
# test builds with. -Werror is added when MERILO_WERROR is ON (make ci).
function(merilo_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Werror=switch-enum $<$<BOOL:${MERILO_WERROR}>:-Werror>)
endfunction()

# merilo_component(<name> [INTERFACE]): wires merilo_<name>, its alias
# merilo::<name>, its include directory and its install rules.
function(merilo_component name)
  cmake_parse_arguments(arg "INTERFACE" "" "" ${ARGN})
  set(target merilo_${name})
  if(arg_INTERFACE)
    set(scope INTERFACE)
  else()
    set(scope PUBLIC)
  endif()
  add_library(merilo::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_compile_features(${target} ${scope} cxx_std_20)
  target_include_directories(${target} ${scope}
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(NOT arg_INTERFACE)
    merilo_warnings(${target})
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  if(MERILO_INSTALL)
    install(TARGETS ${target} EXPORT merilo-targets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endfunction()

# merilo_missing(<out-var> <what> <component>...): sets <out-var> to the
# components in the list that this build does not have (a build of a
# subset, MERILO_COMPONENTS), saying "<what> skipped (needs ...)"; empty
# when all are there. The examples and docs/examples open with it.
function(merilo_missing out what)
  set(missing "")
  foreach(component IN LISTS ARGN)
    if(NOT TARGET merilo_${component})
      list(APPEND missing ${component})
    endif()
  endforeach()
  if(missing)
    message(STATUS "merilo: ${what} skipped (needs ${missing})")
  endif()
  set(${out} "${missing}" PARENT_SCOPE)
endfunction()

# merilo_test(<name> SOURCES ... LIBS ... [LABELS ...] [RUN_ALONE]): one gtest executable,
# its tests discovered into ctest with the given labels; it may include
# <merilo/gtest.hpp> (merilo::glue) when the build has that component.
function(merilo_test name)
  cmake_parse_arguments(arg "RUN_ALONE" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  merilo_warnings(${name})
  target_link_libraries(${name} PRIVATE ${arg_LIBS} GTest::gtest GTest::gtest_main)
  # <merilo/gtest.hpp>, the GoogleTest glue, for a test that uses it.
  if(TARGET merilo_glue)
    target_link_libraries(${name} PRIVATE merilo::glue)
  endif()
  # RUN_ALONE: the tests shrink real races between threads, so ctest runs
  # them alone (RUN_SERIAL): a test beside them on a 2-core machine makes
  # two calls overlap less often, and a shrink can stop short.
  # (An empty value would vanish from the property list and shift the pairs,
  # so only properties with a value are passed.)
  set(properties "")
  if(arg_LABELS)
    list(APPEND properties LABELS "${arg_LABELS}")
  endif()
  if(arg_RUN_ALONE)
    list(APPEND properties RUN_SERIAL TRUE)
  endif()
  if(properties)
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ${properties})
  else()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
  endif()
  # Tests labelled `threads` run more than one thread: the target
  # `threads_tests` builds them all, and `make tsan` (cmake/ci.sh tsan) runs
  # them under ThreadSanitizer by the label, with no list of names to keep.
  if("threads" IN_LIST arg_LABELS)
    if(NOT TARGET threads_tests)
      add_custom_target(threads_tests)
    endif()
    add_dependencies(threads_tests ${name})
  endif()
endfunction()

# merilo_example_explore(<example> SOURCES ...): the program `make explore`
# runs for one example; it prints one summary line per system it searches.
function(merilo_example_explore example)
  cmake_parse_arguments(arg "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${example}_explore ${arg_SOURCES})
  merilo_warnings(${example}_explore)
  target_link_libraries(${example}_explore PRIVATE merilo::explore ${arg_LIBS})
  set_target_properties(${example}_explore PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/explore-bin)
  add_dependencies(explore ${example}_explore)
  add_test(NAME ${example}.explore COMMAND ${example}_explore)
endfunction()
