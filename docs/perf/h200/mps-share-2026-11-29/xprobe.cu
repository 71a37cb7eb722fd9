// ad-hoc probe: can N processes' cooperative grids (MPS clients of one GPU) all be resident at once?
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
__global__ void probe(unsigned *counter, unsigned total, long long limit, unsigned *seen) {
  extern __shared__ char sm[];
  if (threadIdx.x == 0) {
    if (blockDim.x > 1) sm[0] = 1;
    atomicAdd_system(counter, 1u);
    long long t0 = clock64();
    while (*(volatile unsigned *)counter < total && clock64() - t0 < limit) {
    }
    atomicMin(seen, *(volatile unsigned *)counter);
  }
  __syncthreads();
}
int main(int argc, char **argv) {
  int G = atoi(argv[1]), T = atoi(argv[2]), shm = atoi(argv[3]), nproc = atoi(argv[4]);
  const char *pe = getenv("OMPI_COMM_WORLD_RANK");
  int fd = open("/dev/shm/xprobe", O_RDWR);
  unsigned *h = (unsigned *)mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  cudaSetDevice(0);
  cudaHostRegister(h, 4096, cudaHostRegisterMapped);
  unsigned *d; cudaHostGetDevicePointer(&d, h, 0);
  cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, shm);
  unsigned *seen; cudaMalloc(&seen, 4); cudaMemset(seen, 0xff, 4);
  unsigned total = G * nproc; long long limit = 4000000000LL;  // about 2 s
  void *args[] = {&d, &total, &limit, &seen};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)probe, G, T, args, shm, 0);
  cudaError_t e2 = cudaDeviceSynchronize();
  unsigned s = 0; cudaMemcpy(&s, seen, 4, cudaMemcpyDeviceToHost);
  printf("pe %s pct %s grid %d x %d shm %d, %d processes: launch %s sync %s; fewest arrivals a block saw %u of %u%s\n", pe ? pe : "-",
         getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE") ? getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE") : "-", G, T, shm, nproc,
         cudaGetErrorString(e), cudaGetErrorString(e2), s, total, s < total ? "  NOT ALL RESIDENT" : "");
  return 0;
}
