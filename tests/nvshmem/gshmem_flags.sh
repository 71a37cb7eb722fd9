# shellcheck shell=bash disable=SC2034
# Sourced by the scripts that build NVSHMEM's own programs against an installed gshmem.
# gshmem_nvshmem_flags PREFIX: sets GSHMEM_CFLAGS and GSHMEM_LIBS (with an rpath to the library)
# from the prefix's `gshmem-nvshmem` pkg-config module; returns 1 when the prefix has none.
gshmem_nvshmem_flags() {
  local pc
  pc="$(find "$1" -name gshmem-nvshmem.pc 2>/dev/null | head -1)"
  [ -n "$pc" ] || return 1
  PKG_CONFIG_PATH="$(dirname "$pc")"
  export PKG_CONFIG_PATH
  GSHMEM_CFLAGS="$(pkg-config --cflags gshmem-nvshmem)"
  GSHMEM_LIBS="$(pkg-config --libs gshmem-nvshmem) -Xlinker -rpath=$(pkg-config --variable=libdir gshmem)"
}
