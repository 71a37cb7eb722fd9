// The on-stream broadcast, many times in a row, each result checked on the GPU: 3 MiB down to
// 256 KiB (from GSHMEM_COLL_BCAST_SCATTER_BYTES, 2 MiB by default, the larger ones take the
// scatter path), every PE the root in turn, destinations poisoned before each round, a fresh
// payload per round. Before every other large broadcast, a small one on the same stream (an LL
// round), so that the large one's rows first settle the team's LL rounds (impl/ll.cuh
// settle_ll) while other rows record the settled count: each row's threads must still take one
// path, or a member passes on parts of the root's data before they have arrived.
// Run: oshrun -np N gpu_bcast_stress [rounds] (N >= 3 for the scatter path).
#include "gpu_util.cuh"

#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  skip_without_gpu();
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int rounds = argc > 1 ? atoi(argv[1]) : 60;
  const size_t sizes[] = {3u << 20, 2u << 20, (1u << 20) + 16, 256u << 10};
  const size_t most = sizes[0];
  uint64_t* src = static_cast<uint64_t*>(shmem_malloc(most));
  uint64_t* dst = static_cast<uint64_t*>(shmem_malloc(most));
  uint64_t* small = static_cast<uint64_t*>(shmem_malloc(2 * 64));  // the LL broadcast: src, dest
  unsigned long long* bad = nullptr;
  CK(cudaMalloc(&bad, sizeof *bad));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  const uint64_t seed = shared_seed();
  long failures = 0;
  for (int r = 0; r < rounds; ++r) {
    for (size_t bytes : sizes) {
      const int root = (r + static_cast<int>(bytes >> 10)) % npes;
      const uint64_t s = mix64(seed + static_cast<uint64_t>(r) * 131 + bytes);
      std::vector<uint64_t> h(bytes / 8);
      for (size_t i = 0; i < h.size(); ++i) h[i] = payload(s, root, i);
      CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
      CK(cudaMemset(dst, 0xA5, bytes));
      CK(cudaMemset(bad, 0, sizeof *bad));
      CK(cudaDeviceSynchronize());
      shmem_barrier_all();
      const bool ll_first = (r + static_cast<int>(bytes >> 10)) % 2 == 0;
      if (ll_first) shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, small + 8, small, 64, root, st);
      shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes, root, st);
      verify<<<64, 256, 0, st>>>(dst, bytes / 8, s, root, bad);
      unsigned long long nbad = 0;
      CK(cudaMemcpyAsync(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost, st));
      CK(cudaStreamSynchronize(st));
      if (nbad) {
        ++failures;
        fprintf(stderr, "FAIL pe %d: round %d, %zu bytes from root %d%s: %llu of %zu words wrong\n", me, r, bytes,
                root, ll_first ? " after an LL broadcast" : "", nbad, bytes / 8);
      }
    }
  }
  shmem_barrier_all();
  // Each PE judges its own results; oshrun exits non-zero when any PE does.
  printf("gpu_bcast_stress: pe %d of %d, %d rounds of %zu sizes: %s\n", me, npes, rounds,
         sizeof sizes / sizeof sizes[0], failures ? "FAILED" : "every broadcast verified");
  CK(cudaStreamDestroy(st));
  CK(cudaFree(bad));
  shmem_free(small);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return failures ? 1 : 0;
}
