#!/usr/bin/env bash
# Quick start: install what the build needs, build, and run an example PGAS program on 4 PEs: the
# GPU-driven ring (examples/02_device_ring.cu) when this machine has GPUs, the CPU ring
# (examples/01_ring.c) otherwise.
set -euo pipefail
source "$(dirname "$0")/env.sh"
# Builds only what the example needs (the library, oshrun and the example); scripts/test.sh builds
# the rest. Measured time to the first ring: README.md.
"$ROOT/scripts/install-deps.sh" --minimal
gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then gpu=1; fi
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" "$ROOT" --prefix="$BUILD/prefix"
  echo minimal > "$BUILD/.gshmem-deps"  # scripts/test.sh reconfigures once the test tools are installed
fi
targets=(runtime/oshrun examples/01_ring)
[ $gpu = 1 ] && [ -f "$ROOT/examples/02_device_ring.cu" ] && command -v nvcc >/dev/null && targets+=(examples/02_device_ring)
meson compile -C "$BUILD" "${targets[@]}"
if [ $gpu = 1 ] && [ -x "$BUILD/examples/02_device_ring" ]; then
  echo "== oshrun -np 4 examples/02_device_ring   ($(nvidia-smi -L | wc -l) GPUs)"
  exec "$BUILD/runtime/oshrun" -np 4 "$BUILD/examples/02_device_ring"
fi
echo "== oshrun -np 4 examples/01_ring   (CPU PEs)"
exec "$BUILD/runtime/oshrun" -np 4 "$BUILD/examples/01_ring"
