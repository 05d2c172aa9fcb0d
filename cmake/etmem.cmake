# etmem.cmake: etmem in a firmware build (docs/cmake.md). Owns etmem_add_pools(), which regenerates a pool
# header with the host `etmem header` whenever the program (.pte) changes, and the
# etmem::recording_allocator interface target (include/etmem/recording_allocator.h).
# Use it with find_package(etmem) (installed: <prefix>/lib/cmake/etmem) or include() this file
# from an etmem source tree. Works when cross-compiling: etmem runs on the build host.
#
#   etmem_add_pools(TARGET fw PROGRAM model.pte HEADER etmem_pools.h
#                   [RUNTIME 1.4] [TARGET_ABI cortex-m] [POOL_ALIGN 8] [TEMP runner]
#                   [TEMP_POOL 2K] [KERNELS portable ...]
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
# Script mode (cmake -P, from etmem_check_firmware's post-link step): run etmem firmware, and on
# failure delete the image and fail.
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED ETMEM AND DEFINED IMAGE)
  execute_process(COMMAND "${ETMEM}" ${ARGS} --no-components RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    file(REMOVE "${IMAGE}")
    message(FATAL_ERROR "etmem firmware: ${IMAGE} fails its check (exit ${rc}); image deleted")
  endif()
  return()
endif()
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
    "RUNTIME;TARGET_ABI;POOL_ALIGN;TEMP;TEMP_POOL;MARGIN;METHOD;SECTION;RUNNER;BOARD;LINKER_SCRIPT"
    "BACKEND;RESERVE;KERNELS" ${ARGN})
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
               TEMP_POOL:--temp-pool MARGIN:--margin METHOD:--method SECTION:--section RUNNER:--runner BOARD:--board
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
  if(A_KERNELS)
    string(REPLACE ";" "," kernels "${A_KERNELS}")
    list(APPEND args --kernels "${kernels}")
  endif()
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

# etmem_check_firmware(TARGET app [PROGRAM model.pte] [RUNTIME 1.4.1] [RUNNER arm-baremetal]
#                      [BOARD corstone-300|board.json] [TARGET_ABI cortex-m] [METHOD forward]
#                      [STACK_USAGE [STACK_USAGE_TARGETS lib ...] [STACK_USAGE_DIR dir]])
# A post-link step: `etmem firmware` reads the linked image ($<TARGET_FILE:app>): its embedded
# program, the pools its runner declares (sizes and addresses from the symbol table), and fails
# the build, with etmem's message, when a pool is too small for the program (or the release
# refuses it). PROGRAM: a .pte the firmware reads at run time instead of embedding one (relative
# to the current source directory). RUNTIME is required unless ETMEM_RUNTIME is set: an image
# does not show its ExecuTorch release beyond doubt. A failed check deletes the image, so the
# next build links and checks it again instead of keeping a firmware that was refused.
# STACK_USAGE: GCC writes its frame sizes and call graph (-fstack-usage -fcallgraph-info=su, C
# and C++ sources compiled by GCC) for TARGET and each of STACK_USAGE_TARGETS (libraries linked
# into it), and `etmem firmware --stack-usage` reads them from STACK_USAGE_DIR: by default the
# target's object directory, or the whole binary directory when STACK_USAGE_TARGETS are given
# (their objects lie elsewhere). With them the worst-case stack uses GCC's own frame sizes, and
# an image whose code etmem does not disassemble (RISC-V) gets a bound at all.
function(etmem_check_firmware)
  cmake_parse_arguments(A "STACK_USAGE" "TARGET;PROGRAM;RUNTIME;RUNNER;BOARD;TARGET_ABI;METHOD;STACK_USAGE_DIR"
                        "STACK_USAGE_TARGETS" ${ARGN})
  if(NOT A_TARGET OR NOT TARGET ${A_TARGET})
    message(FATAL_ERROR "etmem_check_firmware: TARGET must name an executable target")
  endif()
  if(NOT ETMEM_EXECUTABLE)
    message(FATAL_ERROR "etmem_check_firmware: no etmem executable; set ETMEM_EXECUTABLE")
  endif()
  if(NOT A_RUNTIME)
    set(A_RUNTIME "${ETMEM_RUNTIME}")
  endif()
  if(NOT A_RUNTIME)
    message(FATAL_ERROR "etmem_check_firmware: RUNTIME is required (the ExecuTorch release the "
                        "firmware is built with; an image does not show it beyond doubt)")
  endif()
  set(args firmware "$<TARGET_FILE:${A_TARGET}>")
  if(A_PROGRAM)
    get_filename_component(program "${A_PROGRAM}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args "${program}")
  endif()
  list(APPEND args --runtime "${A_RUNTIME}")
  # A runner or board file (.json) is made absolute: etmem runs in the binary directory.
  foreach(key RUNNER BOARD)
    if(A_${key} MATCHES "\\.json")
      get_filename_component(A_${key} "${A_${key}}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    endif()
  endforeach()
  foreach(pair RUNNER:--runner BOARD:--board TARGET_ABI:--target METHOD:--method)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 key)
    list(GET pair 1 flag)
    if(A_${key})
      list(APPEND args ${flag} "${A_${key}}")
    endif()
  endforeach()
  if(A_STACK_USAGE)
    # GCC only (-fcallgraph-info is GCC's, from GCC 10): other compilers' sources get no flags,
    # and their functions are named as not read in the stack section.
    set(gnu "$<OR:$<COMPILE_LANG_AND_ID:C,GNU>,$<COMPILE_LANG_AND_ID:CXX,GNU>>")
    foreach(t ${A_TARGET} ${A_STACK_USAGE_TARGETS})
      if(NOT TARGET ${t})
        message(FATAL_ERROR "etmem_check_firmware: STACK_USAGE_TARGETS: ${t} is not a target")
      endif()
      target_compile_options(${t} PRIVATE "$<${gnu}:-fstack-usage>" "$<${gnu}:-fcallgraph-info=su>")
    endforeach()
    if(NOT A_STACK_USAGE_DIR)
      if(A_STACK_USAGE_TARGETS)
        set(A_STACK_USAGE_DIR "${CMAKE_BINARY_DIR}")
      else()
        set(A_STACK_USAGE_DIR "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${A_TARGET}.dir")
      endif()
    endif()
    get_filename_component(A_STACK_USAGE_DIR "${A_STACK_USAGE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND args --stack-usage "${A_STACK_USAGE_DIR}")
  elseif(A_STACK_USAGE_TARGETS OR A_STACK_USAGE_DIR)
    message(FATAL_ERROR "etmem_check_firmware: STACK_USAGE_TARGETS and STACK_USAGE_DIR go with STACK_USAGE")
  endif()
  # The report goes to the build log; etmem's exit code (1: too small, 2: bad input) fails the
  # step (this file in script mode, at its top, which also deletes the image then). The list
  # goes as one -DARGS argument, its semicolons as $<SEMICOLON> (written after the command is
  # split into arguments; an escaped "\\;" reached the script as a literal: one argument).
  string(REPLACE ";" "$<SEMICOLON>" args_escaped "${args}")
  add_custom_command(TARGET ${A_TARGET} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" "-DETMEM=${ETMEM_EXECUTABLE}" "-DIMAGE=$<TARGET_FILE:${A_TARGET}>"
            "-DARGS=${args_escaped}" -P "${_etmem_module_dir}/etmem.cmake"
    COMMENT "etmem: checking ${A_TARGET}'s pools against its program"
    VERBATIM)
endfunction()
