# Owns: the tests of the Python module etmem: every function against the command line's output,
# every kind of program input (path, os.PathLike, bytes, bytearray, memoryview), the errors, the
# GIL being released, and the motivating CNN's figures. Not: the all-programs comparison
# (test_real_programs.py).
import json
import pathlib
import subprocess
import sys
import threading
import time

import pytest

import etmem

from conftest import REAL_CNN

FAILURE_LINE = "Memory allocation failed: 48B requested (adjusted for alignment), 44B available"


def cli(binary, *args, check_exit=None):
    run = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True)
    if check_exit is not None:
        assert run.returncode == check_exit, run.stderr
    return run


def write_examples(directory, kind):
    """``etmem-examples DIRECTORY KIND`` ("--ptd", "--temp"): the builder's programs of that kind."""
    from conftest import BUILD_DIR

    examples = BUILD_DIR / "tools" / "etmem-examples" / "etmem-examples"
    subprocess.run([str(examples), str(directory), kind], check=True, capture_output=True)


def cli_json(binary, *args):
    return json.loads(cli(binary, "analyze", *args, "--format", "json").stdout)


def expect_motivating_figures(path):
    r = etmem.analyze(open(path, "rb").read(), runtime="0.3", pool=4096)
    (m,) = r["methods"]
    assert m["method_allocator"]["bytes"] == 4266
    assert m["exact"] is True
    assert m["pool_check"]["fits"] is False
    assert m["pool_check"]["log"] == FAILURE_LINE
    assert (r["runtime"], r["target"], r["pool_align"]) == ("0.3.0", "cortex-m", 8)
    fits = etmem.analyze(path, runtime="0.3", pool=4266)["methods"][0]["pool_check"]
    assert fits["fits"] is True


def test_the_builders_motivating_cnn_needs_4266_bytes(cnn):
    expect_motivating_figures(cnn)


def test_the_real_motivating_cnn_needs_4266_bytes():
    if not REAL_CNN.exists():
        pytest.skip(f"the real program is not in ../shared ({REAL_CNN})")
    expect_motivating_figures(REAL_CNN)


def test_every_input_kind_gives_the_command_lines_json(cnn, etmem_binary):
    expected = cli_json(etmem_binary, cnn, "--runtime", "0.3", "--pool", "4096")
    assert etmem.analyze(str(cnn), runtime="0.3", pool=4096) == expected
    assert etmem.analyze(cnn, runtime="0.3", pool=4096) == expected  # os.PathLike
    data = cnn.read_bytes()
    from_memory = dict(expected, program=dict(expected["program"], path="<memory>"))
    assert etmem.analyze(data, runtime="0.3", pool=4096) == from_memory
    assert etmem.analyze(bytearray(data), runtime="0.3", pool=4096) == from_memory
    assert etmem.analyze(memoryview(data), runtime="0.3", pool=4096) == from_memory
    # A slice of a larger buffer: only the view's bytes are read.
    padded = b"\0" * 7 + data + b"\0" * 5
    assert etmem.analyze(memoryview(padded)[7:-5], runtime="0.3", pool=4096) == from_memory


def test_every_option_is_the_command_lines(cnn, etmem_binary):
    cases = [
        (dict(), []),
        (dict(runtime="1.0", target="x86_64"), ["--runtime", "1.0", "--target", "x86_64"]),
        (dict(runtime="0.5", pool_align=4, temp="nonnull"),
         ["--runtime", "0.5", "--pool-align", "4", "--temp", "nonnull"]),
        (dict(external_data=True, backends=["NpuBackend=100:16"], method="forward"),
         ["--external-data", "--backend", "NpuBackend=100:16", "--method", "forward"]),
        (dict(runtime="0.3", temp="null", pool=5000), ["--runtime", "0.3", "--temp", "null", "--pool", "5000"]),
    ]
    for kwargs, args in cases:
        assert etmem.analyze(cnn, **kwargs) == cli_json(etmem_binary, cnn, *args), kwargs
    every = etmem.analyze(cnn, runtime="all", target="all")
    assert every["schema"] == 1 and every["verdict"] == "refused"  # 0.1.0: no constant segment
    assert len(every["results"]) == len(etmem.releases()) * len(etmem.targets())
    assert every == cli_json(etmem_binary, cnn, "--runtime", "all", "--target", "all")


def test_report_is_the_command_lines_text(cnn, etmem_binary):
    assert etmem.report(cnn, runtime="0.3", pool=4096) == cli(
        etmem_binary, "analyze", cnn, "--runtime", "0.3", "--pool", "4096").stdout
    assert etmem.report(cnn, allocations=True) == cli(
        etmem_binary, "analyze", cnn, "--allocations").stdout
    for fmt in ("csv", "md"):
        assert etmem.report(cnn, format=fmt, runtime="all") == cli(
            etmem_binary, "analyze", cnn, "--runtime", "all", "--format", fmt).stdout


