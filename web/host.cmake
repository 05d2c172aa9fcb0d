# Owns: the web page in the top-level build (included from CMakeLists.txt): the WebAssembly
# build of web/ with Emscripten as one step of `cmake --build` (target etmem_web, into
# build/web-wasm/site), and its browser test in ctest (web_page_in_chromium). Not: the wasm
# build itself (web/CMakeLists.txt), nor the page or the test (web/, web/test/).
#
# ON when em++ (emcmake) and node are installed (scripts/install-deps.sh installs them), and not
# in the sanitized build (the page is tested once, in the plain build).
find_program(ETMEM_EMCMAKE emcmake)
find_program(ETMEM_NODE node)
if(ETMEM_EMCMAKE AND ETMEM_NODE AND NOT ETMEM_SANITIZE)
  set(ETMEM_WEB_DEFAULT ON)
else()
  set(ETMEM_WEB_DEFAULT OFF)
endif()
option(ETMEM_BUILD_WEB "Build the web page (web/) with Emscripten and test it in headless Chromium" ${ETMEM_WEB_DEFAULT})
if(NOT ETMEM_BUILD_WEB)
  return()
endif()

set(ETMEM_WEB_BUILD_DIR ${CMAKE_BINARY_DIR}/web-wasm)
set(ETMEM_WEB_SITE ${ETMEM_WEB_BUILD_DIR}/site)
# web/build.sh: configured once, then incremental; the inner make shares the outer build's
# jobs (the jobserver).
add_custom_target(etmem_web ALL
  COMMAND ${PROJECT_SOURCE_DIR}/web/build.sh ${ETMEM_WEB_BUILD_DIR}
  COMMENT "em++: the web page (web/) into ${ETMEM_WEB_SITE}"
  VERBATIM)

if(ETMEM_BUILD_TESTS)
  # Needs web/node_modules (web/install-npm.sh, which the README's commands run); skipped
  # (exit 77) without it. The real programs are compared when ../shared is present.
  add_test(NAME web_page_in_chromium
           COMMAND ${CMAKE_COMMAND} -E env CHROMIUM=/usr/bin/chromium
                   ${PROJECT_SOURCE_DIR}/web/test/run_browser_test.sh
                   --site ${ETMEM_WEB_SITE} --etmem $<TARGET_FILE:etmem>
                   --cnn ${CMAKE_BINARY_DIR}/examples/cnn.pte --shared ${PROJECT_SOURCE_DIR}/../shared
                   --out ${CMAKE_BINARY_DIR}/web-test)
  set_tests_properties(web_page_in_chromium PROPERTIES SKIP_RETURN_CODE 77 COST 500 TIMEOUT 900)
endif()

# bench/web_bench.sh's large program (ScaledCnn from the program builder): built on demand.
add_executable(etmem_web_bench_program EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/bench/web_program.cpp)
target_link_libraries(etmem_web_bench_program PRIVATE etmem_testing)
