#!/usr/bin/env python3
"""Registers of team collectives called from user kernels: gshmem's against NVSHMEM 3.4.5's own.

A device call's registers show up in the kernel that calls it, and a kernel over 64 registers a
thread cannot launch 1024 threads (docs/gpu.md). The point-to-point calls fit that budget
(check_registers.py). The collectives fit it in neither library: NVSHMEM's block-scope reduction
takes about 200 registers. So the bar here is NVSHMEM's own: the same loop kernels (each call in
a `for (i < iter)` loop, no __launch_bounds__) are built through gshmem's <nvshmem.h>
(whole-program, as docs/nvshmem.md recommends) and through NVSHMEM's headers with its device
library (-rdc and a device link, as NVSHMEM requires). The test fails when a gshmem kernel takes
more registers than NVSHMEM's kernel of the same source (or, for the kernels of KNOWN_OVER, more
than the ceiling given there), so a gshmem user's collective kernel needs no smaller block than an
NVSHMEM user's does, the listed gaps aside.

Usage: check_coll_registers.py --nvcc NVCC --include DIR [--include DIR ...] [--nvshmem DIR]
  --nvshmem: NVSHMEM's package directory (include/, lib/libnvshmem_device.a); default: .deps/nvshmem
  of the checkout (scripts/install-deps.sh), else `import nvidia.nvshmem`.
Exit 77 (skip) when NVSHMEM is not installed and GSHMEM_REQUIRE_NVSHMEM_HEADERS is unset.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from check_coverage import nvshmem_include, nvshmem_missing
from check_registers import parse_registers

KERNELS = r'''
#include <nvshmem.h>
#include <nvshmemx.h>

#define LOOP for (int i = 0; i < iter; i++)
#define T NVSHMEM_TEAM_WORLD
extern "C" {
__global__ void reduce_thread(int *d, const int *s, size_t n, int iter) { LOOP { nvshmem_int_sum_reduce(T, d, s, n); } }
__global__ void reduce_warp(int *d, const int *s, size_t n, int iter) { LOOP { nvshmemx_int_sum_reduce_warp(T, d, s, n); } }
__global__ void reduce_block(int *d, const int *s, size_t n, int iter) { LOOP { nvshmemx_int_sum_reduce_block(T, d, s, n); } }
__global__ void max_reduce_block(double *d, const double *s, size_t n, int iter) {
  LOOP { nvshmemx_double_max_reduce_block(T, d, s, n); }
}
__global__ void broadcast_thread(int *d, const int *s, size_t n, int iter) { LOOP { nvshmem_int_broadcast(T, d, s, n, 0); } }
__global__ void broadcast_block(int *d, const int *s, size_t n, int iter) {
  LOOP { nvshmemx_int_broadcast_block(T, d, s, n, 0); }
}
__global__ void fcollect_warp(int *d, const int *s, size_t n, int iter) { LOOP { nvshmemx_int_fcollect_warp(T, d, s, n); } }
__global__ void fcollect_block(int *d, const int *s, size_t n, int iter) { LOOP { nvshmemx_int_fcollect_block(T, d, s, n); } }
__global__ void alltoall_block(int *d, const int *s, size_t n, int iter) { LOOP { nvshmemx_int_alltoall_block(T, d, s, n); } }
__global__ void reducescatter_block(int *d, const int *s, size_t n, int iter) {
  LOOP { nvshmemx_int_sum_reducescatter_block(T, d, s, n); }
}
__global__ void barrier_block(int iter) { LOOP { nvshmemx_barrier_block(T); } }
__global__ void sync_warp(int iter) { LOOP { nvshmemx_team_sync_warp(T); } }
}
'''

NAMES = sorted(re.findall(r'__global__ void (\w+)\(', KERNELS))
# Kernels allowed above NVSHMEM's count, each held at a ceiling so that it cannot grow unnoticed.
# None today: every kernel is at or below NVSHMEM's.
KNOWN_OVER = {}
ARCH = '-gencode=arch=compute_90,code=sm_90'


def nvshmem_dir(arg, root):
    """NVSHMEM's package directory (include/ and lib/libnvshmem_device.a), found as
    check_coverage.py finds its headers; None without it."""
    inc = os.path.join(arg, 'include') if arg else nvshmem_include(None, root)
    if not inc:
        return None
    nv = os.path.dirname(inc)
    ok = os.path.exists(os.path.join(inc, 'nvshmem.h')) and os.path.exists(os.path.join(nv, 'lib', 'libnvshmem_device.a'))
    return nv if ok else None


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print('check_coll_registers: failed: ' + ' '.join(cmd) + '\n' + r.stderr[-4000:])
        sys.exit(1)
    return r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nvcc', required=True)
    ap.add_argument('--include', action='append', required=True)
    ap.add_argument('--nvshmem')
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    nv = nvshmem_dir(a.nvshmem, root)
    if not nv:
        return nvshmem_missing('check_coll_registers: NVSHMEM 3.4.5 (headers and device library) not found')
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'coll.cu')
        with open(src, 'w') as f:
            f.write(KERNELS)
            # Host references keep every kernel through NVSHMEM's device link.
            f.write('void *kernels[] = {' + ', '.join('(void *)%s' % n for n in NAMES) + '};\n')
        incs = [x for i in a.include for x in ('-I', i)]
        out = run([a.nvcc, '-c', '-std=c++17', ARCH, '-Xptxas', '-v', '-o', os.path.join(tmp, 'g.o')] + incs + [src])
        mine = parse_registers(out, rdc=False)
        run([a.nvcc, '-c', '-std=c++17', '-rdc=true', ARCH, '-I', os.path.join(nv, 'include'), '-o',
             os.path.join(tmp, 'n.o'), src])
        out = run([a.nvcc, ARCH, '-dlink', os.path.join(tmp, 'n.o'), '-o', os.path.join(tmp, 'dl.o'),
                   '-L', os.path.join(nv, 'lib'), '-lnvshmem_device', '-Xnvlink', '-v'])
        theirs = parse_registers(out, rdc=True)
    bad, missing = [], []
    print(f'{"kernel":22s} {"gshmem":>7s} {"NVSHMEM":>8s}')
    for n in NAMES:
        if n not in mine or n not in theirs:
            missing.append(n)
            continue
        ceiling = max(theirs[n], KNOWN_OVER.get(n, 0))
        note = f'  (known gap: held at {ceiling})' if ceiling > theirs[n] else ''
        print(f'{n:22s} {mine[n]:7d} {theirs[n]:8d}{note}')
        if mine[n] > ceiling:
            bad.append(f'{n} ({mine[n]} against {ceiling})')
    if missing:
        print('check_coll_registers: no register count for: ' + ', '.join(missing))
    if bad:
        print('check_coll_registers: more registers than allowed (NVSHMEM 3.4.5 count for the same kernel, or '
              'the ceiling of a known gap): ' + ', '.join(bad))
    return 1 if bad or missing else 0


if __name__ == '__main__':
    sys.exit(main())
