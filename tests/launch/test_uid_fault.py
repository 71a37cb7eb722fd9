#!/usr/bin/env python3
"""A dead PE ends the job without any launcher (issue: frameworks that start PEs themselves).

Starts NPES processes of PROGRAM directly (no oshrun, no mpirun): rank 0 prints the unique id,
the others get it on their command line, all initialise with shmemx_init_attr. Once every PE has
reported READY and the survivors are blocked (in MODE), the victim is killed with SIGKILL. Every
survivor must then exit non-zero within 5 s with a message naming the dead PE, and nothing may be
left in /dev/shm. Each MODE runs twice: the victim a leaf (pe 1), then the bootstrap root (pe 0).

usage: test_uid_fault.py PROGRAM MODE[,MODE...] [NPES]    (exit 77: the program skipped)
"""
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

LIMIT_S = 5.0


def reader(stream, q):
    for line in stream:
        q.put(line)
    q.put(None)


def run_case(prog, mode, npes, victim):
    before = set(os.listdir("/dev/shm"))
    procs, outq, errs = [], [], []

    def start(rank, uid):
        p = subprocess.Popen([prog, str(rank), str(npes), mode, uid, str(victim)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        q = queue.Queue()
        threading.Thread(target=reader, args=(p.stdout, q), daemon=True).start()
        e = []
        threading.Thread(target=lambda: e.extend(p.stderr), daemon=True).start()
        procs.append(p)
        outq.append(q)
        errs.append(e)

    def line(rank, deadline):
        try:
            return outq[rank].get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            return None

    def stop_all():
        for p in procs:
            if p.poll() is None:
                p.kill()
        for p in procs:
            p.wait()

    start(0, "-")
    deadline = time.monotonic() + 60
    first = line(0, deadline)
    m = re.match(r"UID ([0-9a-f]+)$", (first or "").strip())
    if not m:
        try:
            if procs[0].wait(timeout=10) == 77:
                return "skip", (first or "").strip()
        except subprocess.TimeoutExpired:
            pass
        stop_all()
        return "fail", f"rank 0 printed {first!r}, not its unique id\n" + "".join(errs[0])
    for r in range(1, npes):
        start(r, m.group(1))
    pids = {}
    for r in range(npes):
        got = line(r, deadline)
        mr = re.match(r"READY (\d+) (\d+)$", (got or "").strip())
        if not mr:
            try:
                skipped = procs[r].wait(timeout=10) == 77
            except subprocess.TimeoutExpired:
                skipped = False
            stop_all()
            if skipped:
                return "skip", "".join(errs[r]) + (got or "")
            return "fail", f"pe {r} did not get ready: {got!r}\n" + "".join(errs[r])
        pids[r] = int(mr.group(2))
    time.sleep(0.5)  # the survivors are inside their wait now
    t0 = time.monotonic()
    os.kill(pids[victim], signal.SIGKILL)
    results, problems = [], []
    for r in range(npes):
        if r == victim:
            procs[r].wait()
            continue
        try:
            rc = procs[r].wait(timeout=LIMIT_S + 10)
        except subprocess.TimeoutExpired:
            rc = None
        dt = time.monotonic() - t0
        time.sleep(0.05)
        err = "".join(errs[r])
        named = re.search(rf"pe {victim} (\(bootstrap root\) )?exited or died", err) is not None
        results.append((r, rc, dt, named))
        if rc is None:
            problems.append(f"pe {r} still running {LIMIT_S + 10:.0f} s after pe {victim} died")
        elif rc == 0 or dt > LIMIT_S or not named:
            problems.append(f"pe {r}: exit {rc} after {dt:.2f} s, message names pe {victim}: {named}\n  {err.strip()}")
    stop_all()
    time.sleep(0.2)
    left = set(os.listdir("/dev/shm")) - before
    if left:
        problems.append(f"left in /dev/shm: {sorted(left)}")
    times = ", ".join(f"pe {r} exit {rc} in {dt:.2f} s" for r, rc, dt, _ in results)
    return ("fail" if problems else "ok"), times + ("\n" + "\n".join(problems) if problems else "")


def main():
    prog, modes = sys.argv[1], sys.argv[2].split(",")
    npes = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    failed = skipped = 0
    for mode in modes:
        for victim in (1, 0):
            status, detail = run_case(prog, mode, npes, victim)
            print(f"{status.upper():4} {mode}, {npes} PEs, pe {victim} killed: {detail}", flush=True)
            failed += status == "fail"
            skipped += status == "skip"
    if failed:
        return 1
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