def test_header_plan_replan_and_lists_are_the_command_lines(cnn, etmem_binary, tmp_path):
    assert etmem.header(cnn, runtime="0.3", margin="10%", define_pools=True, section=".sram2") == cli(
        etmem_binary, "header", cnn, "--runtime", "0.3", "--margin", "10%", "--define-pools",
        "--section", ".sram2").stdout
    assert etmem.plan(cnn) == json.loads(cli(etmem_binary, "plan", cnn, "--format", "json").stdout)
    assert etmem.plan(cnn, format="text") == cli(etmem_binary, "plan", cnn).stdout
    assert etmem.plan(cnn, format="html", runtime="0.3") == cli(
        etmem_binary, "plan", cnn, "--format", "html", "--runtime", "0.3").stdout

    written = tmp_path / "replanned.pte"
    cli(etmem_binary, "replan", cnn, "-o", written, check_exit=0)
    replanned = etmem.replan(cnn.read_bytes())
    assert isinstance(replanned, bytes)
    assert replanned == written.read_bytes()
    assert replanned == etmem.replan(cnn)
    # The new program reads back: its planned buffers are no larger.
    before = etmem.analyze(cnn)["methods"][0]["planned_buffers"]
    after = etmem.analyze(replanned)["methods"][0]["planned_buffers"]
    assert sum(after) <= sum(before)

    # The lists are compared as the CLI's structured output, never its text.
    listed = json.loads(cli(etmem_binary, "list", "runtimes", "--format", "json", check_exit=0).stdout)["runtimes"]
    # releases() is the published releases; the list also names the snapshots of main.
    assert etmem.releases() == [r["version"] for r in listed if not r["version"].startswith("main-")]
    listed = json.loads(cli(etmem_binary, "list", "targets", "--format", "json", check_exit=0).stdout)["targets"]
    assert etmem.targets() == [t["name"] for t in listed] and "cortex-m" in etmem.targets()
    assert cli(etmem_binary, "--version").stdout == f"etmem {etmem.__version__}\n"


def test_summary_is_the_command_lines(cnn, etmem_binary):
    for runtime in ("0.3", "1.4.1"):
        assert etmem.summary(cnn, runtime=runtime) == json.loads(
            cli(etmem_binary, "summary", cnn, "--runtime", runtime, "--format", "json").stdout)
        assert etmem.summary(cnn.read_bytes(), format="text", runtime=runtime) == cli(
            etmem_binary, "summary", cnn, "--runtime", runtime).stdout.replace(
                str(cnn), "<memory>")
    with pytest.raises(ValueError, match="format csv"):
        etmem.summary(cnn, format="csv")


def test_per_op_is_the_command_lines(cnn, etmem_binary):
    for sort in ("index", "temp", "live"):
        table = etmem.per_op(cnn, sort=sort, runtime="1.4.1")
        assert table == json.loads(cli(etmem_binary, "analyze", cnn, "--per-op", "--sort", sort,
                                       "--runtime", "1.4.1", "--format", "json").stdout)
        (m,) = table["per_op"]
        assert m["sorted_by"] == sort
        # The columns add up to the method's totals (docs/json.md).
        assert m["totals"]["peak_live_planned_bytes"] == max(
            r["live_planned_bytes"] for r in m["rows"])
        assert m["totals"]["peak_live_planned_bytes"] <= m["totals"]["planned_bytes"]
        assert m["totals"]["temp_peak_bytes"] == max(r["temp_bytes"] for r in m["rows"])
        assert all(r["stack_bytes"] is None for r in m["rows"])
        assert len(m["rows"]) == len([r for r in m["rows"] if r["kind"] == "kernel call"])
    for fmt in ("text", "csv", "md"):
        assert etmem.per_op(cnn, format=fmt, runtime="1.4.1") == cli(
            etmem_binary, "analyze", cnn, "--per-op", "--runtime", "1.4.1", "--format",
            fmt).stdout
    with pytest.raises(ValueError, match="--sort"):
        etmem.per_op(cnn, sort="bogus")


