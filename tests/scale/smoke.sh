#!/usr/bin/env bash
# Owns: the scale smoke test (ctest scale_smoke_lstm_100): the builder's LSTM unrolled 100 times
# (29,001 values, 9,800 kernel calls) through `etmem summary`, `etmem plan --format json` and
# `etmem replan`, each under a generous limit (60 s; about 0.1 s on the machine of
# bench/RESULTS.md); and the same LSTM unrolled 1000 times through `etmem analyze` and
# `etmem analyze --per-op` (text and JSON), the table within 10x of the analysis (+1 s of slack for
# a loaded machine): the table is a sweep over live-range ends, never a scan per instruction. Not a timing: it fails only when a verb errs or runs away (a return of the
# all-pairs planning took minutes here). bench/verbs times the verbs.
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
seconds() { local t0 t1; t0=$(date +%s.%N); run "$@" >/dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
analyze=$(seconds "$etmem" analyze "$work/lstm_1000.pte")
for format in text json; do
  per_op=$(seconds "$etmem" analyze "$work/lstm_1000.pte" --per-op --format "$format")
  echo "analyze ${analyze} s, analyze --per-op --format ${format} ${per_op} s"
  if [[ $(echo "$per_op > 10 * $analyze + 1" | bc -l) -eq 1 ]]; then
    echo "FAIL: --per-op --format $format took ${per_op} s, more than 10x analyze's ${analyze} s" >&2
    exit 1
  fi
done
