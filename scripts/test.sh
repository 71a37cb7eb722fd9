#!/usr/bin/env bash
# Runs the whole test suite: unit, multi-PE (oshrun and mpirun), examples, GPU (skipped without a
# GPU), an install check (oshcc/oshrun from the installed prefix) and the Python package check
# (pip install . into a fresh venv, its tests under oshrun and mpirun). Prints one summary line
# "N passed, N failed, N skipped" and exits non-zero if anything failed.
set -uo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
# A build directory the quick start configured before the test tools were installed: configure it
# again, so GoogleTest, mpirun and the rest are found.
if [ "$(cat "$BUILD/.gshmem-deps" 2>/dev/null)" = minimal ]; then
  meson setup --wipe "$BUILD" "$ROOT" --prefix="$BUILD/prefix" > /dev/null && rm -f "$BUILD/.gshmem-deps"
fi
configure || { echo "0 passed, 1 failed"; exit 1; }
meson test -C "$BUILD" --print-errorlogs --num-processes 2 "$@"
extra_pass=0 extra_fail=0
if [ $# -eq 0 ]; then
  echo "== install check"
  if "$ROOT/tests/install_check.sh" "$BUILD"; then extra_pass=1; else extra_fail=1; fi
  echo "== python package check"
  if "$ROOT/tests/python_check.sh"; then extra_pass=$((extra_pass + 1)); else extra_fail=$((extra_fail + 1)); fi
fi
python3 - "$BUILD/meson-logs/testlog.json" "$extra_pass" "$extra_fail" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r == "SKIP": s += 1
    else: f += 1
p += int(sys.argv[2]); f += int(sys.argv[3])
print(f"{p} passed, {f} failed, {s} skipped")
sys.exit(1 if f else 0)
PY
