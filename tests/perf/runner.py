#!/usr/bin/env python3
"""Runs a set of perf suites, optionally side by side with a peer OpenSHMEM built from the same
sources, and writes one results file (CSV), a ratio table and PNG plots.

  tests/perf/runner.py --build build --set cpu --npes 2 --peer oshmem --out docs/perf/cpu
The peer 'oshmem' is Open MPI's OSHMEM (oshc++/oshrun on PATH or in /usr/bin). Results a program
printed before a non-zero exit are kept and the exit is reported (OSHMEM may crash in finalize).
"""
import argparse
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

# (suite, arguments); a suite may appear more than once with different arguments (scopes).
CPU_SUITES = [
    ("put_latency", ["-b", "8", "-e", "1M"]),
    ("get_latency", ["-b", "8", "-e", "1M"]),
    ("put_bw", ["-b", "4K", "-e", "16M", "-n", "20"]),
    ("get_bw", ["-b", "4K", "-e", "16M", "-n", "20"]),
    ("atomic_latency", []),
    ("barrier_latency", []),
    ("reduction_latency", ["-b", "8", "-e", "1M", "-n", "200", "-w", "20"]),
]


# The NVSHMEM-perftest definitions (tests/perf/perftest, docs/perf/definitions.md) with the options
# of NVSHMEM's .args files (without --repetitions, which 3.4.5 does not take): --set gpu.
PERFTEST_SUITES = [
    ("shmem_put_latency", ["-e", "64K", "-t", "1024", "-n", "200", "-w", "20"]),
    ("shmem_get_latency", ["-e", "64K", "-t", "1024", "-n", "200", "-w", "20"]),
    ("shmem_p_latency", ["-t", "512", "-e", "64K", "-n", "50", "-w", "5"]),
    ("shmem_g_latency", ["-t", "512", "-e", "64K", "-n", "200", "-w", "20"]),
    ("shmem_p_ping_pong_latency", ["-t", "512", "-e", "16K", "-n", "500", "-w", "50"]),
    ("shmem_signal_ping_pong_latency", []),
    ("shmem_put_signal_ping_pong_latency", ["-e", "1M", "-n", "500", "-w", "50"]),
    ("shmem_put_ping_pong_latency", []),
] + [("shmem_atomic_latency", ["-a", op]) for op in
     ("inc", "fetch_inc", "set", "add", "fetch_add", "and", "fetch_and", "or", "fetch_or", "xor", "fetch_xor", "swap",
      "compare_swap")] + [
    ("shmem_put_bw", ["-n", "200", "-w", "20", "-c", "4", "-t", "1024", "-e", "32M"]),
    ("shmem_put_bw", ["--bidir", "-n", "200", "-w", "20", "-c", "4", "-t", "1024", "-e", "32M"]),
    ("shmem_put_bw", ["-n", "200", "-w", "20", "-c", "16", "-t", "1024", "-e", "32M"]),
    ("shmem_put_bw", ["--bidir", "-n", "200", "-w", "20", "-c", "16", "-t", "1024", "-e", "32M"]),
    ("shmem_get_bw", ["-n", "200", "-w", "20", "-b", "1024", "-e", "32M", "-c", "4", "-t", "1024"]),
    ("shmem_p_bw", ["-n", "10", "-w", "10", "-t", "1024", "-c", "4", "-b", "1024", "-e", "64K"]),
    ("shmem_g_bw", ["-n", "100", "-w", "10", "-t", "1024", "-c", "8", "-b", "1024", "-e", "64K", "-d", "double"]),
    ("shmem_st_bw", ["-n", "10", "-w", "10", "-t", "1024", "-c", "4", "-b", "8", "-e", "32M"]),
    ("latency", ["-n", "10", "-w", "10", "-b", "1", "-e", "128M", "--dir", "write", "--issue", "host"]),
    ("bw", ["-n", "100", "-w", "10", "-b", "4", "-e", "128M", "--dir", "write", "--issue", "host"]),
    ("barrier_latency", ["-n", "1000", "-w", "10"]),
    ("sync_latency", []),
    ("bcast_latency", ["-n", "100", "-w", "10", "-b", "1", "-e", "4M"]),
    ("fcollect_latency", ["-n", "100", "-w", "10", "-b", "1", "-e", "4M"]),
    ("alltoall_latency", []),
    ("reduction_latency", ["-n", "50", "-w", "10", "-b", "1", "-e", "4M"]),
    ("barrier_all_on_stream", ["-n", "1000", "-w", "10"]),
    ("barrier_on_stream", []),
    ("sync_all_on_stream", ["-n", "128", "-w", "16"]),
    ("sync_on_stream", ["-n", "1000", "-w", "10"]),
    ("broadcast_on_stream", ["-n", "100", "-w", "10", "-b", "1", "-e", "4M"]),
    ("fcollect_on_stream", ["-n", "1000", "-w", "10", "-b", "1", "-e", "4M"]),
    ("alltoall_on_stream", []),
    ("reduction_on_stream", []),
]

