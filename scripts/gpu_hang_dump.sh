#!/usr/bin/env bash
# On the GPU host: runs "oshrun -np N PROGRAM ARGS..." and, if it has not ended after SECONDS,
# dumps every host thread's stack of each PE with cuda-gdb (there is no gdb there), then kills it.
# Usage: scripts/gpu_hang_dump.sh SECONDS OSHRUN N PROGRAM [ARGS...]   (env passes through)
set -u
secs=$1 osh=$2 np=$3 prog=$4
shift 4
"$osh" -np "$np" "$prog" "$@" 2>&1 &
job=$!
for ((i = 0; i < secs; ++i)); do
  kill -0 "$job" 2>/dev/null || { wait "$job"; echo "== exit $?"; exit 0; }
  sleep 1
done
echo "== still running after ${secs}s: stacks"
for p in $(pgrep -x "$(basename "$prog" | cut -c1-15)"); do
  echo "== pid $p"
  timeout 40 cuda-gdb -batch -p "$p" -ex "bt 8" -ex "info cuda kernels" -ex "info threads" -ex "thread apply all bt 14" 2>&1 | grep -v "^\[New Thread\|^warning" | head -150
done
kill -9 "$job" 2>/dev/null
pkill -9 -x "$(basename "$prog" | cut -c1-15)" 2>/dev/null
wait 2>/dev/null
echo "== killed"
