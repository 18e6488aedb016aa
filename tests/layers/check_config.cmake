cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
# Configuration ownership (base/xg_config.h): a field of xg_config is read
# only in the layer whose rows file holds its row and in the layers that see
# that layer, every row has one owner, and every rows file
# (<layer>/xg_*_config.h) is the one its layer names.
# SRC_DIR: the tree; LAYERS: the layers; SEES_<id>: what layer <id> sees
# (itself included), separated by commas; CONFIG_<id>: its rows file,
# relative to SRC_DIR.
set(wrong 0)
foreach(layer ${LAYERS})
  string(REPLACE "/" "_" id ${layer})
  # a rows file the build does not collect would be silently ignored
  file(GLOB rows_files RELATIVE ${SRC_DIR} ${SRC_DIR}/${layer}/xg_*_config.h)
  foreach(file ${rows_files})
    if(NOT file STREQUAL "${CONFIG_${id}}")
      message("WRONG: ${file} is not the rows file of ${layer}: name it "
              "with CONFIG on the xgas_layer line of ${layer}")
      math(EXPR wrong "${wrong} + 1")
    endif()
  endforeach()
  if(NOT CONFIG_${id})
    continue()
  endif()
  file(READ ${SRC_DIR}/${CONFIG_${id}} rows)
  string(REGEX MATCHALL "XG_CONFIG_VAR\\(([a-z_0-9]+)," fields "${rows}")
  foreach(field ${fields})
    string(REGEX REPLACE "XG_CONFIG_VAR\\(([a-z_0-9]+)," "\\1" field
           ${field})
    if(DEFINED owner_${field})
      message("WRONG: xg_config.${field} has rows in ${owner_${field}} and "
              "${layer}: keep the one of the layer whose code it configures")
      math(EXPR wrong "${wrong} + 1")
    endif()
    set(owner_${field} ${layer})
  endforeach()
endforeach()

foreach(layer ${LAYERS})
  string(REPLACE "/" "_" id ${layer})
  string(REPLACE "," ";" sees "${SEES_${id}}")
  file(GLOB_RECURSE sources ${SRC_DIR}/${layer}/*.c ${SRC_DIR}/${layer}/*.h)
  foreach(source ${sources})
    file(STRINGS ${source} lines REGEX "xg_config\\.[a-z_]")
    string(REGEX MATCHALL "xg_config\\.[a-z_0-9]+" uses "${lines}")
    list(REMOVE_DUPLICATES uses)
    foreach(use ${uses})
      string(REPLACE "xg_config." "" field ${use})
      file(RELATIVE_PATH name ${SRC_DIR} ${source})
      if(field STREQUAL "h")
        continue() # #include "base/xg_config.h"
      elseif(NOT DEFINED owner_${field})
        message("WRONG: ${name} reads xg_config.${field}, which no layer's "
                "rows file declares")
        math(EXPR wrong "${wrong} + 1")
      elseif(NOT owner_${field} IN_LIST sees)
        message("WRONG: ${name} reads xg_config.${field}, a row of "
                "${owner_${field}}, which ${layer} does not see: move the "
                "row down to a layer both see")
        math(EXPR wrong "${wrong} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(wrong GREATER 0)
  message(FATAL_ERROR "${wrong} configuration rows read outside their layers")
endif()
message("ok: every layer reads only configuration rows it sees")
