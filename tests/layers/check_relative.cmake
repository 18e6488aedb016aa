# Fails if a source file under SRC_DIR includes a header by a relative
# path that climbs out of its folder, around the layers' include roots.
file(GLOB_RECURSE files ${SRC_DIR}/*.c ${SRC_DIR}/*.h)
set(found "")
foreach(file ${files})
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]*\\.\\./")
  foreach(line ${lines})
    list(APPEND found "${file}: ${line}")
  endforeach()
endforeach()
if(found)
  string(REPLACE ";" "\n" found "${found}")
  message(FATAL_ERROR "includes by relative path step around the layers:\n"
                      "${found}")
endif()
message("no include in src/ climbs out of its folder")
