#!/usr/bin/env bash
# Installs gshmem, moves the installed tree somewhere else (it is relocatable) and builds programs
# the ways users do, against that tree alone (no source-tree or build-tree path):
#   C:    oshcc, cc + pkg-config, oshc++, CMake find_package(gshmem)
#   CUDA: nvcc + pkg-config, oshnvcc, oshc++ given a .cu, CMake (compiled and linked wherever
#         nvcc exists; run at 2 PEs where a GPU exists)
# then runs the C programs with the installed oshrun (4, 2 and 3 PEs) and mpirun (2 PEs), and
# builds a profiling tool (pshmem.h) and C11 generic programs with the installed oshcc, and
# checks the library's exported symbols. Usage: install_check.sh BUILD_DIR
set -euo pipefail
BUILD="$1"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
meson install -C "$BUILD" --quiet >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$BUILD/prefix" "$tmp/gshmem"
PREFIX="$tmp/gshmem"
for f in bin/oshrun bin/oshcc bin/oshc++ bin/oshnvcc bin/gshmem-info lib/libgshmem.so lib/libgshmem.so.0 \
         include/shmem.h include/shmemx.h include/pshmem.h include/gshmem/version.h include/gshmem/device_host/trigger.h \
         include/gshmem/device_host/state.h include/gshmem/device_api.cuh \
         lib/pkgconfig/gshmem.pc lib/cmake/gshmem/gshmemConfig.cmake lib/cmake/gshmem/gshmemConfigVersion.cmake; do
  [ -e "$PREFIX/$f" ] || { echo "install check: missing $PREFIX/$f"; exit 1; }
done
# bin/ holds what users run; the benchmarks are under libexec/gshmem/.
extra=$(ls "$PREFIX/bin" | grep -vxE 'oshrun|oshcc|oshc\+\+|oshnvcc|gshmem-info' || true)
[ -z "$extra" ] || { echo "install check: bin/ holds more than the launcher, the wrappers and gshmem-info: $extra"; exit 1; }
[ -x "$PREFIX/libexec/gshmem/shmem_cpu_put_latency" ] || { echo "install check: libexec/gshmem/shmem_cpu_put_latency missing"; exit 1; }
# Nothing installed may point back into the source or build tree.
if grep -rlI -e "$ROOT/include" -e "$ROOT/device" -e "$BUILD" "$PREFIX/bin" "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake" \
     "$PREFIX/include" 2>/dev/null; then
  echo "install check: the files above refer to the source or build tree"
  exit 1
fi
python3 "$ROOT/tests/check_exports.py" "$PREFIX/lib/libgshmem.so" "$PREFIX/include"

src="$tmp/src"
mkdir -p "$src" "$tmp/out"
cp "$ROOT/tests/conformance/hello_oshmem.c" "$src/"
cp "$ROOT/tests/conformance/hello_oshmem.c" "$src/hello_oshmem.cpp"
cp "$ROOT/tests/install/device_api.cu" "$ROOT/tests/install/cmake/CMakeLists.txt" "$src/"
cp "$ROOT/examples/04_nvshmem_host.c" "$ROOT/examples/05_nvshmem_device.cu" "$src/"
mkdir -p "$src/perftest"
cp "$ROOT/tests/perf/perf_api.cuh" "$ROOT/tests/perf/perf_common.hpp" "$ROOT/tests/perf/program_name.h" "$src/"
cp "$ROOT/tests/perf/perftest/perftest.cuh" "$ROOT/tests/perf/perftest/pt2pt_bw.cu" "$src/perftest/"
cd "$tmp/out"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
have_pc=0
if command -v pkg-config >/dev/null; then
  have_pc=1
  # What pkg-config gives is the moved prefix.
  [ "$(pkg-config --variable=includedir gshmem)" -ef "$PREFIX/include" ] ||
    { echo "install check: pkg-config points at $(pkg-config --variable=includedir gshmem)"; exit 1; }
else
  echo "install check: no pkg-config here (scripts/install-deps.sh installs it); its builds are left out"
fi

