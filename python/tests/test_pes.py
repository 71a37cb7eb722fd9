"""gshmem on CPU PEs with NumPy arrays: run on every PE of a job,
    oshrun -np 4 python -m pytest python/tests/test_pes.py
Each test checks the data that moved: fresh random payloads (conftest.payload), destinations
poisoned first, every PE's contribution verified."""
import gc
import os

import numpy as np
import pytest

from conftest import payload, poison

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128", "bool"]


@pytest.fixture(autouse=True)
def host_heap(gs):
    if gs.heap_kind() != "host":
        pytest.skip("NumPy tests run on CPU PEs (GPU PEs: test_torch.py)")
    yield
    gs.barrier_all()  # every test ends together, so one PE's next test cannot disturb another's


def test_queries(gs):
    me, n = gs.my_pe(), gs.n_pes()
    want = os.environ.get("GSHMEM_PYTEST_NPES")
    if want:
        assert n == int(want)
    assert 0 <= me < n
    assert gs.team_my_pe(gs.TEAM_WORLD) == me and gs.team_n_pes() == n
    assert gs.TEAM_WORLD.n_pes() == n and gs.Teams.TEAM_WORLD == gs.TEAM_WORLD
    assert gs.device() == -1
    info = gs.info()
    assert info["spec_version"] == (1, 6) and info["heap_kind"] == "host"
    assert os.path.exists(gs.get_library()) and os.path.exists(os.path.join(gs.get_include(), "shmem.h"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_put_ring(gs, seed, dtype):
    me, n = gs.my_pe(), gs.n_pes()
    dest = gs.array((4, 33), dtype)
    poison(dest)
    gs.barrier_all()
    gs.put(dest, payload(seed, "put" + dtype, me, 4 * 33, dtype).reshape(4, 33), (me + 1) % n)
    gs.barrier_all()
    np.testing.assert_array_equal(dest.ravel(), payload(seed, "put" + dtype, (me - 1) % n, 4 * 33, dtype))
    gs.free(dest)


@pytest.mark.parametrize("dtype", ["int8", "float64", "complex64"])
def test_get_ring(gs, seed, dtype):
    me, n = gs.my_pe(), gs.n_pes()
    src = gs.array(1000, dtype)
    src[:] = payload(seed, "get" + dtype, me, 1000, dtype)
    gs.barrier_all()
    out = np.empty(1000, dtype)
    poison(out)
    gs.get(out, src, (me + 1) % n)
    np.testing.assert_array_equal(out, payload(seed, "get" + dtype, (me + 1) % n, 1000, dtype))
    gs.barrier_all()
    gs.free(src)


def test_slices_are_symmetric(gs, seed):
    me, n = gs.my_pe(), gs.n_pes()
    a = gs.array((8, 16), np.int32)
    poison(a)
    gs.barrier_all()
    gs.put(a[3, 4:12], payload(seed, "slice", me, 8, np.int32), (me + 1) % n)  # a row's middle
    gs.put(a[5:7], payload(seed, "rows", me, 32, np.int32).reshape(2, 16), (me + 1) % n)
    gs.barrier_all()
    left = (me - 1) % n
    np.testing.assert_array_equal(a[3, 4:12], payload(seed, "slice", left, 8, np.int32))
    np.testing.assert_array_equal(a[5:7].ravel(), payload(seed, "rows", left, 32, np.int32))
    untouched = np.ones(a.shape, bool)
    untouched[3, 4:12] = untouched[5:7] = False
    assert (a.view(np.uint8).reshape(8, 64)[np.repeat(untouched, 4, axis=1)] == 0xA5).all()
    # get of a slice, and the array exported through DLPack is the same memory
    out = np.zeros(8, np.int32)
    gs.get(out, a[3, 4:12], (me + 1) % n)
    np.testing.assert_array_equal(out, payload(seed, "slice", me, 8, np.int32))
    v = np.from_dlpack(a)
    assert v.__array_interface__["data"][0] == a.__array_interface__["data"][0]
    gs.barrier_all()
    gs.free(a)


def test_put_signal_and_wait(gs, seed):
    me, n = gs.my_pe(), gs.n_pes()
    data = gs.array(4096, np.float64)
    sig = gs.array(2, np.uint64)
    poison(data)
    sig[:] = 0
    gs.barrier_all()
    for it in range(3):
        gs.put_signal(data, payload(seed, f"sig{it}", me, 4096, np.float64), sig[0:1], 1, gs.SIGNAL_ADD, (me + 1) % n)
        assert gs.signal_wait_until(sig[0:1], gs.CMP_GE, it + 1) >= it + 1
        np.testing.assert_array_equal(data, payload(seed, f"sig{it}", (me - 1) % n, 4096, np.float64))
        gs.barrier_all()
    gs.signal_op(sig[1:2], 77, gs.SIGNAL_SET, (me + 1) % n)
    assert gs.signal_wait_until(sig[1:2], "eq", 77) == 77 and gs.signal_fetch(sig[1:2]) == 77
    gs.barrier_all()
    gs.free(sig)
    gs.free(data)


def test_atomics(gs, seed):
    me, n = gs.my_pe(), gs.n_pes()
    c = gs.array(8, np.int64)
    u = gs.array(2, np.uint32)
    f = gs.array(1, np.float64)
    c[:] = 0
    u[:] = 0
    f[:] = 0
    gs.barrier_all()
    got = [gs.atomic_fetch_add(c[0:1], me + 1, 0) for _ in range(5)]
    gs.atomic_add(c[1:2], -3, 0)
    gs.atomic_inc(c[2:3], 0)
    gs.atomic_fetch_inc(c[2:3], 0)
    gs.atomic_or(u[0:1], 1 << me, 0)
    gs.atomic_fetch_xor(u[1:2], 0xF0F0 + me, 0)
    gs.barrier_all()
    assert all(g >= 0 for g in got)
    assert gs.atomic_fetch(c[0:1], 0) == 5 * n * (n + 1) // 2
    assert gs.atomic_fetch(c[1:2], 0) == -3 * n
    assert gs.atomic_fetch(c[2:3], 0) == 2 * n
    assert gs.atomic_fetch(u[0:1], 0) == (1 << n) - 1
    want = 0
    for p in range(n):
        want ^= 0xF0F0 + p
    assert gs.atomic_fetch(u[1:2], 0) == want
    gs.barrier_all()
    # compare-and-swap: exactly one PE wins each round
    wins = sum(gs.atomic_compare_swap(c[3:4], r, r + 1, 0) == r for r in range(3))
    gs.barrier_all()
    total = gs.array(1, np.int64)
    mine = gs.array(1, np.int64)
    mine[0] = wins
    gs.sum_reduce(total, mine)
    assert total[0] == 3 and gs.atomic_fetch(c[3:4], 0) == 3
    value = payload(seed, "amo", me, 1, np.float64)[0]
    gs.atomic_set(f[0:1], value, (me + 1) % n)
    gs.barrier_all()
    assert f[0] == payload(seed, "amo", (me - 1) % n, 1, np.float64)[0]
    old = f[0]
    assert gs.atomic_swap(f[0:1], 2.5, me) == old  # swap returns the old value
    assert f[0] == 2.5
    gs.barrier_all()
    for a in (mine, total, f, u, c):
        gs.free(a)


REDUCE_CASES = [(op, dt) for op in ("sum", "prod", "min", "max") for dt in
                ("int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float32", "float64")] + \
               [(op, dt) for op in ("and", "or", "xor") for dt in ("int8", "int32", "uint16", "uint64")] + \
               [("sum", "complex64"), ("prod", "complex128")]


@pytest.mark.parametrize("op,dtype", REDUCE_CASES)
def test_reductions(gs, seed, op, dtype):
    me, n = gs.my_pe(), gs.n_pes()
    k = 257
    src, dest = gs.array(k, dtype), gs.array(k, dtype)
    name = f"red{op}{dtype}"
    src[:] = payload(seed, name, me, k, dtype)
    if op == "prod":  # small factors so the product is exact and in range
        src[:] = (np.arange(k) % 3 + 1).astype(dtype) * (1 if me % 2 else -1 if np.dtype(dtype).kind in "fic" else 1)
    poison(dest)
    gs.barrier_all()
    getattr(gs, f"{op}_reduce")(dest, src)
    if op == "prod":
        contrib = [(np.arange(k) % 3 + 1).astype(dtype) * (1 if p % 2 else -1 if np.dtype(dtype).kind in "fic" else 1)
                   for p in range(n)]
    else:
        contrib = [payload(seed, name, p, k, dtype) for p in range(n)]
    fn = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
          "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
    want = contrib[0].copy()
    with np.errstate(over="ignore"):
        for c in contrib[1:]:
            want = fn(want, c).astype(dtype)
    np.testing.assert_array_equal(dest, want)
    gs.barrier_all()
    gs.free(dest)
    gs.free(src)


def test_reduce_generic_name(gs, seed):
    me, n = gs.my_pe(), gs.n_pes()
    src, dest = gs.array(10, np.int64), gs.array(10, np.int64)
    src[:] = payload(seed, "generic", me, 10, np.int16)
    gs.reduce(dest, src, "max", team=gs.TEAM_WORLD)
    np.testing.assert_array_equal(dest, np.max([payload(seed, "generic", p, 10, np.int16) for p in range(n)], axis=0))
    gs.barrier_all()
    gs.free(dest)
    gs.free(src)


def test_broadcast_fcollect_collect_alltoall(gs, seed):
    me, n = gs.my_pe(), gs.n_pes()
    k = 100
    src, dest = gs.array(k, np.float32), gs.array(k, np.float32)
    for root in range(n):
        src[:] = payload(seed, f"bc{root}", me, k, np.float32)
        poison(dest)
        gs.broadcast(dest, src, root=root)
        np.testing.assert_array_equal(dest, payload(seed, f"bc{root}", root, k, np.float32))
    gs.free(dest)
    fdest = gs.array((n, k), np.float32)
    poison(fdest)
    gs.fcollect(fdest, src)
    for p in range(n):
        np.testing.assert_array_equal(fdest[p], payload(seed, f"bc{n - 1}", p, k, np.float32))
    # collect: PE p contributes p + 1 elements
    sizes = [p + 1 for p in range(n)]
    cs = gs.array(n, np.int64)
    cd = gs.array(sum(sizes), np.int64)
    cs[: me + 1] = payload(seed, "collect", me, me + 1, np.int64)
    poison(cd)
    gs.collect(cd, cs[: me + 1])
    np.testing.assert_array_equal(cd, np.concatenate([payload(seed, "collect", p, p + 1, np.int64) for p in range(n)]))
    # alltoall: block j of PE p goes to block p of PE j
    a_src, a_dst = gs.array((n, 7), np.uint16), gs.array((n, 7), np.uint16)
    a_src[:] = payload(seed, "a2a", me, n * 7, np.uint16).reshape(n, 7)
    poison(a_dst)
    gs.alltoall(a_dst, a_src)
    for p in range(n):
        np.testing.assert_array_equal(a_dst[p], payload(seed, "a2a", p, n * 7, np.uint16).reshape(n, 7)[me])
    gs.barrier_all()
    for a in (a_dst, a_src, cd, cs, fdest, src):
        gs.free(a)


def test_teams(gs, seed):
    me, n = gs.my_pe(), gs.n_pes()
    evens = gs.team_split_strided(gs.TEAM_WORLD, 0, 2, (n + 1) // 2)
    assert (evens is not None) == (me % 2 == 0)
    src, dest = gs.array(5, np.int32), gs.array(5, np.int32)
    src[:] = payload(seed, "team", me, 5, np.int16)
    if evens is not None:
        assert evens.my_pe() == me // 2 and evens.n_pes() == (n + 1) // 2
        assert evens.translate_pe(evens.my_pe(), gs.TEAM_WORLD) == me
        gs.sum_reduce(dest, src, team=evens)
        want = sum(payload(seed, "team", p, 5, np.int16).astype(np.int32) for p in range(0, n, 2))
        np.testing.assert_array_equal(dest, want)
        gs.sync(evens)
        gs.barrier(evens)
        evens.destroy()
    gs.barrier_all()
    gs.free(dest)
    gs.free(src)


def test_collected_arrays_are_freed_collectively(gs):
    from gshmem import _ext
    me = gs.my_pe()
    gs.barrier_all()
    base = _ext.live_allocations()
    used = gs._core._ext.heap_used()
    for _ in range(50):
        a = gs.array(1 << 18, np.uint8)  # 256 KiB each; collected when rebound
        a[:] = 1
    del a
    gc.collect()
    b = gs.array(1, np.uint8)  # the next collective allocation frees what every PE dropped
    assert _ext.live_allocations() == base + 1
    assert _ext.heap_used() < used + (1 << 20)
    # kept on PE 0 only: not freed until PE 0 drops it too
    keep = gs.array(1000, np.int64)
    keep[:] = me
    if me != 0:
        del keep
    gc.collect()
    gs.free(b)
    assert _ext.live_allocations() == base + 1
    if me == 0:
        assert (keep == 0).all()
        del keep
    gc.collect()
    gs.free(gs.array(1, np.uint8))
    assert _ext.live_allocations() == base


def test_errors_name_call_pe_and_value(gs):
    me, n = gs.my_pe(), gs.n_pes()
    a = gs.array(16, np.int32)
    local = np.zeros(16, np.int32)
    with pytest.raises(ValueError, match=rf"gshmem\.put on pe {me}: pe {n} out of range \[0, {n}\)"):
        gs.put(a, local, n)
    with pytest.raises(ValueError, match=rf"gshmem\.get on pe {me}: pe -1 out of range"):
        gs.get(local, a, -1)
    with pytest.raises(ValueError, match=rf"gshmem\.put on pe {me}: dest is not symmetric: numpy\.ndarray of 16 int32"):
        gs.put(local, a, 0)
    with pytest.raises(TypeError, match=r"dest has dtype int32 and src has dtype float32"):
        gs.put(a, np.zeros(16, np.float32), 0)
    with pytest.raises(ValueError, match=r"dest has 16 elements, 8 expected from src"):
        gs.put(a, np.zeros(8, np.int32), 0)
    with pytest.raises(ValueError, match=r"dest must be contiguous"):
        gs.put(a[::2], np.zeros(8, np.int32), 0)
    with pytest.raises(TypeError, match=r"got the scalar"):
        gs.atomic_add(a[3], 1, 0)
    with pytest.raises(TypeError, match=r"dtype float32 has no xor reduction"):
        f = gs.array(4, np.float32)
        gs.xor_reduce(f, f)
    with pytest.raises(TypeError, match=r"dtype float64 is not supported"):
        gs.atomic_fetch_add(gs.array(1, np.float64), 1.0, 0)
    with pytest.raises(ValueError, match=r"value 1099511627776 does not fit dtype int32"):
        gs.atomic_add(a[0:1], 2**40, 0)
    with pytest.raises(ValueError, match=r"stream= needs a GPU PE"):
        gs.put(a, local, 0, stream=0)
    with pytest.raises(ValueError, match=r"team 99 is not a valid team"):
        gs.sum_reduce(a, a, team=99)
    with pytest.raises(TypeError, match=r"signal must be one uint64 element"):
        gs.signal_wait_until(a[0:1], "ge", 0)
    with pytest.raises(ValueError, match=rf"gshmem\.broadcast on pe {me}: pe {n} out of range"):
        gs.broadcast(a, a, root=n)
    with pytest.raises(ValueError, match=r"not the start of a symmetric allocation"):
        gs.free(a[1:])
    gs.free(a)
    with pytest.raises(ValueError, match=r"not the start of a symmetric allocation"):
        gs.free(a)
    with pytest.raises(ValueError, match=r"cmp must be one of"):
        s = gs.array(1, np.uint64)
        gs.signal_wait_until(s, "almost", 0)
    gs.barrier_all()
