/* Device state handed from the host runtime to kernels: a versioned, size-checked POD.
 * Every translation unit compiled with nvcc holds a __constant__ copy (see device/gshmem/state.cuh)
 * that shmem_init fills in.
 *
 * Layout of every PE's device segment: [device control block, GSHMEM_DEV_CTRL_BYTES][user heap].
 * With cuMem VMM (the default) all same-node PEs' segments are mapped into one virtual window, PE
 * p's segment at window_base + p * window_stride, so a peer address is pure arithmetic. With the
 * cudaMalloc + CUDA IPC fallback the segments land anywhere: peer_table (device memory, one
 * uint64 per PE) then holds each segment's base. */
#ifndef GSHMEM_DEVICE_HOST_STATE_H
#define GSHMEM_DEVICE_HOST_STATE_H

#include <stdint.h>

#include "gshmem/export.h"

#define GSHMEM_DEVICE_STATE_VERSION 8u
/* 16 MiB (a multiple of the 2 MiB VMM granularity, so the user heap starts 16 MiB-aligned on
 * every PE); most of it is the LL area of the small team reductions. */
#define GSHMEM_DEV_CTRL_BYTES (16u * 1024u * 1024u)
#define GSHMEM_DEV_MAX_ROUNDS 32
/* control block offsets (bytes) */
#define GSHMEM_DEV_CTRL_LL_PUB 0u /* uint64[slot]: the LL count this PE last published in LL_DONE (local) */
#define GSHMEM_DEV_CTRL_ERROR_CLAIM 512u /* uint32: taken (0 -> 1) by the thread that writes the error record */
/* uint32: rows of this PE's current multi-row large LL round that have finished (local; 0 between
 * rounds; impl/ll.cuh reduce_ll_big) */
#define GSHMEM_DEV_CTRL_LL_BIG_ROWS 1024u
/* 516..1023 and 1028..4095: unused (the version-1 barrier flags lived here) */
#define GSHMEM_DEV_CTRL_RAW_FLAGS 4096u /* uint64[slot][sender index]: raw rounds sent to this PE (impl/ll.cuh) */
/* 8192..16383: unused */
#define GSHMEM_DEV_CTRL_SCRATCH 16384u        /* uint64: result of a host-initiated atomic */
#define GSHMEM_DEV_FLAG_STRIDE 128u
/* Team collectives (device/gshmem/impl/coll.cuh). Indexed by team handle or team slot. */
#define GSHMEM_DEV_MAX_TEAMS 64u               /* team handles and slots usable from device code */
#define GSHMEM_DEV_MAX_ROWS 64u                /* blocks of one on-stream collective */
#define GSHMEM_DEV_MAX_TEAM_PES 8u             /* team size for the flag-matrix collectives */
#define GSHMEM_DEV_LL_BYTES 8192u              /* per sender: 1024 words of {4 data bytes, 4 flag bytes} */
#define GSHMEM_DEV_CTRL_TEAMS 32768u           /* gshmem_device_team[MAX_TEAMS], indexed by handle */
#define GSHMEM_DEV_CTRL_PHASE_CNT 65536u       /* uint64[slot][row]: phases done (local) */
#define GSHMEM_DEV_CTRL_LL_CNT 98304u          /* uint64[slot]: LL collectives done (local) */
#define GSHMEM_DEV_CTRL_COLLECT 102400u      /* uint64[slot][sender index]: collect sizes */
#define GSHMEM_DEV_CTRL_LL_DONE 106496u      /* uint64[slot][sender index]: LL collectives finished (published lazily) */
#define GSHMEM_DEV_CTRL_PHASE_FLAGS 131072u    /* uint64[slot][row][sender index] */
/* Routed teams (valid 3 in gshmem_device_team: a member on another node, reached through the
 * proxy, or more than GSHMEM_DEV_DISSEM_MAX_PES members; device/gshmem/impl/routed.cuh): */
#define GSHMEM_DEV_CTRL_ROUTED_FLAGS 393216u /* uint64[slot][ROUTED_WORDS]: messages received on index i
                                               (i < 60), the node-run phase's and reductions' arrivals
                                               and releases (60..63), acks received for index i - 64
                                               (i >= 64) */
#define GSHMEM_DEV_ROUTED_WORDS 128u
#define GSHMEM_DEV_CTRL_ROUTED_CNT 458752u /* uint64[slot][8] (local): pieces done by the reduction and
                                             the scan family, the words of a routed collect, and the
                                             node-run reductions done */
/* 462848..1048575: unused */
/* Most members of a team whose phase is a dissemination over the [slot][row] flag words (team.cuh);
 * larger teams are routed. */
