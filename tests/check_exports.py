#!/usr/bin/env python3
"""libgshmem.so exports the public C API and nothing else (docs/abi.md).

Fails when the dynamic symbol table (nm -D) holds a symbol outside the public names, or a public
name the installed headers declare is not exported. The declared names come from the headers
themselves, preprocessed as a C program sees them.

usage: check_exports.py LIBGSHMEM.so INCLUDE_DIR [INCLUDE_DIR...]
"""
import os
import re
import subprocess
import sys
import tempfile

lib, incs = sys.argv[1], sys.argv[2:]
PUBLIC = re.compile(r"^(p?shmemx?_\w+|gshmemi_\w+|SHMEM_[A-Z_]+|start_pes|_my_pe|_num_pes|shmalloc|shfree|"
                    r"shrealloc|shmemalign)$")

out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
exported, kind = set(), {}
for line in out.splitlines():
    parts = line.split()
    if len(parts) < 3 or parts[1] in ("A",):  # version definitions
        continue
    exported.add(parts[2].split("@")[0])
    kind[parts[2].split("@")[0]] = parts[1]

with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "all.c")
    with open(src, "w") as f:
        f.write("#include <shmem.h>\n#include <shmemx.h>\n")
        if os.path.exists(os.path.join(incs[0], "pshmem.h")):
            f.write("#include <pshmem.h>\n")
    cc = os.environ.get("CC", "cc")
    text = subprocess.run([cc, "-E", "-P", "-std=c11"] + [f"-I{i}" for i in incs] + [src], check=True,
                          capture_output=True, text=True).stdout
# Top-level declarations: statements ending in ';' that are not typedefs or static definitions.
declared = set()
for stmt in re.split(r"[;{}]", text):
    s = " ".join(stmt.split())
    if not s or s.startswith(("typedef", "static", "#")):
        continue
    m = re.search(r"\b(\w+)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*$", s)  # a function prototype
    if m and PUBLIC.match(m.group(1)):
        declared.add(m.group(1))
        continue
    m = re.match(r"^extern\b.*?\b(\w+)$", s)  # an extern object
    if m and PUBLIC.match(m.group(1)):
        declared.add(m.group(1))

bad = sorted(n for n in exported if not PUBLIC.match(n))
# Declared only to turn a C11 generic call that matches no type into a message naming it.
NEVER_DEFINED = {"gshmemi_generic_no_match"}
missing = sorted(declared - exported - NEVER_DEFINED)
undeclared = sorted(n for n in exported - declared if not n.startswith("gshmemi_"))
# The profiling interface (OpenSHMEM 1.5 sec. 10): each shmem_X that has a pshmem_X is a weak
# symbol at the same address, pshmem_X a strong one (a tool's own shmem_X wins even when linked
# statically).
not_weak = sorted(n for n in declared if n.startswith("shmem_") and "p" + n in declared and
                  n in exported and "p" + n in exported and (kind[n] not in "WV" or kind["p" + n] != "T"))
print(f"{len(exported)} exported symbols, {len(declared)} names declared by shmem.h/shmemx.h/pshmem.h")
for title, names in (("exported but not public API", bad), ("declared in the headers but not exported", missing),
                     ("exported but declared in no installed header", undeclared),
                     ("shmem_ names that are not weak aliases of a strong pshmem_ routine", not_weak)):
    if names:
        print(f"FAIL: {len(names)} {title}:")
        for n in names[:40]:
            print("   ", n)
        if len(names) > 40:
            print(f"    ... and {len(names) - 40} more")
if bad or missing or undeclared or not_weak:
    sys.exit(1)
print("exports: ok")
