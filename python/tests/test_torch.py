"""gshmem with PyTorch tensors: on GPU PEs the tensors live on each PE's GPU and calls take a
torch stream; on CPU PEs they are CPU tensors on the host heap (the stream tests skip).
    oshrun -np 2 python -m pytest python/tests/test_torch.py"""
import numpy as np
import pytest

from conftest import payload

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def sync_end(gs):
    yield
    if gs.heap_kind() == "device":
        torch.cuda.synchronize()
    gs.barrier_all()


@pytest.fixture
def gpu(gs):
    if gs.heap_kind() != "device":
        pytest.skip("needs GPU PEs")
    return torch.device("cuda", gs.device())


def ref(seed, name, pe, n, dtype):
    """The same fresh payload on every PE, as a tensor on this PE's heap device."""
    if dtype in (torch.float16, torch.bfloat16):  # small integers: exact in 16-bit floats
        t = torch.from_numpy(payload(seed, name, pe, n, np.int8).astype(np.float32) / 8).to(dtype)
    else:
        t = torch.from_numpy(payload(seed, name, pe, n, str(dtype).replace("torch.", "")))
    return t


def dev(gs):
    return torch.device("cuda", gs.device()) if gs.heap_kind() == "device" else torch.device("cpu")


def test_tensor_is_symmetric_and_dlpack(gs):
    t = gs.tensor((3, 5), torch.float32)
    assert t.shape == (3, 5) and t.dtype == torch.float32 and t.device == dev(gs)
    u = torch.from_dlpack(t)
    assert u.data_ptr() == t.data_ptr()
    gs.free(t)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.uint8])
def test_put_get_blocking(gs, seed, dtype):
    me, n = gs.my_pe(), gs.n_pes()
    dest = gs.tensor(4099, dtype)
    dest.fill_(-7 if dtype != torch.uint8 else 0xA5)
    gs.barrier_all()
    gs.put(dest, ref(seed, f"p{dtype}", me, 4099, dtype).to(dev(gs)), (me + 1) % n)
    gs.barrier_all()
    assert torch.equal(dest.cpu(), ref(seed, f"p{dtype}", (me - 1) % n, 4099, dtype))
    out = torch.empty(100, dtype=dtype, device=dev(gs))
    gs.get(out, dest[7:107], (me + 1) % n)
    assert torch.equal(out.cpu(), ref(seed, f"p{dtype}", me, 4099, dtype)[7:107])
    gs.barrier_all()
    gs.free(dest)


def test_stream_ordered_ring(gs, seed, gpu):
    me, n = gs.my_pe(), gs.n_pes()
    s = torch.cuda.Stream(device=gpu)
    data, sig = gs.tensor(1 << 18, torch.float32), gs.tensor(1, torch.uint64)
    src = torch.empty(1 << 18, device=gpu)
    with torch.cuda.stream(s):
        data.fill_(-1)
        sig.view(torch.int64).zero_()  # PyTorch has few uint64 kernels: write through an int64 view
        gs.barrier_all(stream=s)
        for r in range(1, 4):
            src.copy_(ref(seed, f"ring{r}", me, 1 << 18, torch.float32).to(gpu, non_blocking=False))
            gs.put_signal(data, src, sig, r, gs.SIGNAL_SET, (me + 1) % n, stream=s)
            gs.signal_wait_until(sig, gs.CMP_GE, r, stream=s)
            got = data.clone()
            gs.barrier_all(stream=s)  # nobody overwrites data before its reader cloned it
            s.synchronize()
            assert torch.equal(got.cpu(), ref(seed, f"ring{r}", (me - 1) % n, 1 << 18, torch.float32))
    # put/get on the stream
    out = torch.empty(1000, device=gpu)
    gs.put(data[:1000], src[:1000], (me + 1) % n, stream=s)
    gs.quiet(stream=s)
    gs.barrier_all(stream=s)
    gs.get(out, data[:1000], me, stream=s)
    s.synchronize()
    assert torch.equal(out.cpu(), ref(seed, "ring3", (me - 1) % n, 1 << 18, torch.float32)[:1000])
    gs.free(sig)
    gs.free(data)


RED = [(op, dt) for op in ("sum", "min", "max") for dt in (torch.float32, torch.float16, torch.bfloat16, torch.int32,
                                                           torch.int64, torch.float64)] + \
      [("prod", torch.float16), ("prod", torch.bfloat16), ("xor", torch.int32), ("and", torch.uint8)]


