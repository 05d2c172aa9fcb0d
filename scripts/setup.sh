#!/usr/bin/env bash
# Fresh Debian machine -> etmem built and run on the bundled example (a rebuild of the CNN from
# the report that started this project), and the Python module etmem (build/python).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
web/install-npm.sh  # the web page's browser test: puppeteer-core from web/package-lock.json
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
echo
build/tools/etmem/etmem analyze build/examples/cnn.pte --runtime 0.3 --target cortex-m --pool 4096 || true
if [[ -d build/python/etmem ]]; then  # the Python module (docs/python.md), built for the python3 CMake found
  echo
  PYTHONPATH=build/python python3 -c 'import etmem; m = etmem.analyze("build/examples/cnn.pte", runtime="0.3", pool=4096)["methods"][0]; print("etmem.analyze:", m["method_allocator"]["bytes"], "B;", m["pool_check"]["log"])'
fi
if [[ -f build/web-wasm/site/index.html ]]; then  # the web page (docs/web.md)
  echo
  echo "the web page: open build/web-wasm/site/index.html in a browser (or copy build/web-wasm/site/ to any static host)"
fi