echo "== C / C++ against the installed prefix"
"$PREFIX/bin/oshcc" -std=c11 -O2 -Wall -o hello "$src/hello_oshmem.c"
[ $have_pc = 0 ] || cc -std=c99 -o hello_pc "$src/hello_oshmem.c" $(pkg-config --cflags --libs gshmem) -Wl,-rpath,"$PREFIX/lib"
# An NVSHMEM program through the compatibility headers (docs/nvshmem.md): pkg-config gshmem-nvshmem.
[ $have_pc = 0 ] || cc -std=c11 -Wall -o nvshmem_host_pc "$src/04_nvshmem_host.c" $(pkg-config --cflags --libs gshmem-nvshmem) \
  -Wl,-rpath,"$PREFIX/lib"
"$PREFIX/bin/oshc++" -std=c++17 -o hello_cxx "$src/hello_oshmem.cpp"
cmake_ok=0
if command -v cmake >/dev/null; then
  cmake -S "$src" -B cmake-build -DSOURCES_DIR="$src" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=Release \
    > cmake.log 2>&1 && cmake --build cmake-build -j 2 >> cmake.log 2>&1 && cmake_ok=1
  if [ "$cmake_ok" != 1 ]; then
    cat cmake.log
    echo "install check: the CMake consumer project failed"
    exit 1
  fi
  grep "gshmem consumer" cmake.log || true
else
  echo "install check: cmake not found (scripts/install-deps.sh installs it)"
  exit 1
fi

# The wrappers as the compiler of the build recipes users run (tests/install/wrappers/README.md):
# each recipe sets CC/CXX to the wrapper itself, so a wrapper that followed CC would call itself
# forever; every build has a time limit, and each program runs at 2 PEs.
echo "== the wrappers in CMake, an autotools-style configure and a Makefile exporting CC"
w="$ROOT/tests/install/wrappers"
ring="$ROOT/examples/01_ring.c"
timeout 300 cmake -S "$w/cmake" -B wrap-cmake -DCMAKE_C_COMPILER="$PREFIX/bin/oshcc" \
  -DCMAKE_CXX_COMPILER="$PREFIX/bin/oshc++" -DRING_SOURCE="$ring" -DCXX_SOURCE="$src/hello_oshmem.cpp" \
  > wrap-cmake.log 2>&1 && timeout 300 cmake --build wrap-cmake >> wrap-cmake.log 2>&1 ||
  { cat wrap-cmake.log; echo "install check: CMake with CMAKE_C_COMPILER=oshcc failed"; exit 1; }
mkdir -p wrap-conf wrap-make
cp "$w/configure/configure" "$ring" wrap-conf/
(cd wrap-conf && CC="$PREFIX/bin/oshcc" timeout 120 ./configure 01_ring.c && timeout 120 make) > wrap-conf.log 2>&1 ||
  { cat wrap-conf.log wrap-conf/config.log 2>/dev/null; echo "install check: CC=oshcc ./configure && make failed"; exit 1; }
(cd wrap-make && timeout 120 make -f "$w/make/Makefile" PREFIX="$PREFIX" SRC="$ring") > wrap-make.log 2>&1 ||
  { cat wrap-make.log; echo "install check: a Makefile exporting CC=oshcc failed"; exit 1; }
for exe in wrap-cmake/ring wrap-cmake/hello_cxx wrap-conf/ring wrap-make/ring; do
  timeout 60 "$PREFIX/bin/oshrun" -np 2 "./$exe" > run.out 2>&1 || { cat run.out; echo "install check: $exe failed"; exit 1; }
done
# --showme variants as Open MPI's wrappers have them
[ "$("$PREFIX/bin/oshcc" --showme:compile)" = "-I$PREFIX/include" ] ||
  { echo "install check: oshcc --showme:compile says $("$PREFIX/bin/oshcc" --showme:compile)"; exit 1; }
