#!/usr/bin/env bash
# Quick start: install dependencies, build, and run an example PGAS program on 4 PEs: the
# GPU-driven ring (examples/02_device_ring.cu) when this machine has GPUs, the CPU ring
# (examples/01_ring.c) otherwise.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/install-deps.sh"
configure
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU' \
   && [ -x "$BUILD/examples/02_device_ring" ]; then
  echo "== oshrun -np 4 examples/02_device_ring   ($(nvidia-smi -L | wc -l) GPUs)"
  exec "$BUILD/runtime/oshrun" -np 4 "$BUILD/examples/02_device_ring"
fi
echo "== oshrun -np 4 examples/01_ring   (CPU PEs)"
exec "$BUILD/runtime/oshrun" -np 4 "$BUILD/examples/01_ring"
