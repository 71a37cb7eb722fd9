"""gshmem.init without a launcher: N plain Python processes share a unique id (through a file, or
through a key-value store with set/get as torch.distributed.TCPStore has) and run a put ring.
Run directly: python -m pytest python/tests/test_uid.py (not under oshrun)."""
import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(r"""
    import os, sys, time, numpy as np, gshmem
    rank, nranks, how, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]

    class FileStore:  # set/get like torch.distributed.TCPStore, over a directory
        def set(self, key, value):
            tmp = os.path.join(path, key + '.tmp')
            with open(tmp, 'wb') as f:
                f.write(value)
            os.rename(tmp, os.path.join(path, key))
        def get(self, key):
            p = os.path.join(path, key)
            while not os.path.exists(p):
                time.sleep(0.01)
            return open(p, 'rb').read()

    if how == 'store':
        gshmem.init(store=FileStore(), rank=rank, nranks=nranks)
    else:
        store = FileStore()
        if rank == 0:
            store.set('uid', gshmem.get_unique_id())
        gshmem.init(uid=store.get('uid'), rank=rank, nranks=nranks)
    me, n = gshmem.my_pe(), gshmem.n_pes()
    assert (me, n) == (rank, nranks), (me, n, rank, nranks)
    assert gshmem.info()['bootstrap'] == 'uid'
    a = gshmem.array(1024, np.int64)
    a[:] = -1
    gshmem.barrier_all()
    rng = np.random.default_rng([int(sys.argv[5]), me])
    gshmem.put(a, rng.integers(0, 1 << 60, 1024), (me + 1) % n)
    gshmem.barrier_all()
    want = np.random.default_rng([int(sys.argv[5]), (me - 1) % n]).integers(0, 1 << 60, 1024)
    assert (a == want).all()
    gshmem.finalize()
    print('rank', rank, 'ok')
""")


@pytest.mark.parametrize("how", ["uid", "store"])
@pytest.mark.parametrize("nranks", [2, 3])
def test_init_without_launcher(tmp_path, how, nranks):
    if any(k in os.environ for k in ("GSHMEM_BOOTSTRAP_RANK", "PMIX_RANK")):
        pytest.skip("starts its own processes: run without a launcher")
    env = dict(os.environ, GSHMEM_HEAP_KIND=os.environ.get("GSHMEM_HEAP_KIND", "host"))
    seed = str(int.from_bytes(os.urandom(6), "little"))
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(r), str(nranks), how, str(tmp_path), seed],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env) for r in range(nranks)]
    outs = []
    for p in procs:
        try:
            out, _ = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            pytest.fail("a rank did not finish in 60 s")
        outs.append(out.decode())
    for r, (p, out) in enumerate(zip(procs, outs)):
        assert p.returncode == 0 and f"rank {r} ok" in out, f"rank {r} exit {p.returncode}:\n{out}"
