"""Setup, queries, teams, symmetric memory and argument checks (the rest: _ops.py)."""
import atexit
import enum
import os
import sys

import numpy as np

from . import _ext


class Error(RuntimeError):
    """A gshmem routine reported a failure."""


_up = False
_allocs = {}  # base address -> allocation id (collective allocations made through this module)


def _where():
    return f" on pe {_ext.my_pe()}" if _up else ""


def _fail(call, msg, exc=ValueError):
    raise exc(f"gshmem.{call}{_where()}: {msg}")


def _need_init(call):
    if not _up:
        _fail(call, "gshmem is not initialized (call gshmem.init() first)", Error)


# ---- setup -------------------------------------------------------------------------------------

def get_unique_id():
    """Rank 0 of a job started without a launcher: a 128-byte id to give every rank (then init)."""
    return _ext.get_unique_id()


def init(uid=None, rank=None, nranks=None, initializer_method=None, comm=None, store=None, heap=None):
    """Starts this PE.

    Under oshrun or mpirun: ``init()``. Without a launcher, every rank passes the same unique id:
    ``init(uid=..., rank=r, nranks=n)`` (rank 0 made it with ``get_unique_id()``), or lets gshmem
    share it through an mpi4py communicator (``comm=``) or a key-value store with ``set``/``get``
    such as ``torch.distributed.TCPStore`` (``store=``, with ``rank`` and ``nranks``).

    heap: 'device' (GPU memory: PyTorch tensors on the PE's GPU), 'host' (NumPy arrays) or None
    (GSHMEM_HEAP_KIND, default auto: the device heap where this PE has a usable GPU).
    """
    global _up
    if _up:
        _fail("init", "already initialized", Error)
    if heap is not None:
        if heap not in ("auto", "device", "host"):
            _fail("init", f"heap must be 'auto', 'device' or 'host', got {heap!r}")
        os.environ["GSHMEM_HEAP_KIND"] = heap
    if comm is not None:
        rank, nranks = comm.Get_rank(), comm.Get_size()
        uid = comm.bcast(get_unique_id() if rank == 0 else None, root=0)
    elif store is not None:
        _check_rank("init", rank, nranks)
        if rank == 0:
            store.set("gshmem_unique_id", get_unique_id())
        uid = bytes(store.get("gshmem_unique_id"))
    if initializer_method is None:
        initializer_method = "uid" if uid is not None else "launcher"
    if initializer_method == "uid":
        if uid is None:
            _fail("init", "initializer_method='uid' needs uid=")
        _check_rank("init", rank, nranks)
        uid = bytes(uid)
        if len(uid) != 128:
            _fail("init", f"the unique id must be 128 bytes, got {len(uid)}")
        rc = _ext.init_uid(rank, nranks, uid)
        if rc != 0:
            _fail("init", f"unique-id initialization failed for rank {rank} of {nranks} (code {rc})", Error)
    elif initializer_method == "launcher":
        _ext.init()
    else:
        _fail("init", f"initializer_method must be 'uid' or 'launcher', got {initializer_method!r}")
    _up = True
    atexit.register(finalize)  # a program that never calls finalize still ends its PMIx session


def _check_rank(call, rank, nranks):
    if not isinstance(rank, int) or not isinstance(nranks, int) or nranks < 1 or not 0 <= rank < nranks:
        _fail(call, f"rank {rank!r} and nranks {nranks!r} must be ints with 0 <= rank < nranks")


def finalize():
    """Ends this PE's part of the job (collective). Symmetric arrays are invalid afterwards."""
    global _up
    if _up:
        _ext.finalize()
        _up = False
        _allocs.clear()


def is_initialized():
    return _up


def my_pe():
    _need_init("my_pe")
    return _ext.my_pe()


def n_pes():
    _need_init("n_pes")
    return _ext.n_pes()


def heap_kind():
    """'device' (GPU PE: the symmetric heap is GPU memory) or 'host' (CPU PE)."""
    _need_init("heap_kind")
    return "device" if _ext.heap_kind() == _ext.HEAP_KIND_DEVICE else "host"


