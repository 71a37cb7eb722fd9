// Kernels loaded at run time from a fatbin (tests/gpu/cumodule_kernels.cu, argv[1]) through the
// driver, once as a module (shmemx_cumodule_init) and once as a library (NVSHMEM's name,
// nvshmemx_culibrary_init): a block put of fresh payloads to the right PE's heap, checked on the
// host; then the heap grows past its initial size and the module's kernel targets the new memory
// (its state must have followed: with device checks on, a stale heap size is an error).
// The driver is reached through cudaGetDriverEntryPointByVersion (no libcuda link).
#include <cuda.h>
#include <nvshmemx.h>

#include <cstdio>
#include <vector>

#include "gpu_util.cuh"

#define DRV(name) static decltype(&::name) p_##name;
DRV(cuModuleLoadData) DRV(cuModuleGetFunction) DRV(cuModuleUnload) DRV(cuLaunchKernel) DRV(cuLibraryLoadData)
DRV(cuLibraryGetKernel) DRV(cuKernelGetFunction) DRV(cuLibraryUnload)
#undef DRV

static void load_driver() {
#define GET(name)                                                                                      \
  {                                                                                                    \
    cudaDriverEntryPointQueryResult q;                                                                 \
    CK(cudaGetDriverEntryPointByVersion(#name, reinterpret_cast<void**>(&p_##name), 12000, cudaEnableDefault, &q)); \
  }
  GET(cuModuleLoadData) GET(cuModuleGetFunction) GET(cuModuleUnload) GET(cuLaunchKernel) GET(cuLibraryLoadData)
  GET(cuLibraryGetKernel) GET(cuKernelGetFunction) GET(cuLibraryUnload)
#undef GET
}

#define CU(x)                                                                       \
  do {                                                                              \
    CUresult r_ = (x);                                                              \
    if (r_ != CUDA_SUCCESS) {                                                       \
      fprintf(stderr, "FAIL %s:%d: %s: CUresult %d\n", __FILE__, __LINE__, #x, (int)r_); \
      shmem_global_exit(1);                                                         \
    }                                                                               \
  } while (0)

__global__ void fill_k(uint64_t* p, size_t n, uint64_t seed, int pe) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = payload(seed, pe, i);
}

static void ring(const char* what, CUfunction f, uint64_t* dst, uint64_t* src, size_t n, uint64_t seed) {
  const int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  fill_k<<<32, 256>>>(src, n, seed, me);
  CK(cudaMemset(dst, 0xa5, n * sizeof(uint64_t)));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  void* args[] = {&dst, &src, &n, const_cast<int*>(&right)};
  CU(p_cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  std::vector<uint64_t> h(n);
  CK(cudaMemcpy(h.data(), dst, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i)
    if (h[i] != payload(seed, left, i)) {
      EXPECT(false, "%s: word %zu (expected %#llx got %#llx)", what, i, (unsigned long long)payload(seed, left, i),
             (unsigned long long)h[i]);
      break;
    }
}

int main(int argc, char** argv) {
  skip_without_gpu();
  if (argc < 2) {
    fprintf(stderr, "usage: gpu_cumodule <fatbin>\n");
    return 2;
  }
  FILE* fp = fopen(argv[1], "rb");
  if (!fp) {
    fprintf(stderr, "FAIL: cannot open %s\n", argv[1]);
    return 1;
  }
  std::vector<char> image;
  char buf[65536];
  for (size_t k; (k = fread(buf, 1, sizeof buf, fp)) > 0;) image.insert(image.end(), buf, buf + k);
  fclose(fp);
  nvshmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  load_driver();
  const uint64_t seed = shared_seed();
  const size_t n = 1 << 16;
  auto* dst = static_cast<uint64_t*>(shmem_malloc(n * sizeof(uint64_t)));
  auto* src = static_cast<uint64_t*>(shmem_malloc(n * sizeof(uint64_t)));

  CUmodule mod = nullptr;
  CU(p_cuModuleLoadData(&mod, image.data()));
  EXPECT(shmemx_cumodule_init(mod) == SHMEMX_SUCCESS, "shmemx_cumodule_init");
  CUfunction f = nullptr;
  CU(p_cuModuleGetFunction(&f, mod, "ring_put"));
  ring("module kernel put", f, dst, src, n, seed);

  // the heap grows (when it can): the module's state must follow
  const size_t big = shmemx_heap_size() + (8u << 20);
  auto* far = static_cast<uint64_t*>(shmemx_heap_growable() ? shmem_malloc(big) : nullptr);
  if (far) ring("module kernel put into memory the heap grew by", f, far + big / sizeof(uint64_t) - n, src, n, seed + 1);

  CUlibrary lib = nullptr;
  CU(p_cuLibraryLoadData(&lib, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  EXPECT(nvshmemx_culibrary_init(lib) == NVSHMEMX_SUCCESS, "nvshmemx_culibrary_init");
  CUkernel k = nullptr;
  CU(p_cuLibraryGetKernel(&k, lib, "ring_put"));
  CUfunction lf = nullptr;
  CU(p_cuKernelGetFunction(&lf, k));
  ring("library kernel put", lf, dst, src, n, seed + 2);

  EXPECT(shmemx_cumodule_finalize(mod) == SHMEMX_SUCCESS, "shmemx_cumodule_finalize");
  EXPECT(shmemx_cumodule_finalize(mod) == SHMEMX_ERROR_INVALID_VALUE, "shmemx_cumodule_finalize twice");
  EXPECT(nvshmemx_culibrary_finalize(lib) == NVSHMEMX_SUCCESS, "nvshmemx_culibrary_finalize");
  shmem_barrier_all();
  CU(p_cuModuleUnload(mod));
  CU(p_cuLibraryUnload(lib));
  if (far) shmem_free(far);
  shmem_free(src);
  shmem_free(dst);
  const int fails = g_failures;
  nvshmem_finalize();
  if (fails) return 1;
  printf("PASS gpu_cumodule\n");
  return 0;
}
