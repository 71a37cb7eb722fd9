"""A ring on symmetric memory from Python: every PE puts its block into the next PE's array with a
signal, waits for its left neighbour's, checks it, and the PEs sum-reduce their ranks.

    oshrun -np 4 python examples/python/ring.py      # CPU PEs: NumPy arrays
    (on GPU PEs the same program uses PyTorch tensors on each PE's GPU)
"""
import numpy as np

import gshmem

gshmem.init()
me, n = gshmem.my_pe(), gshmem.n_pes()
right, left = (me + 1) % n, (me - 1) % n
if gshmem.heap_kind() == "device":
    import torch
    dev = torch.device("cuda", gshmem.device())
    data, sig = gshmem.tensor(1 << 20, torch.float32), gshmem.tensor(1, torch.uint64)
    ranks, total = gshmem.tensor(1, torch.int64), gshmem.tensor(1, torch.int64)
    block = torch.full((1 << 20,), float(me), device=dev)
    sig.view(torch.int64).zero_()  # PyTorch has few uint64 kernels: write through an int64 view
    ranks.fill_(me)
    stream = torch.cuda.current_stream()
else:
    data, sig = gshmem.array(1 << 20, np.float32), gshmem.array(1, np.uint64)
    ranks, total = gshmem.array(1, np.int64), gshmem.array(1, np.int64)
    block = np.full(1 << 20, me, np.float32)
    sig[:] = 0
    ranks[:] = me
    stream = None
gshmem.barrier_all(stream=stream)
gshmem.put_signal(data, block, sig, 1, gshmem.SIGNAL_SET, right, stream=stream)
gshmem.signal_wait_until(sig, gshmem.CMP_EQ, 1, stream=stream)
gshmem.sum_reduce(total, ranks, stream=stream)
if stream is not None:
    stream.synchronize()
ok = bool((data == left).all()) and int(total[0]) == n * (n - 1) // 2
print(f"PE {me} of {n}: received PE {left}'s block, sum of ranks {int(total[0])}: {'ok' if ok else 'WRONG'}",
      flush=True)
gshmem.barrier_all()
gshmem.finalize()
raise SystemExit(0 if ok else 1)
