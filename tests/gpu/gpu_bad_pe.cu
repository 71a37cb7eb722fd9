// Bad input from device code. With device checks compiled in (the default of shmem.h without
// NDEBUG, or -DGSHMEM_DEVICE_CHECKS=1), a bad call prints a message naming the call, the PE and
// the address, and traps; without them (NDEBUG, or through nvshmem.h unless the checks are asked
// for) nothing checks and the access faults. Either way the host sees the kernel fail and the job
// ends non-zero; the program says which checks it was built with. Modes (argv[1]):
//   pe     a p to PE npes + 7
//   many   the same from 8 blocks of 256 threads at once: one of them writes the error record
//          (impl/core.cuh) and the message still comes out whole
//   heap   a p to PE 1 of an address outside the symmetric heap (a cudaMalloc'd int)
//   align  an atomic add to PE 1 at a heap address 2 bytes past an int
// Built with -DGSHMEM_TEST_NVSHMEM_H it includes nvshmem.h and calls the NVSHMEM names.
#ifdef GSHMEM_TEST_NVSHMEM_H
#include <nvshmem.h>
#define TEST_P nvshmem_int_p
#define TEST_ADD nvshmem_int_atomic_add
#else
#include <shmem.h>
#define TEST_P shmem_int_p
#define TEST_ADD shmem_int_atomic_add
#endif

#include <cstdio>
#include <cstring>

__global__ void bad_p(int* x, int pe) { TEST_P(x, 1, pe); }
__global__ void bad_add(int* x, int pe) { TEST_ADD(x, 1, pe); }

int main(int argc, char** argv) {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) return 77;
  shmem_init();
  int* x = static_cast<int*>(shmem_malloc(2 * sizeof(int)));
  if (shmem_my_pe() == 0) {
    printf("device checks: %s\n", GSHMEM_DEVICE_CHECKS ? "on" : "off");
    fflush(stdout);
    const char* mode = argc > 1 ? argv[1] : "pe";
    if (!strcmp(mode, "heap")) {
      int* outside = nullptr;
      if (cudaMalloc(&outside, sizeof(int)) != cudaSuccess) shmem_global_exit(4);
      bad_p<<<1, 1>>>(outside, 1);
    } else if (!strcmp(mode, "align")) {
      bad_add<<<1, 1>>>(reinterpret_cast<int*>(reinterpret_cast<char*>(x) + 2), 1);
    } else {
      const bool many = !strcmp(mode, "many");
      bad_p<<<many ? 8 : 1, many ? 256 : 1>>>(x, shmem_n_pes() + 7);
    }
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "kernel ended with: %s\n", cudaGetErrorString(e));
    shmem_global_exit(e == cudaSuccess ? 0 : 3);
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
