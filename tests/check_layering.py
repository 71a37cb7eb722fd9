#!/usr/bin/env python3
"""The include graph of src/ against the layer table (src/layers.json), with no exceptions:

* every file under src/ belongs to a module of the table (core/detail/ is a module of its own);
* every #include "m/..." of a src/ module names the file's own module or one the table allows;
* the table itself has no cycle (it is the build's link order, lowest first);
* the library leaves a process only through common/fatal.cpp (no _exit/exit/abort elsewhere) and
  reads the environment only in common/config.cpp.

usage: check_layering.py SOURCE_ROOT
"""
import json
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
src = root / "src"
table = json.loads((src / "layers.json").read_text())
allowed = {m: set(d) for m, d in table["may_include"].items()}
order = table["order"]
errors = []

if set(order) != set(allowed):
    errors.append("layers.json: 'order' and 'may_include' name different modules")
rank = {m: i for i, m in enumerate(order)}
for m, deps in allowed.items():
    for d in deps:
        if d not in allowed:
            errors.append(f"layers.json: {m} may include {d}, which is not a module")
        elif rank.get(d, -1) >= rank.get(m, -1):
            errors.append(f"layers.json: {m} may include {d}, which is not below it (a cycle or an upward edge)")


def module_of(rel):  # "core/detail/runtime.hpp" -> "core/detail"; "heap/heap.cpp" -> "heap"
    parts = rel.split("/")
    if len(parts) >= 3 and parts[0] == "core" and parts[1] == "detail":
        return "core/detail"
    return parts[0] if len(parts) >= 2 else None


graph = {}
for f in sorted(src.rglob("*")):
    if not f.is_file() or f.suffix not in (".cpp", ".hpp", ".cu", ".cuh", ".h", ".def"):
        continue
    rel = f.relative_to(src).as_posix()
    mod = module_of(rel)
    if mod is None or mod not in allowed:
        errors.append(f"src/{rel}: not in a module of src/layers.json")
        continue
    text = f.read_text()
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        target = module_of(inc)
        if target is None or target not in allowed:
            if not inc.startswith("gshmem/") and not (src / inc).exists():
                errors.append(f"src/{rel}:{n}: includes \"{inc}\", which is neither a module nor a public header")
            continue
        graph.setdefault(mod, set()).add(target)
        if target != mod and target not in allowed[mod]:
            errors.append(f"src/{rel}:{n}: {mod} includes {inc} ({target}), which src/layers.json does not allow")
    code = re.sub(r"//.*", "", text)
    ends = re.search(r"\b(_exit|_Exit|quick_exit)\s*\(|(?<![\w.>])(std::)?exit\s*\(|(?<![\w.>])(std::|::)?abort\s*\(\s*\)",
                     code)
    if rel != "common/fatal.cpp" and ends:
        errors.append(f"src/{rel}: '{ends.group(0)}' ends the process outside common/fatal.cpp (use fatal()/terminate())")
    if rel != "common/config.cpp" and re.search(r"\bgetenv\s*\(", code):
        errors.append(f"src/{rel}: calls getenv (only the config table, common/config.cpp, reads the environment)")

# The graph the files actually form: no cycle between modules.
def cycle():
    state = {}

    def visit(m, path):
        state[m] = 1
        for d in graph.get(m, ()):
            if d == m:
                continue
            if state.get(d) == 1:
                return path + [d]
            if not state.get(d):
                c = visit(d, path + [d])
                if c:
                    return c
        state[m] = 2
        return None

    for m in graph:
        if not state.get(m):
            c = visit(m, [m])
            if c:
                return c
    return None


c = cycle()
if c:
    errors.append("module cycle: " + " -> ".join(c))

for e in errors:
    print("FAIL:", e)
edges = sum(len(v - {k}) for k, v in graph.items())
print(f"layering: {len(graph)} modules, {edges} include edges checked against src/layers.json: "
      f"{'FAILED' if errors else 'ok'}")
sys.exit(1 if errors else 0)
