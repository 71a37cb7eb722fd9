#!/usr/bin/env bash
# Quick start: install dependencies, build, and run the example ring on 4 PEs.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/install-deps.sh"
configure
echo "== oshrun -np 4 examples/01_ring"
exec "$BUILD/runtime/oshrun" -np 4 "$BUILD/examples/01_ring"