# The project's own shapes (gshmem_perf_*: cold strided addresses, one timed thread): --set gpu-own.
GPU_SUITES = [
    ("put_latency", ["-b", "8", "-e", "64K", "-n", "2000"]),
    ("put_latency", ["-b", "1K", "-e", "64K", "-f", "4", "-n", "2000", "-s", "block", "-t", "1024"]),
    ("get_latency", ["-b", "8", "-e", "64K", "-n", "2000"]),
    ("p_latency", []), ("g_latency", []), ("p_ping_pong_latency", []), ("signal_ping_pong_latency", []),
    ("put_signal_ping_pong_latency", ["-b", "8", "-e", "8"]),
    ("atomic_latency", []), ("barrier_latency", []),
    ("put_bw", ["-b", "64K", "-e", "256M", "-f", "4", "-n", "10"]),
    ("get_bw", ["-b", "64K", "-e", "256M", "-f", "4", "-n", "10"]),
    ("host_put_latency", ["-b", "8", "-e", "64K", "-f", "8", "-n", "200", "-w", "20"]),
    ("host_get_latency", ["-b", "8", "-e", "64K", "-f", "8", "-n", "200", "-w", "20"]),
    ("stream_latency", ["-b", "8", "-e", "8", "-n", "500"]),
    ("stream_put_bw", ["-b", "64K", "-e", "256M", "-f", "4", "-n", "10"]),
    ("p_bw", ["-b", "64K", "-e", "64M", "-f", "4", "-n", "10"]),
    ("st_bw", ["-b", "64K", "-e", "64M", "-f", "4", "-n", "10"]),
    ("init_latency", []),
    ("coll_barrier_latency", ["-b", "4", "-e", "4"]),
    ("coll_broadcast_latency", ["-b", "4", "-e", "1M", "-f", "4"]),
    ("coll_fcollect_latency", ["-b", "4", "-e", "1M", "-f", "4"]),
    ("coll_alltoall_latency", ["-b", "4", "-e", "1M", "-f", "4"]),
    ("coll_reduction_latency", ["-b", "4", "-e", "64M", "-f", "4"]),
    ("coll_reducescatter_latency", ["-b", "4", "-e", "16M", "-f", "4"]),
]


def label(r):
    """A row's series name. perftest rows: the program, its table (job) where it prints several, and
    the scope/type column; the project's suites: the suite, plus the scope when not thread."""
    if r.get("program"):
        job = "" if r["job"] == r["program"] else ":" + r["job"]
        ctas = "/c%s" % r["ctas"] if r["program"].endswith("_bw") else ""
        return "%s%s/%s%s%s" % (r["program"], job, r["subjob"], ctas, "/bidir" if r.get("bidir") == "1" else "")
    scope = r.get("scope") or "thread"
    return r["suite"] + ("_" + scope if "latency" in r["suite"] and scope != "thread" else "")


NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "NVSHMEM_DISABLE_NVLS": "1", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1"}


