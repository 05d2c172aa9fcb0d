# Owns: building the etmem wheel from the source tree without network (a PEP 517 backend named
# in pyproject.toml, in-tree): CMake configures the project with the installing interpreter (in
# scripts/setup.sh's build/ when it has the library built, else its own tree), builds the
# extension target (python/CMakeLists.txt), and the wheel is zipped here.
# Not: the extension's code (src/), the package (etmem/), any download: it needs only CMake, a
# C++20 compiler and the Debian packages of scripts/install-deps.sh (pybind11-dev among them).
"""In-tree PEP 517 backend: ``pip install --no-build-isolation ./python``.

It needs nothing from PyPI (not setuptools, not wheel), so it works for any CPython with pip,
e.g. a pyenv interpreter that has no ``wheel`` package and cannot reach PyPI. After
scripts/setup.sh it builds the extension in setup's build/ (the library is built there
already: only the extension's one file compiles); otherwise, or with ETMEM_PYTHON_OWN_BUILD=1,
in python/build/<interpreter tag>/, kept so a second install is incremental; ccache is used
when installed. ETMEM_CMAKE_ARGS adds arguments to the configure step.
"""
import base64
import hashlib
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
SOURCE_DIR = HERE.parent
NAME = "etmem"


def _version():
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    return re.search(r"project\(etmem VERSION ([0-9.]+)", text).group(1)


def _tag():
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())
    return f"{impl}-{impl}-{platform}"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Exact memory requirements of ExecuTorch programs, computed offline\n"
            "Requires-Python: >=3.8\n")


def _cache_value(text, name):
    match = re.search(rf"^{name}:[A-Z]+=(.*)$", text, re.M)
    return match.group(1).strip() if match else None


def _setup_build():
    """The source tree's build/ (what scripts/setup.sh configures and builds), when it can make
    the extension for this interpreter without compiling the library again: its libraries are
    position-independent already, so only the extension compiles (its one file) and links.
    None when there is none, it is sanitized, it builds the module for another interpreter, or
    turning the module on would add the module's pytest suite to a test build (whose configure
    needs pytest); ETMEM_PYTHON_OWN_BUILD=1 never reuses it."""
    build_dir = SOURCE_DIR / "build"
    cache = build_dir / "CMakeCache.txt"
    if os.environ.get("ETMEM_PYTHON_OWN_BUILD") or not cache.is_file():
        return None
    text = cache.read_text(errors="replace")
    if _cache_value(text, "ETMEM_SANITIZE") == "ON":
        return None
    python_on = _cache_value(text, "ETMEM_BUILD_PYTHON") == "ON"
    if python_on:  # for this interpreter only (a pyenv shim names the one it runs)
        built_for = (_cache_value(text, "Python3_EXECUTABLE")
                     or _cache_value(text, "_Python3_EXECUTABLE"))
        try:
            runs = subprocess.run([built_for, "-c", "import sys; print(sys.executable)"],
                                  capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, TypeError, subprocess.SubprocessError):
            return None
        if os.path.realpath(runs) != os.path.realpath(sys.executable):
            return None
    elif _cache_value(text, "ETMEM_BUILD_TESTS") != "OFF":
        return None
    return build_dir


def _configure(build_dir, extra):
    configure = ["cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir), "-DETMEM_BUILD_PYTHON=ON",
                 f"-DPython3_EXECUTABLE={sys.executable}",
                 # The interpreter running pip, not the first python3 on PATH.
                 "-DPython3_FIND_STRATEGY=LOCATION"] + extra
    configure += shlex.split(os.environ.get("ETMEM_CMAKE_ARGS", ""))
    return subprocess.run(configure, stdout=sys.stderr).returncode == 0


def _build_extension():
    build_dir = _setup_build()
    if build_dir is not None:
        print(f"etmem: building the extension in {build_dir} (its library is built already)",
              file=sys.stderr)
        if not _configure(build_dir, []):
            # Leave build/ as it was: the module off again.
            subprocess.run(["cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir),
                            "-DETMEM_BUILD_PYTHON=OFF"], stdout=sys.stderr)
            build_dir = None
    if build_dir is None:
        build_dir = HERE / "build" / _tag()
        extra = ["-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DETMEM_BUILD_TESTS=OFF"]
        if shutil.which("ccache"):
            extra.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        if not _configure(build_dir, extra):
            raise RuntimeError("configuring etmem failed; see the CMake output above")
    subprocess.run(["cmake", "--build", str(build_dir), "--target", "etmem_python",
                    "-j", str(os.cpu_count() or 2)], check=True, stdout=sys.stderr)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    extension = build_dir / "python" / "etmem" / f"_etmem{suffix}"
    if not extension.exists():
        raise RuntimeError(f"the build made no {extension.name} for this interpreter "
                           f"({sys.executable}); see the CMake output above")
    return extension


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


# --- PEP 517 hooks ---

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = pathlib.Path(metadata_directory) / f"{NAME}-{_version()}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_text(_metadata())
    return dist_info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    extension = _build_extension()
    files = {f"{NAME}/{p.name}": p.read_bytes()
             for p in sorted((HERE / NAME).iterdir()) if p.suffix in (".py", ".pyi", ".typed")}
    files[f"{NAME}/{extension.name}"] = extension.read_bytes()
    dist_info = f"{NAME}-{_version()}.dist-info"
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: etmem build_backend\n"
                                   f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode()
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / wheel_name, "w",
                         zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("etmem's Python package is built from the source tree: "
                       "pip install --no-build-isolation ./python")
