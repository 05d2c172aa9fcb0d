# Owns: the Python package etmem: the functions an export script or a model repository's pytest
# calls (analyze, check_budget, header, plan, replan, fit, firmware, releases, runners, targets,
# boards),
# their defaults (the command line's), turning paths into str and checking sizes, and the
# exceptions. Its namespace holds those names only (helpers and modules start with "_").
# Not: any figure (the extension etmem._etmem runs etmem's C++ API, include/etmem/etmem.h).
"""How much memory an ExecuTorch program (.pte) needs in firmware, computed offline.

Every function takes the program as a path (``str`` or ``os.PathLike``) or as its bytes
(``bytes``, ``bytearray``, ``memoryview`` or any contiguous buffer, e.g. an export script's
``manager.buffer``), and the options of ``etmem analyze`` as keywords with the same defaults:

- ``runtime``: the ExecuTorch release the firmware is built with ("0.3", "1.4.1", ...;
  "all" in ``analyze`` and ``check_budget``); None, the default: as ``etmem analyze`` without
  ``--runtime``, the newest modelled release (``releases()``), and where a pool is judged the
  other releases whose verdict differs are named (the dict's "default_release");
- ``target``: a built-in ABI (see ``targets()``) or a target file (.json), default "cortex-m";
- ``pool_align``: the pool base's alignment (a power of two); None: the target's malloc alignment;
- ``temp``: "runner" (what the release's executor_runner does), "null" or "nonnull";
- ``pool``: check whether a method-allocator pool of this many bytes loads;
- ``external_data``: True: the runner passes a NamedDataMap (.ptd) to load_method; or the .ptd
  itself, as a path or bytes (``--external-data FILE.ptd``): checked as the release would, so a
  .ptd that does not match the program or the release's format is a refusal;
- ``backends``: ["ID=BYTES" or "ID=BYTES:ALIGN", ...] for backends etmem does not model;
- ``runner``: a runner profile (name or .json file); None: the portable executor_runner;
- ``method``: only this method; None: every method;
- ``temp_pool`` (keyword only): the temp allocator's size in bytes (``--temp-pool``), which matters
  at a release whose operator metadata falls back to the method allocator when the temp pool is
  too small (main); None: the runner's temp pool, else the portable executor_runner's;
- ``kernels`` (keyword only): the kernel libraries that implement the aten operators while the
  method runs, in order (``--kernels``), a name or a list ("portable", "optimized", "quantized",
  "cortex_m", "cadence_hifi", ...); None: portable. Custom namespaces select their own library.

Sizes (``pool``, ``pool_align``, ``temp_pool``, ``alignment``) are ints or strs in the command
line's grammar ("4096", "4K", "1M", "0x1000"; ``columns`` too): a negative, too large or
malformed one is a ``ValueError``, anything else (a float, a bool) a ``TypeError``; an option
of the wrong type (``runtime=0.3``, a float) is a ``TypeError``. Each is one line naming the
keyword; the library's messages name the keywords too (``kernels: ...``), not the command
line's flags. A release newer than the newest modelled one (``runtime="1.5"``) is a ``ValueError``
that names the newest modelled release and snapshot of main, never a stand-in.

Errors: ``InvalidProgramError`` (a ValueError) when the bytes are not a well-formed program,
``UnsupportedProgramError`` (a ValueError) when the modelled runtime refuses it, ``ValueError``
for a bad option, ``OSError`` when a file cannot be read; the message is the one line
``etmem`` prints after "etmem: ". etmem releases the GIL while it works.
"""
import os as _os
from collections.abc import Mapping as _Mapping

from . import _etmem
from ._etmem import InvalidProgramError, UnsupportedProgramError

__all__ = [
    "InvalidProgramError",
    "UnsupportedProgramError",
    "analyze",
    "boards",
    "check_budget",
    "firmware",
    "fit",
    "header",
    "per_op",
    "plan",
    "replan",
    "report",
    "releases",
    "runners",
    "summary",
    "targets",
    "__version__",
]

__version__: str = _etmem.version()

