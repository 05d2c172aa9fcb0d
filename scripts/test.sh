#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, CLI, compiler layout checks, and the
# golden traces of the real runtime when ../shared is present).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
