#!/usr/bin/env python3
"""Run a command that is expected to fail cleanly.

Usage: expect_fail.py [--timeout SECONDS] --regex REGEX -- cmd [args...]

Passes (exit 0) only if the command
  * exits with a non-zero status (a launcher that reports a killed PE counts),
  * finishes within the timeout (otherwise its whole process group is killed),
  * prints output (stdout and stderr together) in which re.search(REGEX) finds
    a match.
Otherwise exits 1 and prints why, together with the captured output.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time


def kill_group(proc):
    """SIGTERM the command's process group, then SIGKILL whatever is left."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=3.0)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds before the command counts as hung (default 60)")
    parser.add_argument("--regex", required=True,
                        help="pattern that must occur in the combined output (re.search)")
    parser.add_argument("--skip-code", type=int, default=None,
                        help="exit status that means 'skipped' (passed through, e.g. 77 without a GPU)")
    parser.add_argument("cmd", nargs=argparse.REMAINDER,
                        help="command and arguments, after --")
    args = parser.parse_args()

    cmd = args.cmd
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        parser.error("no command given (put it after --)")
    try:
        pattern = re.compile(args.regex)
    except re.error as exc:
        parser.error("bad --regex: %s" % exc)

    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        print("expect_fail: FAIL: cannot run %r: %s" % (cmd, exc))
        return 1

    timed_out = False
    try:
        out, _ = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc)
        try:
            out, _ = proc.communicate(timeout=10.0)
        except subprocess.TimeoutExpired:
            # something outside the group still holds the pipe: give up on it
            proc.kill()
            out = b""
    else:
        # the launcher is gone: reap any PE it left behind in its group
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    elapsed = time.monotonic() - start
    text = out.decode("utf-8", errors="replace") if out else ""
    rc = proc.returncode

    if args.skip_code is not None and rc == args.skip_code and not timed_out:
        print("expect_fail: skipped (status %d)" % rc)
        return rc

    problems = []
    if timed_out:
        problems.append("timed out after %.0f s (process group killed): the job hung instead "
                        "of failing" % args.timeout)
    elif rc == 0:
        problems.append("exited with status 0: the bad input was not rejected")
    if not pattern.search(text):
        problems.append("output does not match /%s/" % args.regex)

    cmdline = " ".join(cmd)
    if problems:
        print("expect_fail: FAIL: %s" % cmdline)
        for p in problems:
            print("expect_fail:   - %s" % p)
        print("expect_fail: status %s after %.1f s; captured output follows" % (rc, elapsed))
        print("----- output -----")
        sys.stdout.write(text)
        if text and not text.endswith("\n"):
            sys.stdout.write("\n")
        print("----- end -----")
        return 1

    print("expect_fail: ok: %s exited with status %d after %.1f s and matched /%s/"
          % (cmdline, rc, elapsed, args.regex))
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
