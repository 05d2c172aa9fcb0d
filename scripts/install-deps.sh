#!/usr/bin/env bash
# Installs the Debian packages etmem needs. Safe to run again: only what is missing is installed.
#   scripts/install-deps.sh           # the main job (scripts/setup.sh): build etmem and run it
#   scripts/install-deps.sh --tests   # and what only the test suite needs (scripts/test.sh, CI)
set -euo pipefail
# The main job: CMake (with Ninja), g++ and the five libraries etmem is built on (capstone:
# the disassembler of `etmem firmware`'s worst-case stack; pkg-config finds it).
packages=(
  build-essential cmake ninja-build pkg-config
  flatbuffers-compiler libflatbuffers-dev libcli11-dev nlohmann-json3-dev libfmt-dev libcapstone-dev
)
tests=0
[[ ${1:-} == --tests ]] && tests=1
if ((tests)); then
  packages+=(
    git python3
    googletest libgtest-dev libgmock-dev libbenchmark-dev
    python3-dev pybind11-dev python3-pybind11 python3-pytest python3-setuptools python3-pip  # the Python module (python/) and its pytest suite
    gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib gcc-riscv64-unknown-elf g++-aarch64-linux-gnu  # type layouts checked against real compilers
    qemu-system-arm  # runs the stack test's Cortex-M program with the stack painted (tests/firmware/stack_test.cpp)
    chromium  # renders `etmem plan --format html` in its test (headless), and drives the web page's test
    emscripten node-acorn nodejs  # the WebAssembly build of the web page (web/; em++'s optimizer needs node-acorn)
  )
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
if ((${#missing[@]})); then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# npm (the web page's browser test installs puppeteer-core from web/package-lock.json): Debian's
# npm package, unless the installed nodejs brings its own npm (it conflicts with Debian's then).
if ((tests)) && ! command -v npm >/dev/null; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
fi
