// NCCL all_reduce (float sum) on the same sizes as coll_reduction_latency, for the side-by-side
// table: one process per GPU under mpirun (Open MPI environment), NCCL's unique id passed through
// the file named by GSHMEM_PERF_UID_FILE. Prints "size,us,GB/s" rows (algorithm bandwidth).
// Built by build_nccl.sh when NCCL's headers and library are found; not part of the meson build.
#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  const int rank = atoi(getenv("OMPI_COMM_WORLD_RANK")), n = atoi(getenv("OMPI_COMM_WORLD_SIZE"));
  const char* path = getenv("GSHMEM_PERF_UID_FILE");
  size_t lo = argc > 1 ? strtoull(argv[1], nullptr, 0) : 4, hi = argc > 2 ? strtoull(argv[2], nullptr, 0) : (64u << 20);
  const int iters = argc > 3 ? atoi(argv[3]) : 50;
  cudaSetDevice(rank);
  ncclUniqueId id;
  if (rank == 0) {
    ncclGetUniqueId(&id);
    std::string tmp = std::string(path) + ".tmp";
    FILE* f = fopen(tmp.c_str(), "wb");
    fwrite(&id, sizeof id, 1, f);
    fclose(f);
    rename(tmp.c_str(), path);
  } else {
    FILE* f = nullptr;
    for (int i = 0; i < 60000 && !(f = fopen(path, "rb")); ++i) usleep(1000);
    if (!f || fread(&id, sizeof id, 1, f) != 1) return 1;
    fclose(f);
  }
  ncclComm_t comm;
  if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 1;
  float *s, *d;
  cudaMalloc(&s, hi);
  cudaMalloc(&d, hi);
  cudaStream_t st;
  cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  if (rank == 0) printf("size,us,GB/s\n");
  for (size_t bytes = lo; bytes <= hi; bytes *= 2) {
    const size_t cnt = bytes / 4;
    for (int i = 0; i < 5; ++i) ncclAllReduce(s, d, cnt, ncclFloat, ncclSum, comm, st);
    cudaStreamSynchronize(st);
    cudaEventRecord(a, st);
    for (int i = 0; i < iters; ++i) ncclAllReduce(s, d, cnt, ncclFloat, ncclSum, comm, st);
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    const double us = ms * 1e3 / iters;
    if (rank == 0) printf("%zu,%.2f,%.1f\n", bytes, us, bytes / (us * 1e-6) / 1e9);
  }
  ncclCommDestroy(comm);
  return 0;
}
