#!/bin/sh
# Owns: a snapshot of what every verb prints for a set of programs, every format each verb takes,
# so a change to the output layer (analysis/ builds, report/ renders) can be shown byte-identical:
#   scripts/output_snapshot.sh OLD_ETMEM /tmp/before PROGRAM.pte...
#   scripts/output_snapshot.sh NEW_ETMEM /tmp/after  PROGRAM.pte...
#   diff -r /tmp/before /tmp/after            (empty: nothing printed changed)
# Each run's stdout, stderr and exit status land in one file per (program, verb, options).
# Verbs that need a linked image, a device log, a compiler or an ExecuTorch tree (firmware, check,
# probe, measure) are not run here: their tests hold their output.
set -u
etmem=$1
out=$2
shift 2
mkdir -p "$out"

run() {  # NAME ARGS...: one file with stdout, stderr and the exit status
  name=$1
  shift
  {
    "$etmem" "$@" 2>"$out/$name.stderr"
    echo "exit $?"
    cat "$out/$name.stderr"
  } >"$out/$name" 2>&1
  rm -f "$out/$name.stderr"
}

for what in runtimes targets runners boards kernels; do
  for f in text json; do run "list-$what-$f" list "$what" --format "$f"; done
done

prev=""
for p in "$@"; do
  n=$(basename "$p" .pte)
  for f in text json csv md; do
    run "$n-analyze-$f" analyze "$p" --format "$f"
    run "$n-analyze-all-$f" analyze "$p" --runtime all --target all --format "$f"
    run "$n-analyze-perop-$f" analyze "$p" --per-op --sort live --format "$f"
    run "$n-analyze-runner-$f" analyze "$p" --runner arm-baremetal --kernels cortex_m portable --format "$f"
    run "$n-analyze-budget-$f" analyze "$p" --budget ram=4K,flash=1M --pool 2048 --format "$f"
  done
  run "$n-analyze-allocations" analyze "$p" --allocations --runtime 0.4
  run "$n-analyze-old" analyze "$p" --runtime 0.1 --target riscv32 --temp null
  for f in text json; do
    run "$n-summary-$f" summary "$p" --format "$f"
    run "$n-summary-runner-$f" summary "$p" --runner zephyr-hello --format "$f"
    run "$n-fit-$f" fit "$p" --board corstone-300 --format "$f"
    run "$n-fit320-$f" fit "$p" --board corstone-320 --runner arm-baremetal --format "$f"
    # The copy's path is the same in every snapshot (it is printed); its bytes are digested.
    run "$n-replan-$f" replan "$p" -o /tmp/etmem_snapshot_replanned.pte --format "$f"
    [ -e /tmp/etmem_snapshot_replanned.pte ] &&
      sha256sum </tmp/etmem_snapshot_replanned.pte >>"$out/$n-replan-$f"
    rm -f /tmp/etmem_snapshot_replanned.pte
  done
  for f in text json html; do
    run "$n-plan-$f" plan "$p" --format "$f"
    run "$n-plan-board-$f" plan "$p" --board corstone-300 --format "$f"
  done
  run "$n-header" header "$p" -o - --margin 10% --define-pools
  run "$n-header-board" header "$p" --board corstone-300 -o -
  run "$n-header-runner" header "$p" --runner arm-baremetal -o -
  if [ -n "$prev" ]; then
    for f in text json md; do run "$n-diff-$f" diff "$prev" "$p" --format "$f"; done
  fi
  prev=$p
done
exit 0
