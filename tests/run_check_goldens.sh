#!/usr/bin/env bash
# Runs ../shared/tools/check-goldens (traces measured on the real ExecuTorch runtime) against the
# built etmem and requires "0 failed". Skips (exit 77) with a message when ../shared is absent.
set -u
etmem=$1 shared=$2
if [[ ! -x $shared/tools/check-goldens ]]; then
  echo "SKIP: $shared/tools/check-goldens not found; golden traces not checked"
  exit 77
fi
out=$("$shared/tools/check-goldens" "$etmem" --max-fail-lines 20 2>&1)
echo "$out"
tail -1 <<<"$out" | grep -q ", 0 failed$"
