# Owns: the comparison: the module's dict equals the command line's JSON for every real
# program in ../shared x every modelled release x cortex-m and x86_64. Skips cleanly without
# ../shared. Not: the builder's programs (test_etmem.py).
import json
import subprocess

import pytest

import etmem

TARGETS = ("cortex-m", "x86_64")


def test_the_module_equals_the_command_line_on_every_real_program(real_programs, etmem_binary):
    releases = etmem.releases()
    compared = invalid = 0
    for program in real_programs:
        # One command-line run per program: every pair, one object whose "results" are the
        # pairs' (releases outer).
        run = subprocess.run([str(etmem_binary), "analyze", str(program), "--runtime", "all",
                              "--target", "all", "--format", "json"], capture_output=True, text=True)
        if run.returncode == 2 and not run.stdout:
            # Not a valid program (../shared keeps a few such): the same one-line error.
            with pytest.raises(etmem.InvalidProgramError) as e:
                etmem.analyze(program)
            assert run.stderr == f"etmem: {e.value}\n"
            invalid += 1
            continue
        assert run.returncode in (0, 1, 2), run.stderr  # 1: a release refuses a method
        by_pair = {(r["runtime"], r["target"]): r for r in json.loads(run.stdout)["results"]}
        for release in releases:
            for target in TARGETS:
                ours = etmem.analyze(program, runtime=release, target=target)
                assert ours == by_pair[(release, target)], (program.name, release, target)
                compared += 1
    assert compared == (len(real_programs) - invalid) * len(releases) * len(TARGETS)
    assert compared > 0
