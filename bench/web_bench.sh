#!/usr/bin/env bash
# Owns: running the web page's benchmark (web_bench.mjs) on the plain build in BUILD (default
# build/): builds the page and the 2 MB program (ScaledCnn, written by the program builder),
# then measures the download size and drop-to-report time of the motivating CNN and of it.
#   bench/web_bench.sh [BUILD] [RUNS]        # CHECK=1: fail unless the CNN renders in under 100 ms, 2 MB in under 1 s
# Not: the benchmark's code.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
runs="${2:-10}"
cmake --build "$build" --target etmem_web etmem_examples etmem_web_bench_program
mkdir -p "$build/web-bench"
"$build/etmem_web_bench_program" "$build/web-bench/scaled_cnn_2mb.pte" $((2 * 1024 * 1024))
node bench/web_bench.mjs "$build/web-wasm/site" "$runs" "$build/examples/cnn.pte" "$build/web-bench/scaled_cnn_2mb.pte"
