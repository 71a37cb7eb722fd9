#!/usr/bin/env bash
# The GPU-host half of the NVSHMEM-perftest comparison (docs/perf/nvshmem-perftest.md), for a host
# whose time is short: the programs are built elsewhere (nvshmem_perftest_build.sh, both libraries)
# and packed; here libgshmem alone is built (tests off) and the alternated run made.
#
#   pack (development machine):  nvshmem_perftest_device.sh pack GSHMEM_BIN NVSHMEM_BIN PACK.tar.xz
#   run (GPU host):              nvshmem_perftest_device.sh run PACK.tar.xz NV/perftest OUT [runner options]
#
# run: builds libgshmem (release; MESON_OPTS: more meson options, e.g. a UCX's headers) into
# /tmp/gshmem-lib unless it is there, unpacks the programs,
# puts libgshmem and NVSHMEM's wheel library on LD_LIBRARY_PATH and calls nvshmem_perftest.py
# with --src NV/perftest --out OUT and the options given (--np, --rounds, --only, --deadline...);
# the per-run logs end up in OUT/logs.tar.xz.
# Env for run: LIB_PACK, a tar.xz of an installed gshmem prefix built elsewhere (`tar cJf F -C
# PREFIX .`), unpacked instead of building; MPS=1, every PE on one GPU: an MPS daemon is started
# for the run (and stopped after) and the runner gets --mps-share (docs/perf/nvshmem-perftest.md).
# NVSHMEM's executables are alike but for their own kernels, so the pack is one xz stream with a
# large dictionary (37 + 39 programs: about 11 MB).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
case "${1:-}" in
  pack)
    [ $# -eq 4 ] || { echo "usage: $0 pack GSHMEM_BIN NVSHMEM_BIN PACK.tar.xz" >&2; exit 2; }
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/gshmem" "$tmp/nvshmem"
    find "$2" -maxdepth 1 -type f -perm -u+x -exec cp {} "$tmp/gshmem/" \;
    find "$3" -maxdepth 1 -type f -perm -u+x -exec cp {} "$tmp/nvshmem/" \;
    tar cf - -C "$tmp" gshmem nvshmem | xz -9 --lzma2=preset=9,dict=1GiB > "$4"
    echo "packed $(ls "$tmp/gshmem" | wc -l) + $(ls "$tmp/nvshmem" | wc -l) programs: $(du -h "$4" | cut -f1)"
    ;;
  run)
    [ $# -ge 4 ] || { echo "usage: $0 run PACK.tar.xz NV/perftest OUT [runner options]" >&2; exit 2; }
    pack="$2" src="$3" out="$4"
    shift 4
    export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
    b=/tmp/gshmem-lib
    if [ -n "${LIB_PACK:-}" ] && [ ! -f "$b/prefix/lib/libgshmem.so" ]; then
      mkdir -p "$b/prefix" && tar xJf "$LIB_PACK" -C "$b/prefix" || exit 1
    fi
    if [ ! -f "$b/prefix/lib/libgshmem.so" ]; then
      { [ -d "$b" ] || meson setup "$b" "$root" -Dcuda=enabled -Dbuildtype=release -Dtests=false --prefix="$b/prefix" ${MESON_OPTS:-}; } \
        > /tmp/gshmem-lib.log 2>&1 && ninja -C "$b" >> /tmp/gshmem-lib.log 2>&1 &&
        meson install -C "$b" --quiet >> /tmp/gshmem-lib.log 2>&1 || { tail -30 /tmp/gshmem-lib.log; exit 1; }
    fi
    bins=/tmp/nvshmem-perftest-bins
    [ -d "$bins/gshmem" ] || { mkdir -p "$bins" && tar xJf "$pack" -C "$bins"; } || exit 1
    nvlib="$(python3 -c 'import nvidia.nvshmem as m; print(m.__path__[0])')/lib"
    export LD_LIBRARY_PATH="$b/prefix/lib:$nvlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    mkdir -p "$out"
    nvidia-smi -L > "$out/gpus.txt" 2>&1
    mps=()
    if [ "${MPS:-0}" = 1 ]; then
      # MPS clients share one pool of hardware work queues; 16 each leaves room for 4 PEs.
      export CUDA_DEVICE_MAX_CONNECTIONS=${CUDA_DEVICE_MAX_CONNECTIONS:-16}
      export CUDA_MPS_PIPE_DIRECTORY=/tmp/perftest-mps CUDA_MPS_LOG_DIRECTORY=/tmp/perftest-mps-log
      mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
      nvidia-cuda-mps-control -d || { echo "could not start MPS" >&2; exit 1; }
      trap 'echo quit | nvidia-cuda-mps-control > /dev/null 2>&1; sleep 2' EXIT
      mps=(--mps-share)
    fi
    python3 "$here/nvshmem_perftest.py" --src "$src" --gshmem "$bins/gshmem" --nvshmem "$bins/nvshmem" \
      --out "$out" "${mps[@]}" "$@"
    rc=$?
    # One log per run would be hundreds of files; a host tool that returns a bounded number of
    # files then returns none of them, results.csv included. Keep them as one archive.
    if [ -d "$out/logs" ]; then tar cJf "$out/logs.tar.xz" -C "$out" logs && rm -rf "$out/logs"; fi
    exit $rc
    ;;
  *) echo "usage: $0 pack|run ..." >&2; exit 2 ;;
esac