def test_check_budget_is_the_command_lines(cnn, etmem_binary, tmp_path):
    (m,) = etmem.analyze(cnn, runtime="0.3")["methods"]
    ram = (m["method_allocator"]["bytes"] + sum(m["planned_buffers"])
           + m["temp_allocator"]["load_peak_bytes"])
    flash = cnn.stat().st_size
    fits = etmem.check_budget(cnn, f"ram={ram},flash={flash}", runtime="0.3")
    assert fits["fits"] is True
    assert [(i["item"], i["used"], i["limit"], i["over"], i["message"]) for i in fits["items"]] == [
        ("ram", ram, ram, False, None), ("flash", flash, flash, False, None)]
    cli(etmem_binary, "analyze", cnn, "--runtime", "0.3", "--budget", f"ram={ram},flash={flash}",
        check_exit=0)

    over = etmem.check_budget(cnn, {"ram": ram - 1, "flash": flash - 1}, runtime="0.3")
    assert over["fits"] is False
    run = cli(etmem_binary, "analyze", cnn, "--runtime", "0.3", "--budget",
              f"ram={ram - 1},flash={flash - 1}", check_exit=1)
    assert run.stderr == "".join(f"etmem: {i['message']}\n" for i in over["items"])

    budget_file = tmp_path / "board.budget"
    budget_file.write_text("# the board\nram = 4K\n")
    # Every release from 0.2 on loads the CNN (0.1.0 knows no constant segment: refused, as the
    # command line says with exit 1).
    with pytest.raises(etmem.UnsupportedProgramError, match="ExecuTorch 0.1.0 refuses method"):
        etmem.check_budget(cnn, budget_file=budget_file, runtime="all", target="all")
    assert cli(etmem_binary, "analyze", cnn, "--runtime", "all", "--budget-file",
               budget_file).returncode == 1
    loading = [r for r in etmem.releases() if r != "0.1.0"]
    from_file = [etmem.check_budget(cnn, budget_file=budget_file, runtime=r, target="all")
                 for r in loading]
    items = [i for f in from_file for i in f["items"]]
    assert [i["item"] for i in items] == ["ram"] * len(loading) * len(etmem.targets())
    stderr = "".join(cli(etmem_binary, "analyze", cnn, "--runtime", r, "--target", "all",
                         "--budget-file", budget_file).stderr for r in loading)
    assert stderr == "".join(f"etmem: {i['message']}\n" for i in items if i["over"])
    assert not any(f["fits"] for f in from_file)

    with pytest.raises(ValueError) as bad:
        etmem.check_budget(cnn, "rom=1K")
    # The command line's line, naming the keyword where it names the flag.
    assert f"etmem: {bad.value}\n" == cli(etmem_binary, "analyze", cnn, "--budget",
                                          "rom=1K").stderr.replace("--budget", "budget")
    with pytest.raises(OSError):
        etmem.check_budget(cnn, budget_file=tmp_path / "missing.budget")
    with pytest.raises(ValueError):
        etmem.check_budget(cnn)  # neither
    with pytest.raises(TypeError):
        etmem.check_budget(cnn, 65536)


def test_an_invalid_program_raises_the_command_lines_line(cnn, etmem_binary, tmp_path):
    junk = tmp_path / "junk.pte"
    junk.write_bytes(b"x" * 64)
    truncated = tmp_path / "truncated.pte"
    truncated.write_bytes(cnn.read_bytes()[:100])
    for path in (junk, truncated):
        with pytest.raises(etmem.InvalidProgramError) as e:
            etmem.analyze(path)
        assert isinstance(e.value, ValueError)
        assert f"etmem: {e.value}\n" == cli(etmem_binary, "analyze", path, check_exit=2).stderr
        assert "\n" not in str(e.value)
        # The same bytes from memory: the same problem, named "<memory>".
        with pytest.raises(etmem.InvalidProgramError) as from_bytes:
            etmem.analyze(path.read_bytes())
        assert str(from_bytes.value) == str(e.value).replace(str(path), "<memory>")
    for function in (etmem.analyze, etmem.header, etmem.plan, etmem.replan, etmem.report):
        with pytest.raises(etmem.InvalidProgramError):
            function(b"")


def test_runner_profile_matches_the_cli(cnn, etmem_binary):
    # The Arm bare-metal runner's pool holds the planned buffer, load_method and the inputs.
    got = etmem.analyze(cnn, runtime="1.4.1", target="cortex-m", runner="arm-baremetal")
    assert got == cli_json(etmem_binary, cnn, "--runtime", "1.4.1", "--target", "cortex-m",
                           "--runner", "arm-baremetal")


def test_temp_pool_matches_the_cli(cnn, etmem_binary):
    # ExecuTorch main: operator metadata falls back to the method allocator when the temp pool
    # is too small, so the method pool depends on temp_pool (the CLI's --temp-pool).
    got = {}
    for size in (0, 64, 1 << 20):
        got[size] = etmem.analyze(cnn, runtime="main", temp_pool=size)
        assert got[size] == cli_json(etmem_binary, cnn, "--runtime", "main", "--temp-pool", size)
        text = etmem.report(cnn, runtime="main", temp_pool=size)
        assert text == cli(etmem_binary, "analyze", cnn, "--runtime", "main", "--temp-pool",
                           size, check_exit=0).stdout
    bytes_of = {size: r["methods"][0]["method_allocator"]["bytes"] for size, r in got.items()}
    assert bytes_of[0] > bytes_of[1 << 20]
    # None: the CLI's default (no --temp-pool).
    assert etmem.analyze(cnn, runtime="main") == cli_json(etmem_binary, cnn, "--runtime", "main")
    with pytest.raises(ValueError, match="^temp_pool=-1: a size cannot be negative$"):
        etmem.analyze(cnn, runtime="main", temp_pool=-1)


