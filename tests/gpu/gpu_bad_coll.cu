// Bad input to GPU collectives; argv[1] picks the case, each ends the job non-zero with a message
// naming the call and the value (tests/gpu/meson.build matches it):
//   host-ptr   on-stream reduction on memory that is not on the device heap (host error)
//   destroyed  on-stream reduction on a team that was destroyed (host error)
//   root       in-kernel broadcast with PE_root outside the team (device trap)
//   handle     in-kernel reduction on a team handle that does not exist (device trap)
#include <shmem.h>
#include <shmemx.h>

#include <cstdio>
#include <cstring>

__global__ void bad_root(int* d, const int* s, int root) { shmem_int_broadcast(SHMEM_TEAM_WORLD, d, s, 1, root); }
__global__ void bad_handle(int* d, const int* s) { shmem_int_sum_reduce(40, d, s, 1); }

static int host_buf[16];

int main(int argc, char** argv) {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) return 77;
  const char* mode = argc > 1 ? argv[1] : "";
  shmem_init();
  int* d = static_cast<int*>(shmem_malloc(64 * sizeof(int)));
  int* s = d + 32;
  if (!strcmp(mode, "host-ptr")) {
    shmemx_int_sum_reduce_on_stream(SHMEM_TEAM_WORLD, host_buf, host_buf + 8, 4, nullptr);
  } else if (!strcmp(mode, "destroyed")) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &t);
    shmem_team_destroy(t);
    shmemx_int_sum_reduce_on_stream(t, d, s, 4, nullptr);
  } else if (!strcmp(mode, "root") || !strcmp(mode, "handle")) {
    if (shmem_my_pe() == 0) {
      if (!strcmp(mode, "root")) bad_root<<<1, 1>>>(d, s, shmem_n_pes() + 3);
      else bad_handle<<<1, 1>>>(d, s);
      cudaError_t e = cudaDeviceSynchronize();
      fprintf(stderr, "kernel ended with: %s\n", cudaGetErrorString(e));
      shmem_global_exit(e == cudaSuccess ? 0 : 3);
    }
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
