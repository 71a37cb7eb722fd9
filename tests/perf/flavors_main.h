// The common start of the two-PE flavour programs (shmem_gp_flavors, shmem_sync_flavors): options
// -n (iterations), -w (warm-up), -t (threads), -e (largest size), then shmem_init and the check
// for exactly 2 PEs; and the timing of one launch.
#pragma once
#include <cuda_runtime.h>
#include <shmem.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

struct FlavorArgs {
  int iters, warmup, threads;
  size_t max;
};

// Parses the options over the defaults in a, then starts SHMEM. Returns this PE, or -1 (after a
// message from PE 0 and shmem_finalize) when the job does not have 2 PEs.
inline int flavors_start(const char* prog, int argc, char** argv, FlavorArgs* a) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n")) a->iters = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-w")) a->warmup = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-t")) a->threads = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-e")) a->max = strtoull(argv[i + 1], nullptr, 0);
  }
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2) {
    if (me == 0) fprintf(stderr, "%s: needs 2 PEs\n", prog);
    shmem_finalize();
    return -1;
  }
  return me;
}

// Times launch() (one kernel launch of iters iterations on the default stream) between two CUDA
// events; us per iteration. A failed launch ends the job with CUDA's message.
template <typename Launch>
float flavors_time_us(const char* prog, int me, int iters, Launch launch) {
  static cudaEvent_t a, b;
  if (!a) {
    cudaEventCreate(&a);
    cudaEventCreate(&b);
  }
  cudaEventRecord(a);
  launch();
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s (PE %d)\n", prog, cudaGetErrorString(e), me);
    shmem_global_exit(1);
  }
  return ms * 1000.0f / static_cast<float>(iters);
}