def test_bad_options_and_inputs_raise(cnn, tmp_path):
    missing = tmp_path / "missing.pte"
    with pytest.raises(OSError) as e:
        etmem.analyze(missing)
    assert str(missing) in str(e.value)
    for kwargs in (dict(runtime="9.9"), dict(target="z80"), dict(temp="maybe"), dict(pool_align=3),
                   dict(method="nope"), dict(backends=["=12"]), dict(pool=2**33)):
        with pytest.raises(ValueError):
            etmem.analyze(cnn, **kwargs)
    # An unknown runner is refused with the command line's line.
    with pytest.raises(ValueError, match="^runner stm32-cube: no such runner"):
        etmem.analyze(cnn, runner="stm32-cube")
    with pytest.raises(TypeError):
        etmem.analyze(12345)
    with pytest.raises(ValueError, match="^pool_align=-1: "):
        etmem.analyze(cnn, pool_align=-1)
    with pytest.raises(ValueError):
        etmem.header(cnn, section=".x")  # needs define_pools
    with pytest.raises(ValueError):
        etmem.plan(cnn, format="svg")
    with pytest.raises(ValueError):
        etmem.report(cnn, format="json")
    with pytest.raises(ValueError):
        etmem.replan(cnn, alignment=3)
    # A non-contiguous buffer is refused, not misread.
    with pytest.raises(BufferError):
        etmem.analyze(memoryview(cnn.read_bytes())[::2])


def test_threads_analyse_at_once_with_identical_results(cnn):
    data = cnn.read_bytes()
    expected = etmem.analyze(data, runtime="all", target="all")
    results = [None] * 4

    def work(i):
        results[i] = etmem.analyze(bytearray(data) if i % 2 else data, runtime="all", target="all")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(results))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results)


def test_the_gil_is_released_while_etmem_works(cnn):
    # A Python thread counts as fast as it can for the same time twice: while the main thread
    # sleeps (which releases the GIL), and while it calls etmem back to back. Were the GIL held
    # through the calls, the counter could run only in the gaps between them (with a 0.1 ms
    # switch interval, well under a tenth of the time); released, it counts about as much.
    from etmem import _etmem

    data = cnn.read_bytes()
    model = dict(runtime="all", target="cortex-m", pool_align=None, temp="runner", pool=None,
                 external_data=False, backends=None, runner=None, method=None)

    def ticks_while(main_thread_work, seconds=0.5):
        ticks = 0
        stop = threading.Event()

        def count():
            nonlocal ticks
            while not stop.is_set():
                ticks += 1

        counter = threading.Thread(target=count)
        counter.start()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            main_thread_work()
        stop.set()
        counter.join()
        return ticks

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        asleep = ticks_while(lambda: time.sleep(0.01))
        in_etmem = ticks_while(lambda: _etmem.analyze_json(data, **model))
    finally:
        sys.setswitchinterval(old)
    assert in_etmem > 0.25 * asleep, (in_etmem, asleep)


def test_the_dicts_are_the_json_texts_member_for_member(cnn):
    # etmem.analyze builds its objects from the report's value (no JSON text, no parser of
    # ours); they must be json.loads's of the text the library renders, keys in the same order.
    from etmem import _etmem

    data = cnn.read_bytes()
    cases = [dict(), dict(runtime="0.3", pool=4096), dict(runtime="main", temp_pool=64),
             dict(runtime="1.4", runner="arm-baremetal"), dict(runtime="all", target="all"),
             dict(runtime="1.4", external_data=True, backends=["NpuBackend=100:16"])]
    for kwargs in cases:
        model = dict(runtime="", target="cortex-m", pool_align=None, temp="runner", pool=None,
                     external_data=False, backends=None, runner=None, method=None)
        model.update(kwargs)
        text = _etmem.analyze_json(data, **model)
        got = etmem.analyze(data, **kwargs)
        assert got == json.loads(text), kwargs
        if isinstance(got, dict):  # the same keys in the same order: the same text
            assert json.dumps(got, separators=(",", ":"), ensure_ascii=False) + "\n" == text


def test_the_namespace_holds_the_api_only():
    public = sorted(name for name in dir(etmem) if not name.startswith("_"))
    assert public == sorted(name for name in etmem.__all__ if not name.startswith("_"))
    for name in ("Any", "Dict", "List", "Optional", "json", "os", "annotations"):
        assert name not in dir(etmem)


def test_runners_are_the_command_lines(etmem_binary):
    listed = json.loads(cli(etmem_binary, "list", "runners", "--format", "json", check_exit=0).stdout)["runners"]
    names = list(dict.fromkeys(r["name"] for r in listed))  # one row per release range
    assert etmem.runners() == names and "arm-baremetal" in names