def device():
    """The CUDA device this PE is bound to, or -1 on a CPU PE."""
    _need_init("device")
    return _ext.device()


def info():
    major, minor, name = _ext.version()
    return {"name": name, "spec_version": (major, minor), "bootstrap": _ext.bootstrap() if _up else None,
            "heap_kind": heap_kind() if _up else None, "library": _ext.library_path()}


# ---- teams -------------------------------------------------------------------------------------

class Teams(enum.IntEnum):
    """Predefined team handles (nvshmem.core.Teams)."""
    TEAM_INVALID = _ext.TEAM_INVALID
    TEAM_WORLD = _ext.TEAM_WORLD
    TEAM_SHARED = _ext.TEAM_SHARED
    TEAM_NODE = _ext.TEAM_NODE


class Team:
    """A team handle; from ``Team.split_strided`` / ``team_split_strided`` or the predefined ones."""
    __slots__ = ("handle",)

    def __init__(self, handle):
        self.handle = int(handle)

    def __int__(self):
        return self.handle

    def __eq__(self, other):
        return isinstance(other, (Team, int)) and int(other) == self.handle

    def __hash__(self):
        return hash(self.handle)

    def __repr__(self):
        return f"gshmem.Team({self.handle})"

    def my_pe(self):
        return team_my_pe(self)

    def n_pes(self):
        return team_n_pes(self)

    def translate_pe(self, pe, dest_team):
        return team_translate_pe(self, pe, dest_team)

    def split_strided(self, start, stride, size):
        return team_split_strided(self, start, stride, size)

    def destroy(self):
        team_destroy(self)


TEAM_WORLD = Team(_ext.TEAM_WORLD)
TEAM_SHARED = Team(_ext.TEAM_SHARED)
TEAM_NODE = Team(_ext.TEAM_NODE)


def _team(call, team):
    """The handle of team (None: the world team), checked to be a team this PE belongs to."""
    _need_init(call)
    if team is None:
        return _ext.TEAM_WORLD
    if not isinstance(team, (Team, int)) or isinstance(team, bool):
        _fail(call, f"team must be a gshmem.Team or a team handle, got {type(team).__name__}", TypeError)
    h = int(team)
    if h < 0 or _ext.team_n_pes(h) <= 0:
        _fail(call, f"team {h} is not a valid team on this PE")
    return h


def team_my_pe(team=None):
    return _ext.team_my_pe(_team("team_my_pe", team))


def team_n_pes(team=None):
    return _ext.team_n_pes(_team("team_n_pes", team))


def team_translate_pe(src_team, pe, dest_team):
    return _ext.team_translate_pe(_team("team_translate_pe", src_team), int(pe), _team("team_translate_pe", dest_team))


def team_split_strided(parent, start, stride, size):
    """Collective over parent. Returns the new Team on its members, None on the other PEs."""
    h = _team("team_split_strided", parent)
    rc, t = _ext.team_split_strided(h, int(start), int(stride), int(size))
    if rc != 0:
        _fail("team_split_strided", f"start {start}, stride {stride}, size {size} do not describe PEs of team {h} "
              f"({_ext.team_n_pes(h)} PEs)")
    return Team(t) if t != _ext.TEAM_INVALID else None


def team_destroy(team):
    h = _team("team_destroy", team)
    if h in (_ext.TEAM_WORLD, _ext.TEAM_SHARED, _ext.TEAM_NODE):
        _fail("team_destroy", f"team {h} is predefined and cannot be destroyed")
    _ext.team_destroy(h)


# ---- symmetric memory --------------------------------------------------------------------------

_DLPACK = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


def _shape(call, shape):
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    try:
        shape = tuple(int(s) for s in shape)
    except TypeError:
        _fail(call, f"shape must be an int or a sequence of ints, got {shape!r}", TypeError)
    if any(s < 0 for s in shape):
        _fail(call, f"shape {shape} has a negative extent")
    return shape


