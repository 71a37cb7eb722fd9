#!/usr/bin/env python3
"""Every installed header compiles on its own (a file that includes only it):
* include/**/*.h as C (C11) and C++ (C++17), with -Wall -Wextra -Werror;
* device/gshmem/**/*.cuh with nvcc (both passes), where nvcc exists;
and device headers include only other device headers and include/gshmem/device_host/
(device/gshmem/README.md).

usage: check_headers.py SOURCE_ROOT GEN_INCLUDE_DIR [NVCC]
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

root, gen = pathlib.Path(sys.argv[1]), sys.argv[2]
nvcc = sys.argv[3] if len(sys.argv) > 3 else None
inc = ["-I" + str(root / "include"), "-I" + str(root / "device"), "-I" + gen]
failed = []


def compile_alone(cmd, header, suffix, body=""):
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / ("t" + suffix)
        src.write_text(f'#include "{header}"\n{body}')
        r = subprocess.run(cmd + inc + ["-c", str(src), "-o", str(pathlib.Path(tmp) / "t.o")], capture_output=True,
                           text=True)
        if r.returncode:
            failed.append(f"{header} ({cmd[0]}):\n" + "\n".join((r.stdout + r.stderr).splitlines()[:6]))


public = sorted(p.relative_to(root / "include").as_posix() for p in (root / "include").rglob("*.h"))
for h in public:
    compile_alone([os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror"], h, ".c")
    compile_alone([os.environ.get("CXX", "c++"), "-std=c++17", "-Wall", "-Wextra", "-Werror"], h, ".cpp")

device = sorted(p.relative_to(root / "device").as_posix() for p in (root / "device").rglob("*.cuh"))
allowed = re.compile(r'#include "(gshmem/device_host/[\w.]+\.h|gshmem/[\w/]+\.cuh)"')
for h in device:
    for line in (root / "device" / h).read_text().splitlines():
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m and not allowed.match(line.strip()):
            failed.append(f"{h}: includes {m.group(1)} (device headers include only device headers and "
                          "gshmem/device_host/)")
    if nvcc:
        compile_alone([nvcc, "-std=c++17", "-Werror", "all-warnings"], h, ".cu", "__global__ void k() {}\n")

for f in failed:
    print("FAIL:", f)
print(f"{len(public)} public headers (C, C++), {len(device)} device headers "
      f"({'nvcc' if nvcc else 'include rules only: no nvcc'}): {'FAILED' if failed else 'ok'}")
sys.exit(1 if failed else 0)
