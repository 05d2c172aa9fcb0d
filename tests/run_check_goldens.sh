#!/usr/bin/env bash
# Runs ../shared/tools/check-goldens (traces measured on the real ExecuTorch runtime) against the
# built etmem and requires "0 failed" with at least one passed. Skips (exit 77) with a message when
# ../shared is absent. A third argument checks only the golden files whose path contains it (the
# tool's --only): tests/CMakeLists.txt runs one ABI per test, so the two run side by side.
#   tests/run_check_goldens.sh ETMEM SHARED [/golden/x86_64/]
set -u
etmem=$1 shared=$2 only=${3:-}
if [[ ! -x $shared/tools/check-goldens ]]; then
  echo "SKIP: $shared/tools/check-goldens not found; golden traces not checked"
  exit 77
fi
out=$("$shared/tools/check-goldens" "$etmem" --only "$only" --max-fail-lines 20 2>&1)
echo "$out"
tail -1 <<<"$out" | grep -Eq "^[1-9][0-9]* passed, 0 failed$"