InvalidProgramError.__module__ = __name__
UnsupportedProgramError.__module__ = __name__


def _program(program):
    """A path as str, or the bytes-like object itself (the extension reads its buffer)."""
    if isinstance(program, (str, _os.PathLike)):
        path = _os.fspath(program)
        return _os.fsdecode(path) if isinstance(path, bytes) else path
    return program


def _board(board):
    """A board name or path as str, None, or the bytes-like object (a board file's JSON)."""
    if isinstance(board, (str, _os.PathLike)):
        path = _os.fspath(board)
        return _os.fsdecode(path) if isinstance(path, bytes) else path
    return board


def _reserve(reserve):
    """The reservations for the extension, in order: a mapping's items as (region, bytes) pairs
    (each size checked by ``_size``: an int, or a str the library's parser reads, as ``--reserve``
    reads it); a str, or each str of a list, as the user wrote it ("SRAM1=24K": the same parser
    reads it whole). None stays None."""
    if reserve is None:
        return None
    if isinstance(reserve, _Mapping):
        return [(_text("reserve", region), _size(f"reserve[{region!r}]", size))
                for region, size in reserve.items()]
    return _texts("reserve", reserve)


def _external_data(external_data):
    """True/False, a .ptd's path as str, or its bytes."""
    if isinstance(external_data, (str, _os.PathLike)):
        path = _os.fspath(external_data)
        return _os.fsdecode(path) if isinstance(path, bytes) else path
    if isinstance(external_data, (bytes, bytearray, memoryview)):
        return bytes(external_data)
    return bool(external_data)


def _size(name, value, limit=2**64 - 1):
    """``value`` for the keyword ``name`` as bytes: an int from 0 to ``limit``, a str in the
    command line's size grammar ("4096", "4K", "1M", "0x1000": the library's own parser), or
    None. A negative, too large or malformed size is a ValueError, anything else (a float, a
    bool) a TypeError; both in one line naming the keyword, as the command line refuses
    ``--pool -5``."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = _etmem.byte_size(value)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    elif isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}={value!r}: want a size in bytes (an int, or a str such as "
                        f"'4K' or '0x1000'), not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name}={value}: a size cannot be negative")
    if value > limit:
        raise ValueError(f"{name}={value}: too large (at most {limit})")
    return value


_TEXT_WANTS = {
    "runtime": "a release such as \"0.3\" or \"1.4.1\"",
    "target": "an ABI name or a target file's path",
    "temp": "\"runner\", \"null\" or \"nonnull\"",
    "runner": "a runner profile's name or a runner file's path",
    "method": "a method's name",
    "margin": "bytes (512, \"4K\") or a percentage (\"10%\")",
    "section": "a linker section's name",
    "reserve": "a board region's name, or \"REGION=BYTES\"",
}


def _text(name, value, optional=False, path=False):
    """``value`` for the keyword ``name`` as str (None when ``optional``; an os.PathLike when
    ``path``); anything else a one-line TypeError naming the keyword, where pybind11 would print
    every overload of the extension's function."""
    if value is None and optional:
        return None
    if path and isinstance(value, _os.PathLike):
        value = _os.fspath(value)
        return _os.fsdecode(value) if isinstance(value, bytes) else value
    if isinstance(value, str):
        return value
    wants = _TEXT_WANTS.get(name, "a str")
    raise TypeError(f"{name}={value!r}: want a str ({wants}), not {type(value).__name__}")


