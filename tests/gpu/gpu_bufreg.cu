// User buffer registration on GPU PEs (docs/buffers.md). Buffers from shmemx_mem_alloc and from
// cudaMalloc, registered with shmemx_buffer_register, as the local side of host put/get (into the
// peer's device heap and into its globals, which are host memory), nbi fetches, and kernel puts
// and gets (direct stores, or the proxy with GSHMEM_FORCE_PROXY); misuse returns its error code
// (double registration, freeing a registered buffer, a buffer freed while registered). A buffer
// per PE from shmemx_mem_alloc made symmetric with shmemx_buffer_register_symmetric: peers put into
// it from the host and from kernels, add to it atomically and reduce into it, and the owner sees
// every byte through its own pointer; the IPC heap (not growable) refuses it on every PE.
#include <vector>

#include "gpu_util.cuh"

constexpr size_t kBytes = 1 << 20;
constexpr size_t kWords = kBytes / sizeof(uint64_t);

static uint64_t g_glob[512];  // a global: host memory on every PE, symmetric

__global__ void fill_k(uint64_t* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = payload(seed, pe, i);
}
__global__ void put_k(void* dst, const void* src, size_t n, int pe) {
  shmemx_putmem_block(dst, src, n, pe);
  __syncthreads();
  if (threadIdx.x == 0) shmem_quiet();
}
__global__ void get_k(void* dst, const void* src, size_t n, int pe) {
  shmemx_getmem_block(dst, src, n, pe);
  __syncthreads();
  if (threadIdx.x == 0) shmem_quiet();
}

static void fill(void* p, size_t words, uint64_t seed, int pe) {
  fill_k<<<64, 256>>>(static_cast<uint64_t*>(p), words, seed, pe);
  CK(cudaDeviceSynchronize());
}

static void check(const char* what, const void* dev_or_host, size_t words, uint64_t seed, int pe) {
  std::vector<uint64_t> h(words);
  CK(cudaMemcpy(h.data(), dev_or_host, words * sizeof(uint64_t), cudaMemcpyDefault));
  for (size_t i = 0; i < words; ++i)
    if (h[i] != payload(seed, pe, i)) {
      EXPECT(false, "%s: word %zu (expected %#llx got %#llx, PE %d's payload)", what, i,
             (unsigned long long)payload(seed, pe, i), (unsigned long long)h[i], pe);
      return;
    }
}