def _alloc(call, shape, itemsize):
    _need_init(call)
    nbytes = int(np.prod(shape, dtype=np.int64)) * itemsize
    addr, aid = _ext.alloc(nbytes)
    if addr == 0:
        _fail(call, f"the symmetric heap cannot hold {nbytes} more bytes "
              f"({_ext.heap_used()} of {_ext.heap_size()} in use; set SHMEM_SYMMETRIC_SIZE)", MemoryError)
    _allocs[addr] = aid
    return addr, aid


def array(shape, dtype=np.float64):
    """A NumPy array on the symmetric heap (CPU PEs). Collective: every PE, same shape and dtype."""
    _need_init("array")
    if _ext.heap_kind() == _ext.HEAP_KIND_DEVICE:
        _fail("array", "this PE's symmetric heap is GPU memory: use gshmem.tensor()", TypeError)
    shape = _shape("array", shape)
    dt = np.dtype(dtype)
    if dt.kind not in _DLPACK or dt.byteorder == ">":
        _fail("array", f"dtype {dt} is not supported (integers, floats, complex, bool)", TypeError)
    addr, aid = _alloc("array", shape, dt.itemsize)
    return _ext.wrap(addr, list(shape), _DLPACK[dt.kind], dt.itemsize * 8, "numpy", 1, 0, aid)


_TORCH_DLPACK = {"bfloat16": (4, 16), "bool": (6, 8)}


def tensor(shape, dtype=None):
    """A PyTorch tensor on the symmetric heap: on this PE's GPU (GPU PEs) or in host memory (CPU
    PEs). Collective: every PE, same shape and dtype (default torch.float32)."""
    import torch
    _need_init("tensor")
    shape = _shape("tensor", shape)
    dtype = torch.float32 if dtype is None else dtype
    if not isinstance(dtype, torch.dtype):
        _fail("tensor", f"dtype must be a torch.dtype, got {dtype!r}", TypeError)
    name = str(dtype).replace("torch.", "")
    if name in _TORCH_DLPACK:
        code, bits = _TORCH_DLPACK[name]
    else:
        try:
            nd = np.dtype(name)
        except TypeError:
            _fail("tensor", f"dtype {dtype} is not supported", TypeError)
        code, bits = _DLPACK[nd.kind], nd.itemsize * 8
    itemsize = torch.empty((), dtype=dtype).element_size()
    addr, aid = _alloc("tensor", shape, itemsize)
    on_gpu = _ext.heap_kind() == _ext.HEAP_KIND_DEVICE
    return _ext.wrap(addr, list(shape), code, bits, "torch", 2 if on_gpu else 1, _ext.device() if on_gpu else 0, aid)


def free(x):
    """Frees a symmetric array or tensor now (collective, same order on every PE). Arrays that are
    not freed are released after Python collects them, at a later collective allocation or free."""
    _need_init("free")
    b = _buf("free", "x", x)
    aid = _allocs.get(b.addr)
    if aid is None:
        _fail("free", f"{b.describe()} is not the start of a symmetric allocation")
    del _allocs[b.addr]
    if not _ext.free_id(aid):
        _fail("free", f"{b.describe()} was freed already")


free_tensor = free
free_array = free


