#!/usr/bin/env python3
# Owns: regenerating docs/refusal-audit.md's table from ExecuTorch's source at every modelled
# tag (issue 39): the refusal paths of runtime/executor and runtime/core, each with the releases
# (file:line) where it is present, and the hand classification (status, etmem / why) carried over
# from the current table by the path's id. The next release's audit is one command:
#
#   scripts/refusal_audit.py GIT_DIR [--write] [--tags v0.1.0,...,main]
#
# GIT_DIR: a git directory (bare mirror) of pytorch/executorch with the tags; the source is read
# with `git ls-tree` and `git cat-file` (read, never built). Without --write, prints what changed (paths new,
# gone, unclassified) and writes nothing; with --write, rewrites the table (and its count line)
# in docs/refusal-audit.md, keeping the prose around it. A new path gets status "unclassified",
# which tests/model/refusal_audit_test.cpp refuses until someone classifies it by hand (reachable: the
# builder scenario that reaches it; not: the reason).
#
# A path is (file name, function, kind, error, log line or, without one, condition); its id is
# "P" + the first 6 hex digits of sha1("file|function|kind|error|log-or-condition"), and a path
# keeps the id it was first given when a later run names its function differently. Sites:
# ET_CHECK_OR_RETURN_ERROR, ET_CHECK_MSG, ET_CHECK, ET_LOG(Error, ...) and `return Error::X`
# (with the `if` condition that guards it, and the ET_LOG line just before it in that block),
# and the file's own macros that expand to ET_CHECK_OR_RETURN_ERROR (method.cpp's
# ET_CHECK_VALID_VALUE_INDEX, 1.3+), listed as check_or_return with the macro's error and log.
import argparse
import hashlib
import os
import re
import subprocess
import sys

DEFAULT_TAGS = ["v0.1.0", "v0.2.0", "v0.2.1", "v0.3.0", "v0.4.0", "v0.5.0", "v0.6.0", "v0.7.0",
                "v1.0.0", "v1.0.1", "v1.1.0", "v1.2.0", "v1.3.0", "v1.3.1", "v1.4.0", "v1.4.1"]
# main as modelled (src/etmem/runtime/releases/main_20260822_cff6f4dd.cpp).
MAIN_COMMIT = "cff6f4dd"
ROOTS = ["runtime/executor", "runtime/core"]
HEADER = ("| id | file / function | kind, error | condition | log line | releases (file:line) | "
          "status | etmem / why |")
KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "defined", "else",
            "do", "alignof", "decltype", "static_assert", "noexcept"}


def Git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def SourceFiles(git_dir, tag):
    # (path, blob id) of the runtime's sources at the tag.
    out = []
    for line in Git(git_dir, "ls-tree", "-r", tag, "--", *ROOTS).split("\n"):
        if not line:
            continue
        meta, name = line.split("\t", 1)
        # Portable runtime only: not tests, not ATen mode (*_aten.cpp), not the test utilities.
        if (name.endswith((".cpp", ".h")) and "/test/" not in name and "/testing/" not in name
                and "testing_util" not in name
                and os.path.basename(name) not in ("tensor_parser_aten.cpp", "tensor_util_aten.cpp")
                and not os.path.basename(name).startswith("test")):
            out.append((name, meta.split()[2]))
    return out


class Blobs:
    # Each distinct blob read once (git cat-file --batch): most files are the same at many tags.
    def __init__(self, git_dir):
        self.p = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.cache = {}

    def Read(self, blob):
        if blob not in self.cache:
            self.p.stdin.write((blob + "\n").encode())
            self.p.stdin.flush()
            size = int(self.p.stdout.readline().split()[2])
            data = self.p.stdout.read(size)
            self.p.stdout.read(1)
            self.cache[blob] = data.decode(errors="replace")
        return self.cache[blob]


def StripComments(text):
    # Comments become spaces (newlines kept, so line numbers hold); strings stay.
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def SplitArgs(text, start):
    # text[start] == '(' : the top-level arguments up to the matching ')', and the end index.
    depth, i, n, args, cur = 0, start, len(text), [], []
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
            if depth > 1:
                cur.append(c)
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args, i
            cur.append(c)
        elif c == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    return args, n


