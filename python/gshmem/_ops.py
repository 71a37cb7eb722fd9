"""RMA, signals, atomics, ordering and team collectives on symmetric arrays and tensors."""
import numpy as np

from . import _ext
from ._core import Error, _buf, _fail, _need_init, _pe, _same, _stream, _sym, _team

# ---- RMA ---------------------------------------------------------------------------------------


def put(dest, src, pe, stream=None):
    """Copies src (any local array) into dest (symmetric) on pe. Blocking on the host; with a
    stream, ordered on it (GPU PEs)."""
    _need_init("put")
    d, s = _sym("put", "dest", dest), _buf("put", "src", src)
    _same("put", d, s)
    pe = _pe("put", pe)
    _ext.putmem(d.addr, s.addr, s.nbytes, pe, _stream("put", stream, d, s))


def get(dest, src, pe, stream=None):
    """Copies src (symmetric) on pe into dest (any local array)."""
    _need_init("get")
    d, s = _buf("get", "dest", dest), _sym("get", "src", src)
    _same("get", d, s)
    pe = _pe("get", pe)
    _ext.getmem(d.addr, s.addr, s.nbytes, pe, _stream("get", stream, d, s))


class SignalOp:
    SIGNAL_SET = _ext.SIGNAL_SET
    SIGNAL_ADD = _ext.SIGNAL_ADD


class ComparisonType:
    CMP_EQ = _ext.CMP_EQ
    CMP_NE = _ext.CMP_NE
    CMP_GT = _ext.CMP_GT
    CMP_GE = _ext.CMP_GE
    CMP_LT = _ext.CMP_LT
    CMP_LE = _ext.CMP_LE


_SIG_OPS = {"set": _ext.SIGNAL_SET, "add": _ext.SIGNAL_ADD}
_CMPS = {"eq": _ext.CMP_EQ, "ne": _ext.CMP_NE, "gt": _ext.CMP_GT, "ge": _ext.CMP_GE, "lt": _ext.CMP_LT,
         "le": _ext.CMP_LE}


def _signal(call, signal):
    b = _sym(call, "signal", signal)
    if b.dtype != "uint64" or b.nelems != 1:
        _fail(call, f"signal must be one uint64 element of a symmetric array (s[i:i+1]), got {b.describe()}",
              TypeError)
    return b


def _u64(call, what, v):
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not 0 <= int(v) < 2**64:
        _fail(call, f"{what} must be an int in [0, 2**64), got {v!r}")
    return int(v)


def _choice(call, what, v, table):
    if isinstance(v, str) and v.lower() in table:
        return table[v.lower()]
    if isinstance(v, (int, np.integer)) and int(v) in table.values():
        return int(v)
    _fail(call, f"{what} must be one of {sorted(table)} (or the constant), got {v!r}")


def put_signal(dest, src, signal, signal_value, signal_op, pe, stream=None):
    """put, then updates signal on pe (SIGNAL_SET or SIGNAL_ADD) after the data is delivered."""
    call = "put_signal"
    _need_init(call)
    d, s, g = _sym(call, "dest", dest), _buf(call, "src", src), _signal(call, signal)
    _same(call, d, s)
    op = _choice(call, "signal_op", signal_op, _SIG_OPS)
    _ext.putmem_signal(d.addr, s.addr, s.nbytes, g.addr, _u64(call, "signal_value", signal_value), op,
                       _pe(call, pe), _stream(call, stream, d, s))


def signal_op(signal, signal_value, signal_op, pe, stream=None):
    """Updates signal on pe (SIGNAL_SET or SIGNAL_ADD) without data: an atomic set / add."""
    call = "signal_op"
    _need_init(call)
    g = _signal(call, signal)
    op = _choice(call, "signal_op", signal_op, _SIG_OPS)
    v, pe = _u64(call, "signal_value", signal_value), _pe(call, pe)
    if stream is not None:  # a zero-byte put-with-signal on the stream
        _ext.putmem_signal(g.addr, g.addr, 0, g.addr, v, op, pe, _stream(call, stream, g))
        return
    _stream(call, None, g)
    _ext.atomic("set" if op == _ext.SIGNAL_SET else "add", "uint64", g.addr, v, 0, pe)


def signal_fetch(signal):
    _need_init("signal_fetch")
    return _ext.signal_fetch(_signal("signal_fetch", signal).addr)


def signal_wait_until(signal, cmp, value, stream=None):
    """Waits until this PE's signal compares to value; returns the signal's value (None with a
    stream: the wait is enqueued; EQ, GE and GT only)."""
    call = "signal_wait_until"
    _need_init(call)
    g = _signal(call, signal)
    c = _choice(call, "cmp", cmp, _CMPS)
    st = _stream(call, stream, g)
    if st >= 0 and c not in (_ext.CMP_EQ, _ext.CMP_GE, _ext.CMP_GT):
        _fail(call, "on a stream cmp must be 'eq', 'ge' or 'gt'")
    r = _ext.signal_wait_until(g.addr, c, _u64(call, "value", value), st)
    return None if st >= 0 else r


