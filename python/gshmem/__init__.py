"""gshmem from Python: OpenSHMEM symmetric memory, RMA, signals, atomics and team collectives on
NumPy arrays (CPU PEs) and PyTorch tensors (GPU PEs). Names follow nvshmem.core where it has an
equivalent. Reference: docs/python.md.

    import gshmem, numpy as np
    gshmem.init()                          # under oshrun / mpirun
    a = gshmem.array(8, np.int64)          # symmetric: the same array on every PE
    gshmem.put(a, np.arange(8), (gshmem.my_pe() + 1) % gshmem.n_pes())
    gshmem.barrier_all()
"""
from ._core import (  # noqa: F401
    TEAM_NODE, TEAM_SHARED, TEAM_WORLD, Error, Team, Teams, array, device, finalize, free, free_array, free_tensor,
    get_include, get_library, get_unique_id, heap_kind, info, init, is_initialized, my_pe, n_pes, team_destroy,
    team_my_pe, team_n_pes, team_split_strided, team_translate_pe, tensor)
from ._ops import (  # noqa: F401
    REDUCE_OPS, ComparisonType, SignalOp, alltoall, and_reduce, atomic_add, atomic_and, atomic_compare_swap,
    atomic_fetch, atomic_fetch_add, atomic_fetch_and, atomic_fetch_inc, atomic_fetch_or, atomic_fetch_xor,
    atomic_inc, atomic_or, atomic_set, atomic_swap, atomic_xor, barrier, barrier_all, broadcast, collect, fcollect,
    fence, get, max_reduce, min_reduce, or_reduce, prod_reduce, put, put_signal, quiet, reduce, signal_fetch,
    signal_op, signal_wait, signal_wait_until, sum_reduce, sync, sync_all, xor_reduce)

SIGNAL_SET = SignalOp.SIGNAL_SET
SIGNAL_ADD = SignalOp.SIGNAL_ADD
CMP_EQ, CMP_NE, CMP_GT = ComparisonType.CMP_EQ, ComparisonType.CMP_NE, ComparisonType.CMP_GT
CMP_GE, CMP_LT, CMP_LE = ComparisonType.CMP_GE, ComparisonType.CMP_LT, ComparisonType.CMP_LE
