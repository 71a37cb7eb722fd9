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

#define GSHMEM_DEVICE_STATE_VERSION 1u
/* 2 MiB (the VMM granularity) so the user heap starts 2 MiB-aligned on every PE */
#define GSHMEM_DEV_CTRL_BYTES (2u * 1024u * 1024u)
#define GSHMEM_DEV_MAX_ROUNDS 32
/* control block offsets (bytes) */
#define GSHMEM_DEV_CTRL_BARRIER 0u            /* uint64 flag per dissemination round, 128 B apart */
#define GSHMEM_DEV_CTRL_EPOCH 8192u           /* uint64: this PE's device barrier epoch (local) */
#define GSHMEM_DEV_CTRL_STREAM_BARRIER 12288u /* uint64 flag per round for on-stream barriers */
#define GSHMEM_DEV_CTRL_SCRATCH 16384u        /* uint64: result of a host-initiated atomic */
#define GSHMEM_DEV_FLAG_STRIDE 128u

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
  uint32_t reserved;
  uint64_t peer_table; /* 0 in window mode; else device pointer to uint64_t[npes] segment bases */
} gshmem_device_state;

#ifdef __cplusplus
static_assert(sizeof(gshmem_device_state) == 64, "gshmem_device_state layout is part of the ABI");
extern "C" {
#endif
/* Called once per nvcc-compiled translation unit (from a static initializer in the header) with a
 * function that copies the state into that unit's __constant__ symbol. */
int gshmemi_register_device_state(void (*update)(const gshmem_device_state *));
#ifdef __cplusplus
}
#endif

#endif