def MatchingOpen(text, close):
    # The index of the '(' matching the ')' at `close` (strings not looked into), or None.
    depth = 0
    for i in range(close, -1, -1):
        c = text[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return i
    return None


def Literal(arg):
    # The format's string literals, concatenated (macros such as PRIu32 between them dropped).
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    return "".join(parts)


def Squash(s):
    return re.sub(r"\s+", " ", s).strip()


def Functions(text):
    # (body start, body end, name) of each function body, found by its '{' and the declarator
    # before it; class bodies and namespaces are not functions.
    spans, stack = [], []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            head_start = max(text.rfind(";", 0, i), text.rfind("}", 0, i), text.rfind("{", 0, i))
            head = text[head_start + 1:i]
            name = None
            if not stack or stack[-1][1] is None:  # not inside another function
                m = re.search(r"([A-Za-z_~][\w:~]*(?:<[^<>]*>)?)\s*\((?:[^()]|\([^()]*\))*\)\s*"
                              r"(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:->[^{]*)?"
                              r"(?::[^{]*)?$", head.strip(), re.S)
                if m and m.group(1).split("::")[-1] not in KEYWORDS and "#" not in head[-200:]:
                    name = re.sub(r"<[^<>]*>", "", m.group(1))
            stack.append((i, name))
        elif c == "}":
            if stack:
                start, name = stack.pop()
                if name:
                    spans.append((start, i, name))
        i += 1
    return spans


def FunctionAt(spans, pos):
    best = None
    for start, end, name in spans:
        if start < pos < end and (best is None or start > best[0]):
            best = (start, name)
    return best[1] if best else "?"


def Sites(path, text):
    text = StripComments(text)
    base = os.path.basename(path)
    spans = Functions(text)
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    # The file's own macros over ET_CHECK_OR_RETURN_ERROR: name -> (error, log).
    own = {}
    for m in re.finditer(r"#define\s+(\w+)\([^)]*\)((?:[^\n]*\\\n)*[^\n]*)", text):
        body = m.group(2).replace("\\\n", " ")
        k = body.find("ET_CHECK_OR_RETURN_ERROR(")
        if k >= 0 and m.group(1) != "ET_CHECK_OR_RETURN_ERROR":
            args, _ = SplitArgs(body, body.find("(", k))
            if len(args) >= 3:
                own[m.group(1)] = (args[1].strip(), Squash(args[0]), Literal(",".join(args[2:3])))
    # Sites inside a macro's definition are the macro's, not the file's (its uses are listed).
    defines = [(m.start(), m.end()) for m in re.finditer(r"#\s*define(?:[^\n]*\\\n)*[^\n]*", text)]
    out = []
    pattern = r"\b(ET_CHECK_OR_RETURN_ERROR|ET_CHECK_MSG|ET_CHECK|ET_LOG|return\s+Error::(\w+)" + \
              "".join("|" + re.escape(k) for k in own) + r")\b"
    consumed = set()  # ET_LOG positions listed with the return after them
    matches = sorted(re.finditer(pattern, text), key=lambda m: not m.group(1).startswith("return"))
    for m in matches:
        pos = m.start()
        if any(a <= pos < b for a, b in defines):
            continue  # a macro's own definition
        word = m.group(1)
        func = FunctionAt(spans, pos)
        kind = err = cond = log = None
        if word.startswith("return"):
            err = m.group(2)
            if err == "Ok":
                continue
            kind, cond, log = "return", "", ""
            # An ET_LOG(Error, ...) just before it is its log line (listed with it, not on its
            # own); the `if (...)` guarding both is its condition.
            q = pos
            back = text[:q].rstrip()
            if back.endswith(");"):
                start = MatchingOpen(text, len(back) - 2)
                logm = re.search(r"ET_LOG\s*$", text[:start]) if start is not None else None
                if logm:
                    largs, _ = SplitArgs(text, start)
                    if largs and largs[0].strip() == "Error":
                        log = Literal(largs[1]) if len(largs) > 1 else ""
                        consumed.add(logm.start())
                        q = logm.start()
            back = text[:q].rstrip()
            if back.endswith("{"):
                back = back[:-1].rstrip()
            if back.endswith(")"):
                start = MatchingOpen(text, len(back) - 1)
                if start is not None and re.search(r"\bif\s*$", text[:start]):
                    args, _ = SplitArgs(text, start)
                    cond = Squash(args[0]) if args else ""
        else:
            open_paren = text.find("(", m.end() - 1 if word in own else m.end())
            if open_paren < 0 or text[m.end():open_paren].strip():
                continue
            args, _ = SplitArgs(text, open_paren)
            if word == "ET_CHECK_OR_RETURN_ERROR":
                if len(args) < 2:
                    continue
                kind, err, cond = "check_or_return", args[1].strip(), Squash(args[0])
                log = Literal(args[2]) if len(args) > 2 else ""
            elif word == "ET_CHECK_MSG":
                kind, err, cond = "check_msg (abort)", "abort", Squash(args[0]) if args else ""
                log = Literal(args[1]) if len(args) > 1 else ""
            elif word == "ET_CHECK":
                kind, err, cond, log = "check (abort)", "abort", Squash(args[0]) if args else "", ""
            elif word == "ET_LOG":
                if not args or args[0].strip() != "Error" or pos in consumed:
                    continue
                kind, err, cond = "log (propagated)", "", ""
                log = Literal(args[1]) if len(args) > 1 else ""
            else:  # the file's own macro
                err, _, log = own[word]
                kind, cond = "check_or_return", Squash(word + "(" + ", ".join(args) + ")")
        key = "|".join([base, func, kind, err, log or cond])
        pid = "P" + hashlib.sha1(key.encode()).hexdigest()[:6]
        out.append({"id": pid, "file": base, "func": func, "kind": kind, "err": err,
                    "cond": cond, "log": log, "where": path.split("runtime/", 1)[1] + ":" +
                    str(line_of(pos))})
    return out


def ReadTable(md_path):
    rows = {}
    with open(md_path) as f:
        lines = f.read().split("\n")
    for line in lines:
        if not line.startswith("| P"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows[cells[0]] = cells
    return lines, rows


def Ranges(tags, where_by_tag):
    # "v0.1.0–v0.3.0 a.cpp:1; v0.4.0 a.cpp:2": consecutive tags with the same lines grouped.
    groups = []
    for tag in tags:
        w = where_by_tag.get(tag)
        if w is None:
            continue
        w = ", ".join(sorted(set(w), key=lambda s: (s.split(":")[0], int(s.split(":")[1]))))
        if groups and groups[-1][2] == w and tags.index(groups[-1][1]) == tags.index(tag) - 1:
            groups[-1][1] = tag
        else:
            groups.append([tag, tag, w])
    return "; ".join((a if a == b else a + "–" + b) + " " + w for a, b, w in groups)


def Cell(s):
    return s.replace("|", "\\|")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("git_dir")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--tags", default=",".join(DEFAULT_TAGS + [MAIN_COMMIT]))
    ap.add_argument("--doc", default=os.path.join(os.path.dirname(__file__), "..", "docs",
                                                  "refusal-audit.md"))
    a = ap.parse_args()
    tags = a.tags.split(",")
    paths = {}
    blobs, sites_of = Blobs(a.git_dir), {}
    for tag in tags:
        for f, blob in SourceFiles(a.git_dir, tag):
            if (f, blob) not in sites_of:
                sites_of[(f, blob)] = Sites(f, blobs.Read(blob))
            for s in sites_of[(f, blob)]:
                p = paths.setdefault(s["id"], dict(s, where={}))
                p["where"].setdefault(tag, []).append(s["where"])
    lines, old = ReadTable(a.doc)
    label = lambda t: "main" if t == MAIN_COMMIT else t
    rows, new, kept = [], [], 0
    # Carry the classification: by id, else by the same file, kind, error and condition.
    by_shape, taken = {}, set()
    for pid, c in old.items():
        by_shape.setdefault((c[1].split(" ")[0], c[2], c[3], c[4]), []).append(c)
        if c[4]:
            by_shape.setdefault((c[1], c[4]), []).append(c)
    for pid, p in sorted(paths.items(), key=lambda kv: (kv[1]["file"], kv[1]["func"], kv[0])):
        kind_err = (p["kind"] + " " + p["err"]).strip()
        cond = "`" + p["cond"] + "`"
        log = ("`" + Cell(p["log"]) + "`") if p["log"] else ""
        c = old.get(pid)
        if not c:
            # The same check in the same file under another function name (the first
            # generator's function detection differed), or an old row that lost its log line
            # (a bracket inside the string): it keeps the id it was first given.
            keys = [(p["file"], kind_err, Cell(cond), log), (p["file"], kind_err, Cell(cond), "")]
            if log:  # the same log line in the same function (the first generator paired it
                keys.append((p["file"] + " `" + p["func"] + "`", log))  # with its return)
            for key in keys:
                free = [o for o in by_shape.get(key, []) if o[0] not in paths and o[0] not in taken]
                same = [o for o in free if o[1] == p["file"] + " `" + p["func"] + "`"]
                if free:
                    c = (same or free)[0]
                    pid = c[0]
                    break
        if c:
            taken.add(pid)
        status, why = (c[6], c[7]) if c else ("unclassified", "new path: classify by hand")
        kept += 1 if c else 0
        if not c:
            new.append(pid)
        where = Ranges([label(t) for t in tags], {label(t): w for t, w in p["where"].items()})
        rows.append("| " + " | ".join([pid, p["file"] + " `" + p["func"] + "`", kind_err, Cell(cond),
                                       log, where, status, why]) + " |")
    gone = sorted(set(old) - set(paths) - taken)
    print(f"{len(paths)} paths at {len(tags)} tags: {kept} classified from the table, "
          f"{len(new)} new (unclassified), {len(gone)} rows of the table not found", file=sys.stderr)
    for pid in new:
        print("new:", rows[[r.split(" ")[1] for r in rows].index(pid)][:200], file=sys.stderr)
    for pid in gone:
        print("gone:", " | ".join(old[pid][:5])[:200], file=sys.stderr)
    if not a.write:
        return
    counts = {}
    for r in rows:
        st = re.split(r"(?<!\\)\|", r)[7].strip()
        counts[st] = counts.get(st, 0) + 1
    first = next(i for i, l in enumerate(lines) if l.startswith("| id |"))
    last = max(i for i, l in enumerate(lines) if l.startswith("| P"))
    out = lines[:first] + [HEADER, "|---|---|---|---|---|---|---|---|"] + rows + lines[last + 1:]
    for i, l in enumerate(out[:first]):
        if re.match(r"^\d+ paths: ", l):
            out[i] = f"{len(rows)} paths: " + ", ".join(
                f"{counts[s]} {s}" for s in ("modelled", "not modelled", "not reachable",
                                             "unclassified") if s in counts) + "."
    with open(a.doc, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