def test_sizes_are_refused_in_one_line_naming_the_keyword(cnn):
    for kwargs, kind, shown in [
        (dict(pool=-5), ValueError, "pool=-5"), (dict(pool=2**64), ValueError, f"pool={2**64}"),
        (dict(pool="4X"), ValueError, "pool: '4X' is not a byte size"),
        (dict(pool=4096.0), TypeError, "pool=4096.0"),
        (dict(pool=True), TypeError, "pool=True"), (dict(pool_align=-1), ValueError, "pool_align=-1"),
        (dict(pool_align=2**32), ValueError, f"pool_align={2**32}"),
        (dict(runtime="main", temp_pool=-1), ValueError, "temp_pool=-1"),
    ]:
        with pytest.raises(kind) as e:
            etmem.analyze(cnn, **kwargs)
        assert str(e.value).startswith(shown) and "\n" not in str(e.value), kwargs
    with pytest.raises(ValueError, match="^alignment=-16: "):
        etmem.plan(cnn, alignment=-16)
    with pytest.raises(ValueError, match="^columns=-1: "):
        etmem.plan(cnn, format="text", columns=-1)
    with pytest.raises(ValueError, match="^alignment=-1: "):
        etmem.replan(cnn, alignment=-1)
    with pytest.raises(ValueError, match="^pool=-5: "):
        etmem.check_budget(cnn, "ram=1K", pool=-5)
    # Size text the library reads: the command line's line.
    with pytest.raises(ValueError, match="^backends Npu=-5: BYTES '-5' is not a byte size"):
        etmem.analyze(cnn, backends=["Npu=-5"])
    with pytest.raises(ValueError, match="'-5' is not a size"):
        etmem.fit(cnn, "stm32wb55", reserve="SRAM1=-5")


def test_a_newer_release_is_refused_with_the_command_lines_line(cnn, etmem_binary):
    for version in ("1.5", "1.5.0", "1.5.1", "1.6", "2.0"):
        with pytest.raises(ValueError) as e:
            etmem.analyze(cnn, runtime=version)
        message = str(e.value)
        assert f"ExecuTorch {version} is newer than the newest modelled release, " in message
        assert "main-20260822-cff6f4dd (runtime main)" in message
        assert "version.txt already says 1.5.0" in message
        assert "etmem measure PROGRAM --executorch" in message and "\n" not in message
        assert f"etmem: {message}\n" == cli(etmem_binary, "analyze", cnn, "--runtime", version,
                                            check_exit=2).stderr.replace("--runtime", "runtime")
    with pytest.raises(ValueError, match="^unknown ExecuTorch release '1.5-rc1'"):
        etmem.analyze(cnn, runtime="1.5-rc1")


def test_a_ptd_given_as_the_program_is_named_as_external_data(etmem_binary, tmp_path):
    write_examples(tmp_path, "--ptd")
    ptd = tmp_path / "external_data.match.ptd"
    want = f"{ptd}: external data (a .ptd file), not an ExecuTorch program: give the program " \
           f"(.pte) and this file with external_data {ptd}"
    with pytest.raises(etmem.InvalidProgramError) as e:
        etmem.analyze(ptd)
    assert str(e.value) == want  # the keyword, where the command line names its flag
    assert cli(etmem_binary, "analyze", ptd, check_exit=2).stderr == \
        f"etmem: {want}\n".replace("with external_data ", "with --external-data ")
    with pytest.raises(etmem.InvalidProgramError, match="external_data FILE.ptd$"):
        etmem.analyze(ptd.read_bytes())


THREE_REGIONS = b'''{"name": "three", "regions": [
  {"name": "A", "size": "20K"}, {"name": "B", "size": "20K"}, {"name": "C", "size": "20K"}]}'''


def test_boards_are_the_command_lines(etmem_binary):
    listed = json.loads(cli(etmem_binary, "list", "boards", "--format", "json", check_exit=0).stdout)["boards"]
    names = [b["name"] for b in listed]
    assert etmem.boards() == names and names


