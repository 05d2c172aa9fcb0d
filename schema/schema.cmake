# Owns: turning our program schema (schema/program.fbs) into headers in the build tree with the
# host's flatc, and the etmem_schema_headers target that carries them; included as it is by the
# top-level build and by the web build (web/CMakeLists.txt). Not: the schema itself.
# Needs FLATC (the host's flatc) and a flatbuffers::flatbuffers target; sets ETMEM_GENERATED_DIR.
get_filename_component(_etmem_schema_dir ${CMAKE_CURRENT_LIST_DIR} ABSOLUTE)
set(ETMEM_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)
# --bfbs-gen-embed adds program_bfbs_generated.h: the binary schema, which the plan rewriter
# walks to copy a program field by field.
set(ETMEM_SCHEMA_HEADER ${ETMEM_GENERATED_DIR}/etmem/fb/program_generated.h)
add_custom_command(
  OUTPUT ${ETMEM_SCHEMA_HEADER} ${ETMEM_GENERATED_DIR}/etmem/fb/program_bfbs_generated.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ETMEM_GENERATED_DIR}/etmem/fb
  COMMAND ${FLATC} --cpp --scoped-enums --gen-object-api --bfbs-gen-embed
          -o ${ETMEM_GENERATED_DIR}/etmem/fb ${_etmem_schema_dir}/program.fbs
  DEPENDS ${_etmem_schema_dir}/program.fbs
  COMMENT "flatc: generating the program schema header")
add_custom_target(etmem_schema DEPENDS ${ETMEM_SCHEMA_HEADER})
add_library(etmem_schema_headers INTERFACE)
add_dependencies(etmem_schema_headers etmem_schema)
target_include_directories(etmem_schema_headers INTERFACE ${ETMEM_GENERATED_DIR})
target_link_libraries(etmem_schema_headers INTERFACE flatbuffers::flatbuffers)
