#!/usr/bin/env python3
# Owns: measuring issue 39's programs (etmem-examples OUTDIR --methods: a good method beside a bad
# one) on the real runtime of some ExecuTorch trees with `etmem measure`, and writing
# tests/measured/x86_64_methods.json, which tests/model/methods_match_measured_test.cpp holds etmem to.
#
#   scripts/measure_methods.py ETMEM ETMEM_EXAMPLES OUT.json WORK TAG=TREE [TAG=TREE ...]
#
# ETMEM / ETMEM_EXAMPLES: the built binaries; WORK: a scratch folder (etmem measure's --work per
# tag, reused between runs); TREE: an ExecuTorch source tree at TAG (git archive TAG -- runtime
# schema extension version.txt). Each program is measured with and without a temp allocator.
# The records name no machine folder: the command that re-measures them is in "recipe"
# (docs/measure.md, "Measured on real trees").
import hashlib
import json
import os
import subprocess
import sys


def FirstErrorLine(log_path):
    # The runtime's first error line after Program::load's deprecation warning (a program
    # without a constant segment), from the harness log etmem measure keeps in --work.
    with open(log_path, errors="replace") as f:
        for line in f:
            if line.startswith("E executorch:") and "!!DEPRECATED!!" not in line:
                return line.rstrip("\n")
    return None


def main():
    etmem, examples, out_path, work = sys.argv[1:5]
    trees = [a.split("=", 1) for a in sys.argv[5:]]
    programs_dir = os.path.join(work, "programs")
    subprocess.run([examples, programs_dir, "--methods"], check=True)
    programs = sorted(p[:-4] for p in os.listdir(programs_dir) if p.endswith(".pte"))
    results = []
    for tag, tree in trees:
        release = "main" if tag == "main" else tag[1:]
        for name in programs:
            path = os.path.join(programs_dir, name + ".pte")
            sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
            for temp in ("nonnull", "null"):
                cmd = [etmem, "measure", path, "--executorch", tree, "--work",
                       os.path.join(work, tag), "--temp", temp, "--format", "json", "--jobs", "1",
                       "--runtime", release]
                run = subprocess.run(cmd, capture_output=True, text=True)
                try:
                    j = json.loads(run.stdout)
                except json.JSONDecodeError:
                    sys.exit(f"{tag} {name}: etmem measure exited {run.returncode}: {run.stderr}")
                methods = []
                for m in j["methods"]:
                    trace = [[c["measured"]["size"], c["measured"]["align"], c["measured"]["offset"]]
                             for c in m["calls"] if c["measured"] is not None]
                    methods.append({
                        "method": m["name"],
                        "real_verdict": m["measured_verdict"],
                        "etmem_verdict": m["etmem_verdict"],
                        "etmem_refusal": m["etmem_refusal"],
                        "verdicts_agree": m["verdicts_agree"],
                        "n_calls": len(trace),
                        "trace": trace,
                        "high_water_bytes": m["measured_bytes"],
                        "load_log": FirstErrorLine(m["log"]),
                    })
                results.append({"tag": tag, "program": name, "program_set": "methods",
                                "sha256": sha, "temp": temp,
                                "etmem_measure_exit": run.returncode, "methods": methods})
                print(tag, name, temp, run.returncode,
                      [(m["method"], m["real_verdict"], m["etmem_verdict"]) for m in methods],
                      flush=True)
    doc = {
        "recipe": [
            "scripts/measure_methods.py build/tools/etmem/etmem "
            "build/tools/etmem-examples/etmem-examples OUT.json <WORK> " +
            " ".join("%s=<EXECUTORCH %s>" % (t, t) for t, _ in trees)],
        "recipe_note":
            "Re-measures every record of this file (OUT.json is the new file; it runs "
            "etmem-examples <WORK>/programs --methods and, per tag, program and temp, the etmem "
            "measure invocation of reproduce_with_etmem_measure).",
        "reproduce_with_etmem_measure":
            "etmem-examples OUTDIR --methods, then for each tag, program and temp: etmem measure "
            "OUTDIR/NAME.pte --executorch <executorch TAG tree> --work <work>/TAG --temp "
            "nonnull|null --format json --jobs 1 --runtime RELEASE (the trees: git archive TAG -- "
            "runtime schema extension version.txt). scripts/measure_methods.py runs exactly that "
            "and writes this file: scripts/measure_methods.py <etmem> <etmem-examples> OUT.json "
            "<work> vX.Y.Z=<executorch vX.Y.Z tree> ...",
        "how_measured":
            "etmem measure's harness (src/etmem/measure/harness/measure_harness.cpp) calls the "
            "runtime as the portable executor_runner does, one method at a time: Program::load, "
            "Program::method_meta (a failure is the verdict 'method_meta ERROR'), one heap buffer "
            "per planned buffer of the size memory_planned_buffer_size returns, then load_method "
            "on a recording method allocator (64 MiB pool aligned to 16). real_verdict is the "
            "runtime's (Ok, its Error name, or 'crashed (signal N)'), trace its method-allocator "
            "calls [size, alignment, offset], load_log its first error line; etmem_verdict and "
            "verdicts_agree what etmem measure compared it with; etmem_measure_exit its exit "
            "status (0: every method agrees call for call).",
        "tags": [t for t, _ in trees],
        "results": results,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
