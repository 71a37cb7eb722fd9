# Sourced by the scripts: paths and the build directory.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${GSHMEM_BUILD_DIR:-$ROOT/build}"
if [ -d /usr/local/cuda/bin ]; then export PATH="/usr/local/cuda/bin:$PATH"; fi
# Never let a test touch NVLink multicast on shared GPU hosts.
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
configure() {
  if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" "$ROOT" --prefix="$BUILD/prefix" "$@"
  fi
  meson compile -C "$BUILD"
}
