# Owns: the pytest fixtures of the module's suite: where the etmem binary, the builder's example
# programs and ../shared are (from the environment ctest sets, else the default build tree).
# Not: any test.
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
BUILD_DIR = pathlib.Path(os.environ.get("ETMEM_BUILD_DIR", SOURCE_DIR / "build"))
SHARED_DIR = pathlib.Path(os.environ.get("ETMEM_SHARED_DIR", SOURCE_DIR.parent / "shared"))
REAL_CNN = SHARED_DIR / "models" / "real" / "cnn_trained_2025-04-04_34b7e8d.pte"


@pytest.fixture(scope="session")
def etmem_binary() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("ETMEM_BINARY", BUILD_DIR / "tools" / "etmem" / "etmem"))
    if not path.exists():
        pytest.fail(f"the etmem binary is not built: {path}")
    return path


@pytest.fixture(scope="session")
def cnn() -> pathlib.Path:
    """The builder's rebuild of the motivating CNN (tools/etmem-examples writes it)."""
    path = BUILD_DIR / "examples" / "cnn.pte"
    if not path.exists():
        pytest.fail(f"the example program is not built: {path}")
    return path


@pytest.fixture(scope="session")
def real_programs() -> list:
    directory = SHARED_DIR / "models" / "real"
    programs = sorted(directory.glob("*.pte")) if directory.is_dir() else []
    if not programs:
        pytest.skip(f"no real programs in ../shared ({directory})")
    return programs
