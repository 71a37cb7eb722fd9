#!/usr/bin/env python3
"""Runs NVSHMEM's own perftest programs, built unchanged against gshmem and against NVSHMEM
(tests/perf/nvshmem_perftest_build.sh), alternately on one host, and writes every row and the
ratio table (docs/perf/nvshmem-perftest.md says how the tables of record were made).

  tests/perf/nvshmem_perftest.py --src NV/perftest --gshmem BIN_G --nvshmem BIN_N \
      --np 2,4 --rounds 2 --out OUT

Each program runs with every line of its .args file (NVSHMEM's perftest runner does the same;
a program without one runs with no options), under mpirun with NVSHMEM's unique-id bootstrap
(NVSHMEMTEST_USE_UID_BOOTSTRAP=1, the same init path for both libraries) and
NVSHMEM_MACHINE_READABLE_OUTPUT=1, whose "&&&& PERF" lines are the rows. Point-to-point programs
run at 2 PEs only, as NVSHMEM's runner runs them. Per round: gshmem, then NVSHMEM. A row's
ratio is gshmem's time over NVSHMEM's (a bandwidth row inverted), so > 1 means gshmem is slower.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import time

NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "NVSHMEM_DISABLE_NVLS": "1", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1"}
# Job and subjob names may hold spaces (stream_latency's "without _on_stream").
PERF = re.compile(r"^&&&& PERF (.+?)___(.+?)___size__(\d+)___(\S+) ([-+0-9.eE]+|nan|inf) ([+-])(\S*)")
LIBS = ("gshmem", "nvshmem")


def programs(src, built):
    """(name, kind, [args lines]) for every program built for both libraries, pt-to-pt first."""
    out = []
    for kind in ("device/pt-to-pt", "device/coll", "host/pt-to-pt", "host/coll", "host/init"):
        d = os.path.join(src, kind)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            name, ext = os.path.splitext(f)
            if ext not in (".cu", ".cpp") or name not in built:
                continue
            lines = []
            ap = os.path.join(d, name + ".args")
            if os.path.exists(ap):
                with open(ap) as fh:
                    lines = [l.strip() for l in fh if l.strip()]
            # A line with no option is the default run: the programs' getopt ignores other words
            # (shmem_atomic_ping_pong_latency.args lists op names that way); run it once.
            opts = [l for l in lines if any(t.startswith("-") for t in l.split())]
            if len(opts) < len(lines) or not lines:
                opts.append("")
            out.append((name, kind, list(dict.fromkeys(opts))))
    return out


def run(cmd, env, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        text, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = "timeout"
    return text, rc, time.time() - t0


def parse(text):
    rows = []
    for line in text.splitlines():
        m = PERF.match(line.strip())
        if m:
            job, sub, size, var, val, pm, unit = m.groups()
            rows.append(dict(job=job, subjob=sub, size=int(size), metric=var, value=float(val), better=pm, unit=unit))
    return rows


def why(text):
    """The line that says why a run produced no rows (the first error-looking line)."""
    for line in text.splitlines():
        if re.search(r"error|fail|too many resources|abort|Segmentation|signal", line, re.I):
            return line.strip()[:200]
    tail = [l for l in text.splitlines() if l.strip()]
    return tail[-1][:200] if tail else "no output"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", help="NVSHMEM's perftest directory (for the .args files)")
    ap.add_argument("--gshmem", help="programs built against gshmem")
    ap.add_argument("--nvshmem", help="programs built against NVSHMEM")
    ap.add_argument("--np", default="2", help="comma-separated PE counts (pt-to-pt programs: 2 only)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out")
    ap.add_argument("--only", default="", help="regex: programs to run")
    ap.add_argument("--skip", default="", help="regex: programs not to run")
    ap.add_argument("--timeout", type=int, default=240, help="seconds per run")
    ap.add_argument("--timeout-for", action="append", default=[], metavar="PROGRAM=SECONDS",
                    help="another limit for one program's runs (a program known to hang on one library)")
    ap.add_argument("--deadline", type=float, default=0,
                    help="seconds from start after which no new program starts (0: none); rows so far are kept")
    ap.add_argument("--init", choices=["uid", "mpi"], default="uid")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--mps-share", action="store_true",
                    help="every PE on one GPU under an MPS daemon started by the caller: each PE of an N-PE run "
                         "gets CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=100/N, the share with which NVSHMEM supports "
                         "its whole API on a GPU shared by several PEs (both libraries run with it)")
    ap.add_argument("--table", nargs="+", metavar="CSV",
                    help="only print the ratio table of earlier results.csv files (rows of several runs together)")
    a = ap.parse_args()
    if a.table:
        rows = []
        for fn in a.table:
            with open(fn) as f:
                for r in csv.DictReader(f):
                    r.update(np=int(r["np"]), line=int(r["line"]), round=int(r["round"]), size=int(r["size"]),
                             value=float(r["value"]))
                    rows.append(r)
        print(table(rows, a.rounds))
        return 0
    if not (a.src and a.gshmem and a.nvshmem and a.out):
        ap.error("--src, --gshmem, --nvshmem and --out are needed (or --table)")
    t_start = time.time()
    os.makedirs(os.path.join(a.out, "logs"), exist_ok=True)
    built = {n for n in os.listdir(a.gshmem) if os.access(os.path.join(a.gshmem, n), os.X_OK)
             and os.path.isfile(os.path.join(a.gshmem, n))}
    built &= {n for n in os.listdir(a.nvshmem) if os.access(os.path.join(a.nvshmem, n), os.X_OK)
              and os.path.isfile(os.path.join(a.nvshmem, n))}
    limit_for = dict((k, int(v)) for k, v in (x.split("=", 1) for x in a.timeout_for))
    progs = [p for p in programs(a.src, built) if (not a.only or re.search(a.only, p[0]))
             and not (a.skip and re.search(a.skip, p[0]))]
    env = dict(os.environ, NVSHMEM_MACHINE_READABLE_OUTPUT="1", **NO_MULTICAST)
    env["NVSHMEMTEST_USE_UID_BOOTSTRAP" if a.init == "uid" else "NVSHMEMTEST_USE_MPI_LAUNCHER"] = "1"
    fwd = ["NVSHMEM_MACHINE_READABLE_OUTPUT", "NVSHMEMTEST_USE_UID_BOOTSTRAP", "NVSHMEMTEST_USE_MPI_LAUNCHER",
           "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "PATH"] + list(NO_MULTICAST)
    if a.mps_share:
        fwd += ["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "CUDA_MPS_PIPE_DIRECTORY", "CUDA_DEVICE_MAX_CONNECTIONS"]
    rows, notes = [], []
    path = os.path.join(a.out, "results.csv")
    fields = ["np", "program", "args", "line", "lib", "round", "job", "subjob", "size", "metric", "value", "unit",
              "better"]
    stopped = False
    for np_ in [int(x) for x in a.np.split(",")]:
        if a.mps_share:
            env["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = str(100 // np_)
        for name, kind, lines in progs:
            if "pt-to-pt" in kind and kind.startswith("device") and np_ != 2:
                continue
            for li, args in enumerate(lines):
                for rnd in range(1, a.rounds + 1):
                    for lib in LIBS:
                        left = a.deadline - (time.time() - t_start) if a.deadline else a.timeout
                        if left < 5 and not stopped:
                            notes.append("deadline reached at %d PEs, %s [%s] round %d %s: it and what follows "
                                         "not run" % (np_, name, args, rnd, lib))
                            stopped = True
                        if stopped:
                            break
                        exe = os.path.join(a.gshmem if lib == "gshmem" else a.nvshmem, name)
                        cmd = [a.mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(np_)]
                        for k in fwd:
                            if k in env:
                                cmd += ["-x", k]
                        cmd += [exe] + args.split()
                        text, rc, secs = run(cmd, env, int(min(limit_for.get(name, a.timeout), left)))
                        log = os.path.join(a.out, "logs", "np%d-%s-%d-%s-r%d.log" % (np_, name, li, lib, rnd))
                        with open(log, "w") as f:
                            f.write("$ %s\n# exit %s, %.1f s\n%s" % (" ".join(cmd), rc, secs, text))
                        got = parse(text)
                        for r in got:
                            r.update(np=np_, program=name, args=args, line=li, lib=lib, round=rnd)
                        rows += got
                        status = "ok" if rc == 0 and got else "exit %s" % rc
                        print("np=%d %-36s line %d round %d %-8s %4d rows %6.1f s %s" % (
                            np_, name, li, rnd, lib, len(got), secs, status), flush=True)
                        if rc != 0 or not got:
                            notes.append("%d PEs %s [%s] %s round %d: exit %s, %d rows: %s" % (
                                np_, name, args, lib, rnd, rc, len(got), why(text)))
                        with open(path, "w", newline="") as f:
                            w = csv.DictWriter(f, fieldnames=fields)
                            w.writeheader()
                            w.writerows(rows)
        if stopped:
            break
    summary = table(rows, a.rounds)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(summary)
        for n in notes:
            f.write("\n- note: %s" % n)
        f.write("\n")
    print(summary)
    for n in notes:
        print("note:", n)
    return 0


def ratios(rows, rounds):
    """{(np, program, line, job, subjob, size, metric): [ratio per round]} where both libraries
    measured the row in every round."""
    v = {}
    for r in rows:
        k = (r["np"], r["program"], r["line"], r["job"], r["subjob"], r["size"], r["metric"])
        v.setdefault(k, {})[(r["lib"], r["round"])] = (r["value"], r["better"])
    out = {}
    for k, m in v.items():
        rs = []
        for rnd in range(1, rounds + 1):
            if ("gshmem", rnd) not in m or ("nvshmem", rnd) not in m:
                break
            (g, better), (n, _) = m[("gshmem", rnd)], m[("nvshmem", rnd)]
            if g <= 0 or n <= 0:
                break
            rs.append(n / g if better == "+" else g / n)
        if len(rs) == rounds:
            out[k] = rs
    return out


def table(rows, rounds):
    rt = ratios(rows, rounds)
    per = {}
    for k, rs in rt.items():
        per.setdefault((k[0], k[1]), []).append(rs)
    lines = ["| PEs | program | rows | <= 0.95x in every round | > 1.03x in a round | best | worst |",
             "|---|---|---|---|---|---|---|"]
    tot = [0, 0, 0]
    for (np_, prog), lst in sorted(per.items()):
        good = sum(1 for rs in lst if max(rs) <= 0.95)
        bad = sum(1 for rs in lst if max(rs) > 1.03)
        tot = [tot[0] + len(lst), tot[1] + good, tot[2] + bad]
        lines.append("| %d | %s | %d | %d | %d | %.2f | %.2f |" % (
            np_, prog, len(lst), good, bad, min(min(rs) for rs in lst), max(max(rs) for rs in lst)))
    lines.append("| | **all** | %d | %d | %d | | |" % tuple(tot))
    worst = sorted(rt.items(), key=lambda kv: -max(kv[1]))
    lines += ["", "Rows above 1.03x in a round (worst first):", "",
              "| PEs | program | line | job / subjob | size | metric | ratio per round |", "|---|---|---|---|---|---|---|"]
    for k, rs in worst:
        if max(rs) <= 1.03:
            break
        lines.append("| %d | %s | %d | %s / %s | %d | %s | %s |" % (
            k[0], k[1], k[2], k[3], k[4], k[5], k[6], " ".join("%.2fx" % x for x in rs)))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
