#!/usr/bin/env python3
"""Builds each src/ module's include root from src/layers.json: OUT/<module>/ holds a link to every
module it may include (and to itself), so "#include "core/runtime.hpp"" from a module that may not
include core fails to compile. core/detail is reachable only where the table allows it (elsewhere
OUT/<module>/core is a directory of links to core's other files).

usage: layers.py SRC_DIR OUT_DIR   (prints nothing; idempotent)
"""
import json
import os
import pathlib
import shutil
import sys

src, out = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2])
table = json.loads((src / "layers.json").read_text())
allowed = table["may_include"]
if out.exists():
    shutil.rmtree(out)
for module, deps in allowed.items():
    root = out / module.replace("/", "_")
    root.mkdir(parents=True)
    reach = set(deps) | {module}
    if module == "core/detail":
        reach.add("core/detail")
    top = {d.split("/")[0] for d in reach}
    for d in sorted(top):
        target = src / d
        if d == "core" and "core/detail" not in reach and module != "core":
            (root / "core").mkdir()
            for f in sorted(target.iterdir()):
                if f.is_file():
                    os.symlink(f, root / "core" / f.name)
        elif d == "core" and "core" not in reach:  # core/detail alone: only its own directory
            (root / "core").mkdir()
            os.symlink(target / "detail", root / "core" / "detail")
        else:
            os.symlink(target, root / d)
