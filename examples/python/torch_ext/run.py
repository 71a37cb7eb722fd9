"""Builds shift_kernel.cu as a PyTorch CUDA extension against the installed gshmem headers
(gshmem.get_include(), no -rdc) and launches it on symmetric tensors:
    oshrun -np 2 python examples/python/torch_ext/run.py"""
import os

import torch
from torch.utils.cpp_extension import load

import gshmem

gshmem.init()
me, n = gshmem.my_pe(), gshmem.n_pes()
assert gshmem.heap_kind() == "device", "run on GPU PEs"
here = os.path.dirname(os.path.abspath(__file__))


def build():
    return load(name="gshmem_shift", sources=[os.path.join(here, "shift_kernel.cu")],
                extra_include_paths=[gshmem.get_include()],
                extra_cuda_cflags=["-gencode=arch=compute_90,code=[sm_90,compute_90]", "-std=c++17"],
                extra_ldflags=[gshmem.get_library()], verbose=False)


if me == 0:  # one PE compiles; the others load the result from torch's extension cache
    ext = build()
gshmem.barrier_all()
if me != 0:
    ext = build()

dev = torch.device("cuda", gshmem.device())
inbox, outbox = gshmem.tensor(1 << 16, torch.float32), gshmem.tensor(1 << 16, torch.float32)
sig = gshmem.tensor(1, torch.uint64)
sig.view(torch.int64).zero_()  # PyTorch has few uint64 kernels: write through an int64 view
inbox.fill_(-1)
gen = torch.Generator(device="cpu").manual_seed(1234 + me)
ok = True
for r in range(1, 4):
    outbox.copy_(torch.rand(1 << 16, generator=gen).to(dev))
    gshmem.barrier_all()  # every inbox is free to be overwritten
    ext.shift(inbox, outbox, sig, r, 2.0)
    torch.cuda.synchronize()
    left = torch.empty_like(outbox)
    gshmem.get(left, outbox, (me - 1) % n)  # what the left PE sent, read back independently
    ok &= bool(torch.equal(inbox, left * 2.0))
    gshmem.barrier_all()
print(f"PE {me} of {n}: extension kernel rounds {'ok' if ok else 'WRONG'}", flush=True)
gshmem.finalize()
raise SystemExit(0 if ok else 1)
