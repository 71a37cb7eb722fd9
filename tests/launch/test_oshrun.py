#!/usr/bin/env python3
"""Launcher and failure-handling tests: oshrun exit statuses, signals, --tag-output, a killed PE
ends the others' waits with a message, nothing is left in /dev/shm, clear bootstrap errors."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

oshrun, prog = sys.argv[1], sys.argv[2]
failures = []


def run(args, timeout=60, env=None, **kw):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=e, **kw)


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name)
    if not cond:
        failures.append(name)
        print(detail)


def shm_entries():
    return sorted(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else []


before = shm_entries()

r = run([oshrun, "-np", "4", prog, "ok"])
check("all PEs ok -> exit 0", r.returncode == 0 and r.stdout.count("line from pe") == 4, r.stdout + r.stderr)

# A setting that must be alike on every PE differs: the PEs agree on "off" and PE 0 says so.
r = run([oshrun, "-np", "2", "sh", "-c",
         f'if [ "$GSHMEM_BOOTSTRAP_RANK" = 1 ]; then export GSHMEM_COLL_NODE_RUNS=0; fi; exec {prog} ok'])
check("GSHMEM_COLL_NODE_RUNS on one PE only -> off everywhere, with a warning",
      r.returncode == 0 and r.stdout.count("line from pe") == 2 and
      "GSHMEM_COLL_NODE_RUNS is on in 1 of 2 PEs: off in all" in r.stderr, r.stdout + r.stderr)

r = run([oshrun, "-np", "4", "--tag-output", prog, "ok"])
tags = sorted(re.findall(r"^\[pe (\d)\] line from pe (\d)$", r.stdout, re.M))
check("--tag-output prefixes each PE's lines", r.returncode == 0 and tags == [(str(i), str(i)) for i in range(4)],
      r.stdout)

t0 = time.time()
r = run([oshrun, "-np", "4", prog, "exit:2:7"])
check("PE exit 7 -> oshrun exits 7 and names the PE",
      r.returncode == 7 and re.search(r"pe 2 \(pid \d+\) exited with status 7", r.stderr) is not None,
      r.stderr)
check("failure stops the job quickly", time.time() - t0 < 20, f"{time.time() - t0:.1f} s")

r = run([oshrun, "-np", "3", prog, "kill:1:11"])
check("PE killed by SIGSEGV -> 139 and the signal name",
      r.returncode == 128 + 11 and "SIGSEGV" in r.stderr, r.stderr)

r = run([oshrun, "-np", "3", prog, "kill:0:9"])
check("root PE killed by SIGKILL -> 137", r.returncode == 137, r.stderr)

# Without oshrun supervising: the PEs' own bootstrap notices the dead PE and ends the waits.
# PE 1's wrapper shell hides its death from oshrun (exit 0), so only gshmem can end PE 0's wait.
r = run([oshrun, "-np", "2", "sh", "-c",
         f'{prog} kill:1:9 & wait $!; s=$?; [ "$GSHMEM_BOOTSTRAP_RANK" = 1 ] && exit 0; exit $s'], timeout=60)
check("a wait on a dead PE ends with a message naming it",
      re.search(r"pe 1 exited or died|pe 0 \(bootstrap root\)", r.stderr) is not None and r.returncode != 0,
      f"rc={r.returncode}\n{r.stderr}")

# The same through the off-node transport (ucx, and tcp): the dead peer is named (by the bootstrap
# or the transport).
for tr in ("ucx", "tcp"):
    r = run([oshrun, "-np", "2", "sh", "-c",
             f'{prog} kill:1:9 & wait $!; s=$?; [ "$GSHMEM_BOOTSTRAP_RANK" = 1 ] && exit 0; exit $s'],
            env={"GSHMEM_FORCE_PROXY": "1", "GSHMEM_TRANSPORT": tr}, timeout=60)
    check(f"proxy path ({tr}): a dead peer ends the job with a message naming it",
          re.search(r"pe 1 exited or died|connection to pe 1 lost|pe 1 is unreachable or died|pe 0 \(bootstrap root\)",
                    r.stderr) is not None and r.returncode != 0, f"rc={r.returncode}\n{r.stderr}")

p = subprocess.Popen([oshrun, "-np", "4", prog, "hang"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(1.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=30)
check("SIGINT is forwarded and oshrun exits 130", p.returncode == 130, f"rc={p.returncode}\n{err}")

r = run([oshrun, "-np", "2", "/nonexistent/program"])
check("missing program -> 127", r.returncode == 127, r.stderr)
r = run([oshrun, prog])
check("missing -np -> usage error 2", r.returncode == 2, r.stderr)

r = run([prog, "ok"], env={"GSHMEM_BOOTSTRAP": "mpi"})
check("GSHMEM_BOOTSTRAP=mpi without MPI -> clear error",
      r.returncode != 0 and "MPI" in r.stderr and "shmem_init" in r.stderr, r.stderr)
r = run([prog, "ok"], env={"GSHMEM_BOOTSTRAP": "uid"})
check("uid bootstrap without a unique id -> clear error",
      r.returncode != 0 and "GSHMEM_BOOTSTRAP_UID" in r.stderr, r.stderr)
r = run([prog, "ok"], env={"SHMEM_SYMMETRIC_SIZE": "12Q"})
check("malformed SHMEM_SYMMETRIC_SIZE -> names the variable",
      r.returncode != 0 and "SHMEM_SYMMETRIC_SIZE" in r.stderr, r.stderr)
r = run([prog, "ok"], env={"SHMEM_VERSION": "1"})
check("SHMEM_VERSION prints the version", r.returncode == 0 and "gshmem" in r.stdout, r.stdout)
r = run([prog, "ok"])
check("single PE without a launcher", r.returncode == 0 and "line from pe 0" in r.stdout, r.stderr)

# oshrun honours GSHMEM_BOOTSTRAP or refuses it, before it starts anything.
r = run([oshrun, "-np", "2", prog, "ok"], env={"GSHMEM_BOOTSTRAP": "bogus"})
check("GSHMEM_BOOTSTRAP=bogus under oshrun -> names the variable and the allowed values",
      r.returncode == 2 and "GSHMEM_BOOTSTRAP" in r.stderr and "uid" in r.stderr and "line from pe" not in r.stdout,
      f"rc={r.returncode}\n{r.stderr}")
r = run([oshrun, "-np", "2", prog, "ok"], env={"GSHMEM_BOOTSTRAP": "pmix"})
check("GSHMEM_BOOTSTRAP=pmix under oshrun -> says to use --launcher",
      r.returncode == 2 and "--launcher mpirun" in r.stderr, f"rc={r.returncode}\n{r.stderr}")
r = run([oshrun, "-np", "2", prog, "ok"], env={"GSHMEM_BOOTSTRAP": "uid"})
check("GSHMEM_BOOTSTRAP=uid under oshrun runs", r.returncode == 0, f"rc={r.returncode}\n{r.stderr}")

# CPU binding: --bind-to core gives each PE the CPUs of its own core, in the order of the cores'
# lowest CPU numbers; hwthread one CPU each; --cpus-per-pe K that many; the expected sets come
# from this process's affinity and sysfs (each CPU's core sibling list), read here independently
# of oshrun.
def allowed_cores():
    by_core = {}
    for c in sorted(os.sched_getaffinity(0)):
        key = ("cpu", c)
        for name in ("core_cpus_list", "thread_siblings_list"):
            try:
                key = open(f"/sys/devices/system/cpu/cpu{c}/topology/{name}").read().strip()
                break
            except OSError:
                pass
        by_core.setdefault(key, []).append(c)
    return sorted(by_core.values(), key=lambda ids: ids[0])


def cpu_set(text):
    out = set()
    for part in text.strip().split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def pe_cpus(args):
    """Runs a shell at each PE printing its rank and CPUs; {rank: set of CPUs}, or None."""
    r = run([oshrun] + args + ["sh", "-c",
                               'echo "cpus $GSHMEM_BOOTSTRAP_RANK $(grep Cpus_allowed_list /proc/self/status | cut -f2)"'])
    got = dict((int(m.group(1)), cpu_set(m.group(2))) for m in re.finditer(r"^cpus (\d+) (\S+)$", r.stdout, re.M))
    return got if r.returncode == 0 else None


cores = allowed_cores()
threads = sorted(os.sched_getaffinity(0))
if len(cores) >= 2:
    got = pe_cpus(["-np", "2", "--bind-to", "core"])
    check("--bind-to core: PE i on the CPUs of core i", got == {0: set(cores[0]), 1: set(cores[1])},
          f"got {got}, cores {cores}")
    r = run([oshrun, "-np", "2", "--bind-to", "core", prog, "ok"])
    check("--bind-to core: an OpenSHMEM program runs bound", r.returncode == 0 and r.stdout.count("line from pe") == 2,
          r.stdout + r.stderr)
    got = pe_cpus(["-np", "1", "--cpus-per-pe", "2"])
    check("--cpus-per-pe 2 (implies core): PE 0 on cores 0 and 1", got == {0: set(cores[0] + cores[1])},
          f"got {got}, cores {cores}")
if len(threads) >= 2:
    got = pe_cpus(["-np", "2", "--bind-to", "hwthread"])
    check("--bind-to hwthread: PE i on CPU i", got == {0: {threads[0]}, 1: {threads[1]}}, f"got {got}")
got = pe_cpus(["-np", "2", "--bind-to", "none"])
check("--bind-to none: PEs keep oshrun's CPUs", got == {0: set(threads), 1: set(threads)}, f"got {got}")
r = run([oshrun, "-np", str(len(cores) + 1), "--bind-to", "core", prog, "ok"])
check("--bind-to core with more PEs than cores -> exit 2, says what is short",
      r.returncode == 2 and f"need {len(cores) + 1} cores" in r.stderr and "line from pe" not in r.stdout,
      f"rc={r.returncode}\n{r.stderr}")
for bad, words in ((["--bind-to", "socket"], "unknown --bind-to value 'socket'"),
                   (["--cpus-per-pe", "0"], "bad --cpus-per-pe '0'"),
                   (["--bind-to", "none", "--cpus-per-pe", "2"], "--cpus-per-pe needs --bind-to core or hwthread")):
    r = run([oshrun, "-np", "2"] + bad + [prog, "ok"])
    check(f"oshrun {' '.join(bad)} -> exit 2 with '{words}'", r.returncode == 2 and words in r.stderr, r.stderr)

# The binding request handed on to another launcher in its own options (a stand-in launcher on
# PATH prints what it was given).
with tempfile.TemporaryDirectory() as fake:
    for name in ("mpirun", "srun", "prterun"):
        with open(os.path.join(fake, name), "w") as f:
            f.write('#!/bin/sh\nfor a in "$@"; do echo "arg $a"; done\n')
        os.chmod(os.path.join(fake, name), 0o755)
    path = fake + os.pathsep + os.environ.get("PATH", "")
    for launcher, bind, want in (
            ("mpirun", ["--cpus-per-pe", "3"], ["--map-by", "slot:PE=3", "--bind-to", "core"]),
            ("prterun", ["--bind-to", "hwthread"], ["--map-by", "slot:HWTCPUS", "--bind-to", "hwthread"]),
            ("mpirun", ["--bind-to", "hwthread"], ["--use-hwthread-cpus", "--bind-to", "hwthread"]),
            ("mpirun", ["--bind-to", "none"], ["--bind-to", "none"]),
            ("srun", ["--cpus-per-pe", "3"], ["--cpu-bind=cores", "--threads-per-core=1", "--cpus-per-task=3"]),
            ("srun", ["--bind-to", "none"], ["--cpu-bind=none"])):
        r = run([oshrun, "--launcher", launcher, "-np", "2"] + bind + ["./prog"], env={"PATH": path})
        args = re.findall(r"^arg (.*)$", r.stdout, re.M)
        ok = r.returncode == 0 and args[-1:] == ["./prog"] and any(
            args[i:i + len(want)] == want for i in range(len(args)))
        check(f"--launcher {launcher} {' '.join(bind)} -> {' '.join(want)}", ok, f"rc={r.returncode} args={args}")

# PEs started through a wrapper (not oshrun's children, so no parent-death signal reaches them)
# end when oshrun is killed with SIGKILL: they watch a pipe only oshrun holds.
p = subprocess.Popen([oshrun, "-np", "2", "sh", "-c", f"{prog} hang; true"], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True, start_new_session=True)
time.sleep(1.5)
p.kill()  # SIGKILL: oshrun cannot stop anything itself
p.wait()
t0 = time.time()
left = ["?"]
while time.time() - t0 < 10:
    left = run(["pgrep", "-f", "^" + re.escape(prog) + " hang"]).stdout.split()
    if not left:
        break
    time.sleep(0.1)
check("oshrun killed by SIGKILL -> PEs under a wrapper end within 10 s",
      not left, f"still running after {time.time() - t0:.1f} s: {left}")
for pid in left:
    if pid != "?":
        subprocess.run(["kill", "-9", pid])

time.sleep(0.5)
after = shm_entries()
check("nothing left in /dev/shm after normal exits, crashes and kill -9", after == before,
      f"before={before}\nafter={after}")
leftover = run(["pgrep", "-f", "^" + re.escape(prog)]).stdout.split()
check("no PE process left running", not leftover, str(leftover))

print(f"{len(failures)} launcher checks failed" if failures else "all launcher checks passed")
sys.exit(1 if failures else 0)
