#!/usr/bin/env python3
"""Cheap checks that the documentation says what the code does.

* every GSHMEM_* name the docs mention exists in the source tree (a renamed or removed variable,
  macro or option leaves a stale name behind);
* every relative link in README.md and docs/*.md points at a file that exists;
* every -D<option> the docs give to meson is a project option or a meson built-in;
* sizes the docs state for the host control block and the device state match the constants in
  src/heap/control.hpp and the static_assert in include/gshmem/device_host/state.h;
* the kernel on README.md's front page is examples/06_neighbour_put.cu's.

usage: check_docs.py SOURCE_ROOT
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
docs = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
code_files = [p for d in ("src", "include", "device", "runtime", "tests", "scripts", "tools", "examples")
              for p in (root / d).rglob("*") if p.is_file() and p.suffix not in (".png", ".csv", ".log")]
code_files += [root / "meson.build", root / "meson_options.txt"]
code = "\n".join(p.read_text(errors="replace") for p in code_files)
errors = []

for doc in docs:
    text = doc.read_text()
    rel = doc.relative_to(root)
    for name in sorted(set(re.findall(r"\bGSHMEM_[A-Z0-9_]*[A-Z0-9]\b", text))):
        if name not in code:
            errors.append(f"{rel}: {name} appears nowhere in the code")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target or target.startswith("mailto:"):
            continue
        if not (doc.parent / target).exists():
            errors.append(f"{rel}: link to {target}, which does not exist")

builtin = {"buildtype", "prefix", "libdir", "bindir", "includedir", "b_sanitize", "b_ndebug", "b_lundef",
           "debug", "optimization", "default_library", "werror", "warning_level", "cpp_std", "c_std",
           "cuda_std", "pkgconfig.relocatable", "b_coverage", "unity"}
options = set(re.findall(r"option\('([^']+)'", (root / "meson_options.txt").read_text()))
for doc in docs:
    for opt in re.findall(r"(?<![\w-])-D([a-z][a-z0-9_.]*)=", doc.read_text()):
        if opt not in options and opt not in builtin:
            errors.append(f"{doc.relative_to(root)}: -D{opt}= is not a meson option of this project")

# The README's kernel is the one examples/06_neighbour_put.cu compiles (and the GPU suite runs).
readme = (root / "README.md").read_text()
m = re.search(r"```cuda\n(.*?)```", readme, re.S)
example = (root / "examples/06_neighbour_put.cu").read_text()
if not m:
    errors.append("README.md: no ```cuda block with the kernel")
elif m.group(1) not in example:
    errors.append("README.md: the kernel differs from examples/06_neighbour_put.cu")

# Sizes.
control = (root / "src/heap/control.hpp").read_text()
m = re.search(r"kControlBytes\s*=\s*([0-9*+ <]+);", control)
control_mib = eval(m.group(1)) / (1 << 20) if m else None  # an arithmetic expression of integer literals
state = (root / "include/gshmem/device_host/state.h").read_text()
m = re.search(r"sizeof\(gshmem_device_state\)\s*==\s*(\d+)", state)
state_bytes = int(m.group(1)) if m else None
if control_mib is None or state_bytes is None:
    errors.append("check_docs.py: could not read kControlBytes or the device state size from the source")
for doc in docs:
    text = doc.read_text()
    rel = doc.relative_to(root)
    for num, unit in re.findall(r"(\d+) (KiB|MiB) control block", text):
        said = int(num) * (1 if unit == "MiB" else 1 / 1024)
        if "device control block" in text and unit == "MiB" and int(num) == 16:
            continue  # the device control block (GSHMEM_DEV_CTRL_BYTES) is another thing
        if control_mib is not None and said != control_mib:
            errors.append(f"{rel}: says a {num} {unit} control block; kControlBytes is {control_mib} MiB")
    for num in re.findall(r"(\d+)-byte(?:,)? versioned(?: POD)?", text):
        if state_bytes is not None and int(num) != state_bytes:
            errors.append(f"{rel}: says the device state is {num} bytes; state.h asserts {state_bytes}")
    if "device_host/state.h" in text:
        for num in re.findall(r"state\.h`: (\d+)-byte", text):
            if state_bytes is not None and int(num) != state_bytes:
                errors.append(f"{rel}: says the device state is {num} bytes; state.h asserts {state_bytes}")

# docs/design.md's layer table is src/layers.json.
import json
layers = json.loads((root / "src/layers.json").read_text())
design = (root / "docs/design.md").read_text()
if "<!-- layers:" not in design:
    errors.append("docs/design.md: the layer table (marked <!-- layers: -->) is missing")
else:
    table = design.split("<!-- layers:", 1)[1].split("\n\n", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| module")]
    mods = []
    for r in rows:
        cells = [c.strip() for c in r.strip("|").split("|")]
        mods.append(cells[0])
        want = set(layers["may_include"].get(cells[0], ["?"]))
        got = {c.strip() for c in cells[1].split(",") if c.strip()}
        if got != want:
            errors.append(f"docs/design.md: layer {cells[0]} may include {sorted(got)}; src/layers.json says {sorted(want)}")
    if mods != layers["order"]:
        errors.append(f"docs/design.md: layers {mods}; src/layers.json orders them {layers['order']}")

for e in errors:
    print("FAIL:", e)
if errors:
    sys.exit(1)
print(f"docs: {len(docs)} files checked, ok")
