#!/usr/bin/env bash
# Fresh Debian machine -> etmem built and run on the bundled example (a rebuild of the CNN from
# the report that started this project). Installs only what that needs (CMake, Ninja, g++, four
# libraries: scripts/install-deps.sh) and builds only etmem, libetmem.a (so `cmake --install
# build` works: it installs both) and the example programs, not the test suite, the Python
# module or the web page (scripts/test.sh installs and builds those; `pip install
# --no-build-isolation ./python` then builds only the module's one file, in this build/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Ninja for a new build directory (an existing one keeps its generator): it compiles a library's
# files while the libraries it links are still being built, where make waits for them, so both
# cores stay busy through the chain of stage libraries.
generator=(); [[ -f build/CMakeCache.txt ]] || generator=(-G Ninja)
# -O1 without debug information: about half the compile time of the test build's -O2 -g
# (measured on report/text_report.cpp: 7.5 s against 14.9 s), and etmem analyzes a program in
# milliseconds either way. scripts/test.sh builds build/ again as RelWithDebInfo (-O2 -g).
cmake "${generator[@]}" -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DETMEM_BUILD_TESTS=OFF
# etmem_library archives the objects etmem is linked from: seconds more.
cmake --build build -j"$(nproc)" --target etmem etmem_library etmem_examples
echo
build/tools/etmem/etmem analyze build/examples/cnn.pte --runtime 0.3 --target cortex-m --pool 4096 || true
echo
echo "More: the Python module (docs/python.md), the web page (docs/web.md); scripts/test.sh installs, builds and runs the whole test suite."
