# Owns: the tests that the package returns the library's values, never text it parsed (issue 40):
# with every JSON parser of Python's broken, each verb's dict is still the command line's JSON
# member for member (keys in the text's order); the extension itself answers JSON formats with
# dicts; budgets reach it as {item: bytes}, not as "k=v" text. Not: the figures (test_etmem.py).
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


def test_each_verbs_dict_is_the_command_lines_json_without_a_parser(cnn, etmem_binary,
                                                                    monkeypatch):
    want = {
        "summary": parsed(cli(etmem_binary, "summary", cnn, "--runtime", "1.4.1", "--format",
                              "json").stdout),
        "plan": parsed(cli(etmem_binary, "plan", cnn, "--format", "json").stdout),
        "per_op": parsed(cli(etmem_binary, "analyze", cnn, "--per-op", "--sort", "temp",
                             "--runtime", "1.4.1", "--format", "json").stdout),
        "analyze": parsed(cli(etmem_binary, "analyze", cnn, "--runtime", "0.3", "--pool", "4096",
                              "--format", "json").stdout),
    }
    refuse_parsing(monkeypatch)
    got = {
        "summary": etmem.summary(cnn, runtime="1.4.1"),
        "plan": etmem.plan(cnn),
        "per_op": etmem.per_op(cnn, sort="temp", runtime="1.4.1"),
        "analyze": etmem.analyze(cnn, runtime="0.3", pool=4096),
    }
    for verb in want:
        assert isinstance(got[verb], dict), verb
        assert pairs(got[verb]) == want[verb], verb


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
