#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/, seeds each corpus from the
# real programs (../shared/models/real), what fuzz_seeds generates (the builder's scenarios, the
# built-in targets, device logs of those programs' loads, budget files), tests/corrupt/ and
# fuzz/regressions/, then runs each target for SECONDS (default 60): pte, target_file,
# device_log, budget, runner_profile (seeded with the built-in runner profiles too).
# FUZZ_TARGETS="device_log budget" runs only those kinds.
# Corpora are generated under build-fuzz/corpus/ and never committed; findings land in
# build-fuzz/findings/<kind>/ (copy small ones into fuzz/regressions/<kind>/ after the fix).
#   fuzz/run.sh [SECONDS] [extra libFuzzer flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=build-fuzz

missing=()
for p in clang-14 libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DETMEM_FUZZ=ON -DETMEM_BUILD_TESTS=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
kinds=(${FUZZ_TARGETS:-pte target_file device_log budget runner_profile})
cmake --build "$build" -j"$(nproc)" --target fuzz_seeds "${kinds[@]/%/_fuzzer}"

corpus=$build/corpus
"$build/fuzz/fuzz_seeds" "$corpus"  # creates $corpus/<kind>/ for every kind
if [[ -d ../shared/models/real ]]; then cp ../shared/models/real/*.pte "$corpus/pte/"; fi
cp tests/corrupt/*.pte "$corpus/pte/"
mkdir -p "$corpus/runner_profile"
cp src/etmem/runner/profiles/*.json "$corpus/runner_profile/"
for kind in "${kinds[@]}"; do
  mkdir -p "$build/findings/$kind" "$corpus/$kind"
  if [[ -d fuzz/regressions/$kind ]]; then find "fuzz/regressions/$kind" -type f -not -name ".*" -exec cp {} "$corpus/$kind/" \;; fi
done

status=0
run() {
  local kind=$1 target=$1_fuzzer
  shift
  echo "== $target: $seconds s, corpus $corpus/$kind"
  "$build/fuzz/$target" "$corpus/$kind" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/findings/$kind/" "$@" \
      >"$build/$target.log" 2>&1 || status=1
  grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|SUMMARY" \
      "$build/$target.log" || true
}
for kind in "${kinds[@]}"; do run "$kind" "$@"; done
((status == 0)) || echo "findings in $build/findings/ (logs: $build/*.log)"
exit "$status"
