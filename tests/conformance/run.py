#!/usr/bin/env python3
"""Runs a conformance program under oshrun, repeatedly, and checks what it printed.

Behaviour programs (tests/conformance/behave): PE 0 prints "PASS <name>"; exit 0 everywhere.
  run.py behave --oshrun OSHRUN --np N [--repeat R] EXE
Specification examples (tests/conformance/spec): the manifest gives the PE counts, the expected
exit status and a regular expression over the output (from the output the document prints).
  run.py spec --oshrun OSHRUN --manifest manifest.json --name NAME [--repeat R] EXE [--launcher L]
With --netns SCRIPT (tests/multinode/netns_two_nodes.sh) the PEs run on two network-namespace
"nodes", half in each: the behaviour programs at --np, the examples at 4 (2+2) and 8 (4+4) PEs
where the manifest has those counts (none: exit 77); --launcher mpirun starts them with mpirun
there, else with the unique-id bootstrap.

Every run has a time limit; the first failing run prints its command and output and ends the
test (exit 1). A run that ends with 77 (skip) is a failure: the suite runs no program where it
cannot run.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

LIMIT_S = 60


def run_once(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=LIMIT_S)
        return p.returncode, p.stdout.decode(errors='replace')
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b'').decode(errors='replace')
        return None, out + f'\n[run.py: no exit within {LIMIT_S} s: a hang]\n'


def report(cmd, i, repeat, why, out):
    print(f'FAIL: run {i + 1} of {repeat}: {why}\n  command: {" ".join(cmd)}')
    lines = out.rstrip().splitlines()
    print('  output (last 40 lines):')
    for line in lines[-40:]:
        print('    | ' + line)


def check_runs(cmd, repeat, status, pattern):
    with tempfile.TemporaryDirectory() as cwd:  # examples may write files (none may need one)
        t0 = time.time()
        for i in range(repeat):
            rc, out = run_once(cmd, cwd)
            if rc == 77 and 'netns test:' in out and 'skipping' in out:
                print(f'skipped: {out.strip().splitlines()[-1]}')
                sys.exit(77)  # no root or no network namespaces here: the netns variant skips
            if rc != status:
                report(cmd, i, repeat, f'exit status {rc}, expected {status}', out)
                return False
            if pattern and not re.search(pattern, out):
                report(cmd, i, repeat, f'output does not match {pattern!r}', out)
                return False
        print(f'ok: {" ".join(cmd)} x{repeat} ({time.time() - t0:.1f} s)')
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['behave', 'spec'])
    ap.add_argument('exe')
    ap.add_argument('--oshrun', required=True)
    ap.add_argument('--np', type=int)
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--manifest')
    ap.add_argument('--name')
    ap.add_argument('--launcher')
    ap.add_argument('--netns', help='run on two network-namespace nodes through this script')
    a = ap.parse_args()

    def command(n):
        if a.netns:
            return [a.netns] + (['--mpirun'] if a.launcher == 'mpirun' else []) + ['--per-node', str(n // 2), exe]
        return [a.oshrun] + (['--launcher', a.launcher] if a.launcher else []) + ['-np', str(n), exe]

    exe, a.oshrun = os.path.abspath(a.exe), os.path.abspath(a.oshrun)
    if a.mode == 'behave':
        name = os.path.basename(exe).removeprefix('conf_')
        return 0 if check_runs(command(a.np), a.repeat, 0, rf'(?m)^PASS {re.escape(name)}$') else 1
    entry = next((e for e in json.load(open(a.manifest)) if e['name'] == a.name), None)
    if entry is None or not entry['npes']:
        print(f'FAIL: {a.name}: no manifest entry with PE counts')
        return 1
    pattern = None if entry['expect'] == 'exit0' else entry['expect']
    ok = True
    counts = [n for n in entry['npes'] if n in (4, 8)] if a.netns else entry['npes']
    if not counts:
        print(f'skipped: {a.name} is not defined at 4 or 8 PEs (manifest: {entry["npes"]})')
        return 77
    for n in counts:
        ok = check_runs(command(n), a.repeat, entry.get('exit_status', 0), pattern) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