signal_wait = signal_wait_until

# ---- atomics: dest is one element of a symmetric array (a[i:i+1]) -------------------------------

_AMO_STD = ("int32", "int64", "uint32", "uint64")
_AMO_EXT = _AMO_STD + ("float32", "float64")


def _amo(call, op, dest, value, cond, pe, types):
    _need_init(call)
    d = _sym(call, "dest", dest)
    if d.nelems != 1:
        _fail(call, f"dest must be one element of a symmetric array (a[i:i+1]), got {d.describe()}")
    if d.dtype not in types:
        _fail(call, f"dtype {d.dtype} is not supported (one of {', '.join(types)})", TypeError)
    pe = _pe(call, pe)
    _stream(call, None, d)
    dt = np.dtype(d.dtype)
    ut = np.dtype(f"uint{dt.itemsize * 8}")

    def bits(v, what):
        try:
            a = np.array(v, dtype=dt)
        except (OverflowError, ValueError, TypeError):
            _fail(call, f"{what} {v!r} does not fit dtype {dt}")
        if dt.kind in "iu" and a.item() != v:
            _fail(call, f"{what} {v!r} does not fit dtype {dt}")
        return int(a.view(ut))

    r = _ext.atomic(op, d.dtype, d.addr, bits(value, "value"), bits(cond, "cond"), pe)
    return np.array(r, dtype=ut).view(dt).item()


def atomic_fetch(src, pe):
    return _amo("atomic_fetch", "fetch", src, 0, 0, pe, _AMO_EXT)


def atomic_compare_swap(dest, cond, value, pe):
    return _amo("atomic_compare_swap", "cswap", dest, value, cond, pe, _AMO_STD)


def _make_amo(name, op, types, fetching, takes_value):
    """The shmem_TYPE_atomic_<name> routine as a Python function of (dest, [value,] pe)."""
    call = f"atomic_{name}"

    def with_value(dest, value, pe):
        r = _amo(call, op, dest, value, 0, pe, types)
        return r if fetching else None

    def without_value(dest, pe):
        return with_value(dest, 0, pe)

    f = with_value if takes_value else without_value
    f.__name__ = call
    f.__doc__ = f"shmem_TYPE_atomic_{name} on one element of a symmetric array (dest = a[i:i+1])."
    return f


atomic_set = _make_amo("set", "set", _AMO_EXT, False, True)
atomic_swap = _make_amo("swap", "swap", _AMO_EXT, True, True)
atomic_fetch_inc = _make_amo("fetch_inc", "finc", _AMO_STD, True, False)
atomic_inc = _make_amo("inc", "inc", _AMO_STD, False, False)
atomic_fetch_add = _make_amo("fetch_add", "fadd", _AMO_STD, True, True)
atomic_add = _make_amo("add", "add", _AMO_STD, False, True)
atomic_fetch_and = _make_amo("fetch_and", "fand", _AMO_STD, True, True)
atomic_and = _make_amo("and", "and", _AMO_STD, False, True)
atomic_fetch_or = _make_amo("fetch_or", "for", _AMO_STD, True, True)
atomic_or = _make_amo("or", "or", _AMO_STD, False, True)
atomic_fetch_xor = _make_amo("fetch_xor", "fxor", _AMO_STD, True, True)
atomic_xor = _make_amo("xor", "xor", _AMO_STD, False, True)


# ---- ordering and synchronisation ---------------------------------------------------------------

def fence():
    _need_init("fence")
    _ext.fence()


def quiet(stream=None):
    _need_init("quiet")
    _ext.quiet(_stream("quiet", stream))


def barrier_all(stream=None):
    _need_init("barrier_all")
    _ext.barrier_all(_stream("barrier_all", stream))


def sync_all(stream=None):
    _need_init("sync_all")
    _ext.team_sync(_ext.TEAM_WORLD, _stream("sync_all", stream))


def sync(team=None, stream=None):
    """Team synchronisation without completing outstanding puts (shmem_team_sync)."""
    h = _team("sync", team)
    if _ext.team_sync(h, _stream("sync", stream)) != 0:
        _fail("sync", f"shmem_team_sync failed on team {h}", Error)


def barrier(team=None, stream=None):
    """quiet, then sync over team (nvshmem_barrier)."""
    h = _team("barrier", team)
    st = _stream("barrier", stream)
    _ext.quiet(st)
    if _ext.team_sync(h, st) != 0:
        _fail("barrier", f"shmem_team_sync failed on team {h}", Error)


# ---- collectives: dest and src symmetric, the world team unless team= -------------------------

