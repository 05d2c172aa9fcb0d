#!/usr/bin/env bash
# Builds everything and runs the whole test suite; CI runs exactly this (.ci/run). Two build
# trees, each testing what the other cannot, every check once:
# - build/, the main job's build as scripts/setup.sh configures it (-O1; a machine that ran
#   setup rebuilds nothing of it): etmem, the example programs, the Python module and the web
#   page. Runs the Python module's pytest suite, the page in headless Chromium, and the shared
#   golden tool (../shared/tools/check-goldens, the etmem binary ~3000 times) when ../shared is
#   present.
# - build-asan/ (scripts/sanitize.sh): the C++ test binary (unit, CLI, compiler layout checks,
#   mutation, the golden traces in one process) and the fuzz regression replays, under
#   AddressSanitizer and UndefinedBehaviorSanitizer. The plain build does not build or run them
#   again (-DETMEM_BUILD_UNIT_TESTS=OFF).
# Installs what only the tests need (scripts/install-deps.sh --tests: cross compilers,
# Chromium, Emscripten, Node, GoogleTest, ...); scripts/setup.sh installs and builds only the
# main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
web/install-npm.sh  # the web page's browser test: puppeteer-core from web/package-lock.json
# Ninja for a new build directory (an existing one keeps its generator): it compiles a library's
# files while the libraries it links are still being built, where make waits for them, so both
# cores stay busy through the chain of stage libraries.
generator=(); [[ -f build/CMakeCache.txt ]] || generator=(-G Ninja)
# The main job's flags (scripts/setup.sh): -O1, no debug information. The parts setup leaves
# out are asked for by name: a build/ that setup configured keeps its cached OFF otherwise.
cmake "${generator[@]}" -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DETMEM_BUILD_TESTS=ON -DETMEM_BUILD_UNIT_TESTS=OFF -DETMEM_BUILD_PYTHON=ON -DETMEM_BUILD_WEB=ON
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
scripts/sanitize.sh