def run_csv(cmd, env=None, timeout=150):
    e = dict(os.environ)
    e.update(env or {})
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=e)
    except subprocess.TimeoutExpired:
        sys.stderr.write("runner: %s did not finish in %d s\n" % (" ".join(cmd), timeout))
        return [], "timeout"
    lines = [l for l in p.stdout.splitlines() if "," in l]
    # A program that prints several tables repeats the CSV header before each: keep the first.
    lines = [l for i, l in enumerate(lines) if i == 0 or l != lines[0]]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines)))) if lines else []
    note = "" if p.returncode == 0 else "exit %d" % p.returncode
    if not rows:
        sys.stderr.write("runner: %s produced no results (%s)\n%s\n" % (" ".join(cmd), note, p.stderr[-2000:]))
    return rows, note


def write_rows(rows, out):
    """OUT/results.csv with every row so far (rewritten after each program, so a run cut short
    keeps what it measured)."""
    path = os.path.join(out, "results.csv")
    with open(path, "w", newline="") as f:
        keys = []
        for r in rows:  # the floors, the project's suites and the perftest programs differ in columns
            keys += [k for k in r if k not in keys]
        w = csv.DictWriter(f, fieldnames=keys, restval="")
        w.writeheader()
        w.writerows(rows)
    return path


