#!/usr/bin/env bash
# Installs into the build's prefix, builds an OpenSHMEM C program with the installed oshcc (and
# one with pkg-config), and runs it with the installed oshrun at 4 PEs and with mpirun at 2.
set -euo pipefail
BUILD="$1"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="$BUILD/prefix"
meson install -C "$BUILD" --quiet >/dev/null
for f in bin/oshrun bin/oshcc bin/oshc++ bin/gshmem-info lib/libgshmem.so include/shmem.h include/shmemx.h \
         lib/pkgconfig/gshmem.pc; do
  [ -e "$PREFIX/$f" ] || { echo "install check: missing $PREFIX/$f"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PREFIX/bin/oshcc" -std=c11 -O2 -o "$tmp/hello" "$ROOT/tests/conformance/hello_oshmem.c"
PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" cc -std=c99 -o "$tmp/hello_pc" "$ROOT/tests/conformance/hello_oshmem.c" \
  $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs gshmem) -Wl,-rpath,"$PREFIX/lib"
"$PREFIX/bin/oshc++" -std=c++17 -x c++ -o "$tmp/hello_cxx" "$ROOT/tests/conformance/hello_oshmem.c"
timeout 60 "$PREFIX/bin/oshrun" -np 4 "$tmp/hello"
timeout 60 "$PREFIX/bin/oshrun" -np 2 "$tmp/hello_pc"
timeout 60 "$PREFIX/bin/oshrun" -np 3 "$tmp/hello_cxx"
if command -v mpirun >/dev/null; then
  timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 "$tmp/hello"
fi
"$PREFIX/bin/gshmem-info" >/dev/null
echo "install check: ok"