"$PREFIX/bin/oshcc" --showme:link | grep -q -- "-lgshmem" || { echo "install check: --showme:link"; exit 1; }
[ "$(GSHMEM_CC=clang "$PREFIX/bin/oshcc" --showme:command)" = clang ] || { echo "install check: GSHMEM_CC ignored"; exit 1; }
rc=0; GSHMEM_CC="$PREFIX/bin/oshcc" "$PREFIX/bin/oshcc" -c -o x.o "$ring" 2> self.err || rc=$?
[ $rc = 2 ] && grep -q "is this wrapper" self.err || { echo "install check: GSHMEM_CC=oshcc gave rc $rc"; exit 1; }

# The profiling interface (pshmem.h, weak shmem_ names) and the C11 generic team collectives, as a
# user's tool and program build them: with the installed wrapper.
for t in pshmem_profiling generics_team_colls generics_short; do
  "$PREFIX/bin/oshcc" -std=c11 -Wall -I "$ROOT/tests/conformance/behave" -o "$t" "$ROOT/tests/conformance/behave/$t.c"
  timeout 60 "$PREFIX/bin/oshrun" -np 2 "./$t" | grep -x "PASS $t"
done
# The OpenSHMEM 1.6 programs, built as a 1.6 user builds them (installed oshcc -std=c11), at 2, 3
# and 4 PEs under oshrun and under mpirun (oshrun --launcher mpirun: the PMIx bootstrap).
for t in rma_1_6 scan_1_6 init_1_6 session_1_6; do
  "$PREFIX/bin/oshcc" -std=c11 -Wall -I "$ROOT/tests/conformance/behave" -o "$t" "$ROOT/tests/conformance/behave/$t.c"
  for np in 2 3 4; do
    timeout 60 "$PREFIX/bin/oshrun" -np $np "./$t" | grep -x "PASS $t"
    if command -v mpirun >/dev/null; then
      timeout 60 "$PREFIX/bin/oshrun" --launcher mpirun -np $np "./$t" | grep -x "PASS $t"
    fi
  done
done
timeout 60 "$PREFIX/bin/oshrun" -np 4 ./hello
[ $have_pc = 0 ] || timeout 60 "$PREFIX/bin/oshrun" -np 2 env LD_LIBRARY_PATH= ./hello_pc
timeout 60 "$PREFIX/bin/oshrun" -np 3 ./hello_cxx
timeout 60 "$PREFIX/bin/oshrun" -np 2 ./cmake-build/hello_c
timeout 60 "$PREFIX/bin/oshrun" -np 2 ./cmake-build/hello_cxx
[ $have_pc = 0 ] || GSHMEM_HEAP_KIND=host timeout 60 "$PREFIX/bin/oshrun" -np 3 ./nvshmem_host_pc
GSHMEM_HEAP_KIND=host timeout 60 "$PREFIX/bin/oshrun" -np 2 ./cmake-build/nvshmem_host
if command -v mpirun >/dev/null; then
  timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 ./hello
fi
"$PREFIX/bin/gshmem-info" >/dev/null
# a benchmark from libexec/ finds the library from there (its rpath)
GSHMEM_HEAP_KIND=host timeout 60 "$PREFIX/bin/oshrun" -np 2 env LD_LIBRARY_PATH= \
  "$PREFIX/libexec/gshmem/shmem_cpu_put_latency" -n 5 -w 1 -e 64 > bench.out 2>&1 ||
  { cat bench.out; echo "install check: libexec/gshmem/shmem_cpu_put_latency did not run"; exit 1; }