def get_include():
    """The directory of gshmem's C, C++ and CUDA headers (shmem.h, shmemx.h, the device API)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def get_library():
    """The path of the libgshmem this package loaded (link extensions against this file)."""
    return _ext.library_path()


# ---- buffers -----------------------------------------------------------------------------------

class _Buf:
    __slots__ = ("addr", "nbytes", "nelems", "dtype", "cuda", "obj")

    def __init__(self, addr, nbytes, nelems, dtype, cuda, obj):
        self.addr, self.nbytes, self.nelems, self.dtype, self.cuda, self.obj = addr, nbytes, nelems, dtype, cuda, obj

    def describe(self):
        kind = type(self.obj).__module__.split(".")[0] + "." + type(self.obj).__name__
        return f"{kind} of {self.nelems} {self.dtype} at {self.addr:#x} ({self.nbytes} bytes)"


def _buf(call, what, x):
    """Address, size and dtype of an array-like argument (NumPy, PyTorch, DLPack, buffer)."""
    mod = type(x).__module__
    if isinstance(x, np.ndarray):
        if not x.flags.c_contiguous:
            _fail(call, f"{what} must be contiguous (shape {x.shape}, strides {x.strides})")
        return _Buf(x.__array_interface__["data"][0], x.nbytes, x.size, x.dtype.name, False, x)
    if mod.startswith("torch") and hasattr(x, "data_ptr"):
        if not x.is_contiguous():
            _fail(call, f"{what} must be contiguous (shape {tuple(x.shape)}, stride {x.stride()})")
        n = x.numel()
        return _Buf(x.data_ptr(), n * x.element_size(), n, str(x.dtype).replace("torch.", ""),
                    x.device.type == "cuda", x)
    if isinstance(x, (np.generic, int, float, complex)):
        _fail(call, f"{what} must be an array or tensor, got the scalar {x!r} "
              "(an element of a symmetric array is a copy: slice it, a[i:i+1])", TypeError)
    if hasattr(x, "__dlpack__"):
        dev = x.__dlpack_device__()[0] if hasattr(x, "__dlpack_device__") else 1
        if dev == 1:
            return _buf(call, what, np.from_dlpack(x))
        import torch
        return _buf(call, what, torch.from_dlpack(x))
    try:
        return _buf(call, what, np.asarray(memoryview(x)))
    except TypeError:
        _fail(call, f"{what} must be a NumPy array, a PyTorch tensor or a DLPack object, got {type(x).__name__}",
              TypeError)


def _sym(call, what, x):
    """_buf, and the range must be on this PE's symmetric heap."""
    b = _buf(call, what, x)
    me = _ext.my_pe()
    if b.nbytes and not (_ext.accessible(b.addr, me) and _ext.accessible(b.addr + b.nbytes - 1, me)):
        _fail(call, f"{what} is not symmetric: {b.describe()} is not on the symmetric heap "
              "(allocate it with gshmem.array / gshmem.tensor)")
    return b


def _pe(call, pe, team=None):
    if not isinstance(pe, (int, np.integer)) or isinstance(pe, bool):
        _fail(call, f"pe must be an int, got {type(pe).__name__}", TypeError)
    n = _ext.n_pes() if team is None else _ext.team_n_pes(team)
    if not 0 <= int(pe) < n:
        _fail(call, f"pe {pe} out of range [0, {n})")
    return int(pe)


def _same(call, a, b, what_a="dest", what_b="src", scale=1):
    if a.dtype != b.dtype:
        _fail(call, f"{what_a} has dtype {a.dtype} and {what_b} has dtype {b.dtype}", TypeError)
    if a.nelems != b.nelems * scale:
        want = f"{scale} x {b.nelems}" if scale != 1 else f"{b.nelems}"
        _fail(call, f"{what_a} has {a.nelems} elements, {want} expected from {what_b}")


def _stream(call, stream, *bufs):
    """The raw stream handle, or -1 for a blocking host call. On a GPU PE a blocking call first
    waits for PyTorch's work on this device, so tensors written by earlier kernels are complete."""
    if stream is None:
        if any(b.cuda for b in bufs) or (_ext.heap_kind() == _ext.HEAP_KIND_DEVICE and "torch" in sys.modules):
            import torch
            if torch.cuda.is_available():
                torch.cuda.synchronize(_ext.device())
        return -1
    if _ext.heap_kind() != _ext.HEAP_KIND_DEVICE:
        _fail(call, "stream= needs a GPU PE (this PE's heap is host memory)")
    if isinstance(stream, (int, np.integer)) and not isinstance(stream, bool):
        h = int(stream)
    elif hasattr(stream, "cuda_stream"):  # torch.cuda.Stream
        h = int(stream.cuda_stream)
    elif hasattr(stream, "__cuda_stream__"):  # the CUDA stream protocol (cuda.core, cupy)
        h = int(stream.__cuda_stream__()[1])
    else:
        _fail(call, f"stream must be a torch.cuda.Stream, an object with __cuda_stream__ or a raw handle, "
              f"got {type(stream).__name__}", TypeError)
    if h < 0:
        _fail(call, f"stream handle {h} is negative")
    return h
