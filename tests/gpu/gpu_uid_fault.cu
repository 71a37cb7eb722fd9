// The GPU case of tests/launch/test_uid_fault.py: PEs started without a launcher (unique-id
// bootstrap); each survivor's host thread sits in cudaDeviceSynchronize while its kernel waits on
// a signal that the killed PE will never send. Only gshmem's health monitor can end it.
#include "../launch/uid_pe.h"
#include "gpu_util.cuh"

__global__ void wait_signal(uint64_t* sig) { shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1); }

int main(int argc, char** argv) {
  skip_without_gpu();
  const int rank = uid_pe_init(argc, argv);
  skip_unless_gpu_per_pe(2);
  const int victim = argc > 5 ? atoi(argv[5]) : 1;
  auto* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  uid_pe_ready(rank);
  if (rank == victim)
    for (;;) pause();
  wait_signal<<<1, 1>>>(sig);
  CK(cudaGetLastError());
  const cudaError_t e = cudaDeviceSynchronize();
  printf("pe %d: the kernel's wait ended (%s) although pe %d is dead\n", rank, cudaGetErrorString(e), victim);
  return 0;
}
