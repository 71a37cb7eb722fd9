#!/usr/bin/env bash
# Two "nodes" on one machine: network namespaces gsA and gsB joined by a veth pair, two CPU PEs in
# each. PEs of one namespace share memory; PEs of different namespaces reach each other through
# the tcp transport, across a real network boundary. Launched with the unique-id bootstrap (rank 0
# listens on the id's address in gsA). Usage: netns_two_nodes.sh PROGRAM [ARGS...]
# Exits 77 (skipped) without root or network-namespace support.
set -u
prog=("$@")
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! ip netns list >/dev/null 2>&1; then
  echo "netns test: needs root and iproute2 with network namespaces; skipping"; exit 77
fi
tag="gs$$"
A="${tag}a" B="${tag}b"
cleanup() { ip netns del "$A" 2>/dev/null; ip netns del "$B" 2>/dev/null; }
trap cleanup EXIT
ip netns add "$A" && ip netns add "$B" || { echo "netns test: cannot create namespaces; skipping"; exit 77; }
ip link add "v${tag}a" type veth peer name "v${tag}b" || { echo "netns test: no veth; skipping"; exit 77; }
ip link set "v${tag}a" netns "$A"
ip link set "v${tag}b" netns "$B"
ip -n "$A" addr add 10.213.7.1/24 dev "v${tag}a"
ip -n "$B" addr add 10.213.7.2/24 dev "v${tag}b"
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; done
ip -n "$A" link set "v${tag}a" up
ip -n "$B" link set "v${tag}b" up
secret=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=$((20000 + RANDOM % 20000))
uid="gshmem1:10.213.7.1:${port}:${secret}"
pids=()
for rank in 0 1 2 3; do
  ns=$A; [ $rank -ge 2 ] && ns=$B
  ip netns exec "$ns" env GSHMEM_BOOTSTRAP=uid GSHMEM_BOOTSTRAP_UID="$uid" GSHMEM_BOOTSTRAP_RANK=$rank \
    GSHMEM_BOOTSTRAP_NRANKS=4 GSHMEM_BOOTSTRAP_TIMEOUT=60 GSHMEM_HEAP_KIND=host "${prog[@]}" &
  pids+=($!)
  [ $rank = 0 ] && sleep 0.3  # rank 0 listens first (the others retry anyway)
done
rc=0
for p in "${pids[@]}"; do
  if ! wait "$p"; then rc=1; fi
done
[ $rc = 0 ] && echo "netns test: ${prog[0]##*/} passed on 2 namespaces x 2 PEs"
exit $rc
