# etmemConfig.cmake: what find_package(etmem) loads. Owns only finding the pieces; the
# functions (etmem_add_pools) and the etmem::recording_allocator target are in etmem.cmake, the
# library etmem::etmem (include/etmem/etmem.h, libetmem.a) in the installed etmemTargets.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/etmem.cmake")
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/etmemTargets.cmake" AND NOT TARGET etmem::etmem)
  include("${CMAKE_CURRENT_LIST_DIR}/etmemTargets.cmake")
endif()

if(NOT ETMEM_EXECUTABLE)
  set(etmem_FOUND FALSE)
  set(etmem_NOT_FOUND_MESSAGE "no host etmem executable found; set ETMEM_EXECUTABLE")
endif()
