// Host-issued nonblocking puts to GPU memory (mem::DeviceOps::put_from_heap: queued, issued as one batched
// copy when the queue fills or at the next other host operation on GPU memory). Each PE puts to its
// right neighbour; the receiver checks every byte of the destination against the payload and the
// poison around it. Sections: (1) 600 puts of random sizes and alignments, sources in the heap
// (queued), in cudaMalloc memory and in host memory (issued at once), a few past
// GSHMEM_HOST_NBI_BATCH_BYTES; (2) groups of puts over one range separated by shmem_fence: the
// last group wins; (3) the source changed right after the quiet: the old data arrived; (4) puts, a
// fence, then put_signal: the receiver waits for the signal on the host and finds the data; (5) a
// context with its own stream and the default context interleaved, ctx_fence and ctx_quiet; (6)
// blocking and nbi puts of a few MiB, odd sizes (issued at once); (7) puts and then shmem_malloc,
// whose closing barrier completes them.
// Run: oshrun -np N gpu_host_nbi (N >= 2, one GPU per PE), also with GSHMEM_HOST_NBI_BATCH=0 / 5.
#include "gpu_util.cuh"

#include <cstring>
#include <random>
#include <vector>

namespace {
constexpr unsigned char kPoison = 0x5A;
constexpr size_t kDst = 24 << 20;  // destination span per section
constexpr size_t kSrc = 4 << 20;   // source span

unsigned char byte_of(uint64_t seed, int pe, size_t i) { return static_cast<unsigned char>(payload(seed, pe, i) >> 23); }

__global__ void fill_k(unsigned char* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = static_cast<unsigned char>(payload(seed, pe, i) >> 23);
}

struct Put {
  size_t dst, src, n;
  int where;  // 0: source in the heap, 1: cudaMalloc, 2: host memory
};

// The puts a PE makes in section 1 (every PE can recompute its left neighbour's).
std::vector<Put> plan(uint64_t seed, int pe) {
  std::mt19937_64 rng(mix64(seed ^ (0x1234ull + pe)));
  std::vector<Put> v;
  size_t at = 0;
  for (int i = 0; i < 600; ++i) {
    size_t n = 1 + rng() % (i % 7 == 0 ? 65536 : 2048);
    if (i == 150 || i == 451) n = (1 << 20) + 1 + rng() % 4096;  // past the queued size
    at += rng() % 64;
    if (at + n > kDst) break;
    const int where = i % 11 == 3 ? 1 : i % 13 == 5 ? 2 : 0;
    v.push_back({at, rng() % (kSrc - n), n, where});
    at += n;
  }
  return v;
}

// Counts bytes of the device range that differ from want (host); prints the first.
int compare(const char* what, const unsigned char* dev, const std::vector<unsigned char>& want) {
  std::vector<unsigned char> got(want.size());
  CK(cudaMemcpy(got.data(), dev, want.size(), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      if (bad++ == 0)
        fprintf(stderr, "FAIL pe %d: %s: byte %zu is 0x%02x, want 0x%02x\n", shmem_my_pe(), what, i, got[i], want[i]);
    }
  if (bad) ++g_failures, fprintf(stderr, "FAIL pe %d: %s: %d bytes wrong\n", shmem_my_pe(), what, bad);
  return bad;
}
}  // namespace

int main() {
  skip_without_gpu();
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  const uint64_t seed = shared_seed();

  unsigned char* dst = static_cast<unsigned char*>(shmem_malloc(kDst));
  unsigned char* src = static_cast<unsigned char*>(shmem_malloc(kSrc));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, 8));
  unsigned char* dev_src = nullptr;
  CK(cudaMalloc(&dev_src, kSrc));
  std::vector<unsigned char> host_src(kSrc);
  // each kind of source holds other bytes (seed, seed ^ 1, seed ^ 2), so a put that read the wrong one shows
  for (size_t i = 0; i < kSrc; ++i) host_src[i] = byte_of(seed ^ 2, me, i);
  fill_k<<<64, 256>>>(src, kSrc, seed, me);
  fill_k<<<64, 256>>>(dev_src, kSrc, seed ^ 1, me);
  auto poison = [&] {
    CK(cudaMemset(dst, kPoison, kDst));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
  };
  std::vector<unsigned char> want(kDst);

  progress("1. 600 puts, random sizes and sources");
  {
    poison();
    const unsigned char* from[3] = {src, dev_src, host_src.data()};
    for (const Put& p : plan(seed, me)) shmem_putmem_nbi(dst + p.dst, from[p.where] + p.src, p.n, right);
    shmem_quiet();
    shmem_barrier_all();
    std::fill(want.begin(), want.end(), kPoison);
    for (const Put& p : plan(seed, left))
      for (size_t i = 0; i < p.n; ++i) want[p.dst + i] = byte_of(seed ^ static_cast<uint64_t>(p.where), left, p.src + i);
    compare("random puts", dst, want);
  }

  progress("2. groups over one range, separated by shmem_fence");
  {
    poison();
    constexpr int kGroups = 4, kPuts = 60, kLen = 200;  // kPuts x kLen bytes, rewritten by every group
    for (int g = 0; g < kGroups; ++g) {
      for (int i = 0; i < kPuts; ++i) shmem_putmem_nbi(dst + i * kLen, src + g * 4096 + i * 7, kLen, right);
      if (g + 1 < kGroups) shmem_fence();
    }
    shmem_quiet();
    shmem_barrier_all();
    std::vector<unsigned char> w(kPuts * kLen + 64, kPoison);
    for (int i = 0; i < kPuts; ++i)
      for (int k = 0; k < kLen; ++k) w[i * kLen + k] = byte_of(seed, left, (kGroups - 1) * 4096 + i * 7 + k);
    compare("fenced groups", dst, w);
  }

  progress("3. the source changes right after the quiet");
  {
    poison();
    for (int i = 0; i < 40; ++i) shmem_putmem_nbi(dst + i * 1000, src + i * 1000, 1000, right);
    shmem_quiet();
    CK(cudaMemset(src, 0, 40 * 1000));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    std::vector<unsigned char> w(41 * 1000, kPoison);
    for (size_t i = 0; i < 40 * 1000; ++i) w[i] = byte_of(seed, left, i);
    compare("source reused after quiet", dst, w);
    fill_k<<<64, 256>>>(src, kSrc, seed, me);
    CK(cudaDeviceSynchronize());
  }

  progress("4. puts, fence, put_signal; the receiver waits on the host");
  {
    poison();
    for (int i = 0; i < 50; ++i) shmem_putmem_nbi(dst + i * 300, src + i * 300 + 5, 300, right);
    shmem_fence();
    shmem_putmem_signal(dst + 50 * 300, src + 50 * 300 + 5, 8, sig, 1 + seed % 1000, SHMEM_SIGNAL_SET, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1 + seed % 1000);
    std::vector<unsigned char> w(50 * 300 + 8 + 64, kPoison);
    for (size_t i = 0; i < 50 * 300 + 8; ++i) w[i] = byte_of(seed, left, i + 5);
    compare("data before the signal", dst, w);
    shmem_quiet();
    shmem_barrier_all();
  }

  progress("5. a context stream and the default context interleaved");
  {
    poison();
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    if (shmem_ctx_create(0, &c) != 0) {
      fprintf(stderr, "FAIL pe %d: shmem_ctx_create\n", me);
      shmem_global_exit(1);
    }
    for (int i = 0; i < 300; ++i) {
      shmem_putmem_nbi(dst + i * 256, src + i * 256, 256, right);
      shmem_ctx_putmem_nbi(c, dst + (1 << 20) + i * 256, src + i * 256 + 3, 256, right);
    }
    // fenced groups on the context: the second wins
    for (int i = 0; i < 100; ++i) shmem_ctx_putmem_nbi(c, dst + (2 << 20) + i * 64, src + i * 64, 64, right);
    shmem_ctx_fence(c);
    for (int i = 0; i < 100; ++i) shmem_ctx_putmem_nbi(c, dst + (2 << 20) + i * 64, src + 9999 + i * 64, 64, right);
    shmem_ctx_quiet(c);
    shmem_quiet();
    shmem_barrier_all();
    std::fill(want.begin(), want.begin() + (3 << 20), kPoison);
    for (size_t i = 0; i < 300 * 256; ++i) {
      want[i] = byte_of(seed, left, i);
      want[(1 << 20) + i] = byte_of(seed, left, i + 3);
    }
    for (size_t i = 0; i < 100 * 64; ++i) want[(2 << 20) + i] = byte_of(seed, left, 9999 + i);
    std::vector<unsigned char> w(want.begin(), want.begin() + (3 << 20));
    compare("context and default puts", dst, w);
    shmem_ctx_destroy(c);
  }

  progress("6. blocking and nbi puts of a few MiB");
  {
    poison();
    const size_t n1 = (3 << 20) + 4097, n2 = (1 << 20) + 3;  // odd sizes, past the queued size
    shmem_putmem(dst + 11, src + 5, n1, right);
    shmem_putmem_nbi(dst + (4 << 20), src + 77, n2, right);
    shmem_quiet();
    shmem_barrier_all();
    std::vector<unsigned char> w((6 << 20), kPoison);
    for (size_t i = 0; i < n1; ++i) w[11 + i] = byte_of(seed, left, 5 + i);
    for (size_t i = 0; i < n2; ++i) w[(4 << 20) + i] = byte_of(seed, left, 77 + i);
    compare("large puts", dst, w);
  }

  progress("7. puts, then shmem_malloc (a barrier on exit) with no quiet");
  {
    poison();
    for (int i = 0; i < 30; ++i) shmem_putmem_nbi(dst + i * 512, src + 100 + i * 512, 512, right);
    void* extra = shmem_malloc(1 << 20);  // completes the puts on every PE before it returns
    std::vector<unsigned char> w(30 * 512 + 64, kPoison);
    for (size_t i = 0; i < 30 * 512; ++i) w[i] = byte_of(seed, left, 100 + i);
    compare("puts before shmem_malloc", dst, w);
    shmem_barrier_all();
    shmem_free(extra);
  }

  shmem_barrier_all();
  CK(cudaFree(dev_src));
  shmem_free(sig);
  shmem_free(src);
  shmem_free(dst);
  const int failures = g_failures;
  if (me == 0 && failures == 0) printf("gpu_host_nbi: %d PEs ok\n", npes);
  shmem_finalize();
  return failures ? 1 : 0;
}
