#!/usr/bin/env bash
# Builds NVSHMEM's own perftest programs, unchanged, against one library: NVSHMEM or an installed
# gshmem. The sources are NVSHMEM's (tag v3.4.5-0, perftest/), exported at measurement time into a
# git-ignored folder; NVSHMEM's license forbids committing them (docs/perf/nvshmem-perftest.md).
#
#   nvshmem_perftest_build.sh --src DIR --out DIR --lib gshmem --prefix PREFIX [--mpi-first] [-j N]
#   nvshmem_perftest_build.sh --src DIR --out DIR --lib nvshmem [--nvshmem-home DIR] [-j N]
#   (--only REGEX: the programs whose source file name matches; --no-rdc: whole-program
#   compilation, which gshmem's header-only device API allows and NVSHMEM's device library does not)
#
# The programs are those NVSHMEM's CMake builds (every nvshmem_add_perftest line), with its flags:
# C++17, separable compilation (-rdc=true), NVSHMEMTEST_MPI_SUPPORT with MPI's include directory
# (its default), .cpp files through the C++ compiler. gshmem is reached through
# `pkg-config gshmem-nvshmem` of PREFIX; --mpi-first puts MPI's include directory before it (as
# mpicxx and CMake's MPI targets order them). nvml.h: CUDA's, or $NVML_INCLUDE. The tile programs
# use NVSHMEM's tile API, which gshmem does not provide (docs/nvshmem.md); with --lib gshmem they
# are reported as not built. Prints one line per program that fails and a count; exit 1 if any
# program other than the tile ones failed.
set -uo pipefail
src="" out="" lib="" prefix="" order="" only="." rdc="-rdc=true" jobs="$(nproc)" nvhome="${NVSHMEM_HOME:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --lib) lib="$2"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --nvshmem-home) nvhome="$2"; shift 2 ;;
    --mpi-first) order=mpi-first; shift ;;
    -j) jobs="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --no-rdc) rdc=""; shift ;;
    *) echo "nvshmem_perftest_build: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$src" ] || [ -z "$out" ] || [ ! -f "$src/common/utils.cu" ]; then
  echo "nvshmem_perftest_build: --src must name NVSHMEM's perftest directory (common/utils.cu)" >&2
  exit 2
fi
nvcc="${NVCC:-nvcc}"
cxx="${CXX:-g++}"
cuda_home="$(dirname "$(dirname "$(command -v "$nvcc")")")"
arch="${CUDA_ARCH_FLAGS:--gencode=arch=compute_90,code=sm_90}"
mpiinc="$(mpicc --showme:incdirs 2>/dev/null | awk '{print $1}')"
if [ -z "$mpiinc" ]; then
  echo "nvshmem_perftest_build: mpicc not found (NVSHMEM's CMake builds the perftest with MPI support)" >&2
  exit 2
fi
case "$lib" in
  gshmem)
    [ -n "$prefix" ] || { echo "nvshmem_perftest_build: --lib gshmem needs --prefix" >&2; exit 2; }
    # shellcheck source=../nvshmem/gshmem_flags.sh
    . "$(dirname "$0")/../nvshmem/gshmem_flags.sh"
    gshmem_nvshmem_flags "$prefix" || { echo "nvshmem_perftest_build: no gshmem-nvshmem.pc under $prefix" >&2; exit 2; }
    libinc="$GSHMEM_CFLAGS" libs="$GSHMEM_LIBS"
    ;;
  nvshmem)
    [ -n "$nvhome" ] || nvhome="$(python3 -c 'import nvidia.nvshmem as m; print(m.__path__[0])' 2>/dev/null)"
    if [ -z "$nvhome" ] || [ ! -f "$nvhome/include/nvshmem.h" ]; then
      echo "nvshmem_perftest_build: NVSHMEM not found (--nvshmem-home or the nvidia-nvshmem-cu13 package)" >&2
      exit 77
    fi
    nvhome="$(cd "$nvhome" && pwd)"
    mkdir -p "$out/lib"
    # The wheel ships only libnvshmem_host.so.3; the linker needs the unversioned name.
    ln -sf "$nvhome/lib/libnvshmem_host.so.3" "$out/lib/libnvshmem_host.so"
    libinc="-I$nvhome/include"
    libs="-L$out/lib -L$nvhome/lib -lnvshmem_host -lnvshmem_device -Xlinker -rpath=$nvhome/lib"
    ;;
  *) echo "nvshmem_perftest_build: --lib gshmem or --lib nvshmem" >&2; exit 2 ;;
esac
nvml="${NVML_INCLUDE:+-I$NVML_INCLUDE}"
if [ "$order" = mpi-first ]; then inc="-I$mpiinc $libinc"; else inc="$libinc -I$mpiinc"; fi
inc="$inc $nvml -I$src/common"
# The programs reach MPI through dlopen (NVSHMEM's CMake links no MPI library); Open MPI's mpi.h
# would otherwise pull its deprecated C++ bindings, whose symbols only libmpi_cxx defines.
defs="-DNVSHMEMTEST_MPI_SUPPORT -DOMPI_SKIP_MPICXX=1"
mkdir -p "$out/log"
out="$(cd "$out" && pwd)"

build_one() {  # SOURCE: compile, then device-link and link with utils.o
  local f="$1" n
  n="$(basename "${f%.*}")"
  if [[ "$f" == *.cpp ]]; then
    "$cxx" -std=c++17 -fPIC $defs $inc -I"$cuda_home/include" -I"$cuda_home/include/cccl" -c "$f" -o "$out/$n.o" > "$out/log/$n.log" 2>&1
  else
    "$nvcc" -std=c++17 $rdc $arch -Xcompiler -fPIC $defs $inc -c "$f" -o "$out/$n.o" > "$out/log/$n.log" 2>&1
  fi || return 1
  # shellcheck disable=SC2086
  "$nvcc" $rdc $arch "$out/$n.o" "$out/utils.o" -o "$out/$n" $libs -lcuda -ldl >> "$out/log/$n.log" 2>&1
}

# shellcheck disable=SC2086
if ! "$nvcc" -std=c++17 $rdc $arch -Xcompiler -fPIC $defs $inc -c "$src/common/utils.cu" -o "$out/utils.o" \
  > "$out/log/utils.log" 2>&1; then
  echo "nvshmem_perftest_build: common/utils.cu does not compile against $lib:"
  grep -m3 error "$out/log/utils.log"
  exit 1
fi
mapfile -t progs < <(grep -h -o 'nvshmem_add_perftest([a-z_]*\.c[up]*)' "$src"/*/*/CMakeLists.txt |
  sed 's/.*(\(.*\))/\1/' | sort -u | grep -E -- "$only")
declare -A pid_of
for p in "${progs[@]}"; do
  f="$(find "$src/device" "$src/host" -name "$p" | head -1)"
  build_one "$f" &
  pid_of[$p]=$!
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
ok=0 bad=0 tile=0
for p in "${progs[@]}"; do
  n="${p%.*}"
  if wait "${pid_of[$p]}" && [ -x "$out/$n" ]; then
    ok=$((ok + 1))
  elif [ "$lib" = gshmem ] && [[ "$n" == tile_* ]]; then
    tile=$((tile + 1))
  else
    bad=$((bad + 1))
    echo "FAIL $n: $(grep -m1 -E 'error' "$out/log/$n.log" | cut -c1-240)"
  fi
done
note=""
[ "$tile" -gt 0 ] && note=", $tile tile programs not built: gshmem has no tile API"
echo "nvshmem_perftest_build: $lib: built $ok of ${#progs[@]} programs into $out ($bad failed$note)"
[ "$bad" -eq 0 ]