static int left() { return (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes(); }
static int right() { return (shmem_my_pe() + 1) % shmem_n_pes(); }

// Moves data with local buffer L (registered) on every path; heap: a symmetric device buffer.
static void move_data(const char* kind, void* L, void* heap, uint64_t* ctr, uint64_t seed) {
  char what[128];
  const int me = shmem_my_pe(), l = left(), ll = (l + shmem_n_pes() - 1) % shmem_n_pes();
  // host put from L into the right PE's device heap
  fill(L, kWords, seed, me);
  CK(cudaMemset(heap, 0xa5, kBytes));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  shmem_putmem(heap, L, kBytes, right());
  shmem_barrier_all();
  snprintf(what, sizeof what, "%s: host putmem from it", kind);
  check(what, heap, kWords, seed, l);
  // host get into L from the left PE's heap
  CK(cudaMemset(L, 0xa5, kBytes));
  CK(cudaDeviceSynchronize());
  shmem_getmem(L, heap, kBytes, l);
  snprintf(what, sizeof what, "%s: host getmem into it", kind);
  check(what, L, kWords, seed, ll);
  // host put from L into the right PE's globals (host memory), host get back from the left
  fill(L, kWords, seed + 1, me);
  shmem_barrier_all();
  shmem_putmem(g_glob, L, sizeof g_glob, right());
  shmem_barrier_all();
  snprintf(what, sizeof what, "%s: host putmem from it into a global", kind);
  check(what, g_glob, 512, seed + 1, l);
  CK(cudaMemset(L, 0, kBytes));
  CK(cudaDeviceSynchronize());
  shmem_getmem(L, g_glob, sizeof g_glob, l);
  snprintf(what, sizeof what, "%s: host getmem from a global into it", kind);
  check(what, L, 512, seed + 1, ll);
  // nbi fetch into L
  shmem_barrier_all();
  shmem_uint64_atomic_fetch_nbi(static_cast<uint64_t*>(L), ctr, right());
  shmem_quiet();
  uint64_t got = 0;
  CK(cudaMemcpy(&got, L, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == 7000u + static_cast<unsigned>(right()), "%s: atomic_fetch_nbi into it (expected %d got %llu)", kind,
         7000 + right(), (unsigned long long)got);
  // kernel put from L, kernel get into L
  fill(L, kWords, seed + 2, me);
  CK(cudaMemset(heap, 0xa5, kBytes));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  put_k<<<1, 256>>>(heap, L, kBytes, right());
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  snprintf(what, sizeof what, "%s: kernel putmem_block from it", kind);
  check(what, heap, kWords, seed + 2, l);
  CK(cudaMemset(L, 0xa5, kBytes));
  CK(cudaDeviceSynchronize());
  get_k<<<1, 256>>>(L, heap, kBytes, l);
  CK(cudaDeviceSynchronize());
  snprintf(what, sizeof what, "%s: kernel getmem_block into it", kind);
  check(what, L, kWords, seed + 2, ll);
  shmem_barrier_all();
}

static void symmetric(uint64_t seed, void* heap) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  void* B = shmemx_mem_alloc(kBytes);
  EXPECT(B != nullptr, "shmemx_mem_alloc for the symmetric region");
  if (!B) return;
  CK(cudaMemset(B, 0xa5, kBytes));
  CK(cudaDeviceSynchronize());
  void* S = shmemx_buffer_register_symmetric(B, kBytes, 0);
  if (!shmemx_heap_growable()) {  // the IPC heap: refused on every PE
    EXPECT(S == nullptr, "register_symmetric on a heap that cannot take regions (expected NULL got %p)", S);
    EXPECT(shmemx_mem_free(B) == SHMEMX_SUCCESS, "shmemx_mem_free");
    return;
  }
  EXPECT(S != nullptr, "shmemx_buffer_register_symmetric returned NULL");
  if (!S) return;
  // host put into the right PE's region; the owner reads it through its own pointer B
  fill(heap, kWords, seed + 3, me);
  shmem_barrier_all();
  shmem_putmem(S, heap, kBytes, right());
  shmem_barrier_all();
  check("host putmem into a symmetric-registered buffer, read through the owner's pointer", B, kWords, seed + 3,
        left());
  // kernel put into it
  fill(heap, kWords, seed + 4, me);
  CK(cudaMemset(B, 0xa5, kBytes));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  put_k<<<1, 256>>>(S, heap, kBytes, right());
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  check("kernel putmem_block into a symmetric-registered buffer", B, kWords, seed + 4, left());
  // every PE adds to word 5 of PE 0's region
  CK(cudaMemset(B, 0, 64));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  shmem_uint64_atomic_add(static_cast<uint64_t*>(S) + 5, static_cast<uint64_t>(me) + 1, 0);
  shmem_barrier_all();
  if (me == 0) {
    uint64_t v = 0;
    CK(cudaMemcpy(&v, static_cast<uint64_t*>(B) + 5, sizeof v, cudaMemcpyDeviceToHost));
    EXPECT(v == static_cast<uint64_t>(n) * (n + 1) / 2, "atomic adds into a symmetric-registered buffer (expected %d got %llu)",
           n * (n + 1) / 2, (unsigned long long)v);
  }
  // a reduction into it
  fill(heap, 1024, seed + 5, me);
  shmem_barrier_all();
  shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, static_cast<uint64_t*>(S), static_cast<uint64_t*>(heap), 1024);
  std::vector<uint64_t> h(1024);
  CK(cudaMemcpy(h.data(), B, sizeof(uint64_t) * 1024, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < 1024; ++i) {
    uint64_t e = 0;
    for (int pe = 0; pe < n; ++pe) e += payload(seed + 5, pe, i);
    if (h[i] != e) {
      EXPECT(false, "sum_reduce into a symmetric-registered buffer: element %zu", i);
      break;
    }
  }
  EXPECT(shmemx_mem_free(B) == SHMEMX_ERROR_INVALID_VALUE, "shmemx_mem_free of a symmetric-registered buffer");
  EXPECT(shmemx_buffer_unregister_symmetric(S, kBytes) == SHMEMX_SUCCESS, "shmemx_buffer_unregister_symmetric");
  EXPECT(shmemx_mem_free(B) == SHMEMX_SUCCESS, "shmemx_mem_free after unregister_symmetric");
  // cudaMalloc memory cannot join the heap: NULL on every PE
  void* C = nullptr;
  CK(cudaMalloc(&C, kBytes));
  void* S2 = shmemx_buffer_register_symmetric(C, kBytes, 0);
  EXPECT(S2 == nullptr, "register_symmetric of cudaMalloc memory (expected NULL got %p)", S2);
  CK(cudaFree(C));
}

int main() {
  skip_without_gpu();
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const uint64_t seed = shared_seed();
  void* heap = shmem_malloc(kBytes);
  uint64_t* ctr = static_cast<uint64_t*>(shmem_malloc(sizeof(uint64_t)));
  const uint64_t c0 = 7000u + static_cast<unsigned>(shmem_my_pe());
  CK(cudaMemcpy(ctr, &c0, sizeof c0, cudaMemcpyHostToDevice));
  void* A = shmemx_mem_alloc(kBytes);
  void* C = nullptr;
  CK(cudaMalloc(&C, kBytes));
  EXPECT(A != nullptr, "shmemx_mem_alloc");
  EXPECT(shmemx_buffer_register(A, kBytes) == SHMEMX_SUCCESS, "register shmemx_mem_alloc memory");
  EXPECT(shmemx_buffer_register(C, kBytes) == SHMEMX_SUCCESS, "register cudaMalloc memory");
  progress("move_data alloc");
  move_data("shmemx_mem_alloc buffer", A, heap, ctr, seed);
  progress("move_data cudaMalloc");
  move_data("cudaMalloc buffer", C, heap, ctr, seed + 10);

  EXPECT(shmemx_buffer_register(A, kBytes) == SHMEMX_ERROR_INVALID_VALUE, "double registration");
  EXPECT(shmemx_buffer_register(static_cast<char*>(C) + 4096, 64) == SHMEMX_ERROR_INVALID_VALUE,
         "overlapping registration");
  EXPECT(shmemx_buffer_register(heap, 64) == SHMEMX_ERROR_INVALID_VALUE, "registering the symmetric heap");
  EXPECT(shmemx_mem_free(A) == SHMEMX_ERROR_INVALID_VALUE, "freeing a registered buffer");
  // freed while registered: cudaFree behind the registration's back, then unregister reports it
  CK(cudaFree(C));
  EXPECT(shmemx_buffer_unregister(C) == SHMEMX_ERROR_INVALID_VALUE, "unregistering memory freed while registered");
  EXPECT(shmemx_buffer_unregister(C) == SHMEMX_ERROR_INVALID_VALUE, "unregistering twice");
  EXPECT(shmemx_buffer_unregister(A) == SHMEMX_SUCCESS, "unregister");
  EXPECT(shmemx_mem_free(A) == SHMEMX_SUCCESS, "shmemx_mem_free after unregister");
  // past the end of a cudaMalloc allocation
  void* D = nullptr;
  CK(cudaMalloc(&D, 4 << 20));
  EXPECT(shmemx_buffer_register(D, 64 << 20) == SHMEMX_ERROR_INVALID_VALUE, "registering past a GPU allocation");
  CK(cudaFree(D));

  progress("symmetric");
  symmetric(seed + 20, heap);
  shmem_barrier_all();
  shmem_free(ctr);
  shmem_free(heap);
  const int fails = g_failures;
  shmem_finalize();
  if (fails) return 1;
  printf("PASS gpu_bufreg\n");
  return 0;
}
