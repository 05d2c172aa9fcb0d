#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, CLI, compiler layout checks, mutation,
# fuzz regression replays, and the golden traces of the real runtime when ../shared is present)
# twice: a plain build in build/, then the same suite built with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ (scripts/sanitize.sh). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
web/install-npm.sh  # the web page's browser test: puppeteer-core from web/package-lock.json
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
scripts/sanitize.sh
