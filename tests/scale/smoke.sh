#!/usr/bin/env bash
# Owns: the scale smoke test (ctest scale_smoke_lstm_100): the builder's LSTM unrolled 100 times
# (29,001 values, 9,800 kernel calls) through `etmem summary`, `etmem plan --format json` and
# `etmem replan`, each under a generous limit (60 s; about 0.1 s on the machine of
# bench/RESULTS.md). Not a timing: it fails only when a verb errs or runs away (a return of the
# all-pairs planning took minutes here). bench/verbs times the verbs. One ratio: the LSTM unrolled
# 1000 times (98,000 kernel calls) through `etmem analyze` and `etmem analyze --per-op` (text and
# JSON), the table within 10x of the analysis's CPU time, +1 s of slack (about 6x and 7x here):
# the table is a sweep over live-range ends; a scan of the tensors per instruction takes minutes.
#   smoke.sh ETMEM WRITER
set -euo pipefail
etmem=$1 writer=$2
work=$(mktemp -d /tmp/etmem_scale_smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$writer" 100 "$work/lstm_100.pte"
run() {
  local status=0
  timeout 60 "$@" >"$work/out" 2>"$work/err" || status=$?
  if [[ $status -eq 124 ]]; then echo "FAIL: more than 60 s: $*" >&2; exit 1; fi
  if [[ $status -ge 2 ]]; then echo "FAIL: status $status: $*" >&2; cat "$work/err" >&2; exit 1; fi
  echo "ok (status $status): $*"
}
run "$etmem" summary "$work/lstm_100.pte"
run "$etmem" plan "$work/lstm_100.pte" --format json
run "$etmem" replan "$work/lstm_100.pte" -o "$work/smaller.pte"

"$writer" 1000 "$work/lstm_1000.pte"
# CPU seconds (user + system) of a run: wall time on a shared machine says little.
seconds() {
  local TIMEFORMAT='%U + %S' t
  t=$( { time run "$@" >/dev/null 2>"$work/run_err"; } 2>&1 ) || { cat "$work/run_err" >&2; exit 1; }
  echo "$t" | bc -l
}
analyze=$(seconds "$etmem" analyze "$work/lstm_1000.pte")
for format in text json; do
  per_op=$(seconds "$etmem" analyze "$work/lstm_1000.pte" --per-op --format "$format")
  echo "analyze ${analyze} s, analyze --per-op --format ${format} ${per_op} s"
  if [[ $(echo "$per_op > 10 * $analyze + 1" | bc -l) -eq 1 ]]; then
    echo "FAIL: --per-op --format $format took ${per_op} s, more than 10x analyze's ${analyze} s" >&2
    exit 1
  fi
done
