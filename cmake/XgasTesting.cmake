# Helpers for tests.
#
# xgas_test_program(name SOURCES a.c [b.c] [INTERNAL])
#   builds a test program against libxgas (INTERNAL: the static library plus
#   private headers of src/: a unit test of a layer, in tests/unit/<layer>/
#   or tests/<layer>/, sees that layer's and the lower layers' headers only,
#   as the layer itself does; any other test sees every layer).
#
# xgas_pe_test(name TARGET prog NP 1 2 4 8 [ARGS ...] [WILL_FAIL]
#              [PASS_REGULAR_EXPRESSION re] [ENV VAR=VALUE ...])
#   registers one CTest test per PE count, named <name>_np<N>, that runs
#   `xgasrun -n N prog ARGS`.  Exit 77 means skipped.
#
# xgas_negative_tests(PREFIX p TARGET prog CASES "case|regex" ...)
#   registers one test <p>_<case> per row: `xgasrun -n 2 prog case` must
#   fail cleanly with a line of stderr matching the extended regular
#   expression (tests/negative/expect_failure.sh); "ADDR" in a regex stands
#   for a printed address.
include_guard(GLOBAL)

function(xgas_test_program name)
  cmake_parse_arguments(T "INTERNAL" "" "SOURCES" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  file(RELATIVE_PATH test_dir ${CMAKE_SOURCE_DIR}/tests
       ${CMAKE_CURRENT_SOURCE_DIR})
  string(REGEX REPLACE "^unit/" "" layer "${test_dir}")
  if(T_INTERNAL AND TARGET xgas_view_${layer})
    target_link_libraries(${name} PRIVATE xgas_view_${layer} xgas_static)
  elseif(T_INTERNAL)
    target_link_libraries(${name} PRIVATE xgas_internal)
  else()
    target_link_libraries(${name} PRIVATE xgas)
  endif()
endfunction()

function(xgas_pe_test name)
  cmake_parse_arguments(T "WILL_FAIL" "TARGET;PASS_REGULAR_EXPRESSION;TIMEOUT"
                        "NP;ARGS;ENV" ${ARGN})
  if(NOT T_NP)
    set(T_NP 1 2 4 8)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  foreach(np ${T_NP})
    set(test_name ${name}_np${np})
    add_test(NAME ${test_name}
             COMMAND $<TARGET_FILE:xgasrun> -n ${np} $<TARGET_FILE:${T_TARGET}> ${T_ARGS})
    set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77
                         TIMEOUT ${T_TIMEOUT})
    if(T_WILL_FAIL)
      set_tests_properties(${test_name} PROPERTIES WILL_FAIL TRUE)
    endif()
    if(T_PASS_REGULAR_EXPRESSION)
      set_tests_properties(${test_name} PROPERTIES
                           PASS_REGULAR_EXPRESSION "${T_PASS_REGULAR_EXPRESSION}")
    endif()
    if(T_ENV)
      set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "${T_ENV}")
    endif()
  endforeach()
endfunction()

function(xgas_negative_tests)
  cmake_parse_arguments(T "" "PREFIX;TARGET" "CASES" ${ARGN})
  foreach(row ${T_CASES})
    string(FIND "${row}" "|" bar)
    string(SUBSTRING "${row}" 0 ${bar} case)
    math(EXPR start "${bar} + 1")
    string(SUBSTRING "${row}" ${start} -1 regex)
    string(REPLACE "ADDR" "0x[0-9a-f]+" regex "${regex}")
    add_test(NAME ${T_PREFIX}_${case}
             COMMAND sh ${CMAKE_SOURCE_DIR}/tests/negative/expect_failure.sh
                     "${regex}" $<TARGET_FILE:xgasrun> -n 2
                     $<TARGET_FILE:${T_TARGET}> ${case})
    set_tests_properties(${T_PREFIX}_${case} PROPERTIES TIMEOUT 60)
  endforeach()
endfunction()
