#!/usr/bin/env bash
# A/B of a device-code change on a 2-GPU host, in one run: GPU suites built from this tree (new),
# from this tree with the files under OVERLAY copied over it (base), and against NVSHMEM
# (build_nvshmem.sh), run alternately, each REPS times; one log and a table of ratios.
# Usage: tests/perf/ab_compare.sh OUT OVERLAY 'suite options' ['suite options' ...]
#   OVERLAY: a directory laid out like the repository, e.g. made with
#     mkdir -p ov/device/gshmem/impl && git show HEAD~1:device/gshmem/impl/rma.cuh > ov/device/gshmem/impl/rma.cuh
#   e.g. tests/perf/ab_compare.sh $OUT ov 'get_latency -b 8 -e 64 -f 2' 'put_latency -s block -t 1024 -b 1K -e 64K -f 4'
# Env: REPS (default 2), NEW_BUILD (default /tmp/b), BASE_BUILD (default /tmp/bb).
set -uo pipefail
out="$1"
overlay="$(cd "$2" && pwd)"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
nb="${NEW_BUILD:-/tmp/b}"
bb="${BASE_BUILD:-/tmp/bb}"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
mkdir -p "$out"
log="$out/ab-compare.log"
suites=""
for spec in "$@"; do
  s="${spec%% *}"
  case " $suites " in *" $s "*) ;; *) suites="$suites $s" ;; esac
done
targets="runtime/oshrun"
for s in $suites; do targets="$targets tests/perf/shmem_$s"; done

basesrc=/tmp/ab-basesrc  # fixed: BASE_BUILD keeps pointing at it across runs
rm -rf "$basesrc"
mkdir -p "$basesrc"
# The tree's files (git's list where there is a checkout; the device host's copy has none), then
# the overlay over them.
(cd "$root" && { git ls-files -co --exclude-standard 2>/dev/null ||
  find . -type f -not -path './.git/*' -not -path './build*'; } | tar -cf - -T -) | (cd "$basesrc" && tar -xf -)
cp -r "$overlay/." "$basesrc/"
{
  echo "# ab_compare $(date -u +%FT%TZ) on $(nvidia-smi -L 2>/dev/null | head -2 | tr '\n' ' ')"
  echo "# overlay files: $(cd "$overlay" && find . -type f | tr '\n' ' ')"
} > "$log"
[ -d "$nb" ] || meson setup "$nb" "$root" -Dcuda=enabled > "$out/ab-build.txt" 2>&1
[ -d "$bb" ] || meson setup "$bb" "$basesrc" -Dcuda=enabled >> "$out/ab-build.txt" 2>&1
"$here/build_nvshmem.sh" /tmp/ab-peer $suites >> "$out/ab-build.txt" 2>&1 &
peer=$!
# shellcheck disable=SC2086
ninja -C "$nb" $targets >> "$out/ab-build.txt" 2>&1 && ninja -C "$bb" $targets >> "$out/ab-build.txt" 2>&1 ||
  { tail -30 "$out/ab-build.txt"; exit 1; }
wait "$peer" || echo "ab_compare: NVSHMEM suites not built (see ab-build.txt); base and new only" >&2

for rep in $(seq "${REPS:-2}"); do
  for spec in "$@"; do
    read -r -a a <<< "$spec"
    s="${a[0]}"
    for impl in base new; do
      b="$nb"
      [ "$impl" = base ] && b="$bb"
      echo "== $impl ${a[*]}" >> "$log"
      timeout 120 "$b/runtime/oshrun" -np 2 "$b/tests/perf/shmem_$s" "${a[@]:1}" 2>&1 | grep -v '^#' >> "$log"
    done
    if [ -x "/tmp/ab-peer/nvshmem_$s" ]; then
      echo "== nvshmem ${a[*]}" >> "$log"
      GSHMEM_PERF_UID_FILE="$(mktemp -u)" timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 \
        -x NVSHMEM_DISABLE_NVLS -x NCCL_NVLS_ENABLE -x GSHMEM_PERF_UID_FILE "/tmp/ab-peer/nvshmem_$s" "${a[@]:1}" 2>&1 |
        grep -v '^#' >> "$log"
    fi
  done
done
python3 "$here/ab_table.py" "$log" | tee "$out/ab-table.txt"
