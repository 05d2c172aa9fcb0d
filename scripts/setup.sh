#!/usr/bin/env bash
# Fresh Debian machine -> etmem built and run on the bundled example (a rebuild of the CNN from
# the report that started this project).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
echo
build/tools/etmem/etmem analyze build/examples/cnn.pte --runtime 0.3 --target cortex-m --pool 4096 || true