#define GSHMEM_DEV_DISSEM_MAX_PES 256
/* Block-scope LL reductions above LL_BYTES / 2 bytes, team slot 0 (team WORLD) only:
 * [parity][LL_BIG_AREA] (2 MiB; impl/ll.cuh reduce_ll_big). A round lays out one region per other
 * member in each parity's area: 1 KiB of LL words ({4 data bytes, 4 flag bytes}) per 512 bytes
 * of data, rounded up. */
#define GSHMEM_DEV_CTRL_LL_BIG 1048576u
#define GSHMEM_DEV_LL_BIG_AREA 1048576u  /* per parity */
#define GSHMEM_DEV_LL_BIG_ONE_ROW 16384u /* most bytes sent in all by a large LL round of one row */
/* 3145728..4194303: unused */
#define GSHMEM_DEV_CTRL_RAW 4194304u           /* [slot][parity][sender index][LL_BYTES / 2] (4 MiB) */
#define GSHMEM_DEV_CTRL_LL 8388608u            /* [slot][parity][sender index][LL_BYTES] (8 MiB) */

#if defined(__CUDACC__)
#define GSHMEM_DEV_HD __host__ __device__
#else
#define GSHMEM_DEV_HD
#endif
/* Whether a block-scope reduction of bytes in nrows rows (source and dest at the addresses whose
 * bits are or-ed in addr_bits) goes through the large LL area: team slot 0, 2 to MAX_TEAM_PES
 * members, above the small LL payload, 16-byte aligned, and at most LL_BIG_ONE_ROW bytes sent in
 * all (bytes x (members - 1)) by one row (a block in a kernel, or an on-stream launch of one row),
 * or, by several rows, regions (one per other member, 1 KiB per 512 bytes, rounded up) that fill
 * at most a parity's area (2 PEs: 512 KiB). The kernel decides the path by it; the host sizes an
 * on-stream launch alike for both paths, giving 2 rows where only several rows fit. */
/* 1 KiB groups of LL words in a sender's region of a large LL round of bytes (32 16-byte chunks of
 * data a group; impl/ll.cuh ll_big_word). */
static inline GSHMEM_DEV_HD uint64_t gshmem_dev_ll_big_groups(uint64_t bytes) { return (bytes + 511) / 512; }
static inline GSHMEM_DEV_HD int gshmem_dev_ll_big_fits(int slot, int members, int nrows, uint64_t bytes,
                                                       uint64_t addr_bits) {
  if (!(slot == 0 && members >= 2 && members <= (int)GSHMEM_DEV_MAX_TEAM_PES && bytes > GSHMEM_DEV_LL_BYTES / 2 &&
        bytes <= GSHMEM_DEV_LL_BIG_AREA / 2 && ((addr_bits | bytes) & 15u) == 0))
    return 0;
  if (nrows > 1) return gshmem_dev_ll_big_groups(bytes) * (uint64_t)(members - 1) <= GSHMEM_DEV_LL_BIG_AREA / 1024;
  return bytes * (uint64_t)(members - 1) <= GSHMEM_DEV_LL_BIG_ONE_ROW;
}

typedef struct gshmem_device_state {
  uint32_t version;
  uint32_t size; /* sizeof(gshmem_device_state) */
  int32_t my_pe;
  int32_t npes;
  uint64_t window_base;   /* device VA of PE 0's segment */
  uint64_t window_stride; /* bytes between consecutive PEs' segments */
  uint64_t heap_size;     /* user heap bytes per PE (grows; same on every PE) */
  uint64_t heap_base;     /* this PE's user heap = window_base + my_pe*stride + CTRL_BYTES */
  uint32_t initialized;
  uint32_t world_mapped; /* 1: every PE's segment is mapped here, so team WORLD's device descriptor is
                           {npes, my_pe, slot 0, start 0, stride 1} (impl/team.cuh reads it from here) */
  uint64_t peer_table; /* 0 in window mode; else device pointer to uint64_t[npes] segment bases */
  /* The proxy FIFO (src/proxy/gpu_proxy.cpp); proxy_slots == 0: no PE is reached through it. */
  uint64_t proxy_slots;   /* gshmem_trigger[1 << proxy_log2], host-pinned, device-mapped */
  uint64_t proxy_dev;     /* gshmem_proxy_dev_words in GPU memory */
  uint64_t proxy_host;    /* gshmem_proxy_host_words, host-pinned, device-mapped */
  uint64_t proxy_peers;   /* uint8_t[npes] in GPU memory: 1 = reach this PE through the proxy */
  uint64_t proxy_results; /* gshmem_proxy_result[1 << proxy_log2] in GPU memory */
  uint32_t proxy_log2;
  uint32_t routed; /* 0: every PE is reached by loads and stores through the window, and pe's copy of a
                      heap address is that address + (pe - my_pe) * window_stride (window_mib); 1: p, g and
                      atomics take their out-of-line route (impl/core.cuh routed()) */
  uint64_t error_rec; /* gshmem_device_error, host-pinned, device-mapped: where a failing device check
                        reports (impl/core.cuh); 0 before shmem_init */
  uint32_t window_mib; /* window_stride / 1 MiB when routed is 0, else 0: the fast path's peer offset is
                         (pe - my_pe) * window_mib MiB, from 32-bit words, which the compiler computes
                         once outside a loop; 0 makes it the caller's own address */
  uint32_t reserved3;
} gshmem_device_state;

