# Owns: the tests that the package returns the library's values, never text it parsed (issue 40):
# with every JSON parser of Python's broken, each verb's dict (analyze, summary, plan, per_op,
# fit, firmware) is still the command line's JSON member for member (keys in the text's order;
# the Python-only members, by design, named in PYTHON_ONLY); the extension itself answers JSON
# formats with dicts; budgets reach it as {item: bytes} and reservations as (region, bytes), not
# as "k=v" text. Not: the figures (test_etmem.py).
import json
import json.decoder

import pytest

import etmem
from etmem import _etmem

from test_etmem import cli


def pairs(value):
    """`value` with every dict as its list of (key, value) pairs: equal only in the same order."""
    if isinstance(value, dict):
        return [(k, pairs(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [pairs(v) for v in value]
    return value


def parsed(text):
    return json.loads(text, object_pairs_hook=lambda kv: [(k, v) for k, v in kv])


def refuse_parsing(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("etmem parsed JSON text")
    for owner, name in ((json, "loads"), (json, "load"), (json.decoder.JSONDecoder, "decode"),
                        (json.decoder.JSONDecoder, "raw_decode")):
        monkeypatch.setattr(owner, name, refuse)


THREE_REGIONS = b'''{"name": "three", "regions": [
  {"name": "A", "size": "20K"}, {"name": "B", "size": "20K"}, {"name": "C", "size": "20K"}]}'''


def firmware_image(cnn, tmp_path):
    from test_firmware import link  # skips without arm-none-eabi-g++
    return link(cnn, tmp_path, 32768)


def three_regions(cnn, tmp_path):
    board = tmp_path / "three.json"
    board.write_bytes(THREE_REGIONS)
    return board


# Per verb (and case): the command line's words after the verb (PROGRAM stands for the program
# or image) and the package's call of the same; `given(cnn, tmp_path)` makes what both take.
CASES = {
    "analyze": (["--runtime", "0.3", "--pool", "4096"],
                lambda p, _: etmem.analyze(p, runtime="0.3", pool=4096)),
    "analyze all": (["--runtime", "all", "--target", "cortex-m"],
                    lambda p, _: etmem.analyze(p, runtime="all")),
    "analyze default release": (["--pool", "4096"], lambda p, _: etmem.analyze(p, pool=4096)),
    "summary": (["--runtime", "1.4.1"], lambda p, _: etmem.summary(p, runtime="1.4.1")),
    "plan": ([], lambda p, _: etmem.plan(p)),
    "per_op": (["--per-op", "--sort", "temp", "--runtime", "1.4.1"],
               lambda p, _: etmem.per_op(p, sort="temp", runtime="1.4.1")),
    "fit": (["--board", "stm32wb55", "--runtime", "0.3", "--reserve", "SRAM1=24K"],
            lambda p, _: etmem.fit(p, "stm32wb55", runtime="0.3", reserve={"SRAM1": "24K"})),
    "fit does not fit": (["--board", "stm32wb55", "--runtime", "0.3", "--reserve", "SRAM1=190K",
                          "--reserve", "SRAM2a=30K", "--reserve", "SRAM2b=20K"],
                         lambda p, _: etmem.fit(p, "stm32wb55", runtime="0.3",
                                                reserve={"SRAM1": "190K", "SRAM2a": 30 * 1024,
                                                         "SRAM2b": "0x5000"})),
    "fit with a runner": (["--board", "corstone-300", "--runner", "arm-baremetal"],
                          lambda p, _: etmem.fit(p, "corstone-300", runner="arm-baremetal",
                                                 fitted_program=True)),
    "fit split": (["--board", "BOARD", "--runtime", "0.3"],
                  lambda p, board: etmem.fit(p, board, runtime="0.3")),
    "firmware": (["--runtime", "1.4.1"], lambda p, _: etmem.firmware(p, runtime="1.4.1")),
}
# The command line's verb and JSON flag per case's verb ("analyze --per-op" is per_op's).
VERB = {"analyze": "analyze", "summary": "summary", "plan": "plan", "per_op": "analyze",
        "fit": "fit", "firmware": "firmware"}
# (fits, splits) per fit case, so that the comparison covers each branch of the JSON.
FIT_OUTCOME = {"fit": (True, False), "fit does not fit": (False, True),
               "fit with a runner": (True, False), "fit split": (True, True)}
# What only Python's dict has, by design (documented in each function's docstring): fit's text,
# linker script and fitted program's bytes. Every other member is the JSON's, in its order.
# (check_budget's {"fits", "items"} has no JSON of the command line's to equal: `--budget` judges
# in analyze's verdict and prints the items over budget as lines; test_etmem.py holds those.)
PYTHON_ONLY = {"fit": ("text", "linker_script", "fitted_program")}


@pytest.mark.parametrize("case", list(CASES))
def test_each_verbs_dict_is_the_command_lines_json_without_a_parser(case, cnn, etmem_binary,
                                                                    tmp_path, monkeypatch):
    verb = case.split()[0]
    words, call = CASES[case]
    program = firmware_image(cnn, tmp_path) if verb == "firmware" else cnn
    board = three_regions(cnn, tmp_path) if case == "fit split" else None
    words = [str(board) if w == "BOARD" else w for w in words]
    run = cli(etmem_binary, VERB[verb], program, *words, "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    want = parsed(run.stdout)
    refuse_parsing(monkeypatch)
    got = call(program, board)
    assert isinstance(got, dict), case
    extras = {key: got.pop(key) for key in PYTHON_ONLY.get(verb, ()) if key in got}
    assert pairs(got) == want, case
    if verb == "fit":
        # The cases cover a fit, one short, one split; the verdict is the exit code's.
        assert got["fits"] == (run.returncode == 0) and isinstance(extras["text"], str)
        assert (extras["linker_script"] is None) == got["splits"]
        assert got["output"] is None
        if "fitted_program" in extras:
            assert extras["fitted_program"] == cnn.read_bytes()  # nothing split: unchanged
        # The cases cover a fit whole, a fit split, and a placement short (split as it can).
        assert (got["fits"], got["splits"]) == FIT_OUTCOME[case]


def test_the_extension_answers_json_with_dicts(cnn):
    model = dict(runtime="1.4.1", target="cortex-m", pool_align=None, temp="runner", pool=None,
                 external_data=False, backends=None, runner=None, method=None)
    data = cnn.read_bytes()
    assert isinstance(_etmem.summary(data, format="json", **model), dict)
    assert isinstance(_etmem.per_op(data, format="json", sort="index", **model), dict)
    assert isinstance(_etmem.plan(data, format="json", plan_method=None, alignment=16, columns=64,
                                  board=None, reserve=None, **model), dict)
    # The other formats are what the command prints.
    assert isinstance(_etmem.summary(data, format="text", **model), str)
    assert isinstance(_etmem.plan(data, format="text", plan_method=None, alignment=16,
                                  columns=64, board=None, reserve=None, **model), str)


def test_a_budget_mapping_reaches_the_extension_as_a_dict(cnn, monkeypatch):
    seen = []
    real = _etmem.check_budget

    def spy(program, spec, file, **model):
        seen.append(spec)
        return real(program, spec=spec, file=file, **model)

    monkeypatch.setattr(_etmem, "check_budget", spy)
    from_dict = etmem.check_budget(cnn, {"ram": "4K", "flash": 1 << 20}, runtime="0.3")
    from_text = etmem.check_budget(cnn, "ram=4K,flash=1M", runtime="0.3")
    assert seen == [{"ram": 4096, "flash": 1 << 20}, "ram=4K,flash=1M"]
    assert from_dict == from_text
    with pytest.raises(ValueError, match="'rom' is not a budget item"):
        etmem.check_budget(cnn, {"rom": 1024})
    with pytest.raises(ValueError, match="sets no budget item"):
        etmem.check_budget(cnn, {})
    with pytest.raises(ValueError, match=r"budget\['ram'\]"):
        etmem.check_budget(cnn, {"ram": -1})


def test_a_reserve_mapping_reaches_the_extension_as_region_bytes_pairs(cnn, etmem_binary,
                                                                      monkeypatch):
    seen = []
    real = _etmem.fit

    def spy(program, board, reserve, fitted_program, **model):
        seen.append(reserve)
        return real(program, board=board, reserve=reserve, fitted_program=fitted_program, **model)

    monkeypatch.setattr(_etmem, "fit", spy)
    by_map = etmem.fit(cnn, "stm32wb55", runtime="0.3", reserve={"SRAM1": "24K", "SRAM2a": 1024})
    by_text = etmem.fit(cnn, "stm32wb55", runtime="0.3", reserve=["SRAM1=24K", "SRAM2a=0x400"])
    # The mapping's sizes read once (the library's parser, as --reserve's); the user's own
    # "REGION=BYTES" strs go as they were written, for that parser to read whole.
    assert seen == [[("SRAM1", 24576), ("SRAM2a", 1024)], ["SRAM1=24K", "SRAM2a=0x400"]]
    assert by_map == by_text
    # header and plan take them the same way.
    assert etmem.header(cnn, runtime="0.3", board="stm32wb55", reserve={"SRAM1": 24576}) == \
        etmem.header(cnn, runtime="0.3", board="stm32wb55", reserve="SRAM1=24K")
    assert etmem.plan(cnn, format="text", board="stm32wb55", reserve={"SRAM2a": "1K"}) == \
        etmem.plan(cnn, format="text", board="stm32wb55", reserve=["SRAM2a=1024"])
    # Errors: one line naming the keyword (and the region; the command line quotes its text).
    with pytest.raises(ValueError, match=r"^reserve\['SRAM1'\]: '-5' is not a byte size"):
        etmem.fit(cnn, "stm32wb55", reserve={"SRAM1": "-5"})
    with pytest.raises(ValueError, match=r"^reserve\['SRAM1'\]=-5: a size cannot be negative"):
        etmem.fit(cnn, "stm32wb55", reserve={"SRAM1": -5})
    with pytest.raises(TypeError, match=r"^reserve\['SRAM1'\]=1.5: want a size in bytes"):
        etmem.fit(cnn, "stm32wb55", reserve={"SRAM1": 1.5})
    with pytest.raises(TypeError, match="^reserve=7: want a str"):
        etmem.fit(cnn, "stm32wb55", reserve={7: 1024})
    with pytest.raises(TypeError, match="^reserve: 7 is not a str"):
        etmem.fit(cnn, "stm32wb55", reserve=["SRAM1=1K", 7])
    with pytest.raises(ValueError) as e:
        etmem.fit(cnn, "stm32wb55", reserve={"SRAM9": 1024})
    want = cli(etmem_binary, "fit", cnn, "--board", "stm32wb55", "--reserve", "SRAM9=1K",
               check_exit=2).stderr
    assert str(e.value) == want.replace("etmem: --reserve SRAM9=1K", "reserve SRAM9").strip()
    # Reservations past the region, however large, are refused (never summed past 64 bits).
    for size in (2**64 - 1, 2**63, "0xffffffffffffffff"):
        with pytest.raises(ValueError, match="^reserve SRAM1: the reservations in SRAM1 .* exceed its size"):
            etmem.fit(cnn, "stm32wb55", reserve={"SRAM1": size})
    # After a first reservation, one that wraps the sum to less than the region (once accepted).
    with pytest.raises(ValueError, match="the reservations in SRAM1 .more than 2.64 B. exceed"):
        etmem.fit(cnn, "stm32wb55", reserve=["SRAM1=1K", "SRAM1=0xfffffffffffffff0"])
    with pytest.raises(ValueError, match="reserve: needs a board"):
        etmem.header(cnn, reserve={"SRAM1": 1024})