def test_fit_matches_the_cli(cnn, etmem_binary, tmp_path):
    # Every built-in board at two releases (and with the Arm runner on the Corstone boards): the
    # text byte for byte, the verdict as the exit code, free bytes per region as the text says.
    cases = [(board, ["--runtime", runtime], dict(runtime=runtime))
             for board in etmem.boards() for runtime in ("0.3", "1.4")]
    cases += [(board, ["--runtime", "1.4", "--runner", "arm-baremetal"],
               dict(runtime="1.4", runner="arm-baremetal"))
              for board in etmem.boards() if board.startswith("corstone")]
    cases.append(("stm32wb55", ["--runtime", "0.3", "--reserve", "SRAM1=24K"],
                  dict(runtime="0.3", reserve="SRAM1=24K")))
    cases.append(("stm32wb55", ["--runtime", "main", "--temp-pool", "64", "--reserve",
                                "SRAM1=180K", "--reserve", "SRAM2a=1K"],
                  dict(runtime="main", temp_pool=64, reserve={"SRAM1": "180K", "SRAM2a": 1024})))
    for board, flags, kwargs in cases:
        want = cli(etmem_binary, "fit", cnn, "--board", board, *flags)
        assert want.returncode in (0, 1), want.stderr
        got = etmem.fit(cnn, board, **kwargs)
        assert got["text"] == want.stdout, (board, flags)
        assert got["fits"] == (want.returncode == 0)
        assert got["board"] == board and got["method"] == "forward"
        after = want.stdout.split("Free after placement:\n")[1].splitlines()
        for region, line in zip(got["regions"], after):
            words = line.split()
            assert words[0] == region["name"]
            if "OVER" in line:
                assert int(words[1]) == region["used_bytes"] - region["free_bytes"] > 0
            else:
                assert int(words[1]) == region["free_bytes"] - region["used_bytes"] >= 0
        if got["fits"]:
            assert got["short_bytes"] == 0 and "\nfits\n" in want.stdout
        else:
            assert f"does not fit: {got['short_bytes']} bytes short" in want.stdout
        for placed in got["placement"]:
            assert f"{placed['piece']} " in want.stdout and placed["region"] in board_regions(got)


def board_regions(fit):
    return [r["name"] for r in fit["regions"]]


def test_a_split_fit_writes_the_command_lines_program(cnn, etmem_binary, tmp_path):
    # A board file given as bytes: the planned buffer fits no 20 KiB region whole, so it is split;
    # the fitted program is `etmem fit -o`'s byte for byte.
    board = tmp_path / "three.json"
    board.write_bytes(THREE_REGIONS)
    out = tmp_path / "fitted.pte"
    want = cli(etmem_binary, "fit", cnn, "--board", board, "--runtime", "0.3", "-o", out,
               check_exit=0)
    got = etmem.fit(cnn, THREE_REGIONS, runtime="0.3", fitted_program=True)
    assert got["splits"] and got["fits"]
    assert want.stdout.startswith(got["text"].replace("(<board bytes>)", f"({board})"))
    assert got["fitted_program"] == out.read_bytes()
    assert got["linker_script"] is None
    from_path = etmem.fit(cnn, board, runtime="0.3")
    assert want.stdout.startswith(from_path["text"])
    # The fitted program plans more buffers than the original (one per part).
    assert sum(1 for p in got["placement"] if p["memory_id"]) > 1
    # Header and plan with a board: the command line's output.
    plan = etmem.plan(out, format="text", runtime="0.3", board=board)
    assert plan == cli(etmem_binary, "plan", out, "--board", board, "--runtime", "0.3").stdout
    html = etmem.plan(out, format="html", runtime="0.3", board=board)
    assert html == cli(etmem_binary, "plan", out, "--board", board, "--runtime", "0.3",
                       "--format", "html").stdout
    with pytest.raises(ValueError, match="only split: run etmem fit -o FITTED.pte"):
        etmem.header(cnn, runtime="0.3", board=board)


def test_header_and_plan_with_a_board_are_the_command_lines(cnn, etmem_binary, tmp_path):
    ld = tmp_path / "pools.ld"
    header = cli(etmem_binary, "header", cnn, "--runtime", "0.3", "--board", "stm32wb55",
                 "--reserve", "SRAM1=24K", "--define-pools", "--linker-script", ld, check_exit=0)
    got = etmem.header(cnn, runtime="0.3", board="stm32wb55", reserve=["SRAM1=24K"],
                       define_pools=True)
    assert got == header.stdout and "ETMEM_FORWARD_METHOD_POOL_ATTRIBUTES" in got
    fit = etmem.fit(cnn, "stm32wb55", runtime="0.3", reserve="SRAM1=24K")
    assert fit["linker_script"] == ld.read_text()
    for board in ("stm32h743", "rp2040"):
        assert etmem.plan(cnn, format="text", runtime="1.4", board=board) == cli(
            etmem_binary, "plan", cnn, "--board", board).stdout
    # Without a board: unchanged.
    assert etmem.header(cnn, runtime="0.3") == cli(etmem_binary, "header", cnn, "--runtime",
                                                    "0.3", check_exit=0).stdout


