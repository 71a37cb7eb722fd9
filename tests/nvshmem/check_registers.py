#!/usr/bin/env python3
"""Register budget of the device calls in user kernels without launch bounds (docs/gpu.md).

A 1024-thread block has 64 registers per thread. The device API is inline code, so what a call
costs shows up in the caller's kernel. NVSHMEM programs launch their kernels at 1024 threads
with no __launch_bounds__ (its perftest `-t 1024` options), in loops that repeat one call.
This test compiles kernels of those shapes (our own code: each call inside a `for (i < iter)`
loop, as a user's benchmark or pipeline writes it) through gshmem's <nvshmem.h>, whole-program
(no -rdc) as docs/nvshmem.md recommends, reads ptxas's register count for each and fails when
one is above 64.

Usage: check_registers.py --nvcc NVCC --include DIR [--include DIR ...] [--rdc] [-D NAME=VALUE ...]

Through <nvshmem.h> the device checks are off unless asked for; the meson tests run it both ways
(-D GSHMEM_DEVICE_CHECKS=1: the checks compiled into every call).

--rdc measures the kernels as NVSHMEM's build lines compile them (separable, sized at the device
link). That mode is not yet within the budget (docs/gpu.md), so the meson test runs without it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BUDGET = 64

KERNELS = r'''
#include <nvshmem.h>
#include <nvshmemx.h>

#define LOOP for (int i = 0; i < iter; i++)
extern "C" {
// point-to-point, thread scope
__global__ void put_thread(int *d, int n, int pe, int iter) { LOOP { nvshmem_int_put_nbi(d, d, n, pe); nvshmem_quiet(); } }
__global__ void get_thread(int *d, int n, int pe, int iter) { LOOP { nvshmem_int_get(d, d, n, pe); } }
__global__ void p_thread(int *d, int n, int pe, int iter) {
  LOOP { for (int j = threadIdx.x; j < n; j += blockDim.x) nvshmem_int_p(d + j, j, pe); nvshmem_quiet(); }
}
__global__ void g_thread(int *d, int n, int pe, int iter) {
  LOOP { for (int j = threadIdx.x; j < n; j += blockDim.x) d[j] = nvshmem_int_g(d + j, pe); __syncthreads(); }
}
// warp and block scope, in a grid-strided slice per block
#define SCOPED(NAME, CALL)                                                                  \
  __global__ void NAME(double *d, int n, int pe, int iter) {                                \
    const int per = n / gridDim.x;                                                          \
    LOOP { CALL(d + blockIdx.x * per, d + blockIdx.x * per, per, pe); __syncthreads(); }    \
  }
SCOPED(put_nbi_warp, nvshmemx_double_put_nbi_warp)
SCOPED(get_nbi_warp, nvshmemx_double_get_nbi_warp)
SCOPED(put_nbi_block, nvshmemx_double_put_nbi_block)
SCOPED(get_nbi_block, nvshmemx_double_get_nbi_block)
SCOPED(put_block, nvshmemx_double_put_block)
SCOPED(get_block, nvshmemx_double_get_block)
// put with signal and a wait: a ping-pong at each scope
__global__ void put_signal_thread(int *d, uint64_t *s, int n, int pe, int iter) {
  LOOP { nvshmem_int_put_signal_nbi(d, d, n, s, i + 1, NVSHMEM_SIGNAL_SET, pe);
         nvshmem_signal_wait_until(s, NVSHMEM_CMP_GE, i + 1); }
}
__global__ void put_signal_warp(int *d, uint64_t *s, int n, int pe, int iter) {
  LOOP { nvshmemx_int_put_signal_nbi_warp(d, d, n, s, i + 1, NVSHMEM_SIGNAL_SET, pe);
         if (threadIdx.x == 0) nvshmem_signal_wait_until(s, NVSHMEM_CMP_GE, i + 1); __syncwarp(); }
}
__global__ void put_signal_block(int *d, uint64_t *s, int n, int pe, int iter) {
  LOOP { nvshmemx_int_put_signal_nbi_block(d, d, n, s, i + 1, NVSHMEM_SIGNAL_SET, pe);
         if (threadIdx.x == 0) nvshmem_signal_wait_until(s, NVSHMEM_CMP_GE, i + 1); __syncthreads(); }
}
// atomics over a slice, one element per thread
__global__ void amo_inc(unsigned long long *d, int n, int pe, int iter) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  LOOP { for (int j = t; j < n; j += gridDim.x * blockDim.x) nvshmem_ulonglong_atomic_inc(d + j, pe); __syncthreads(); }
}
__global__ void amo_fetch_add(unsigned long long *d, int n, int pe, int iter) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  LOOP { for (int j = t; j < n; j += gridDim.x * blockDim.x) d[j] = nvshmem_ulonglong_atomic_fetch_add(d + j, 1, pe); }
}
__global__ void amo_cswap(unsigned long long *d, int n, int pe, int iter) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  LOOP { for (int j = t; j < n; j += gridDim.x * blockDim.x) d[j] = nvshmem_ulonglong_atomic_compare_swap(d + j, 0, 1, pe); }
}
// synchronization
__global__ void barrier_block(int iter) { LOOP { nvshmemx_barrier_all_block(); } }
__global__ void sync_thread(int iter) { LOOP { nvshmem_sync_all(); } }
}
'''

# The kernels of KERNELS: its __global__ functions (the SCOPED macro's parameter aside) and the
# SCOPED instances.
NAMES = (set(re.findall(r'__global__ void (\w+)\(', KERNELS)) - {'NAME'}) | set(
    re.findall(r'^SCOPED\((\w+),', KERNELS, re.M))


def parse_registers(text, rdc):
    """{kernel: registers} from ptxas -v (whole-program: "Compiling entry function 'NAME'" ...
    "Used N registers") or, rdc, nvlink -v ("Function properties for 'NAME'" then "used N
    registers")."""
    if rdc:
        entry, used = r"Function properties for '(\w+)'", r'used (\d+) registers'
    else:
        entry, used = r"Compiling entry function '(\w+)'", r'Used (\d+) registers'
    regs, cur = {}, None
    for line in text.splitlines():
        m = re.search(entry, line)
        if m:
            cur = m.group(1)
            continue
        m = re.search(used, line)
        if m and cur:
            regs[cur] = int(m.group(1))
            cur = None
    return regs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nvcc', required=True)
    ap.add_argument('--include', action='append', required=True)
    ap.add_argument('--rdc', action='store_true', help='compile as NVSHMEM builds do: separable (-rdc=true)')
    ap.add_argument('-D', dest='defines', action='append', default=[], help='a macro for nvcc (NAME=VALUE)')
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'regs.cu')
        with open(src, 'w') as f:
            f.write(KERNELS)
            # Host references keep every kernel through the device link (which drops unreferenced ones).
            f.write('void *gshmem_regs_kernels[] = {' + ', '.join('(void *)%s' % n for n in sorted(NAMES)) + '};\n')
        arch = '-gencode=arch=compute_90,code=sm_90'
        obj = os.path.join(tmp, 'regs.o')
        incs = [x for i in a.include for x in ('-I', i)] + ['-D' + d for d in a.defines]
        if a.rdc:
            # Separable compilation: a kernel's registers are known after the device link, which
            # sizes it for the out-of-line functions it calls (nvlink -v).
            r = subprocess.run([a.nvcc, '-c', '-std=c++17', '-rdc=true', arch, '-o', obj] + incs + [src],
                               capture_output=True, text=True)
            if not r.returncode:
                r = subprocess.run([a.nvcc, arch, '-dlink', obj, '-o', os.path.join(tmp, 'dlink.o'), '-Xnvlink', '-v'],
                                   capture_output=True, text=True)
        else:
            r = subprocess.run([a.nvcc, '-c', '-std=c++17', arch, '-Xptxas', '-v', '-o', obj] + incs + [src],
                               capture_output=True, text=True)
    if r.returncode:
        print('check_registers: the kernels do not compile:\n' + r.stderr[-4000:])
        return 1
    regs = parse_registers(r.stdout + r.stderr, rdc=a.rdc)
    expected = NAMES
    missing = sorted(expected - set(regs))
    over = sorted((n, v) for n, v in regs.items() if n in expected and v > BUDGET)
    for n in sorted(regs):
        if n in expected:
            print(f'{n:20s} {regs[n]:4d} registers')
    if missing:
        print('check_registers: no register count for: ' + ', '.join(missing))
    if over:
        print(f'check_registers: over the {BUDGET}-register budget of a 1024-thread block: ' +
              ', '.join(f'{n} ({v})' for n, v in over))
    return 1 if missing or over else 0


if __name__ == '__main__':
    sys.exit(main())