/* What a failing device check reports (device/gshmem/impl/core.cuh writes it, then traps; the host
 * prints it: src/mem/device_errors.cpp). One per PE; the first failing thread writes it. */
#define GSHMEM_DEV_ERROR_ADDR 1  /* a call's address/PE check: addr and target_pe are set */
#define GSHMEM_DEV_ERROR_VALUE 2 /* a bad argument value: value is set */
typedef struct gshmem_device_error {
  uint32_t ready; /* 1 once every other field is written (the writer fences before it) */
  int32_t kind;   /* GSHMEM_DEV_ERROR_* */
  int32_t pe, npes, target_pe, block, thread, pad;
  int64_t value;
  uint64_t addr, heap_base, heap_size;
  char call[64];
  char what[160];
} gshmem_device_error;

/* Proxy FIFO words. Producers (GPU threads) reserve slots with an atomic add on head (GPU memory).
 * The proxy thread publishes tail (slots it has copied out) and completed (slots whose operations
 * have finished) in pinned host memory for host-side waits, and copies completed into GPU memory
 * (a stream write after each batch) where GPU threads poll it: quiet and backpressure never poll
 * over PCIe (thousands of spinning threads would flood the link the triggers travel on). */
typedef struct gshmem_proxy_dev_words {
  uint64_t head;
  uint64_t completed;
} gshmem_proxy_dev_words;
typedef struct gshmem_proxy_host_words {
  uint64_t tail;
  uint64_t pad0[7];
  uint64_t completed;
  uint64_t pad1[7];
} gshmem_proxy_host_words;
/* One per FIFO slot: where a get of at most 8 bytes or a fetching atomic pushed at that slot gets
 * its value. busy is taken (0 -> 1) by the producer before it pushes and cleared after it read
 * the value, so a later producer of the same slot index cannot overwrite an unread result. */
typedef struct gshmem_proxy_result {
  uint64_t value;
  uint32_t busy;
  uint32_t pad;
} gshmem_proxy_result;

/* A team as device code sees it (written by the host on split/destroy into this PE's block). */
typedef struct gshmem_device_team {
  int32_t valid; /* 1: usable; 2: member list is not strided (host collectives only); 3: usable, routed
                    (a member on another node, or more than GSHMEM_DEV_DISSEM_MAX_PES); 0: none */
  int32_t size;
  int32_t my_index;
  int32_t slot;
  int32_t start;  /* world PE of team index 0 */
  int32_t stride; /* world PE of index i = start + i * stride */
  /* Routed teams whose members form runs of node_run consecutive team indices, one run per node,
     every run as long (at least 2 runs of at least 2 members): the phases, reductions,
     reduce-scatter, broadcast, fcollect and collect's sums combine or pass data on within each run
     through the mappings, and the runs' first members alone exchange across nodes
     (device/gshmem/impl/team.cuh, routed.cuh). 0 for every other team. */
  int32_t node_run;
  int32_t reserved;
} gshmem_device_team;

