cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
# Builds the include probes of one layer (see CMakeLists.txt here).
# EXPECT_OK / EXPECT_FAIL: lists of <probe target>=<header>.
set(wrong 0)
foreach(pair ${EXPECT_OK} ${EXPECT_FAIL})
  string(REPLACE "=" ";" parts ${pair})
  list(GET parts 0 probe)
  list(GET parts 1 header)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR}
                          --target ${probe}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(pair IN_LIST EXPECT_OK)
    if(rc EQUAL 0)
      message("ok: ${LAYER} may include ${header}")
    else()
      message("WRONG: ${LAYER} cannot include ${header}, a header of itself "
              "or a lower layer:\n${out}")
      math(EXPR wrong "${wrong} + 1")
    endif()
  elseif(rc EQUAL 0)
    message("WRONG: ${LAYER} can include ${header}, a header of a higher "
            "layer: its include root shows more than the layers below it")
    math(EXPR wrong "${wrong} + 1")
  elseif(out MATCHES "${header}(: No such file|' file not found)")
    message("ok: ${LAYER} cannot include ${header}")
  else()
    message("WRONG: the probe of ${header} in ${LAYER} failed for another "
            "reason than a missing header:\n${out}")
    math(EXPR wrong "${wrong} + 1")
  endif()
endforeach()
if(wrong GREATER 0)
  message(FATAL_ERROR "${wrong} include probe(s) of layer ${LAYER} went "
                      "wrong")
endif()
