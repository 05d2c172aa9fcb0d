#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, CLI, compiler layout checks, mutation,
# fuzz regression replays, the Python module's pytest suite, the web page in headless Chromium,
# and the golden traces of the real runtime when ../shared is present) twice: a plain build in
# build/, then the same suite built with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan/ (scripts/sanitize.sh). CI runs exactly this. Installs what only the tests need
# (scripts/install-deps.sh --tests: cross compilers, Chromium, Emscripten, Node, GoogleTest, ...);
# scripts/setup.sh installs and builds only the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
web/install-npm.sh  # the web page's browser test: puppeteer-core from web/package-lock.json
# The parts scripts/setup.sh leaves out are asked for by name: a build/ that setup configured
# keeps its cached OFF otherwise.
# Ninja for a new build directory (an existing one keeps its generator): it compiles a library's
# files while the libraries it links are still being built, where make waits for them, so both
# cores stay busy through the chain of stage libraries.
generator=(); [[ -f build/CMakeCache.txt ]] || generator=(-G Ninja)
# -O2 as RelWithDebInfo, without its -g: the suite reads no debug information, and -g costs
# about a fifth of the compile time (measured on report/text_report.cpp: 14.9 s with, 11.9 s
# without). For a debugger: cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo.
cmake "${generator[@]}" -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
      -DETMEM_BUILD_TESTS=ON -DETMEM_BUILD_PYTHON=ON -DETMEM_BUILD_WEB=ON
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
scripts/sanitize.sh
