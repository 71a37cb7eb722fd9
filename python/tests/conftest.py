"""Shared helpers for the gshmem Python tests.

test_pes.py and test_torch.py run on every PE of a launched job (oshrun / mpirun -np N python -m
pytest ...): every PE runs the same tests in the same order, so collective calls line up. Payloads
are fresh each run: PE 0 draws a seed and broadcasts it, and each PE derives every PE's data from
(seed, test, pe), so it can check what any other PE sent.
"""
import secrets
import zlib

import numpy as np
import pytest


@pytest.fixture(scope="session")
def gs():
    """The initialized package (init once per process; finalize at exit)."""
    import gshmem
    if not gshmem.is_initialized():
        gshmem.init()
    yield gshmem


@pytest.fixture(scope="session")
def seed(gs):
    """A seed drawn by PE 0 for this run, the same on every PE."""
    me = gs.my_pe()
    value = secrets.randbits(62) if me == 0 else -1
    if gs.heap_kind() == "device":
        import torch
        src, out = gs.tensor(1, torch.int64), gs.tensor(1, torch.int64)
        src.fill_(value)
    else:
        src, out = gs.array(1, np.int64), gs.array(1, np.int64)
        src[0] = value
    gs.broadcast(out, src, root=0)
    v = int(out[0])
    gs.free(out)
    gs.free(src)
    assert v >= 0
    return v


def rng(seed, name, pe):
    return np.random.default_rng([seed, zlib.crc32(name.encode()), pe])


def payload(seed, name, pe, n, dtype):
    """Random values of dtype, exact in every reduction the tests run (small integers for floats)."""
    r = rng(seed, name, pe)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return r.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return r.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    if dt.kind == "c":
        return (r.integers(-50, 50, n) + 1j * r.integers(-50, 50, n)).astype(dt)
    return r.integers(-1000, 1000, n).astype(dt)


def poison(a):
    """Fills a local numpy array with a pattern no payload produces by accident."""
    a.view(np.uint8)[...] = 0xA5
