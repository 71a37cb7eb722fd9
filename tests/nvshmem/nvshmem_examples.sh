#!/usr/bin/env bash
# Builds NVSHMEM's own examples (tag v3.4.5-0, examples/; exported at use time into a git-ignored
# folder, never committed: NVSHMEM's license forbids it) unchanged against an installed gshmem, and
# runs each under mpirun where a GPU is present.
#
#   nvshmem_examples.sh --src NV/examples --prefix PREFIX --out DIR [--mpi-first] [--rdc] [--run NP]
#
# Flags as NVSHMEM's CMake gives them: C++17, NVSHMEMTEST_MPI_SUPPORT with MPI's include directory,
# MPI linked (its MPI examples link MPI::MPI_CXX), .cpp files through g++. gshmem through
# `pkg-config gshmem-nvshmem`; --mpi-first puts MPI's include directory before it; --rdc keeps
# NVSHMEM's separable compilation (gshmem does not need it). gemm_allreduce (a Blackwell
# CUTLASS program, in a folder of its own) is not built; neither are the two files its CMake leaves out. Prints a line per example; exit 1 if an
# example does not build or, with --run, exits non-zero.
set -uo pipefail
src="" prefix="" out="" order="" rdc="" np=""
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src="$2"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --mpi-first) order=mpi-first; shift ;;
    --rdc) rdc="-rdc=true"; shift ;;
    --run) np="$2"; shift 2 ;;
    *) echo "nvshmem_examples: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$src" ] || [ -z "$prefix" ] || [ -z "$out" ] || [ ! -f "$src/CMakeLists.txt" ]; then
  echo "nvshmem_examples: --src NVSHMEM's examples directory, --prefix an installed gshmem, --out DIR" >&2
  exit 2
fi
nvcc="${NVCC:-nvcc}"
cuda_home="$(dirname "$(dirname "$(command -v "$nvcc")")")"
arch="${CUDA_ARCH_FLAGS:--gencode=arch=compute_90,code=sm_90}"
# shellcheck source=gshmem_flags.sh
. "$(dirname "$0")/gshmem_flags.sh"
gshmem_nvshmem_flags "$prefix" || { echo "nvshmem_examples: no gshmem-nvshmem.pc under $prefix" >&2; exit 2; }
cflags="$GSHMEM_CFLAGS" libs="$GSHMEM_LIBS"
mpiinc="-I$(mpicc --showme:incdirs | awk '{print $1}')"
mpilib="$(mpicxx --showme:link)"
if [ "$order" = mpi-first ]; then inc="$mpiinc $cflags"; else inc="$cflags $mpiinc"; fi
mkdir -p "$out"
status=0
# The examples NVSHMEM's CMake builds: its uncommented lines naming a top-level .cu file (it
# leaves shmem-based-init.cu and hello.cpp out).
mapfile -t files < <(grep -v '^ *#' "$src/CMakeLists.txt" | grep -oE '^ *[A-Za-z0-9_-]+\.cu *$' | tr -d ' ')
for f in "${files[@]/#/$src/}"; do
  n="$(basename "${f%.*}")"
  # shellcheck disable=SC2086
  if [[ "$f" == *.cpp ]]; then
    g++ -std=c++17 -DNVSHMEMTEST_MPI_SUPPORT $inc -I"$cuda_home/include" -I"$cuda_home/include/cccl" -c "$f" \
      -o "$out/$n.o" > "$out/$n.log" 2>&1
  else
    "$nvcc" -std=c++17 $rdc $arch -DNVSHMEMTEST_MPI_SUPPORT $inc -c "$f" -o "$out/$n.o" > "$out/$n.log" 2>&1
  fi && "$nvcc" $rdc $arch "$out/$n.o" -o "$out/$n" $libs $mpilib -lcuda >> "$out/$n.log" 2>&1
  if [ ! -x "$out/$n" ]; then
    echo "$n: does not build: $(grep -m1 error "$out/$n.log" | cut -c1-200)"
    status=1
    continue
  fi
  if [ -n "$np" ] && nvidia-smi -L > /dev/null 2>&1; then
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$np" -x NVSHMEM_DISABLE_NVLS=1 -x NCCL_NVLS_ENABLE=0 \
      "$out/$n" > "$out/$n.run.log" 2>&1
    rc=$?
    echo "$n: built; exit $rc at $np PEs$([ $rc -ne 0 ] && echo ": $(grep -m1 -iE 'error|gshmem\[' "$out/$n.run.log" | cut -c1-200)")"
    [ $rc -eq 0 ] || status=1
  else
    echo "$n: built"
  fi
done
exit $status
