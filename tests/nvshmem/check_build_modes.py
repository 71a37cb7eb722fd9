#!/usr/bin/env python3
"""NVSHMEM programs' build modes that the name coverage test cannot see (docs/nvshmem.md):

* a `.cpp` file through the plain C++ compiler (NVSHMEM's CMake compiles a program's .cpp files
  with it): CUDA's runtime, driver and 16-bit float headers come with nvshmem.h, the host names
  (the half/bfloat16 ones included) and NVSHMEM's error macros are visible;
* a `.c` file through the C compiler;
* a `.cu` file through nvcc;
* each with a decoy `shmem.h`/`shmemx.h` (as Open MPI's include directory has) on the include
  path before gshmem's, and after it;
* NVSHMEM 3.4.5's signatures, types and layouts named in docs/nvshmem.md, as static assertions
  (written from NVSHMEM 3.4.5's declarations).

Usage: check_build_modes.py --nvcc NVCC --cxx CXX --cc CC --include DIR [--include DIR ...]
Exits 77 (skipped) when CUDA's headers are not found.
"""
import argparse
import os
import subprocess
import sys
import tempfile

CXX_SRC = r'''
#include <nvshmem.h>
#include <nvshmemx.h>
#include <cstddef>
#include <type_traits>

// 3.4.5's signatures
static_assert(std::is_same_v<decltype(&nvshmem_team_get_config), void (*)(nvshmem_team_t, nvshmem_team_config_t *)>);
static_assert(std::is_same_v<decltype(&nvshmemx_barrier_on_stream), int (*)(nvshmem_team_t, cudaStream_t)>);
static_assert(std::is_same_v<decltype(&nvshmemx_team_sync_on_stream), int (*)(nvshmem_team_t, cudaStream_t)>);
static_assert(std::is_same_v<decltype(&nvshmemx_init_status), int (*)(void)>);
// types, constants, layouts
static_assert(sizeof(nvshmemx_uniqueid_t) == 128);
static_assert(offsetof(nvshmemx_uniqueid_t, internal) == 4 && sizeof(((nvshmemx_uniqueid_t *)0)->internal) == 124);
static_assert(NVSHMEM_MAJOR_VERSION == 1 && NVSHMEM_MINOR_VERSION == 3);
static_assert(NVSHMEM_VENDOR_VERSION == 30405);
int use(half *h, __nv_bfloat16 *b, cudaStream_t s, CUdevice dev) {
  nvshmemx_cmp_type_t cmp = NVSHMEM_CMP_GE;
  nvshmemx_init_status_t st = NVSHMEM_STATUS_IS_INITIALIZED;
  nvshmem_team_id_t tid = NVSHMEM_TEAM_WORLD_INDEX;
  int status = NVSHMEMX_ERROR_INTERNAL;
  if (cmp == NVSHMEM_CMP_EQ || st == NVSHMEM_STATUS_INVALID || tid == NVSHMEM_TEAM_INVALID || status == 0 || dev < 0)
    return -1;
  nvshmemx_half_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, h, h, 4, s);
  nvshmemx_bfloat16_fcollect_on_stream(NVSHMEM_TEAM_WORLD, b, b, 4, s);
  nvshmemx_half_alltoall_on_stream(NVSHMEM_TEAM_WORLD, h, h, 4, s);
  nvshmem_half_p(h, __float2half(1.0f), 0);
  nvshmem_team_config_t cfg;
  nvshmem_team_get_config(NVSHMEM_TEAM_WORLD, &cfg);
  if (nvshmemx_barrier_on_stream(NVSHMEM_TEAM_WORLD, s) != 0) NVSHMEMI_ERROR_PRINT("barrier %d", 1);
  int rc = 0;
  NVSHMEMI_NZ_ERROR_JMP(rc, NVSHMEMX_ERROR_INTERNAL, out, "rc %d", rc);
out:
  return rc;
}
'''

C_SRC = r'''
#include <nvshmem.h>
#include <nvshmemx.h>
_Static_assert(sizeof(nvshmemx_uniqueid_t) == 128, "uniqueid layout");
int use(void) {
  nvshmemx_init_status_t st = NVSHMEM_STATUS_NOT_INITIALIZED;
  nvshmem_team_config_t cfg;
  nvshmem_team_get_config(NVSHMEM_TEAM_WORLD, &cfg);
  NVSHMEMI_WARN_PRINT("status %d", (int)st);
  return nvshmem_my_pe();
}
'''

CU_SRC = CXX_SRC + r'''
__global__ void k(int *p) {
  nvshmem_int_p(p, 1, 0);
  int r = nvshmemx_barrier_block(NVSHMEM_TEAM_WORLD);
  (void)r;
}
'''

DECOY = '#error "a decoy {name} was included instead of gshmem\'s"\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nvcc', required=True)
    ap.add_argument('--cxx', required=True)
    ap.add_argument('--cc', required=True)
    ap.add_argument('--include', action='append', default=[])
    a = ap.parse_args()
    cuda_inc = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(a.nvcc))), 'include')
    if not os.path.exists(os.path.join(cuda_inc, 'cuda_runtime.h')):
        print(f'no cuda_runtime.h under {cuda_inc}; skipping')
        return 77
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        decoy = os.path.join(d, 'decoy')
        os.mkdir(decoy)
        for name in ('shmem.h', 'shmemx.h'):
            with open(os.path.join(decoy, name), 'w') as f:
                f.write(DECOY.format(name=name))
        srcs = {'c': ('prog.c', C_SRC), 'cxx': ('prog.cpp', CXX_SRC), 'cu': ('prog.cu', CU_SRC)}
        for kind, (fname, text) in srcs.items():
            path = os.path.join(d, fname)
            with open(path, 'w') as f:
                f.write(text)
            gshmem = [f'-I{i}' for i in a.include]
            for order in ('decoy first', 'decoy last'):
                incs = ([f'-I{decoy}'] + gshmem) if order == 'decoy first' else (gshmem + [f'-I{decoy}'])
                if kind == 'c':
                    cmd = [a.cc, '-std=c11', '-Wall', '-Werror', f'-I{cuda_inc}'] + incs + ['-c', path, '-o', path + '.o']
                elif kind == 'cxx':
                    cmd = [a.cxx, '-std=c++17', '-Wall', f'-I{cuda_inc}'] + incs + ['-c', path, '-o', path + '.o']
                else:
                    cmd = [a.nvcc, '-std=c++17', '-gencode=arch=compute_90,code=sm_90'] + incs + ['-c', path, '-o', path + '.o']
                r = subprocess.run(cmd, capture_output=True, text=True)
                ok = r.returncode == 0
                print(f'{"ok" if ok else "FAIL"}: {kind} ({order})')
                if not ok:
                    fails += 1
                    print('  ' + ' '.join(cmd))
                    print('\n'.join('  | ' + l for l in (r.stdout + r.stderr).splitlines()[:20]))
    print(f'nvshmem build modes: {6 - fails} of 6 ok')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