if command -v nvcc >/dev/null; then
  echo "== CUDA against the installed prefix (no -rdc, no device link)"
  arch=(-gencode=arch=compute_90,code=sm_90)
  [ $have_pc = 0 ] || nvcc -O2 "${arch[@]}" $(pkg-config --cflags gshmem) -o device_api_pc "$src/device_api.cu" $(pkg-config --libs gshmem)
  "$PREFIX/bin/oshnvcc" -O2 "${arch[@]}" -o device_api_w "$src/device_api.cu"
  "$PREFIX/bin/oshc++" -O2 "${arch[@]}" -o device_api_cxx "$src/device_api.cu"
  [ $have_pc = 0 ] || nvcc -O2 "${arch[@]}" $(pkg-config --cflags gshmem-nvshmem) -o nvshmem_device_pc "$src/05_nvshmem_device.cu" \
    $(pkg-config --libs gshmem-nvshmem)
  # NVSHMEM programs' own build lines pass -rdc=true (NVSHMEM needs it): the same program builds
  # that way too, 1024-thread __launch_bounds__ kernels included (shmem_put_bw's).
  echo "== CUDA with -rdc=true (NVSHMEM build lines)"
  "$PREFIX/bin/oshnvcc" -O2 -rdc=true "${arch[@]}" -o device_api_rdc "$src/device_api.cu"
  "$PREFIX/bin/oshnvcc" -O2 -rdc=true "${arch[@]}" -DPERFTEST_PROGRAM=shmem_put_bw -DPT_shmem_put_bw -o put_bw_rdc \
    "$src/perftest/pt2pt_bw.cu"
  [ -x cmake-build/device_api ] || { echo "install check: CMake did not build the CUDA program"; exit 1; }
  [ -x cmake-build/nvshmem_device ] || { echo "install check: CMake did not build the NVSHMEM CUDA program"; exit 1; }
  # The NVSHMEM-perftest programs, where NVSHMEM's tree has them (docs/perf/definitions.md).
  pt="$PREFIX/libexec/gshmem/perftest"
  for f in device/pt-to-pt/shmem_put_latency device/pt-to-pt/shmem_g_latency device/pt-to-pt/shmem_put_bw \
           device/coll/bcast_latency host/coll/reduction_on_stream host/pt-to-pt/latency; do
    [ -x "$pt/$f" ] || { echo "install check: $pt/$f missing"; exit 1; }
  done
  "$pt/device/pt-to-pt/shmem_put_latency" -h | grep -q -- "-b min_size"
  rc=0; "$pt/device/coll/bcast_latency" -e 12Q 2>bad.err || rc=$?
  [ $rc = 2 ] && grep -q "12Q" bad.err || { echo "install check: a bad -e gave rc $rc: $(cat bad.err)"; exit 1; }
  if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    # Output to a file, then grep: grep -q on a pipe exits at the first match and a PE still
    # printing rows dies of SIGPIPE.
    timeout 120 "$PREFIX/bin/oshrun" -np 2 "$pt/device/pt-to-pt/shmem_put_latency" -e 64 -n 5 -w 1 > put_latency.out &&
      grep -q "^#shmem_put_latency" put_latency.out || { echo "install check: shmem_put_latency:"; cat put_latency.out; exit 1; }
    timeout 120 "$PREFIX/bin/oshrun" -np 2 "$pt/device/coll/bcast_latency" -e 1K -n 5 -w 1 > bcast_latency.out &&
      grep -q "^#bcast_device" bcast_latency.out || { echo "install check: bcast_latency:"; cat bcast_latency.out; exit 1; }
    for exe in device_api_w cmake-build/device_api cmake-build/nvshmem_device; do
      timeout 120 "$PREFIX/bin/oshrun" -np 2 "./$exe"
    done
    [ $have_pc = 0 ] || LD_LIBRARY_PATH="$PREFIX/lib" timeout 120 "$PREFIX/bin/oshrun" -np 2 ./device_api_pc
    [ $have_pc = 0 ] || LD_LIBRARY_PATH="$PREFIX/lib" timeout 120 "$PREFIX/bin/oshrun" -np 2 ./nvshmem_device_pc
    timeout 120 "$PREFIX/bin/oshrun" -np 2 ./device_api_rdc
    timeout 120 "$PREFIX/bin/oshrun" -np 2 ./put_bw_rdc -e 1M -n 5 -w 1 > put_bw_rdc.out &&
      grep -q "^#shmem_put_bw" put_bw_rdc.out || { echo "install check: put_bw_rdc:"; cat put_bw_rdc.out; exit 1; }
  else
    echo "install check: no GPU here; the CUDA programs were compiled and linked, not run"
  fi
else
  echo "install check: nvcc not found; CUDA programs not built"
fi
echo "install check: ok"