def test_bad_boards_raise_the_command_lines_line(cnn, etmem_binary, tmp_path):
    want = cli(etmem_binary, "fit", cnn, "--board", "nosuchboard", check_exit=2).stderr.strip()
    with pytest.raises(ValueError) as e:
        etmem.fit(cnn, "nosuchboard")
    assert f"etmem: {e.value}" == want and "\n" not in str(e.value)
    with pytest.raises(ValueError) as e:
        etmem.header(cnn, board="nosuchboard")
    assert f"etmem: {e.value}" == want
    for bad in (b"{not json", b'{"name": "x", "regions": [{"name": "A", "size": "twelve"}]}',
                b"", b"[]"):
        with pytest.raises(ValueError) as e:
            etmem.fit(cnn, bad)
        assert "<board bytes>" in str(e.value) and "\n" not in str(e.value)
    missing = tmp_path / "missing.json"
    with pytest.raises((OSError, ValueError)) as e:
        etmem.fit(cnn, missing)
    assert str(missing) in str(e.value)
    want = cli(etmem_binary, "fit", cnn, "--board", "stm32wb55", "--reserve", "SRAM9=1K",
               check_exit=2).stderr.strip()
    with pytest.raises(ValueError) as e:
        etmem.fit(cnn, "stm32wb55", reserve="SRAM9=1K")
    assert f"etmem: {e.value}" == want.replace("--reserve", "reserve")
    with pytest.raises(ValueError, match="only with format text or html"):
        etmem.plan(cnn, board="stm32wb55")  # json
    with pytest.raises(ValueError):
        etmem.fit(cnn, None)
    with pytest.raises(TypeError):
        etmem.fit(cnn, 12)
    with pytest.raises(ValueError, match="reserve: needs a board"):
        etmem.header(cnn, reserve="SRAM1=1K")


def test_external_data_takes_the_ptd_as_a_path_or_its_bytes(etmem_binary, tmp_path):
    # etmem-examples OUTDIR --ptd writes external_data.pte and .ptd files that match it or not.
    write_examples(tmp_path, "--ptd")
    pte = tmp_path / "external_data.pte"
    bare = etmem.analyze(pte, runtime="1.4.1", external_data=True)
    for name, error, log in [
        ("match", None, None),
        ("missing_key", "NotFound", "Failed to get metadata for key linear.bias"),
        ("sizes", "InvalidExternalData",
         "Sizes mismatch. Expected 8, got 4 for size at index 1."),
        ("bad_magic", "InvalidExternalData",
         "Failed to parse FlatTensor header with error code 32. File may be corrupt."),
    ]:
        ptd = tmp_path / f"external_data.{name}.ptd"
        expected = cli_json(etmem_binary, pte, "--runtime", "1.4.1", "--external-data", ptd)
        assert etmem.analyze(pte, runtime="1.4.1", external_data=ptd) == expected, name
        assert etmem.analyze(pte, runtime="1.4.1", external_data=str(ptd)) == expected, name
        from_bytes = etmem.analyze(pte, runtime="1.4.1", external_data=ptd.read_bytes())
        (m,) = from_bytes["methods"]
        if error is None:
            assert "load_refused" not in m, name
            assert from_bytes == bare, name  # a matching .ptd costs what the bare flag predicts
        else:
            assert m["load_refused"]["error"] == error, name
            assert m["load_refused"]["log"] == log, name
            assert expected["methods"][0]["load_refused"]["log"] == log, name
    # Not a .ptd at all: an error naming the file.
    junk = tmp_path / "junk.ptd"
    junk.write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="junk.ptd: not a readable .ptd file"):
        etmem.analyze(pte, runtime="1.4.1", external_data=junk)


def test_kernels_choose_the_library_for_the_run_time_temp_figure(etmem_binary, tmp_path):
    write_examples(tmp_path, "--temp")
    program = tmp_path / "hifi_matmul.pte"
    for kernels, cli_kernels in ((None, None), ("cadence_hifi", "cadence_hifi"),
                                 (["cadence_hifi", "portable"], "cadence_hifi,portable")):
        got = etmem.analyze(program, runtime="1.4.1", kernels=kernels)
        args = ["analyze", program, "--runtime", "1.4.1", "--format", "json"]
        if cli_kernels:
            args += ["--kernels", cli_kernels]
        assert got == json.loads(cli(etmem_binary, *args).stdout)
        run = got["methods"][0]["temp_allocator"]["run"]
        assert run["kernels"] == ([kernels] if isinstance(kernels, str) else kernels or
                                  ["portable"])
    # The portable mm and bmm ask for nothing; the HiFi ones do (measured: x86_64_run_temp_hifi).
    assert etmem.analyze(program, runtime="1.4.1")["methods"][0]["temp_allocator"]["run"][
        "peak_bytes"] == 0
    hifi = etmem.analyze(program, runtime="1.4.1", kernels="cadence_hifi")
    assert hifi["methods"][0]["temp_allocator"]["run"]["peak_bytes"] > 0
    with pytest.raises(ValueError, match="no kernel library named 'nope'"):
        etmem.analyze(program, kernels="nope")


