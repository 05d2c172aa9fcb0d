#!/usr/bin/env bash
# Owns: building the web page: etmem's library with Emscripten (Debian's em++) into
# OUTDIR/site (index.html, app.js, style.css, etmem.js with the WebAssembly inside), through
# web/CMakeLists.txt. The top-level build runs it (target etmem_web); by hand:
#   web/build.sh build/web-wasm      # then open build/web-wasm/site/index.html
# Not: the page's sources or the test.
set -euo pipefail
out="${1:?usage: web/build.sh OUTDIR}"
web="$(cd "$(dirname "$0")" && pwd)"
# Emscripten's optimizer needs acorn, which Debian's node finds only in /usr/share/nodejs.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [[ ! -f "$out/CMakeCache.txt" ]]; then
  # Ninja when installed: a library's files compile while the libraries it links are built.
  generator=(); command -v ninja >/dev/null && generator=(-G Ninja)
  emcmake cmake "${generator[@]}" -S "$web" -B "$out" -DCMAKE_BUILD_TYPE=Release > "$out.configure.log" 2>&1 ||
    { cat "$out.configure.log" >&2; exit 1; }
fi
cmake --build "$out" -j "${ETMEM_WEB_JOBS:-$(nproc)}"
