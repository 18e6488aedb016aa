# Helpers for tests.
#
# xgas_test_program(name SOURCES a.c [b.c] [INTERNAL])
#   builds a test program against libxgas (INTERNAL: the static library plus
#   private headers of src/: a unit test of a layer, in tests/unit/<layer>/,
#   sees that layer's and the lower layers' headers only, as the layer
#   itself does; any other test sees every layer).
#
# xgas_pe_test(name TARGET prog NP 1 2 4 8 [ARGS ...] [WILL_FAIL]
#              [PASS_REGULAR_EXPRESSION re] [ENV VAR=VALUE ...])
#   registers one CTest test per PE count, named <name>_np<N>, that runs
#   `xgasrun -n N prog ARGS`.  Exit 77 means skipped.
#
# Across nodes: where libfabric is built, every test of tests/api that
#   xgas_pe_test registers at 4 PEs (on the direct route, without
#   launcher settings of its own) also runs as <name>_2x2, 2 virtual nodes
#   of 2 PEs (xgasrun's XGAS_VIRTUAL_NODES: the nodes reach each other only
#   through libfabric, over the loopback network), and the ones listed in
#   XGAS_NODE_TESTS_4X1 as <name>_4x1, one PE on each of 4 nodes.  A test
#   listed in XGAS_NODE_TESTS_SKIP is about one node only (or has a
#   lighter counterpart across nodes, tests/api/multinode).  NODES 3x2 ...
#   asks for other layouts (<nodes>x<PEs per node>) explicitly; with
#   NP none the test runs only in those (a test of the network between
#   nodes, which has nothing to do on one node).
#
# xgas_negative_tests(PREFIX p TARGET prog CASES "case|regex" ...)
#   registers one test <p>_<case> per row: `xgasrun -n 2 prog case` must
#   fail cleanly with a line of stderr matching the extended regular
#   expression (tests/tools/expect_failure.sh); "ADDR" in a regex stands
#   for a printed address.
include_guard(GLOBAL)

set(XGAS_NODE_TESTS_4X1
    shmem_put_get shmem_p_g shmem_strided shmem_fence shmem_amo
    shmem_signal shmem_sync_wait_until shmem_sync_chain shmem_lock
    shmem_ctx shmem_team_basic shmem_coll_reduce shmem_setup_reinit
    shmem_amo_updating
    api_native api_xbrtime_amo portals_put_get portals_atomic
    portals_triggered)
set(XGAS_NODE_TESTS_SKIP
    shmem_amo_contention       # 480,000 atomics: tests/api/multinode has
                               # the counter hit from both sides
    portals_peer_gone_never)   # PtlInit is collective across nodes

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
                        "NP;ARGS;ENV;NODES" ${ARGN})
  if(NOT T_NP)
    set(T_NP 1 2 4 8)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  # the layouts across virtual nodes: "<test name suffix>|<nodes>|<PEs>"
  set(runs)
  if(T_NP STREQUAL "none")
    set(T_NP)
  endif()
  foreach(np ${T_NP})
    list(APPEND runs "np${np}|1|${np}")
  endforeach()
  file(RELATIVE_PATH dir ${CMAKE_SOURCE_DIR}/tests ${CMAKE_CURRENT_SOURCE_DIR})
  if(XGAS_HAVE_OFI AND dir MATCHES "^api/" AND NOT dir STREQUAL "api/pmi"
     AND NOT T_ENV MATCHES "XGAS_(ROUTE|VIRTUAL_NODES)" AND
     "4" IN_LIST T_NP AND NOT name IN_LIST XGAS_NODE_TESTS_SKIP)
    list(APPEND runs "2x2|2|4")
    # and a few of them with each virtual node in PVAS mode
    if(name IN_LIST XGAS_PVAS_NODE_TESTS)
      list(APPEND runs "pvas_2x2|2|4")
    endif()
    if(name IN_LIST XGAS_NODE_TESTS_4X1)
      list(APPEND runs "4x1|4|4")
    endif()
  endif()
  # PVAS mode (docs/pvas.md): the same-node API tests run once more with
  # xgasrun --pvas, the PEs in one address space (ctest -L pvas)
  if(dir MATCHES "${XGAS_PVAS_TEST_DIRS}" AND NOT T_ENV MATCHES
     "XGAS_(ROUTE|VIRTUAL_NODES)" AND "4" IN_LIST T_NP AND NOT name IN_LIST
     XGAS_PVAS_TESTS_SKIP AND NOT T_WILL_FAIL)
    list(APPEND runs "pvas_np4|1|4")
  endif()
  if(NOT XGAS_HAVE_OFI)
    set(T_NODES) # no network between the nodes in this build
  endif()
  foreach(layout ${T_NODES})
    string(REGEX MATCH "^([0-9]+)x([0-9]+)$" valid "${layout}")
    if(NOT valid)
      message(FATAL_ERROR "xgas_pe_test(${name}): NODES ${layout} is not "
              "<nodes>x<PEs per node>")
    endif()
    math(EXPR np "${CMAKE_MATCH_1} * ${CMAKE_MATCH_2}")
    if(NOT "${layout}|${CMAKE_MATCH_1}|${np}" IN_LIST runs)
      list(APPEND runs "${layout}|${CMAKE_MATCH_1}|${np}")
    endif()
  endforeach()
  foreach(run ${runs})
    string(REPLACE "|" ";" run "${run}")
    list(GET run 0 suffix)
    list(GET run 1 nodes)
    list(GET run 2 np)
    set(test_name ${name}_${suffix})
    set(mode)
    if(suffix MATCHES "^pvas_")
      set(mode --pvas)
    endif()
    add_test(NAME ${test_name}
             COMMAND $<TARGET_FILE:xgasrun> ${mode} -n ${np} $<TARGET_FILE:${T_TARGET}> ${T_ARGS})
    set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77
                         TIMEOUT ${T_TIMEOUT})
    if(mode)
      set_property(TEST ${test_name} APPEND PROPERTY LABELS pvas)
    endif()
    if(nodes GREATER 1)
      set_property(TEST ${test_name} APPEND PROPERTY LABELS multinode)
      list(APPEND T_ENV_RUN ${T_ENV} XGAS_VIRTUAL_NODES=${nodes})
      # the other nodes' PEs are on the NIC route: under TSan, its
      # suppressions (tests/unit/gas/nic_route_tsan.supp)
      if(XGAS_SANITIZE MATCHES "thread" AND NOT T_ENV MATCHES "TSAN_OPTIONS")
        list(APPEND T_ENV_RUN
             "TSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/unit/gas/nic_route_tsan.supp:history_size=7:halt_on_error=1")
      endif()
    else()
      set(T_ENV_RUN ${T_ENV})
    endif()
    if(T_WILL_FAIL)
      set_tests_properties(${test_name} PROPERTIES WILL_FAIL TRUE)
    endif()
    if(T_PASS_REGULAR_EXPRESSION)
      set_tests_properties(${test_name} PROPERTIES
                           PASS_REGULAR_EXPRESSION "${T_PASS_REGULAR_EXPRESSION}")
    endif()
    if(T_ENV_RUN)
      set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "${T_ENV_RUN}")
    endif()
    unset(T_ENV_RUN)
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
             COMMAND sh ${CMAKE_SOURCE_DIR}/tests/tools/expect_failure.sh
                     "${regex}" $<TARGET_FILE:xgasrun> -n 2
                     $<TARGET_FILE:${T_TARGET}> ${case})
    set_tests_properties(${T_PREFIX}_${case} PROPERTIES TIMEOUT 60)
  endforeach()
endfunction()
