#!/usr/bin/env bash
# Installs the Debian packages etmem builds and tests with. Safe to run again.
set -euo pipefail
packages=(
  build-essential cmake git python3
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-setuptools python3-pip  # the Python module (python/)
  flatbuffers-compiler libflatbuffers-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib gcc-riscv64-unknown-elf g++-aarch64-linux-gnu
  chromium  # renders `etmem plan --format html` in its test (headless), and drives the web page's test
  emscripten node-acorn nodejs  # the WebAssembly build of the web page (web/; em++'s optimizer needs node-acorn)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# npm (the web page's browser test installs puppeteer-core from web/package-lock.json): Debian's
# npm package, unless the installed nodejs brings its own npm (it conflicts with Debian's then).
if ! command -v npm >/dev/null; then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
fi
