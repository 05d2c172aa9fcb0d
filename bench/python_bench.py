#!/usr/bin/env python3
# Owns: the benchmark of the Python module: the cost of etmem.analyze(bytes) on the motivating
# CNN (runtime 0.3, cortex-m, pool 4096: the call) against the library call it makes,
# measured by etmem_bench's api_analyze_json (bench/analyze_bench.cpp). A measurement, never a
# test: the goal (Python no more than twice the library call) is for bench/RESULTS.md. With
# SCALES="1 100 1000" (issue 38), also summary and plan on the builder's LSTM unrolled k times
# (BUILD_DIR/tests/etmem_scaled_lstm, or SCALED_LSTM=that writer) against analyze in the same
# process.
# Not: the C++ benchmarks themselves.
"""Usage: bench/python_bench.py BUILD_DIR [BENCH_BUILD_DIR]

SCALES="1 100 1000" bench/python_bench.py BUILD_DIR   # summary and plan as programs grow

BUILD_DIR has the module (BUILD_DIR/python/etmem) and the example program
(BUILD_DIR/examples/cnn.pte); BENCH_BUILD_DIR (default BUILD_DIR) has bench/etmem_bench
(-DETMEM_BUILD_BENCH=ON). Both are timed in this process's conditions: best of REPEATS runs of
N calls each, in CPU time (process_time / Google Benchmark's cpu_time) and wall time.
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build").resolve()
bench_build = pathlib.Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else build
sys.path.insert(0, str(build / "python"))
import etmem  # noqa: E402
from etmem import _etmem  # noqa: E402

REPEATS = int(os.environ.get("REPEATS", "7"))
data = (build / "examples" / "cnn.pte").read_bytes()
args = dict(runtime="0.3", pool=4096)


def best(fn, n):
    cpu, wall = [], []
    for _ in range(REPEATS):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(n):
            fn()
        cpu.append((time.process_time() - c0) / n * 1e6)
        wall.append((time.perf_counter() - w0) / n * 1e6)
    return min(cpu), min(wall), statistics.median(wall)


assert etmem.analyze(data, **args)["methods"][0]["method_allocator"]["bytes"] == 4266
n = 200
python_dict = best(lambda: etmem.analyze(data, **args), n)
model = dict(runtime="0.3", target="cortex-m", pool_align=None, temp="runner", pool=4096,
             external_data=False, backends=None, runner=None, method=None)
binding_only = best(lambda: _etmem.analyze_json(data, **model), n)

library = None
bench = bench_build / "bench" / "etmem_bench"
if bench.exists():
    run = subprocess.run([str(bench), "--benchmark_filter=^api_analyze",
                          f"--benchmark_repetitions={REPEATS}", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True)
    results = json.loads(run.stdout)["benchmarks"]
    library = {}
    for r in results:
        if r.get("run_type") == "iteration":
            name = r["name"].split("/")[0]
            cpu, wall = library.get(name, (float("inf"), float("inf")))
            library[name] = (min(cpu, r["cpu_time"]), min(wall, r["real_time"]))

print(f"motivating CNN ({len(data)} B), runtime 0.3, cortex-m, pool 4096; best of {REPEATS} x {n}")
print(f"  etmem.analyze(bytes) -> dict      cpu {python_dict[0]:8.1f} us  wall {python_dict[1]:8.1f} us (median {python_dict[2]:.1f})")
print(f"  _etmem.analyze_json(bytes) -> str cpu {binding_only[0]:8.1f} us  wall {binding_only[1]:8.1f} us (median {binding_only[2]:.1f})")
if library:
    for name, (cpu, wall) in sorted(library.items()):
        print(f"  C++ {name:<30} cpu {cpu:8.1f} us  wall {wall:8.1f} us")
    base = library["api_analyze_json"][0]
    print(f"  ratio etmem.analyze / api_analyze_json (cpu): {python_dict[0] / base:.2f} (goal <= 2)")
else:
    print(f"  (no {bench}: build with -DETMEM_BUILD_BENCH=ON for the library's figure)")


# Summary and plan as programs grow: CPU ms of one call (median of REPEATS), and the ratio to
# etmem.report (analyze's text, the command line's default) on the same program.
scales = os.environ.get("SCALES", "").split()
if scales:
    import tempfile
    writer = os.environ.get("SCALED_LSTM", str(build / "tests" / "etmem_scaled_lstm"))
    calls = {
        "report": lambda d: etmem.report(d),
        "analyze": lambda d: etmem.analyze(d),
        "summary": lambda d: etmem.summary(d),
        "summary_text": lambda d: etmem.summary(d, format="text"),
        "plan": lambda d: etmem.plan(d),
        "plan_text": lambda d: etmem.plan(d, format="text"),
    }
    print(f"\nthe builder's LSTM unrolled k times; CPU ms of one call, median of {REPEATS}; "
          "ratio to etmem.report (analyze's text) in brackets")
    print("program    " + "".join(f"{k:>20}" for k in calls))
    with tempfile.TemporaryDirectory() as work:
        for k in scales:
            f = pathlib.Path(work) / f"lstm_{k}.pte"
            subprocess.run([str(writer), k, str(f)], check=True)
            d = f.read_bytes()
            ms = {}
            for name, fn in calls.items():
                xs = []
                for _ in range(REPEATS):
                    c0 = time.process_time()
                    fn(d)
                    xs.append((time.process_time() - c0) * 1e3)
                ms[name] = statistics.median(xs)
            print(f"lstm_{k:<6}" + "".join(
                f"{ms[n]:>11.1f} ({ms[n] / ms['report']:4.1f}x)" for n in calls))