def build_peer(src_dir, suites, peer):
    tmp = tempfile.mkdtemp(prefix="gshmem-peer-")
    cxx = shutil.which("oshc++") if peer == "oshmem" else None
    if peer == "oshmem":
        cxx = "/usr/bin/oshc++" if os.path.exists("/usr/bin/oshc++") else cxx
    exes = {}
    for s in sorted({name for name, _ in suites}):
        exe = os.path.join(tmp, "peer_" + s)
        r = subprocess.run([cxx, "-O2", "-std=c++17", "-DGSHMEM_PERF_SUITE=" + s, "-DGSHMEM_PERF_IMPL=" + peer,
                            os.path.join(src_dir, "cpu_perf.cpp"), "-o", exe], capture_output=True, text=True)
        if r.returncode == 0:
            exes[s] = exe
        else:
            sys.stderr.write("runner: cannot build %s for %s:\n%s\n" % (s, peer, r.stderr[-1500:]))
    return exes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--set", choices=["cpu", "gpu", "gpu-own"], default="cpu",
                    help="cpu: CPU suites; gpu: the NVSHMEM-perftest definitions; gpu-own: the project's GPU shapes")
    ap.add_argument("--npes", type=int, default=2)
    ap.add_argument("--peer", choices=["none", "oshmem", "nvshmem"], default="none")
    ap.add_argument("--peer-dir", help="directory of the peer's prebuilt suites (nvshmem: build_nvshmem.sh)")
    ap.add_argument("--out", required=True, help="directory for results.csv and the PNG plots")
    ap.add_argument("--quick", action="store_true", help="tiny sizes and iteration counts (smoke test)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every program this many times, alternating gshmem and the peer (round column)")
    ap.add_argument("--only", default="", help="comma-separated program names: run only these")
    ap.add_argument("--replot", action="store_true", help="only redraw the plots from OUT/results.csv")
    ap.add_argument("--netns", action="store_true",
                    help="cpu set: PEs on two network-namespace nodes, half in each, both launched with mpirun "
                         "(tests/multinode/netns_two_nodes.sh; UCX over TCP across the veth)")
    ap.add_argument("--bind", action="store_true",
                    help="with --netns: every PE bound to one core of this machine, as mpirun --bind-to core "
                         "places PEs on a node (both libraries)")
    ap.add_argument("--no-plots", action="store_true",
                    help="results.csv and the ratio table only (a run whose OUT must stay a few files)")
    a = ap.parse_args()
    if a.replot:
        with open(os.path.join(a.out, "results.csv")) as f:
            return plot(list(csv.DictReader(f)), a.out)
    src_dir = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(a.out, exist_ok=True)
    gpu = a.set != "cpu"
    perftest = a.set == "gpu"
    suites = PERFTEST_SUITES if perftest else GPU_SUITES if gpu else CPU_SUITES
    rows, notes = [], []
    if a.peer == "oshmem":
        peer_exes = build_peer(src_dir, suites, a.peer)
    elif a.peer == "nvshmem":
        pname = (lambda s: s) if perftest else (lambda s: "nvshmem_" + s)
        peer_exes = {s: os.path.join(a.peer_dir, pname(s)) for s, _ in suites
                     if os.path.exists(os.path.join(a.peer_dir or "", pname(s)))}
    else:
        peer_exes = {}
    oshrun = os.path.join(a.build, "runtime", "oshrun")
    if gpu:  # hardware floors first: one process, raw CUDA
        r, note = run_csv([os.path.join(a.build, "tests", "perf", "shmem_floors")])
        rows += r
        if note:
            notes.append("floors: " + note)
    only = set(x for x in a.only.split(",") if x)
    for rnd, (s, args) in [(k, sa) for sa in suites for k in range(1, a.rounds + 1)]:
        if only and s not in only:
            continue
        extra = ["-n", "5", "-w", "1", "-e", "64K"] if a.quick else []
        if perftest:
            exe = os.path.join(a.build, "tests", "perf", "perftest", s)
        else:
            exe = os.path.join(a.build, "tests", "perf", ("gshmem_perf_" if gpu else "shmem_cpu_") + s)
        env = dict(NO_MULTICAST) if gpu else {"GSHMEM_HEAP_KIND": "host"}
        netns = os.path.join(os.path.dirname(src_dir), "multinode", "netns_two_nodes.sh")
        bind = ["--bind"] if a.bind else []
        launch = [netns, "--mpirun", "--per-node", str(a.npes // 2)] + bind if a.netns else [oshrun, "-np", str(a.npes)]
        r, note = run_csv(launch + [exe, "--csv"] + args + extra, env=env)
        rows += [dict(x, round=str(rnd), args=" ".join(args + extra)) for x in r]
        if note:
            notes.append("gshmem %s: %s" % (s, note))
        if s in peer_exes:
            launcher = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(a.npes)]
            penv = dict(NO_MULTICAST)
            if a.peer == "oshmem":
                launcher = ["/usr/bin/oshrun", "--allow-run-as-root", "--oversubscribe", "-np", str(a.npes)]
                if a.netns:  # Open MPI's OSHMEM over UCX (its spml), in the same two namespaces
                    launcher = [netns, "--mpirun", "--per-node", str(a.npes // 2)] + bind
                    # (its MPI part over ob1/tcp: Open MPI 4.1's pml ucx refuses a TCP-only UCX)
                    penv["NETNS_MPIRUN_ARGS"] = "--mca spml ucx --mca pml ob1 --mca btl tcp,self,vader"
            if a.peer == "nvshmem":
                uid_file = os.path.join(tempfile.mkdtemp(prefix="nvshmem-uid-"), "uid")
                penv["GSHMEM_PERF_UID_FILE"] = uid_file
                for k in list(penv):
                    launcher += ["-x", k]
            r, note = run_csv(launcher + [peer_exes[s], "--csv"] + args + extra, env=penv)
            rows += [dict(x, round=str(rnd), args=" ".join(args + extra)) for x in r]
            if note:
                notes.append("%s %s: %s" % (a.peer, s, note))
        write_rows(rows, a.out)
    if not rows:
        print("runner: no results")
        return 1
    path = write_rows(rows, a.out)
    print("wrote %s (%d rows)" % (path, len(rows)))
    # ratio table gshmem / peer for every (suite, size, metric) both measured, per round; a
    # bandwidth row's ratio is inverted so that > 1 always means gshmem is slower
    by = {}
    for r in rows:
        if not r.get("size") or not r.get("metric"):
            continue  # a partial row (a program that stopped mid-line)
        key = (label(r), int(r["size"]), r["metric"])
        by.setdefault(key, {})[(r["impl"], r.get("round", "1"))] = (float(r["value"]), r["unit"])
    if a.peer != "none":
        print("| suite | size | metric | gshmem | %s | time ratio per round | worst |" % a.peer)
        print("|---|---|---|---|---|---|---|")
        for (s, size, m), v in sorted(by.items()):
            rs = sorted({k[1] for k in v if (("gshmem", k[1]) in v and (a.peer, k[1]) in v)})
            if not rs:
                continue
            ratios = []
            for rd in rs:
                g, u = v[("gshmem", rd)]
                p, _ = v[(a.peer, rd)]
                bw = u.lower().startswith("gb") or m in ("BW", "bandwidth")
                ratios.append((p / g if bw else g / p) if g and p else 0)
            g, u = v[("gshmem", rs[0])]
            p, _ = v[(a.peer, rs[0])]
            print("| %s | %d | %s | %.3f %s | %.3f %s | %s | %.2fx |" % (
                s, size, m, g, u, p, u, " ".join("%.2fx" % x for x in ratios), max(ratios)))
    for n in notes:
        print("note:", n)
    return 0 if a.no_plots else plot(rows, a.out)


def plot(rows, out):
    """One PNG per metric: suites swept over sizes only; colour = suite, line style = implementation
    (solid gshmem, dashed peer). Single-size suites are in the table, not the plots."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("runner: matplotlib not installed; no plots")
        return 0
    for metric, unit, fname in (("latency", "us", "latency.png"), ("bandwidth", "GB/s", "bandwidth.png")):
        series = {}
        for r in rows:
            if r["metric"] == metric or (metric == "bandwidth" and r["metric"] == "BW"):
                series.setdefault((label(r), r["impl"]), []).append((int(r["size"]), float(r["value"])))
        series = {k: sorted(v) for k, v in series.items() if len(v) > 1}
        if not series:
            continue
        suites = sorted({k[0] for k in series})
        colours = {s: plt.cm.tab10(i % 10) for i, s in enumerate(suites)}
        fig, ax = plt.subplots(figsize=(8, 5))
        for (suite, impl), pts in sorted(series.items()):
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colours[suite],
                    linestyle="-" if impl == "gshmem" else "--", marker="o" if impl == "gshmem" else "x",
                    label="%s (%s)" % (suite, impl))
        if metric == "latency":
            # Floors on the same axes: one remote load and one remote store round trip (the
            # floors of 8-byte get/g and of a ping-pong), and one block's put + quiet in raw CUDA
            # (the floor of put_latency -s block), as measured by shmem_floors in the same run.
            lines = {"remote_load_volatile_rt": "remote load round trip",
                     "store_ping_pong_rt": "remote store round trip"}
            for r in rows:
                if r["impl"] == "floor" and r["metric"] in lines:
                    v = float(r["value"])
                    ax.axhline(v, color="gray", linestyle=":", linewidth=1)
                    ax.annotate("floor: %s %.2f us" % (lines[r["metric"]], v), xy=(0.99, v),
                                xycoords=("axes fraction", "data"), fontsize=7, color="gray",
                                va="bottom" if r["metric"] == "store_ping_pong_rt" else "top", ha="right")
            block = sorted((int(r["size"]), float(r["value"])) for r in rows
                           if r["impl"] == "floor" and r["metric"] == "block_put_quiet_vmm_src_cold")
            if len(block) > 1:
                ax.plot([b[0] for b in block], [b[1] for b in block], color="gray", linestyle=":", marker="s",
                        markersize=3, label="floor: block put + quiet, raw CUDA")
        if metric == "bandwidth":
            for r in rows:
                if r["impl"] == "floor" and r["metric"] in ("sm_store_bw", "copy_engine_bw"):
                    ax.axhline(float(r["value"]), color="gray", linestyle=":", linewidth=1)
                    left = r["metric"] == "sm_store_bw"
                    ax.annotate("floor: %s %.0f GB/s" % (r["metric"], float(r["value"])),
                                xy=(0.01 if left else 0.99, float(r["value"])), xycoords=("axes fraction", "data"),
                                fontsize=7, color="gray", va="top" if left else "bottom",
                                ha="left" if left else "right")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("%s (%s)" % (metric, unit))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left" if metric == "latency" else "lower right")
        ax.set_title("solid: gshmem, dashed: peer", fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(out, fname), dpi=110)
        plt.close(fig)
        print("wrote", os.path.join(out, fname))
    return 0


if __name__ == "__main__":
    sys.exit(main())