def _texts(name, value):
    """A str or an iterable of str as a list (None stays None)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, bytearray)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name}={value!r}: want a str or a list of str, not "
                        f"{type(value).__name__}")
    out = list(value)
    for item in out:
        if not isinstance(item, str):
            raise TypeError(f"{name}: {item!r} is not a str ({type(item).__name__})")
    return out


# The options that take a file's path (os.PathLike too).
_PATH_OPTIONS = ("target", "runner")
_SCHEMA = {spec["field"]: spec for spec in _etmem.option_schema()}


def _option(field, value, optional):
    """One model keyword checked by its kind in the options schema (api::OptionSchema)."""
    spec = _SCHEMA[field]
    kind = spec["kind"]
    if kind in ("bytes", "alignment"):
        return _size(field, value, spec["max"])
    if kind == "list":
        return _texts(field, value)
    if kind == "flag":
        return _external_data(value)
    # A text or choice: None is the default only where the schema's default is none.
    return _text(field, value, optional=optional or not spec["default"],
                 path=field in _PATH_OPTIONS)


def _model(keywords, without=(), optional=()):
    """The model options among a function's keywords (its ``locals()``): every field of the
    options schema it takes, checked, as the extension's keywords (it binds them through the same
    schema). ``without``: keywords of the function's own that share a field's name; ``optional``:
    fields whose None means the default here."""
    return {field: _option(field, keywords[field], field in optional)
            for field in _SCHEMA if field in keywords and field not in without}


def analyze(program, runtime=None, target="cortex-m", pool_align=None, temp="runner", pool=None,
            external_data=False, backends=None, runner=None, *, method=None, temp_pool=None,
            kernels=None):
    """``etmem analyze PROGRAM --format json``: the report as a dict (exactly the JSON's
    content); with runtime or target "all", one dict {"schema", "verdict", "verdict_detail",
    "results": [one per pair, releases outer, targets inner]} (docs/json.md).

    >>> r = etmem.analyze(open("cnn.pte", "rb").read(), runtime="0.3", pool=4096)
    >>> r["methods"][0]["method_allocator"]["bytes"], r["methods"][0]["pool_check"]["log"]
    """
    # The extension builds the dict from the report's value itself: no JSON text is made or read.
    return _etmem.analyze(
        _program(program), **_model(locals()))


def report(program, format="text", runtime=None, target="cortex-m", pool_align=None,
           temp="runner", pool=None, external_data=False, backends=None, runner=None, *,
           method=None, allocations=False, temp_pool=None, kernels=None):
    """``etmem analyze PROGRAM --format text|csv|md [--allocations]``: what it prints, as str."""
    return _etmem.analyze_text(
        _program(program), format=format, allocations=allocations,
        **_model(locals()))


def per_op(program, sort="index", format="json", runtime=None, target="cortex-m",
           pool_align=None, temp="runner", pool=None, external_data=False, backends=None,
           runner=None, *, method=None, temp_pool=None, kernels=None):
    """``etmem analyze PROGRAM --per-op --sort SORT --format json``: per method, one row per
    instruction (kind, operator, kernel library, planned bytes live across it, temp request while
    running, constant bytes read, stack: None without an image) and the totals, as a dict
    (exactly the JSON's content, docs/json.md: ``r["per_op"][0]["rows"]``). ``sort``: "index"
    (execution order), "live", "temp", "constant" or "stack" (largest first). ``format`` "text",
    "csv" or "md" returns what the command prints. One release and target (not "all").

    >>> t = etmem.per_op("cnn.pte", sort="live")["per_op"][0]
    >>> t["rows"][0]["operator"], t["totals"]["peak_live_planned_bytes"]
    """
    # "json": the extension builds the dict from the library's value: no JSON text is made or read.
    return _etmem.per_op(
        _program(program), format=format, sort=_text("sort", sort),
        **_model(locals()))


def summary(program, format="json", runtime=None, target="cortex-m", pool_align=None,
            temp="runner", pool=None, external_data=False, backends=None, runner=None, *,
            method=None, temp_pool=None, kernels=None):
    """``etmem summary PROGRAM --format json|text``: one screen per method (RAM with the temp pool
    at the larger of its load and run-time peaks, flash, what re-planning and the advisories would
    save, the biggest single cost); a dict for "json", what the command prints for "text"."""
    return _etmem.summary(
        _program(program), format=format,
        **_model(locals()))


def _budget(budget):
    """The command line's spec (str) as it is, or a mapping as {item: bytes} (the extension
    checks the items)."""
    if isinstance(budget, str):
        return budget
    if isinstance(budget, _Mapping):
        return {key: _size(f"budget[{key!r}]", value) for key, value in budget.items()}
    raise TypeError(f"budget: want 'ram=64K,flash=256K' or {{'ram': 65536}}, not {type(budget).__name__}")


def check_budget(program, budget=None, *, budget_file=None, runtime=None, target="cortex-m",
                 pool_align=None, temp="runner", pool=None, external_data=False, backends=None,
                 runner=None, method=None, temp_pool=None, kernels=None):
    """``etmem analyze PROGRAM --budget SPEC`` (or ``--budget-file FILE``): whether the program
    fits a board's RAM and flash.

    ``budget`` is "ram=64K,flash=256K" or a mapping {"ram": 65536, "flash": "256K"}; the RAM
    item limits, per method and (release, target) pair, method pool + planned buffers + temp
    allocator load peak; flash limits the program file. Returns
    ``{"fits": bool, "items": [{"item", "scope", "breakdown", "used", "limit", "lower_bound",
    "over", "message"}, ...]}``; ``message`` is the line ``etmem`` prints for an item over
    budget (None for one within). A pool check (``pool``) is not part of "fits": see analyze.
    """
    spec = None if budget is None else _budget(budget)
    file = None if budget_file is None else _os.fsdecode(_os.fspath(budget_file))
    items = _etmem.check_budget(
        _program(program), spec=spec, file=file,
        **_model(locals()))
    return {"fits": not any(item["over"] for item in items), "items": items}


def header(program, runtime=None, target="cortex-m", pool_align=None, temp="runner",
           external_data=False, backends=None, runner=None, *, margin=None, define_pools=False,
           section=None, method=None, temp_pool=None, kernels=None, board=None, reserve=None):
    """``etmem header PROGRAM [--board B --reserve R=N]``: the C header with the pool sizes, as
    str; with a board (see ``fit``), also where each pool goes (region, section, alignment)."""
    if margin is not None and not isinstance(margin, str):
        margin = str(_size("margin", margin))  # bytes as an int
    return _etmem.header(
        _program(program), margin=margin, define_pools=bool(define_pools),
        section=_text("section", section, optional=True), board=_board(board),
        reserve=_reserve(reserve),
        **_model(locals()))


def plan(program, method=None, alignment=16, format="json", columns=64, *, runtime=None,
         target="cortex-m", pool_align=None, temp="runner", external_data=False, backends=None,
         runner=None, temp_pool=None, kernels=None, board=None, reserve=None):
    """``etmem plan PROGRAM``: the planned memory's live ranges, soundness, bounds and advisories.

    format "json" (default) gives the JSON's content as a dict; "text" and "html" give what the
    command prints, as str. (The model options matter to "html" and to a board only.) With a
    board (``--board``; text or html only), the placement region by region follows the plan.
    """
    return _etmem.plan(
        _program(program), format=format, plan_method=method,
        alignment=_size("alignment", alignment), columns=_size("columns", columns, 2**32 - 1),
        board=_board(board), reserve=_reserve(reserve),
        **_model(locals(), without=("method",)))


def fit(program, board, *, reserve=None, runtime=None, target="cortex-m", pool_align=None,
        temp="runner", external_data=False, backends=None, runner=None, method=None,
        temp_pool=None, kernels=None, fitted_program=False):
    """``etmem fit PROGRAM --board BOARD [--reserve REGION=BYTES]... [-o FITTED.pte]``: one
    method's pools (method allocator, temp allocator, each planned buffer; with a runner, the
    runner's pools) placed in the board's memory regions.

    ``board`` is a built-in board's name (see ``boards()``), a board file's path, or a board
    file's JSON as bytes; ``reserve`` is "REGION=BYTES", a list of them (read as ``--reserve``
    reads them), or a mapping {"SRAM1": "24K", "SRAM2a": 1024} (each size an int or a str in the
    size grammar). ``method``: the method to fit (None: the first).

    Returns ``etmem fit --format json``'s content as a dict, the same keys and values
    (docs/json.md): ``schema``, ``verdict``, ``verdict_detail``, ``analysis`` (the assumptions,
    program and flash, as ``analyze``'s top level), ``method``, ``board``, ``board_file``,
    ``fits``, ``short_bytes`` (0 when it fits), ``lower_bound`` ({"short_bytes", "reason"}: a
    proof that no placement exists when short_bytes > 0), ``splits`` (a planned buffer is split
    over regions), ``regions`` ([{"name", "free_bytes", "used_bytes"}, ...]), ``placement``
    ([{"piece", "region", "offset", "padding", "bytes", "align", "memory_id", "symbol"}, ...]),
    ``notes`` and ``output`` (always None: nothing is written; the command line's is ``-o``'s
    file). Python's own, besides: ``text`` (what the command prints), ``linker_script``
    (``header --linker-script``; None when a buffer is split) and, with
    ``fitted_program=True``, ``fitted_program``: the program's bytes with its planned buffers
    split as placed (what ``-o`` writes).
    """
    if board is None:
        raise ValueError("fit: needs a board")
    return _etmem.fit(
        _program(program), board=_board(board), reserve=_reserve(reserve),
        fitted_program=bool(fitted_program),
        **_model(locals()))


def firmware(image, program=None, *, runtime, target=None, runner=None, method=None,
             temp="runner", kernels=None, board=None, components=True, format="json",
             name="<firmware bytes>"):
    """``etmem firmware IMAGE [PROGRAM] --runtime V --format json``: a linked firmware image
    (ELF executable) checked against what its ExecuTorch program needs, as a dict (exactly the
    JSON's content): the target from the ELF header (``elf``, ``assumptions``), every program
    embedded in it (``programs``: name, section, address, bytes, placement), per method each pool
    the runner declares with its size, address and alignment read from the symbol table and its
    verdict (``methods[i]["pools"]``: ``bytes``, ``address``, ``align``, ``needed``, ``fits``,
    ``short`` or ``spare``, ``log``; the temp pool with ``load_peak``, ``run_peak`` and
    ``run_unknown``), flash and RAM by component (``components``), and ``fits``.

    ``image`` is a path or the image's bytes (``name`` stands for it in messages); ``program``
    the path of a .pte the firmware reads at run time instead of embedding one; ``runtime`` the
    ExecuTorch release (required: an image does not show it beyond doubt); ``target`` None: from
    the ELF header; ``runner`` None: the runner whose pool symbols the image has; ``kernels`` the
    kernel libraries for the run-time temp peak (None: portable); ``board`` a board name, file or
    JSON bytes. ``format="text"`` returns what the command prints. A pool too small is not an
    error (``fits`` is False); an image etmem cannot use is a ``ValueError`` (``OSError`` when
    unreadable) in one line naming it.

    >>> r = etmem.firmware("app.elf", runtime="1.4.1")
    >>> [(p["symbol"], p["bytes"], p["needed"]) for p in r["methods"][0]["pools"]]
    """
    return _etmem.firmware(
        _program(image), name=str(name),
        program=_program(program) if program is not None else None, board=_board(board),
        components=bool(components), format=format,
        **_model(locals(), optional=("target",)))


def boards():
    """The built-in board names ("corstone-300", ...): ``etmem list boards``."""
    return [b["name"] for b in _etmem.boards()]


def replan(program, alignment=16):
    """``etmem replan PROGRAM -o NEW``: the re-planned program's bytes (only planned offsets
    and planned_buffer_sizes change; read back and checked sound)."""
    return _etmem.replan(_program(program), alignment=_size("alignment", alignment))


def releases():
    """The modelled ExecuTorch releases, oldest first ("0.3.0", ...): ``etmem list runtimes``."""
    return [version for version, _summary in _etmem.releases()]


def runners():
    """The built-in runner profiles' names ("arm-baremetal", ...), what ``runner`` takes (each
    with its options joined by '+'), in ``etmem list runners``'s order: one name for every
    release range it covers."""
    names = []
    for r in _etmem.runners():
        if r["name"] not in names:
            names.append(r["name"])
    return names


def targets():
    """The built-in target names ("cortex-m", ...): ``etmem list targets``."""
    return [t["name"] for t in _etmem.targets()]
