// 03_jacobi: 2D Jacobi (5-point) on an N x N grid split into row bands, one band per PE. Each
// iteration a kernel updates the band, then one block sends the band's first and last rows into
// the neighbours' halo rows with put_signal (signal = iteration) and waits for its own halos. The
// result is compared with the same iterations on one GPU. Run: oshrun -np 2 ./03_jacobi
#include <shmem.h>
#include <shmemx.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int N = 1024;
constexpr int kIters = 300;

// u: (rows + 2) x N, row 0 and rows+1 are halos. Fixed boundary: top edge 1.0, others 0.
__global__ void sweep(const float* u, float* v, int rows) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y + 1, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > rows || c >= N) return;
  if (c == 0 || c == N - 1) {
    v[r * N + c] = u[r * N + c];
    return;
  }
  v[r * N + c] = 0.25f * (u[(r - 1) * N + c] + u[(r + 1) * N + c] + u[r * N + c - 1] + u[r * N + c + 1]);
}

// Sends v's first and last band rows to the neighbours' halos, then waits for this PE's halos.
__global__ void exchange(float* v, int rows, uint64_t* sig_top, uint64_t* sig_bottom, uint64_t iter) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (me > 0)  // my first row becomes the upper neighbour's bottom halo
    shmemx_putmem_signal_block(v + (rows + 1) * N, v + 1 * N, N * sizeof(float), sig_bottom, iter, SHMEM_SIGNAL_SET,
                               me - 1);
  if (me < n - 1)  // my last row becomes the lower neighbour's top halo
    shmemx_putmem_signal_block(v, v + rows * N, N * sizeof(float), sig_top, iter, SHMEM_SIGNAL_SET, me + 1);
  if (threadIdx.x == 0) {
    if (me > 0) shmem_signal_wait_until(sig_top, SHMEM_CMP_GE, iter);
    if (me < n - 1) shmem_signal_wait_until(sig_bottom, SHMEM_CMP_GE, iter);
  }
}

static void reference(std::vector<float>& g) {
  float *a, *b;
  cudaMalloc(&a, sizeof(float) * N * N);
  cudaMalloc(&b, sizeof(float) * N * N);
  cudaMemcpy(a, g.data(), sizeof(float) * N * N, cudaMemcpyHostToDevice);
  cudaMemcpy(b, g.data(), sizeof(float) * N * N, cudaMemcpyHostToDevice);
  dim3 blk(32, 8), grd(N / 32, (N - 2 + 7) / 8);
  for (int it = 0; it < kIters; ++it) {
    sweep<<<grd, blk>>>(a, b, N - 2);  // rows 1..N-2; rows 0 and N-1 are the fixed edges
    std::swap(a, b);
  }
  cudaMemcpy(g.data(), a, sizeof(float) * N * N, cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
}

int main() {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) {
    printf("03_jacobi needs a GPU\n");
    return 77;
  }
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int interior = N - 2;  // global rows 1..N-2 are computed
  const int rows = interior / n + (me < interior % n);
  const int first = 1 + me * (interior / n) + (me < interior % n ? me : interior % n);
  // Every PE allocates the largest band so the symmetric sizes agree.
  const int max_rows = interior / n + 1;
  const size_t bytes = sizeof(float) * (max_rows + 2) * N;
  float* u = static_cast<float*>(shmem_malloc(bytes));
  float* v = static_cast<float*>(shmem_malloc(bytes));
  uint64_t* sigs = static_cast<uint64_t*>(shmem_calloc(4, sizeof(uint64_t)));  // [u top, u bottom, v top, v bottom]

  std::vector<float> global(static_cast<size_t>(N) * N, 0.0f);
  for (int c = 0; c < N; ++c) global[c] = 1.0f;
  std::vector<float> band(static_cast<size_t>(rows + 2) * N);
  for (int r = 0; r < rows + 2; ++r)
    for (int c = 0; c < N; ++c) band[static_cast<size_t>(r) * N + c] = global[static_cast<size_t>(first - 1 + r) * N + c];
  cudaMemcpy(u, band.data(), band.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(v, band.data(), band.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();  // a pageable copy may still be landing; the barrier does not wait for it
  shmem_barrier_all();

  dim3 blk(32, 8), grd(N / 32, (rows + 7) / 8);
  for (int it = 1; it <= kIters; ++it) {
    sweep<<<grd, blk>>>(u, v, rows);
    const bool odd = it & 1;  // v and u alternate; each has its own pair of halo signals
    exchange<<<1, 256>>>(v, rows, sigs + (odd ? 2 : 0), sigs + (odd ? 3 : 1), static_cast<uint64_t>((it + 1) / 2));
    std::swap(u, v);
  }
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(band.data(), u, band.size() * sizeof(float), cudaMemcpyDeviceToHost);
  reference(global);
  double max_err = 0;
  for (int r = 1; r <= rows; ++r)
    for (int c = 0; c < N; ++c)
      max_err = std::fmax(max_err, std::fabs(band[static_cast<size_t>(r) * N + c] -
                                             global[static_cast<size_t>(first - 1 + r) * N + c]));
  const bool ok = e == cudaSuccess && max_err == 0.0;
  printf("pe %d of %d: rows %d..%d, %d iterations, max |multi-GPU - single-GPU| = %g: %s\n", me, n, first,
         first + rows - 1, kIters, max_err, ok ? "match" : "MISMATCH");
  shmem_barrier_all();
  shmem_finalize();
  return ok ? 0 : 1;
}