#ifdef __cplusplus
static_assert(sizeof(gshmem_device_team) == 32, "gshmem_device_team layout is part of the ABI");
static_assert(GSHMEM_DEV_CTRL_LL_PUB + GSHMEM_DEV_MAX_TEAMS * 8 <= GSHMEM_DEV_CTRL_ERROR_CLAIM, "layout");
static_assert(GSHMEM_DEV_CTRL_ERROR_CLAIM + 4 <= GSHMEM_DEV_CTRL_LL_BIG_ROWS, "layout");
static_assert(GSHMEM_DEV_CTRL_LL_BIG_ROWS + 4 <= GSHMEM_DEV_CTRL_RAW_FLAGS, "layout");
static_assert(GSHMEM_DEV_CTRL_RAW_FLAGS + GSHMEM_DEV_MAX_TEAMS * GSHMEM_DEV_MAX_TEAM_PES * 8 <= GSHMEM_DEV_CTRL_SCRATCH, "layout");
static_assert(GSHMEM_DEV_CTRL_TEAMS + GSHMEM_DEV_MAX_TEAMS * 32 <= GSHMEM_DEV_CTRL_PHASE_CNT, "layout");
static_assert(GSHMEM_DEV_CTRL_PHASE_CNT + GSHMEM_DEV_MAX_TEAMS * GSHMEM_DEV_MAX_ROWS * 8 <= GSHMEM_DEV_CTRL_LL_CNT, "layout");
static_assert(GSHMEM_DEV_CTRL_LL_CNT + GSHMEM_DEV_MAX_TEAMS * 8 <= GSHMEM_DEV_CTRL_COLLECT, "layout");
static_assert(GSHMEM_DEV_CTRL_COLLECT + GSHMEM_DEV_MAX_TEAMS * GSHMEM_DEV_MAX_TEAM_PES * 8 <= GSHMEM_DEV_CTRL_LL_DONE,
              "layout");
static_assert(GSHMEM_DEV_CTRL_LL_DONE + GSHMEM_DEV_MAX_TEAMS * GSHMEM_DEV_MAX_TEAM_PES * 8 <= GSHMEM_DEV_CTRL_PHASE_FLAGS,
              "layout");
static_assert(GSHMEM_DEV_CTRL_PHASE_FLAGS + GSHMEM_DEV_MAX_TEAMS * GSHMEM_DEV_MAX_ROWS * GSHMEM_DEV_MAX_TEAM_PES * 8 <=
                  GSHMEM_DEV_CTRL_ROUTED_FLAGS, "layout");
static_assert(GSHMEM_DEV_CTRL_ROUTED_FLAGS + GSHMEM_DEV_MAX_TEAMS * GSHMEM_DEV_ROUTED_WORDS * 8 <=
                  GSHMEM_DEV_CTRL_ROUTED_CNT, "layout");
static_assert(GSHMEM_DEV_CTRL_ROUTED_CNT + GSHMEM_DEV_MAX_TEAMS * 64 <= GSHMEM_DEV_CTRL_LL_BIG, "layout");
static_assert(GSHMEM_DEV_CTRL_LL_BIG + 2 * GSHMEM_DEV_LL_BIG_AREA <= GSHMEM_DEV_CTRL_RAW, "layout");
/* ll_big_word: whole 1 KiB groups of 32 16-byte chunks, each chunk 32 bytes of LL words */
static_assert(GSHMEM_DEV_LL_BIG_AREA % 1024 == 0 && GSHMEM_DEV_LL_BIG_ONE_ROW % 512 == 0 &&
                  GSHMEM_DEV_LL_BIG_ONE_ROW > GSHMEM_DEV_LL_BYTES / 2 &&
                  GSHMEM_DEV_LL_BIG_ONE_ROW <= GSHMEM_DEV_LL_BIG_AREA / 2, "layout");
static_assert(GSHMEM_DEV_CTRL_RAW + GSHMEM_DEV_MAX_TEAMS * 2 * GSHMEM_DEV_MAX_TEAM_PES * (GSHMEM_DEV_LL_BYTES / 2) <=
                  GSHMEM_DEV_CTRL_LL, "layout");
static_assert(GSHMEM_DEV_CTRL_LL + GSHMEM_DEV_MAX_TEAMS * 2 * GSHMEM_DEV_MAX_TEAM_PES * GSHMEM_DEV_LL_BYTES <=
                  GSHMEM_DEV_CTRL_BYTES, "layout");
static_assert(sizeof(gshmem_device_state) == 128, "gshmem_device_state layout is part of the ABI");
static_assert(sizeof(gshmem_device_error) == 288, "gshmem_device_error layout is part of the ABI");
static_assert(sizeof(gshmem_proxy_result) == 16 && sizeof(gshmem_proxy_host_words) == 128, "proxy words layout");
#endif

GSHMEM_EXTERN_C_BEGIN
/* Called once per nvcc-compiled translation unit (from a static initializer in the header) with a
 * function that copies the state into that unit's __constant__ symbol, and the version and size
 * of the state the unit was compiled with: a unit of another layout makes shmem_init fail. */
int gshmemi_register_device_state2(void (*update)(const gshmem_device_state *), unsigned version, unsigned size);
/* The form headers before device-state version 7 called: such a unit makes shmem_init fail. */
int gshmemi_register_device_state(void (*update)(const gshmem_device_state *));
GSHMEM_EXTERN_C_END

#endif
