#!/usr/bin/env bash
# Builds tests/perf/nccl_allreduce.cu against NCCL from $NCCL_HOME or the nvidia-nccl-cu13 Python
# package (exit 77 when there is none). Usage: build_nccl.sh OUTDIR
set -euo pipefail
out="$1"
here="$(cd "$(dirname "$0")" && pwd)"
nc="${NCCL_HOME:-$(python3 -c 'import nvidia.nccl as m; print(m.__path__[0])' 2>/dev/null || true)}"
if [ -z "$nc" ] || [ ! -f "$nc/include/nccl.h" ]; then
  echo "build_nccl: NCCL not found (set NCCL_HOME or install nvidia-nccl-cu13)" >&2
  exit 77
fi
mkdir -p "$out"
lib="$(basename "$(ls "$nc"/lib/libnccl.so* | head -1)")"
"${NVCC:-nvcc}" -std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -I"$nc/include" "$here/nccl_allreduce.cu" \
  -o "$out/nccl_allreduce" -L"$nc/lib" -l:"$lib" -Xlinker -rpath -Xlinker "$nc/lib"
echo "build_nccl: built $out/nccl_allreduce against $lib"
