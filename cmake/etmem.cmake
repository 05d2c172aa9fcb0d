# etmem.cmake: etmem in a firmware build. Owns etmem_add_pools(), which regenerates a pool
# header with the host `etmem header` whenever the program (.pte) changes, and the
# etmem::recording_allocator interface target (include/etmem/recording_allocator.h).
# Use it with find_package(etmem) (installed: <prefix>/lib/cmake/etmem) or include() this file
# from an etmem source tree. Works when cross-compiling: etmem runs on the build host.
#
#   etmem_add_pools(TARGET fw PROGRAM model.pte HEADER etmem_pools.h
#                   [RUNTIME 1.4] [TARGET_ABI cortex-m] [POOL_ALIGN 8] [TEMP runner]
#                   [MARGIN 10%] [METHOD forward] [EXTERNAL_DATA] [BACKEND id=bytes ...]
#                   [DEFINE_POOLS] [SECTION .sram2] [RUNNER arm-baremetal|runner.json]
#                   [BOARD stm32wb55|board.json] [RESERVE SRAM1=24K ...] [LINKER_SCRIPT pools.ld])
#
# BOARD: the board (`etmem list boards`, or a board file): the header then gives each pool's
# region, linker section and alignment; LINKER_SCRIPT (relative to the current binary directory)
# receives a GNU ld fragment for the regions used; RESERVE: what the rest of the firmware takes.
#
# RUNNER: the firmware's runner (`etmem list runners`, or a runner file); the header then also
# defines the runner's own pool-size macros (e.g. ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE).
#
# PROGRAM is relative to the current source directory, HEADER to the current binary directory;
# the header's directory is added to TARGET's include path. The etmem executable is
# ETMEM_EXECUTABLE (a cache variable; found next to this file's install, then on PATH).
include_guard(GLOBAL)

set(_etmem_module_dir "${CMAKE_CURRENT_LIST_DIR}")

if(NOT ETMEM_EXECUTABLE)
  # A host program even when cross-compiling: never search the target's sysroot.
  find_program(ETMEM_EXECUTABLE etmem
    HINTS "${_etmem_module_dir}/../../../bin" "${_etmem_module_dir}/../bin"
    NO_CMAKE_FIND_ROOT_PATH
    DOC "the host etmem executable that writes the pool headers")
endif()

# The recording allocator header: next to this file in a source tree, or installed.
foreach(_etmem_dir "${_etmem_module_dir}/../include" "${_etmem_module_dir}/../../../include")
  if(EXISTS "${_etmem_dir}/etmem/recording_allocator.h" AND NOT ETMEM_INCLUDE_DIR)
    get_filename_component(ETMEM_INCLUDE_DIR "${_etmem_dir}" ABSOLUTE)
  endif()
endforeach()
if(ETMEM_INCLUDE_DIR AND NOT TARGET etmem::recording_allocator)
  add_library(etmem::recording_allocator INTERFACE IMPORTED)
  set_target_properties(etmem::recording_allocator PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${ETMEM_INCLUDE_DIR}")
endif()

# The `etmem header` arguments for etmem_add_pools' options (in _etmem_args), and in `deps` the
# files they read besides the program (a runner file, made absolute against the current source
# directory, since etmem runs in the binary directory).
function(_etmem_header_args out deps)
  cmake_parse_arguments(A "DEFINE_POOLS;EXTERNAL_DATA"
    "RUNTIME;TARGET_ABI;POOL_ALIGN;TEMP;MARGIN;METHOD;SECTION;RUNNER;BOARD;LINKER_SCRIPT"
    "BACKEND;RESERVE" ${ARGN})
  set(args "")
  set(files "")
  if(DEFINED A_RUNNER AND A_RUNNER MATCHES "^(.*\\.json)(.*)$")
    get_filename_component(runner_file "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    set(A_RUNNER "${runner_file}${CMAKE_MATCH_2}")
    list(APPEND files "${runner_file}")
  endif()
  if(DEFINED A_BOARD AND A_BOARD MATCHES "\\.json$")
    get_filename_component(A_BOARD "${A_BOARD}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND files "${A_BOARD}")
  endif()
  if(DEFINED A_LINKER_SCRIPT)
    get_filename_component(A_LINKER_SCRIPT "${A_LINKER_SCRIPT}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  foreach(reserve IN LISTS A_RESERVE)
    list(APPEND args --reserve "${reserve}")
  endforeach()
  foreach(pair RUNTIME:--runtime TARGET_ABI:--target POOL_ALIGN:--pool-align TEMP:--temp
               MARGIN:--margin METHOD:--method SECTION:--section RUNNER:--runner BOARD:--board
               LINKER_SCRIPT:--linker-script)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 key)
    list(GET pair 1 flag)
    if(DEFINED A_${key})
      list(APPEND args ${flag} "${A_${key}}")
    endif()
  endforeach()
  foreach(backend IN LISTS A_BACKEND)
    list(APPEND args --backend "${backend}")
  endforeach()
  if(A_DEFINE_POOLS)
    list(APPEND args --define-pools)
  endif()
  if(A_EXTERNAL_DATA)
    list(APPEND args --external-data)
  endif()
  set(${out} "${args}" PARENT_SCOPE)
  set(${deps} "${files}" PARENT_SCOPE)
endfunction()

function(etmem_add_pools)
  cmake_parse_arguments(A "" "TARGET;PROGRAM;HEADER" "" ${ARGN})
  foreach(required TARGET PROGRAM HEADER)
    if(NOT A_${required})
      message(FATAL_ERROR "etmem_add_pools: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET ${A_TARGET})
    message(FATAL_ERROR "etmem_add_pools: ${A_TARGET} is not a target")
  endif()
  if(NOT ETMEM_EXECUTABLE)
    message(FATAL_ERROR "etmem_add_pools: no etmem executable; set ETMEM_EXECUTABLE")
  endif()
  _etmem_header_args(options option_files ${A_UNPARSED_ARGUMENTS})
  get_filename_component(program "${A_PROGRAM}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(header "${A_HEADER}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(header_dir "${header}" DIRECTORY)
  get_filename_component(header_name "${header}" NAME)
  set(work "${CMAKE_CURRENT_BINARY_DIR}/etmem/${A_TARGET}_${header_name}")
  # The options as a file that changes only when they do: a new option regenerates the header.
  file(CONFIGURE OUTPUT "${work}.options" CONTENT "${options}\n" @ONLY)
  # `etmem header` leaves an unchanged header alone (so nothing recompiles); the stamp records
  # that it ran.
  add_custom_command(
    OUTPUT "${work}.stamp"
    BYPRODUCTS "${header}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${header_dir}"
    COMMAND "${ETMEM_EXECUTABLE}" header "${program}" ${options} -o "${header}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${work}.stamp"
    DEPENDS "${program}" "${work}.options" "${ETMEM_EXECUTABLE}" ${option_files}
    COMMENT "etmem: pool header ${header_name} for ${A_TARGET} from ${A_PROGRAM}"
    VERBATIM)
  add_custom_target(${A_TARGET}_etmem_pools DEPENDS "${work}.stamp")
  add_dependencies(${A_TARGET} ${A_TARGET}_etmem_pools)
  get_target_property(type ${A_TARGET} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${A_TARGET} INTERFACE "${header_dir}")
  elseif(type STREQUAL "EXECUTABLE")
    target_include_directories(${A_TARGET} PRIVATE "${header_dir}")
  else()
    target_include_directories(${A_TARGET} PUBLIC "${header_dir}")
  endif()
endfunction()
