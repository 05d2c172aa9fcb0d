# Owns: keeping docs/python.md true: its pytest for a model repository, run as written on the
# motivating CNN, fails exactly where the guide says (the 4096 B pool) with the runtime's line,
# and its budget passes. Not: the module's own tests (test_etmem.py).
import os
import pathlib
import re
import subprocess
import sys

import etmem

from conftest import SOURCE_DIR


def test_the_guides_pytest_finds_the_motivating_failure(cnn, tmp_path):
    guide = (SOURCE_DIR / "docs" / "python.md").read_text()
    after = guide[guide.index("Copy this as `tests/test_memory.py`"):]
    code = re.search(r"```python\n(.*?)```", after, re.S).group(1)
    code, replaced = re.subn(r"^PROGRAM = .*$", f"PROGRAM = pathlib.Path({str(cnn)!r})", code,
                             flags=re.M)
    assert replaced == 1
    test_file = tmp_path / "test_memory.py"
    test_file.write_text(code)
    package_root = pathlib.Path(etmem.__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(package_root), PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(test_file)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 2 passed" in run.stdout, run.stdout
    assert "FAILED test_memory.py::test_every_method_loads_in_the_pool" in run.stdout, run.stdout
    assert ("forward: needs 4266 B, the device would log: Memory allocation failed: 48B "
            "requested (adjusted for alignment), 44B available") in run.stdout, run.stdout