@pytest.mark.parametrize("on_stream", [True, False])
@pytest.mark.parametrize("op,dtype", RED)
def test_reductions(gs, seed, op, dtype, on_stream):
    if on_stream and gs.heap_kind() != "device":
        pytest.skip("streams need GPU PEs")
    if gs.heap_kind() != "device" and dtype in (torch.float16, torch.bfloat16):
        pytest.skip("half and bfloat16 reductions run on GPU memory")
    me, n = gs.my_pe(), gs.n_pes()
    k = 3001
    src, dest = gs.tensor(k, dtype), gs.tensor(k, dtype)
    name = f"r{op}{dtype}"
    if op == "prod":
        vals = [torch.full((k,), 1.0 + 0.5 * (p % 2), dtype=dtype) for p in range(n)]
    else:
        vals = [ref(seed, name, p, k, dtype) for p in range(n)]
    src.copy_(vals[me].to(src.device))
    dest.fill_(0)
    stream = torch.cuda.current_stream() if on_stream else None
    getattr(gs, f"{op}_reduce")(dest, src, stream=stream)
    if stream is not None:
        stream.synchronize()
    fn = {"sum": torch.add, "prod": torch.mul, "min": torch.minimum, "max": torch.maximum,
          "xor": torch.bitwise_xor, "and": torch.bitwise_and}[op]
    want = vals[0]
    for v in vals[1:]:
        want = fn(want, v)
    assert torch.equal(dest.cpu(), want), (dest.cpu()[:8], want[:8])
    gs.barrier_all()
    gs.free(dest)
    gs.free(src)


@pytest.mark.parametrize("on_stream", [True, False])
def test_collectives(gs, seed, on_stream):
    if on_stream and gs.heap_kind() != "device":
        pytest.skip("streams need GPU PEs")
    me, n = gs.my_pe(), gs.n_pes()
    stream = torch.cuda.current_stream() if on_stream else None
    k = 513
    src, dest = gs.tensor(k, torch.bfloat16), gs.tensor(k, torch.bfloat16)
    src.copy_(ref(seed, "bc", me, k, torch.bfloat16).to(src.device))
    gs.broadcast(dest, src, root=n - 1, stream=stream)
    f = gs.tensor((n, k), torch.bfloat16)
    gs.fcollect(f, src, stream=stream)
    a_src, a_dst = gs.tensor((n, 9), torch.int32), gs.tensor((n, 9), torch.int32)
    a_src.copy_(ref(seed, "a2a", me, n * 9, torch.int32).reshape(n, 9).to(src.device))
    gs.alltoall(a_dst, a_src, stream=stream)
    if stream is not None:
        stream.synchronize()
    assert torch.equal(dest.cpu(), ref(seed, "bc", n - 1, k, torch.bfloat16))
    for p in range(n):
        assert torch.equal(f[p].cpu(), ref(seed, "bc", p, k, torch.bfloat16))
        assert torch.equal(a_dst[p].cpu(), ref(seed, "a2a", p, n * 9, torch.int32).reshape(n, 9)[me])
    gs.barrier_all()
    for t in (a_dst, a_src, f, dest, src):
        gs.free(t)


def test_atomics_on_tensors(gs):
    me, n = gs.my_pe(), gs.n_pes()
    c = gs.tensor(2, torch.int64)
    c.zero_()
    gs.barrier_all()
    for _ in range(10):
        gs.atomic_fetch_add(c[0:1], me + 1, 0)
    gs.barrier_all()
    assert gs.atomic_fetch(c[0:1], 0) == 10 * n * (n + 1) // 2
    gs.barrier_all()
    gs.free(c)


def test_errors(gs):
    me = gs.my_pe()
    t = gs.tensor(8, torch.float32)
    plain = torch.zeros(8, device=dev(gs))
    with pytest.raises(ValueError, match=rf"gshmem\.put on pe {me}: dest is not symmetric: torch\.Tensor of 8 float32"):
        gs.put(plain, t, 0)
    with pytest.raises(TypeError, match=r"dtype float32 has no xor reduction"):
        gs.xor_reduce(t, t)
    with pytest.raises(TypeError, match=r"dest has dtype float32 and src has dtype float16"):
        gs.put(t, torch.zeros(8, dtype=torch.float16, device=dev(gs)), 0)
    if gs.heap_kind() == "device":
        with pytest.raises(TypeError, match=r"stream must be a torch.cuda.Stream"):
            gs.put(t, plain, 0, stream="default")
        with pytest.raises(ValueError, match=r"on a stream cmp must be 'eq', 'ge' or 'gt'"):
            s = gs.tensor(1, torch.uint64)
            gs.signal_wait_until(s, "lt", 1, stream=torch.cuda.current_stream())
    gs.barrier_all()
    gs.free(t)
