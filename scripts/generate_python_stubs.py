# Owns: generating the model options' keyword lines of python/etmem/__init__.pyi from the one options
# schema (api::OptionSchema, through the extension's option_schema()): between a marker line
# "# model options..." and "# end model options" in each signature, one line per option with its
# type from the option's kind and its default from the schema. Not: the rest of the stubs
# (written by hand), the schema itself (src/etmem/api/options.cpp).
#
#   PYTHONPATH=build/python python3 scripts/generate_python_stubs.py          # rewrites them
#   PYTHONPATH=build/python python3 scripts/generate_python_stubs.py --check  # 1: they differ
#
# A marker is "# model options" (every option, keyword-only: the signature has its "*" before),
# optionally "; positional" (the options callers may pass by position first, in the order the
# package has always taken them, then "*", then the rest) and "; without F G" (options the
# function does not take).
import pathlib
import sys

STUBS = pathlib.Path(__file__).resolve().parents[1] / "python" / "etmem" / "__init__.pyi"
# The package's positional order of the options (its API since 0.1; not the schema's order).
POSITIONAL = ["runtime", "target", "pool_align", "temp", "pool", "external_data", "backends",
              "runner"]
BEGIN = "# model options"
END = "# end model options"


def option_line(spec, paths):
    """`field: Type = default,` for one option of the schema (`paths`: the options that take a
    file's path)."""
    kind, field, default = spec["kind"], spec["field"], spec["default"]
    if kind == "choice":
        typ = "Literal[" + ", ".join(f'"{c}"' for c in spec["choices"]) + "]"
    elif kind in ("bytes", "alignment"):
        typ = "Optional[Size]"
    elif kind == "flag":  # on, or the file it names (a path or its bytes)
        return f"{field}: Union[bool, PathLike, bytes] = False,"
    elif kind == "list":
        typ = "Optional[Union[str, Sequence[str]]]"
    else:
        typ = "PathLike" if field in paths else "str"
        if not default:
            typ = f"Optional[{typ}]"
    value = f'"{default}"' if default else "None"
    return f"{field}: {typ} = {value},"


def block(marker, schema, paths, indent):
    parts = [p.strip() for p in marker[len(BEGIN):].split(";")]
    positional = "positional" in parts
    without = set()
    for p in parts:
        if p.startswith("without "):
            without.update(p.split()[1:])
    by_field = {s["field"]: s for s in schema}
    unknown = without - set(by_field)
    if unknown:
        raise SystemExit(f"{STUBS}: '{marker}' names no option {sorted(unknown)}")
    fields = [s["field"] for s in schema if s["field"] not in without]
    lines = []
    if positional:
        first = [f for f in POSITIONAL if f in fields]
        lines += [option_line(by_field[f], paths) for f in first]
        lines.append("*,")
        fields = [f for f in fields if f not in first]
    lines += [option_line(by_field[f], paths) for f in fields]
    return [indent + line for line in lines]


def generate(text, schema, paths):
    """`text` (the stubs) with every marked block filled from `schema`."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.strip().startswith(BEGIN) and line.strip() != END:
            indent = line[:len(line) - len(line.lstrip())]
            while i < len(lines) and lines[i].strip() != END:
                i += 1
            if i == len(lines):
                raise SystemExit(f"{STUBS}: '{line.strip()}' has no '{END}'")
            out += block(line.strip(), schema, paths, indent)
    return "\n".join(out)


def generated_stubs():
    """The stubs as checked in, and as the schema of the built extension writes them."""
    import etmem
    text = STUBS.read_text()
    return text, generate(text, etmem._etmem.option_schema(), etmem._PATH_OPTIONS)


def main(argv):
    text, generated = generated_stubs()
    if "--check" in argv:
        if generated != text:
            print(f"{STUBS} differs from the options schema: run {sys.argv[0]}", file=sys.stderr)
            return 1
        return 0
    STUBS.write_text(generated)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
