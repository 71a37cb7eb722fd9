// Checks that every visible GPU runs a kernel and can read and write pinned host memory, which
// is what the GPU PEs build on. Exits 77 (skipped) when the machine has no GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void scale(const unsigned* in, unsigned* out, unsigned n, unsigned k) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i] * k + i;
}

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("gpu_probe: no CUDA device; skipping\n");
    return 77;
  }
  int failures = 0;
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, d);
    const unsigned N = 1u << 20, k = 2654435761u ^ static_cast<unsigned>(rand());
    unsigned *in = nullptr, *out = nullptr;
    cudaMallocHost(&in, N * sizeof(unsigned));
    cudaMallocHost(&out, N * sizeof(unsigned));
    for (unsigned i = 0; i < N; ++i) {
      in[i] = static_cast<unsigned>(rand());
      out[i] = 0xA5A5A5A5u;
    }
    scale<<<132, 256>>>(in, out, N, k);
    cudaError_t e = cudaDeviceSynchronize();
    unsigned bad = 0;
    for (unsigned i = 0; i < N; ++i) bad += out[i] != in[i] * k + i;
    printf("gpu_probe: device %d %s sm_%d%d: %s, %u mismatches\n", d, p.name, p.major, p.minor, cudaGetErrorString(e),
           bad);
    failures += (e != cudaSuccess) || bad;
    cudaFreeHost(in);
    cudaFreeHost(out);
  }
  return failures ? 1 : 0;
}
