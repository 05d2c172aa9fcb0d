# Owns: the test that the stubs (python/etmem/__init__.pyi) are what the one options schema
# writes (scripts/generate_python_stubs.py), and that every stub's parameters are the package's:
# the same names (the positional ones in the same order), positional or keyword-only alike, with
# the same defaults.
# Not: the schema (tests/house/options_schema_test.cpp).
import ast
import importlib.util
import inspect

import etmem

from conftest import SOURCE_DIR


def load_generator():
    path = SOURCE_DIR / "scripts" / "generate_python_stubs.py"
    spec = importlib.util.spec_from_file_location("generate_python_stubs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_stubs_are_the_generated_ones():
    generator = load_generator()
    text, generated = generator.generated_stubs()
    assert text == generated, "run scripts/generate_python_stubs.py (the options schema changed)"
    assert text.count(generator.BEGIN) >= 8  # every modelling function's signature
    # A field the schema does not have is refused, not skipped.
    schema = etmem._etmem.option_schema()
    try:
        generator.generate("    # model options; without nonesuch\n    # end model options",
                           schema, etmem._PATH_OPTIONS)
    except SystemExit as e:
        assert "nonesuch" in str(e)
    else:
        raise AssertionError("an unknown field was accepted")


def stub_parameters(function):
    args = function.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + args.defaults
    out = [(a.arg, "positional", d) for a, d in zip(positional, defaults)]
    out += [(a.arg, "keyword", d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return [(name, kind, None if d is None else ast.literal_eval(d)) for name, kind, d in out]


def real_parameters(function):
    out = []
    for p in inspect.signature(function).parameters.values():
        kind = "keyword" if p.kind is p.KEYWORD_ONLY else "positional"
        out.append((p.name, kind, None if p.default is p.empty else p.default))
    return out


def test_every_stub_is_the_packages_signature():
    tree = ast.parse((SOURCE_DIR / "python" / "etmem" / "__init__.pyi").read_text())
    seen = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name in seen:
            continue  # an overload after the first: the same parameters, other types
        seen.add(node.name)
        stub, real = stub_parameters(node), real_parameters(getattr(etmem, node.name))
        # Positional ones in order; keyword-only ones in any order (callers name them).
        assert [p for p in stub if p[1] == "positional"] == [
            p for p in real if p[1] == "positional"], node.name
        assert sorted(p for p in stub if p[1] == "keyword") == sorted(
            p for p in real if p[1] == "keyword"), node.name
    assert {"analyze", "report", "per_op", "summary", "check_budget", "header", "plan", "fit",
            "firmware"} <= seen
