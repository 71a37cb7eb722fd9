#!/usr/bin/env bash
# The sanitizer jobs of CI (docs/testing.md, "Sanitizers"), CPU parts (CUDA disabled), with clang:
#   asan  -Db_sanitize=address,undefined and the libFuzzer targets: the unit, mp, proxy and launch
#         suites, then each fuzz target for FUZZ_SECONDS (default 30) from an empty corpus
#   tsan  -Db_sanitize=thread: the unit, mp, proxy and launch suites
# A sanitizer report fails the test it happens in (halt_on_error); the only suppressions are
# third-party leaks in tests/sanitizers/lsan.supp, each explained there. Build dirs: build-asan,
# build-tsan. Prints "sanitize <job>: N passed, N failed" per job; exits non-zero on any failure.
# Usage: scripts/sanitize.sh [asan|tsan|all]
set -uo pipefail
source "$(dirname "$0")/env.sh"
jobs=${1:-all}
[ "$jobs" = all ] && jobs="asan tsan"
export CC=${SAN_CC:-clang} CXX=${SAN_CXX:-clang++}
command -v "$CC" >/dev/null || { echo "sanitize: $CC not found (scripts/install-deps.sh installs clang)"; exit 1; }
SUPP="$ROOT/tests/sanitizers/lsan.supp"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_summary=1:detect_leaks=1"
export LSAN_OPTIONS="suppressions=$SUPP:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:print_summary=1"
# ignore_noninstrumented_modules: UCX (the ucx transport's engine) is not built with TSan and has no
# frame pointers: its memcpy of a peer's put into this PE's heap (while the main thread polls a word
# there atomically) and its own spinlock bookkeeping would be reported against gshmem's frames.
# Interceptors called from uninstrumented libraries are not checked; gshmem's code is.
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1"
# UCX (the ucx transport, not instrumented) patches mmap/munmap and malloc to watch memory for its
# registration cache; LeakSanitizer's exit-time scan then faults in that region ("Tracer caught
# signal 11", a fatal LSan error in every ucx test). The sanitizers check gshmem's code, so UCX runs
# here without its memory hooks (UCX's own advice for sanitizer builds).
export UCX_MEM_MALLOC_HOOKS=n UCX_MEM_MMAP_HOOK_MODE=none UCX_MEM_EVENTS=n
fail=0

summary() {  # job, build dir
  python3 - "$2/meson-logs/testlog.json" "$1" <<'PY'
import json, sys
p = f = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t["result"]
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r != "SKIP":
        f += 1  # what the failed test printed, so a CI log says why
        out = ((t.get("stdout") or "") + (t.get("stderr") or "")).splitlines()
        print(f"---- {t['name']}: {r}; last {min(len(out), 40)} lines of its output:")
        print("\n".join(out[-40:]))
print(f"sanitize {sys.argv[2]}: {p} passed, {f} failed")
sys.exit(1 if f else 0)
PY
}

run_job() {  # job, sanitizers, extra meson options
  local job=$1 san=$2 B="$ROOT/build-$1"; shift 2
  echo "== sanitize $job ($san)"
  if [ ! -f "$B/build.ninja" ]; then
    meson setup "$B" "$ROOT" -Dcuda=disabled -Db_sanitize="$san" -Db_lundef=false -Dbuildtype=debugoptimized "$@" \
      > "$B.setup.log" 2>&1 || { cat "$B.setup.log"; return 1; }
  fi
  meson compile -C "$B" > "$B.build.log" 2>&1 || { tail -40 "$B.build.log"; return 1; }
  meson test -C "$B" --suite unit --suite mp --suite proxy --suite launch --num-processes 2 --print-errorlogs \
    > "$B.test.log" 2>&1
  grep -E "^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT)" "$B.test.log" | head -20
  summary "$job" "$B"
}

for job in $jobs; do
  case $job in
    asan)
      run_job asan address,undefined -Dfuzz=true || fail=1
      for f in fuzz_ucx_record fuzz_bootstrap fuzz_trigger; do
        exe="$ROOT/build-asan/tests/fuzz/$f"
        [ -x "$exe" ] || { echo "sanitize: $f was not built"; fail=1; continue; }
        # stdout/stderr of the target closed: the executor reports every rejected trigger
        if "$exe" -max_total_time="${FUZZ_SECONDS:-30}" -close_fd_mask=3 -artifact_prefix="$ROOT/build-asan/$f-" \
            > "$ROOT/build-asan/$f.log" 2>&1; then
          echo "fuzz $f: $(grep -E 'DONE' "$ROOT/build-asan/$f.log" | tail -1)"
        else
          echo "fuzz $f: FAILED (reproducer in build-asan/$f-*)"; tail -30 "$ROOT/build-asan/$f.log"; fail=1
        fi
      done
      ;;
    tsan) run_job tsan thread || fail=1 ;;
    *) echo "usage: $0 [asan|tsan|all]"; exit 2 ;;
  esac
done
exit $fail