# dtype -> OpenSHMEM reduction type name
_RED_TYPES = {"int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
              "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "float32": "float", "float64": "double",
              "complex64": "complexf", "complex128": "complexd", "float16": "half", "bfloat16": "bfloat16"}
REDUCE_OPS = ("sum", "prod", "min", "max", "and", "or", "xor")


def _coll_bufs(call, dest, src, team, stream):
    h = _team(call, team)
    d, s = _sym(call, "dest", dest), _sym(call, "src", src)
    return h, d, s, _stream(call, stream, d, s)


def _rc(call, rc, h):
    if rc != 0:
        _fail(call, f"the collective on team {h} returned {rc}", Error)


def reduce(dest, src, op, team=None, stream=None):
    """dest[i] = op over the team's PEs of src[i]; op one of REDUCE_OPS (nvshmem.core.reduce)."""
    call = f"{op}_reduce" if op in REDUCE_OPS else "reduce"
    if op not in REDUCE_OPS:
        _fail(call, f"op must be one of {', '.join(REDUCE_OPS)}, got {op!r}")
    h, d, s, st = _coll_bufs(call, dest, src, team, stream)
    _same(call, d, s)
    t = _RED_TYPES.get(s.dtype)
    gpu = _ext.heap_kind() == _ext.HEAP_KIND_DEVICE
    # GPU PEs: half and bfloat16 exist on a stream only; without one they run on the current
    # PyTorch stream and are waited for
    names = _ext.reduce_names(st >= 0 or gpu, not gpu)
    if t is None or f"{t}_{op}" not in names:
        ok = sorted(k for k, v in _RED_TYPES.items() if f"{v}_{op}" in names)
        where = " on a stream" if st >= 0 else " on this PE's heap"
        _fail(call, f"dtype {s.dtype} has no {op} reduction{where} (supported: {', '.join(ok)})", TypeError)
    if st < 0 and gpu and t in ("half", "bfloat16"):
        import torch
        cur = torch.cuda.current_stream()
        _rc(call, _ext.reduce(h, t, op, d.addr, s.addr, s.nelems, int(cur.cuda_stream)), h)
        cur.synchronize()
        return
    _rc(call, _ext.reduce(h, t, op, d.addr, s.addr, s.nelems, st), h)


def _make_reduce(op):
    def f(dest, src, team=None, stream=None):
        reduce(dest, src, op, team=team, stream=stream)
    f.__name__ = f"{op}_reduce"
    f.__doc__ = f"dest[i] = {op} over the team's PEs of src[i] (shmem_TYPE_{op}_reduce)."
    return f


sum_reduce, prod_reduce, min_reduce, max_reduce, and_reduce, or_reduce, xor_reduce = (
    _make_reduce(op) for op in REDUCE_OPS)


def broadcast(dest, src, root=0, team=None, stream=None):
    """dest on every PE of the team = src of the team's PE root."""
    h, d, s, st = _coll_bufs("broadcast", dest, src, team, stream)
    _same("broadcast", d, s)
    root = _pe("broadcast", root, h)
    _rc("broadcast", _ext.broadcastmem(h, d.addr, s.addr, s.nbytes, root, st), h)


def fcollect(dest, src, team=None, stream=None):
    """dest = the concatenation of every team PE's src (all the same size), in team PE order."""
    h, d, s, st = _coll_bufs("fcollect", dest, src, team, stream)
    _same("fcollect", d, s, scale=_ext.team_n_pes(h))
    _rc("fcollect", _ext.fcollectmem(h, d.addr, s.addr, s.nbytes, st), h)


def collect(dest, src, team=None, stream=None):
    """dest = the concatenation of every team PE's src (sizes may differ), in team PE order; dest
    must hold their sum (checked for host calls)."""
    h, d, s, st = _coll_bufs("collect", dest, src, team, stream)
    if d.dtype != s.dtype:
        _fail("collect", f"dest has dtype {d.dtype} and src has dtype {s.dtype}", TypeError)
    if st < 0:
        total = _team_total(h, s.nelems)
        if d.nelems < total:
            _fail("collect", f"dest has {d.nelems} elements; the team's sources add up to {total}")
    _rc("collect", _ext.collectmem(h, d.addr, s.addr, s.nbytes, st), h)


def _team_total(h, n):
    total = _ext.team_sum(h, n)
    if total < 0:
        _fail("collect", f"the reduction of the sizes on team {h} failed", Error)
    return total


def alltoall(dest, src, team=None, stream=None):
    """Block j of src (src.size / n_pes elements) goes to block me of dest on team PE j."""
    h, d, s, st = _coll_bufs("alltoall", dest, src, team, stream)
    _same("alltoall", d, s)
    n = _ext.team_n_pes(h)
    if s.nelems % n:
        _fail("alltoall", f"src has {s.nelems} elements, not a multiple of the team's {n} PEs")
    _rc("alltoall", _ext.alltoallmem(h, d.addr, s.addr, s.nbytes // n, st), h)
