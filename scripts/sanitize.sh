#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer (-DETMEM_SANITIZE=ON)
# in build-asan/ and runs the whole test suite there: unit, CLI, mutation (hostile programs),
# the fuzz corpus replays and, when ../shared is present, the golden traces. Any sanitizer
# report fails the run. scripts/test.sh (and so CI) runs this after the plain suite.
#
# Optimised with -O1 and line tables only (-g1): what ASan's own documentation suggests for
# usable stack traces, and about half the compile time of -O2 -g with the sanitizers on, which
# keeps the CI run (two builds, two suites) short; tests/CMakeLists.txt compiles the test code
# itself at -O0 in this build. NDEBUG as in the plain build, so both runs test the same code.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
# Ninja for a new build directory, as in scripts/test.sh.
generator=(); [[ -f build-asan/CMakeCache.txt ]] || generator=(-G Ninja)
cmake "${generator[@]}" -S . -B build-asan -DETMEM_SANITIZE=ON -DETMEM_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
cmake --build build-asan -j"$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
