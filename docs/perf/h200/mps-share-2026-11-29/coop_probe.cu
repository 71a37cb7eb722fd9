// ad-hoc probe: is a cooperative grid co-resident under MPS with an active-thread share?
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
__global__ void probe(unsigned *counter, unsigned G, long long spin, unsigned *seen) {
  extern __shared__ char sm[];
  if (threadIdx.x == 0) {
    sm[0] = 1;
    atomicAdd(counter, 1u);
    long long t0 = clock64();
    unsigned v = 0;
    while (clock64() - t0 < spin) {
      v = *(volatile unsigned *)counter;
      if (v >= G && spin < 0) break;
    }
    v = *(volatile unsigned *)counter;
    atomicMin(seen, v);
  }
  __syncthreads();
}
int main(int argc, char **argv) {
  int G = atoi(argv[1]), T = atoi(argv[2]), shm = atoi(argv[3]);
  long long spin = atoll(argv[4]);  // cycles every block spins (overlap with other processes)
  const char *pe = getenv("OMPI_COMM_WORLD_RANK");
  cudaSetDevice(0);
  cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, shm);
  int sms = 0, bpsm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bpsm, probe, T, shm);
  CUcontext ctx; cuCtxGetCurrent(&ctx);
  CUexecAffinityParam aff{}; CUresult ar = cuCtxGetExecAffinity(&aff, CU_EXEC_AFFINITY_TYPE_SM_COUNT);
  unsigned *c, *seen;
  cudaMalloc(&c, 4); cudaMalloc(&seen, 4); cudaMemset(c, 0, 4); cudaMemset(seen, 0xff, 4);
  void *args[] = {&c, &G, &spin, &seen};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)probe, G, T, args, shm, 0);
  cudaError_t e2 = cudaDeviceSynchronize();
  unsigned s = 0; cudaMemcpy(&s, seen, 4, cudaMemcpyDeviceToHost);
  printf("pe %s pct %s: attr SMs %d, exec-affinity SMs %d (rc %d), blocks/SM %d, grid %d x %d shm %d: launch %s, sync %s, fewest blocks seen by a block after its spin %u\n",
         pe ? pe : "-", getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE") ? getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE") : "-",
         sms, (int)aff.param.smCount.val, (int)ar, bpsm, G, T, shm, cudaGetErrorString(e), cudaGetErrorString(e2), s);
  return 0;
}
