// Bad input from device code. With device checks compiled in (the default without NDEBUG, or
// -DGSHMEM_DEVICE_CHECKS=1), a put to an out-of-range PE prints a message naming the call, the PE
// and the address, and traps; without them (NDEBUG: release builds) nothing checks the PE and the
// store goes to an address outside every heap, which faults. Either way the host sees the kernel
// fail and the job ends non-zero; the program says which checks it was built with. With the
// argument "many", 8 blocks of 256 threads all fail at once: one of them writes the error record
// (impl/core.cuh) and the message still comes out whole.
#include <shmem.h>

#include <cstdio>
#include <cstring>

__global__ void bad(int* x, int pe) { shmem_int_p(x, 1, pe); }

int main(int argc, char** argv) {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) return 77;
  shmem_init();
  int* x = static_cast<int*>(shmem_malloc(sizeof(int)));
  if (shmem_my_pe() == 0) {
    printf("device checks: %s\n", GSHMEM_DEVICE_CHECKS ? "on" : "off");
    fflush(stdout);
    const bool many = argc > 1 && !strcmp(argv[1], "many");
    bad<<<many ? 8 : 1, many ? 256 : 1>>>(x, shmem_n_pes() + 7);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "kernel ended with: %s\n", cudaGetErrorString(e));
    shmem_global_exit(e == cudaSuccess ? 0 : 3);
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