def test_the_kernels_own_malloc_at_050_reaches_python_as_the_cli_gives_it(etmem_binary, tmp_path):
    # 0.5.0's HiFi mean.out mallocs its scratch and never frees it (measured:
    # tests/measured/x86_64_run_malloc.json); summary and analyze say so beside the pools.
    write_examples(tmp_path, "--temp")
    program = tmp_path / "hifi_mean.pte"
    got = etmem.summary(program, runtime="0.5", kernels="cadence_hifi")
    assert got == json.loads(cli(etmem_binary, "summary", program, "--runtime", "0.5", "--kernels",
                                 "cadence_hifi", "--format", "json").stdout)
    heap = got["methods"][0]["malloc_heap"]
    assert heap["peak_bytes"] == heap["leaked_per_run_bytes"] > 0
    run = etmem.analyze(program, runtime="0.5", kernels="cadence_hifi")["methods"][0][
        "temp_allocator"]["run"]
    assert run["peak_bytes"] == 0 and run["malloc"]["peak_bytes"] == heap["peak_bytes"]
    later = etmem.summary(program, runtime="0.6", kernels="cadence_hifi")
    assert later["methods"][0]["malloc_heap"] is None


def test_exceptions_quote_hostile_input_on_one_printable_line(cnn):
    # Issue 25: every message that quotes input escapes it, Python's exceptions included.
    hostile = "a\nb\x1b[31m\x7f"
    calls = [lambda: etmem.analyze("/nonexistent/" + hostile + ".pte"),
             lambda: etmem.analyze(cnn, runner=hostile),
             lambda: etmem.analyze(cnn, target="/nonexistent/" + hostile + ".json"),
             lambda: etmem.analyze(cnn, kernels=hostile),
             lambda: etmem.analyze(cnn, runtime=hostile),
             lambda: etmem.analyze(cnn, method=hostile),
             lambda: etmem.header(cnn, board="/nonexistent/" + hostile + ".json")]
    for call in calls:
        with pytest.raises((ValueError, OSError)) as e:
            call()
        message = str(e.value)
        assert message.isprintable() and "\\x0a" in message, repr(message)


def test_sizes_take_the_command_lines_forms(cnn, etmem_binary):
    """"4K" and "0x1000" are read by the library's own size parser, as --pool reads them."""
    want = etmem.analyze(cnn, runtime="0.3", pool=4096)
    for spelled in ("4K", "4k", "0x1000", "4096", "4KiB"):
        got = etmem.analyze(cnn, runtime="0.3", pool=spelled)
        assert got["methods"][0]["pool_check"] == want["methods"][0]["pool_check"], spelled
    assert etmem.analyze(cnn, pool_align="0x10") == etmem.analyze(cnn, pool_align=16)
    assert etmem.analyze(cnn, runtime="main", temp_pool="1K") == etmem.analyze(
        cnn, runtime="main", temp_pool=1024)
    assert etmem.plan(cnn, alignment="0x20") == etmem.plan(cnn, alignment=32)
    assert etmem.header(cnn, margin=512) == etmem.header(cnn, margin="512")
    # The command line refuses the same text with the same words.
    cli_line = cli(etmem_binary, "analyze", cnn, "--pool", "4Q").stderr
    with pytest.raises(ValueError) as bad:
        etmem.analyze(cnn, pool="4Q")
    assert str(bad.value).startswith("pool: '4Q' is not a byte size") and "\n" not in str(bad.value)
    assert "'4Q'" in cli_line


def test_a_wrong_type_is_one_line_naming_the_keyword(cnn):
    for call, shown in [
        (lambda: etmem.analyze(cnn, runtime=0.3), "runtime=0.3: want a str"),
        (lambda: etmem.analyze(cnn, target=64), "target=64: want a str"),
        (lambda: etmem.analyze(cnn, temp=None), "temp=None: want a str"),
        (lambda: etmem.analyze(cnn, method=1), "method=1: want a str"),
        (lambda: etmem.analyze(cnn, kernels=[1]), "kernels: 1 is not a str"),
        (lambda: etmem.analyze(cnn, backends=7), "backends=7: want a str or a list"),
        (lambda: etmem.summary(cnn, runtime=1.4), "runtime=1.4: want a str"),
        (lambda: etmem.header(cnn, section=3, define_pools=True), "section=3: want a str"),
        (lambda: etmem.header(cnn, margin=0.1), "margin=0.1: want a size"),
    ]:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value).startswith(shown) and "\n" not in str(e.value), shown
        assert "incompatible function arguments" not in str(e.value)


def test_messages_name_the_keywords_not_the_flags(cnn):
    with pytest.raises(ValueError) as e:
        etmem.analyze(cnn, kernels="no_such_library")
    assert str(e.value).startswith("kernels: no kernel library named 'no_such_library'"), e.value
    with pytest.raises(ValueError) as e:
        etmem.analyze(cnn, runner="stm32-cube")
    assert "--runner" not in str(e.value) and str(e.value).startswith("runner stm32-cube")
    with pytest.raises(ValueError) as e:
        etmem.header(cnn, section=".sram2")
    assert "--" not in str(e.value) and "define_pools" in str(e.value), e.value
