#!/usr/bin/env bash
# Two "nodes" on one machine: network namespaces gsA and gsB joined by a veth pair, N CPU PEs in
# each (2 by default). PEs of one namespace share memory; PEs of different namespaces reach each
# other through the off-node transport (GSHMEM_TRANSPORT: ucx by default, over UCX's tcp only, as
# UCX_TLS=tcp and UCX_NET_DEVICES=<the veth> say: UCX would otherwise use shared memory between
# namespaces of one machine), across a real network boundary.
# Usage: netns_two_nodes.sh [--mpirun] [--per-node N] [--bind] PROGRAM [ARGS...]
#   --bind    each PE (and its threads) bound to one core, PE r to core r modulo this machine's
#             cores, as mpirun --bind-to core places PEs on a cluster node (both namespaces share
#             this machine's cores, so mpirun's own binding would put one PE of each on core 0)
#   default   the unique-id bootstrap (rank 0 listens on the id's address in gsA)
#   --mpirun  Open MPI's mpirun started inside gsA with a hostfile naming the two namespaces and a
#             remote-launch agent that enters a namespace instead of ssh-ing to a host: one orted
#             (with its PMIx server) per namespace, the PEs bootstrap through PMIx
#   NETNS_MPIRUN_ARGS  extra mpirun arguments (--mpirun), e.g. Open MPI's OSHMEM: --mca spml ucx
# Exits 77 (skipped) without root or network-namespace support (or without mpirun for --mpirun).
set -u
launcher=uid
per=2
bind=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mpirun) launcher=mpirun; shift ;;
    --per-node) per=$2; shift 2 ;;
    --bind) bind=1; shift ;;
    *) break ;;
  esac
done
np=$((2 * per))
prog=("$@")
name="${prog[0]##*/}"
if [ $bind = 1 ]; then  # the rank comes from mpirun's environment or the uid bootstrap's
  cores=$(nproc)
  # shellcheck disable=SC2016
  prog=(sh -c 'r=${OMPI_COMM_WORLD_RANK:-$GSHMEM_BOOTSTRAP_RANK}; exec taskset -c $((r % '"$cores"')) "$@"' sh "${prog[@]}")
fi
if [ $launcher = mpirun ] && ! command -v mpirun >/dev/null; then echo "netns test: no mpirun; skipping"; exit 77; fi
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! ip netns list >/dev/null 2>&1; then
  echo "netns test: needs root and iproute2 with network namespaces; skipping"; exit 77
fi
tag="gs$$"
A="${tag}a" B="${tag}b"
work=$(mktemp -d)
cleanup() { ip netns del "$A" 2>/dev/null; ip netns del "$B" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
ip netns add "$A" && ip netns add "$B" || { echo "netns test: cannot create namespaces; skipping"; exit 77; }
ip link add "v${tag}a" type veth peer name "v${tag}b" || { echo "netns test: no veth; skipping"; exit 77; }
ip link set "v${tag}a" netns "$A"
ip link set "v${tag}b" netns "$B"
ip -n "$A" addr add 10.213.7.1/24 dev "v${tag}a"
ip -n "$B" addr add 10.213.7.2/24 dev "v${tag}b"
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; done
export UCX_TLS="${UCX_TLS:-tcp}" UCX_WARN_UNUSED_ENV_VARS=n  # UCX_NET_DEVICES: each namespace's veth, below
ip -n "$A" link set "v${tag}a" up
ip -n "$B" link set "v${tag}b" up
if [ $launcher = mpirun ]; then
  # "host" = namespace: the agent runs orted inside it. Every namespace shares this machine's
  # hostname and /dev/shm, so the daemons' hwloc topology sharing (rtc hwloc) and PMIx's
  # shared-memory store (gds ds21) would collide; both are switched off.
  # Each daemon also gets a session directory of its own: the daemons start together and, sharing
  # /tmp and the hostname, raced to create the same /tmp/ompi.<host>.<uid>/jf.<job> ("File exists").
  printf '#!/bin/sh\nns="$1"; shift\nmkdir -p "%s/tmp-$ns"\nexec ip netns exec "$ns" env UCX_NET_DEVICES="v$ns" OMPI_MCA_orte_tmpdir_base="%s/tmp-$ns" /bin/sh -c "$*"\n' \
    "$work" "$work" > "$work/agent"
  chmod +x "$work/agent"
  printf '%s slots=%d\n%s slots=%d\n' "$A" "$per" "$B" "$per" > "$work/hosts"
  fwd=(-x PMIX_MCA_gds -x GSHMEM_HEAP_KIND -x UCX_TLS -x UCX_WARN_UNUSED_ENV_VARS)
  for v in $(compgen -e | grep -E '^(GSHMEM|UCX)_'); do  # every gshmem and UCX setting the caller made
    case "$v" in GSHMEM_HEAP_KIND | UCX_TLS | UCX_WARN_UNUSED_ENV_VARS | UCX_NET_DEVICES) ;; *) fwd+=(-x "$v") ;; esac
  done
  ip netns exec "$A" env PMIX_MCA_gds=hash GSHMEM_HEAP_KIND=host GSHMEM_BOOTSTRAP_TIMEOUT=60 \
    mpirun --allow-run-as-root --oversubscribe -np "$np" --hostfile "$work/hosts" --mca plm_rsh_agent "$work/agent" \
    --mca rtc ^hwloc --mca routed direct --mca oob_tcp_if_include 10.213.7.0/24 \
    --mca btl_tcp_if_include 10.213.7.0/24 "${fwd[@]}" ${NETNS_MPIRUN_ARGS:-} "${prog[@]}"
  rc=$?
  [ $rc = 0 ] && echo "netns test: $name passed on 2 namespaces x $per PEs (mpirun, PMIx)"
  exit $rc
fi
secret=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=$((20000 + RANDOM % 20000))
uid="gshmem1:10.213.7.1:${port}:${secret}"
pids=()
for ((rank = 0; rank < np; ++rank)); do
  ns=$A; [ $rank -ge $per ] && ns=$B
  ip netns exec "$ns" env UCX_NET_DEVICES="v$ns" GSHMEM_BOOTSTRAP=uid GSHMEM_BOOTSTRAP_UID="$uid" GSHMEM_BOOTSTRAP_RANK=$rank \
    GSHMEM_BOOTSTRAP_NRANKS=$np GSHMEM_BOOTSTRAP_TIMEOUT=60 GSHMEM_HEAP_KIND=host "${prog[@]}" &
  pids+=($!)
  [ $rank = 0 ] && sleep 0.3  # rank 0 listens first (the others retry anyway)
done
rc=0
for p in "${pids[@]}"; do
  if ! wait "$p"; then rc=1; fi
done
[ $rc = 0 ] && echo "netns test: $name passed on 2 namespaces x $per PEs"
exit $rc
