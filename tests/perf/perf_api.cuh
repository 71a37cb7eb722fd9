// The few calls the GPU suites use, spelled once for gshmem and once for NVSHMEM
// (-DGSHMEM_PERF_NVSHMEM), so the same suite source measures both.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

// The GPU suites measure GPU PEs: on a machine without a usable GPU they skip (exit 77) with a
// line saying so, before the SHMEM starts (which would give CPU PEs there).
inline void perf_require_gpu(const char* suite) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    fprintf(stderr, "%s: no usable CUDA GPU (%s); skipping\n", suite, e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    exit(77);
  }
}

// A kernel that did not launch (more registers than the block size allows, a bad configuration)
// or failed while running must not yield a number: stop with CUDA's error (the launcher ends the
// job when a PE exits non-zero).
inline void perf_check_kernel(const char* what, int threads) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    fprintf(stderr, "perf: the %s (%d threads per block) failed: %s\n", what, threads, cudaGetErrorString(e));
    exit(1);
  }
}
#ifdef GSHMEM_PERF_NVSHMEM
#include <nvshmem.h>
#include <nvshmemx.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#define P_IMPL "nvshmem"
// NVSHMEM under Open MPI's mpirun: bind to the local-rank GPU, then initialise with NVSHMEM's
// unique id, which rank 0 hands to the others through the file named by GSHMEM_PERF_UID_FILE.
inline void perf_nvshmem_init() {
  const char* lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  const char* r = getenv("OMPI_COMM_WORLD_RANK");
  const char* n = getenv("OMPI_COMM_WORLD_SIZE");
  const char* path = getenv("GSHMEM_PERF_UID_FILE");
  int ngpu = 0;
  if (lr && cudaGetDeviceCount(&ngpu) == cudaSuccess && ngpu) cudaSetDevice(atoi(lr) % ngpu);
  if (!r || !n || !path) {
    nvshmem_init();
    return;
  }
  const int rank = atoi(r), nranks = atoi(n);
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (rank == 0) {
    nvshmemx_get_uniqueid(&id);
    std::string tmp = std::string(path) + ".tmp";
    FILE* f = fopen(tmp.c_str(), "wb");
    fwrite(&id, sizeof id, 1, f);
    fclose(f);
    rename(tmp.c_str(), path);
  } else {
    FILE* f = nullptr;
    for (int i = 0; i < 60000 && !(f = fopen(path, "rb")); ++i) usleep(1000);
    if (!f || fread(&id, sizeof id, 1, f) != 1) {
      fprintf(stderr, "perf: no NVSHMEM unique id in %s\n", path);
      exit(1);
    }
    fclose(f);
  }
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  nvshmemx_set_attr_uniqueid_args(rank, nranks, &id, &attr);
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
}
#define P_init() perf_nvshmem_init()
#define P_finalize() nvshmem_finalize()
#define P_my_pe() nvshmem_my_pe()
#define P_n_pes() nvshmem_n_pes()
#define P_malloc(n) nvshmem_malloc(n)
#define P_free(p) nvshmem_free(p)
#define P_barrier_all() nvshmem_barrier_all()
#define P_putmem nvshmem_putmem
#define P_ptr nvshmem_ptr
#define P_getmem nvshmem_getmem
#define P_p nvshmem_uint64_p
#define P_g nvshmem_uint64_g
#define P_quiet nvshmem_quiet
#define P_fence nvshmem_fence
#define P_wait_until nvshmem_uint64_wait_until
#define P_signal_wait_until nvshmem_signal_wait_until
#define P_putmem_signal nvshmem_putmem_signal
#define P_signal_op nvshmemx_signal_op
#define P_fetch_add nvshmem_uint64_atomic_fetch_add
#define P_fetch nvshmem_uint64_atomic_fetch
#define P_cswap nvshmem_uint64_atomic_compare_swap
#define P_swap nvshmem_uint64_atomic_swap
#define P_set nvshmem_uint64_atomic_set
#define P_add nvshmem_uint64_atomic_add
#define P_dev_barrier_all nvshmem_barrier_all
#define P_putmem_nbi_block nvshmemx_putmem_nbi_block
#define P_putmem_block nvshmemx_putmem_block
#define P_putmem_warp nvshmemx_putmem_warp
#define P_getmem_block nvshmemx_getmem_block
#define P_getmem_warp nvshmemx_getmem_warp
#define P_getmem_nbi_block nvshmemx_getmem_nbi_block
#define P_putmem_on_stream nvshmemx_putmem_on_stream
#define P_putmem_signal_on_stream nvshmemx_putmem_signal_on_stream
#define P_signal_wait_until_on_stream nvshmemx_signal_wait_until_on_stream
#define P_barrier_all_on_stream nvshmemx_barrier_all_on_stream
#define P_SIGNAL_SET NVSHMEM_SIGNAL_SET
#define P_CMP_EQ NVSHMEM_CMP_EQ
#define P_CMP_GE NVSHMEM_CMP_GE
#define P_TEAM_WORLD NVSHMEM_TEAM_WORLD
#define P_barrier_all_block nvshmemx_barrier_all_block
#define P_collective_launch nvshmemx_collective_launch
#define P_bcast_block nvshmemx_float_broadcast_block
#define P_fcollect_block nvshmemx_float_fcollect_block
#define P_alltoall_block nvshmemx_float_alltoall_block
#define P_sum_reduce_block nvshmemx_float_sum_reduce_block
#define P_bcast_on_stream nvshmemx_float_broadcast_on_stream
#define P_fcollect_on_stream nvshmemx_float_fcollect_on_stream
#define P_alltoall_on_stream nvshmemx_float_alltoall_on_stream
#define P_sum_reduce_on_stream nvshmemx_float_sum_reduce_on_stream
#define P_sum_reducescatter_block nvshmemx_float_sum_reducescatter_block
#define P_sum_reducescatter_on_stream nvshmemx_float_sum_reducescatter_on_stream
#else
#include <shmem.h>
#include <shmemx.h>
#define P_IMPL "gshmem"
#define P_init() shmem_init()
#define P_finalize() shmem_finalize()
#define P_my_pe() shmem_my_pe()
#define P_n_pes() shmem_n_pes()
#define P_malloc(n) shmem_malloc(n)
#define P_free(p) shmem_free(p)
#define P_barrier_all() shmem_barrier_all()
#define P_putmem shmem_putmem
#define P_ptr shmem_ptr
#define P_getmem shmem_getmem
#define P_p shmem_uint64_p
#define P_g shmem_uint64_g
#define P_quiet shmem_quiet
#define P_fence shmem_fence
#define P_wait_until shmem_uint64_wait_until
#define P_signal_wait_until shmem_signal_wait_until
#define P_putmem_signal shmem_putmem_signal
#define P_signal_op shmemx_signal_op
#define P_fetch_add shmem_uint64_atomic_fetch_add
#define P_fetch shmem_uint64_atomic_fetch
#define P_cswap shmem_uint64_atomic_compare_swap
#define P_swap shmem_uint64_atomic_swap
#define P_set shmem_uint64_atomic_set
#define P_add shmem_uint64_atomic_add
#define P_dev_barrier_all shmem_barrier_all
#define P_putmem_nbi_block shmemx_putmem_nbi_block
#define P_putmem_block shmemx_putmem_block
#define P_putmem_warp shmemx_putmem_warp
#define P_getmem_block shmemx_getmem_block
#define P_getmem_warp shmemx_getmem_warp
#define P_getmem_nbi_block shmemx_getmem_nbi_block
#define P_putmem_on_stream shmemx_putmem_on_stream
#define P_putmem_signal_on_stream shmemx_putmem_signal_on_stream
#define P_signal_wait_until_on_stream shmemx_signal_wait_until_on_stream
#define P_barrier_all_on_stream shmemx_barrier_all_on_stream
#define P_SIGNAL_SET SHMEM_SIGNAL_SET
#define P_CMP_EQ SHMEM_CMP_EQ
#define P_CMP_GE SHMEM_CMP_GE
#define P_TEAM_WORLD SHMEM_TEAM_WORLD
#define P_barrier_all_block shmemx_barrier_all_block
#define P_collective_launch shmemx_collective_launch
#define P_bcast_block shmemx_float_broadcast_block
#define P_fcollect_block shmemx_float_fcollect_block
#define P_alltoall_block shmemx_float_alltoall_block
#define P_sum_reduce_block shmemx_float_sum_reduce_block
#define P_bcast_on_stream shmemx_float_broadcast_on_stream
#define P_fcollect_on_stream shmemx_float_fcollect_on_stream
#define P_alltoall_on_stream shmemx_float_alltoall_on_stream
#define P_sum_reduce_on_stream shmemx_float_sum_reduce_on_stream
#define P_sum_reducescatter_block shmemx_float_sum_reducescatter_block
#define P_sum_reducescatter_on_stream shmemx_float_sum_reducescatter_on_stream
#define P_sum_exscan_block shmemx_float_sum_exscan_block
#define P_sum_exscan_on_stream shmemx_float_sum_exscan_on_stream
#endif
