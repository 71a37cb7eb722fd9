// Reduce-scatter in kernels (shmemx_TYPE_OP_reducescatter at thread, warp and block scope) on the
// world team and on a strided team, and through NVSHMEM's names (nvshmem.h); half and bfloat16
// reductions and reduce-scatter in kernels; double2 max-with-location. Fresh payloads from every
// PE, every element recomputed on the host from all contributions.
#include <nvshmem.h>
#include <nvshmemx.h>

#include <algorithm>
#include <vector>

#include "gpu_util.cuh"

constexpr size_t kMax = 4099;  // not a multiple of the scope sizes

template <int Scope>
__global__ void rs_sum(shmem_team_t team, long* d, const long* s, size_t n) {
  if (Scope == 0) {
    if (threadIdx.x == 0) shmemx_long_sum_reducescatter(team, d, s, n);
  } else if (Scope == 1) {
    if (threadIdx.x < 32) shmemx_long_sum_reducescatter_warp(team, d, s, n);
  } else {
    shmemx_long_sum_reducescatter_block(team, d, s, n);
  }
}
__global__ void rs_max_nv(shmem_team_t team, int* d, const int* s, size_t n) {
  nvshmemx_int_max_reducescatter_block(team, d, s, n);
}
__global__ void rs_xor_nv(shmem_team_t team, unsigned* d, const unsigned* s, size_t n) {
  if (threadIdx.x == 0) nvshmem_uint_xor_reducescatter(team, d, s, n);
}

static int fails = 0;

// NVSHMEM's warpgroup barrier: the block is one warpgroup (128 threads); each thread puts into the
// right PE's slot, the warpgroup barrier, then every slot must hold the left PE's value; a second
// barrier before the next round.
__global__ void wg_k(int* arr, int* bad, int rounds) {
  const int me = nvshmem_my_pe(), np = nvshmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  for (int r = 0; r < rounds; ++r) {
    nvshmem_int_p(arr + threadIdx.x, me * 100000 + r * 1000 + static_cast<int>(threadIdx.x), right);
    nvshmemx_barrier_warpgroup(NVSHMEM_TEAM_WORLD);
    if (arr[threadIdx.x] != left * 100000 + r * 1000 + static_cast<int>(threadIdx.x)) atomicAdd(bad, 1);
    nvshmemx_barrier_warpgroup(NVSHMEM_TEAM_WORLD);
  }
}

template <typename T, typename Op>
static void check(const char* what, shmem_team_t team, int start, int stride, int size, size_t n, uint64_t seed,
                  const T* got, Op op) {
  const int me = shmem_team_my_pe(team);
  for (size_t i = 0; i < n; ++i) {
    T e = 0;
    for (int m = 0; m < size; ++m) {
      const T v = static_cast<T>(payload(seed, start + m * stride, static_cast<uint64_t>(me) * n + i) % 100000);
      e = m == 0 ? v : op(e, v);
    }
    if (got[i] != e) {
      fprintf(stderr, "FAIL gpu_rs: pe %d: %s, team of %d, n %zu, element %zu (expected %lld got %lld)\n",
              shmem_my_pe(), what, size, n, i, static_cast<long long>(e), static_cast<long long>(got[i]));
      ++fails;
      return;
    }
  }
}

template <typename T>
static void fill(T* dsrc, int npes_team, size_t n, uint64_t seed) {
  std::vector<T> h(static_cast<size_t>(npes_team) * n);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<T>(payload(seed, shmem_my_pe(), i) % 100000);
  CK(cudaMemcpy(dsrc, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

static void run_team(shmem_team_t team, int start, int stride, int size, void* src, void* dst, uint64_t seed0) {
  const size_t ns[] = {1, 33, kMax};
  std::vector<long> hl(kMax);
  for (size_t n : ns) {
    for (int scope = 0; scope < 3; ++scope) {
      const uint64_t seed = seed0 ^ (n * 977u + static_cast<uint64_t>(scope));
      fill(static_cast<long*>(src), size, n, seed);
      CK(cudaMemset(dst, 0xa5, n * sizeof(long)));
      shmem_team_sync(team);
      if (scope == 0) rs_sum<0><<<1, 64>>>(team, static_cast<long*>(dst), static_cast<long*>(src), n);
      if (scope == 1) rs_sum<1><<<1, 64>>>(team, static_cast<long*>(dst), static_cast<long*>(src), n);
      if (scope == 2) rs_sum<2><<<1, 256>>>(team, static_cast<long*>(dst), static_cast<long*>(src), n);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(hl.data(), dst, n * sizeof(long), cudaMemcpyDeviceToHost));
      const char* names[] = {"shmemx_long_sum_reducescatter", "shmemx_long_sum_reducescatter_warp",
                             "shmemx_long_sum_reducescatter_block"};
      check(names[scope], team, start, stride, size, n, seed, hl.data(), [](long a, long b) { return a + b; });
    }
    {
      const uint64_t seed = seed0 ^ (n * 1237u + 7);
      std::vector<int> hi(n);
      fill(static_cast<int*>(src), size, n, seed);
      CK(cudaMemset(dst, 0xa5, n * sizeof(int)));
      shmem_team_sync(team);
      rs_max_nv<<<1, 128>>>(team, static_cast<int*>(dst), static_cast<int*>(src), n);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(hi.data(), dst, n * sizeof(int), cudaMemcpyDeviceToHost));
      check("nvshmemx_int_max_reducescatter_block", team, start, stride, size, n, seed, hi.data(),
            [](int a, int b) { return a < b ? b : a; });
    }
    {
      const uint64_t seed = seed0 ^ (n * 5711u + 3);
      std::vector<unsigned> hu(n);
      fill(static_cast<unsigned*>(src), size, n, seed);
      CK(cudaMemset(dst, 0xa5, n * sizeof(unsigned)));
      shmem_team_sync(team);
      rs_xor_nv<<<1, 32>>>(team, static_cast<unsigned*>(dst), static_cast<unsigned*>(src), n);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(hu.data(), dst, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
      check("nvshmem_uint_xor_reducescatter", team, start, stride, size, n, seed, hu.data(),
            [](unsigned a, unsigned b) { return a ^ b; });
    }
  }
}

__global__ void r16(shmem_team_t team, __half* hd, const __half* hs, __nv_bfloat16* bd, const __nv_bfloat16* bs,
                    __half* rsd, const __half* rss, double2* md, const double2* ms, size_t n) {
  shmemx_half_sum_reduce_block(team, hd, hs, n);
  if (threadIdx.x < 32) nvshmemx_bfloat16_max_reduce_warp(team, bd, bs, n);
  __syncthreads();
  nvshmemx_half_sum_reducescatter_block(team, rsd, rss, n);
  nvshmemx_double2_maxloc_reduce_block(team, md, ms, n);
}

// 16-bit and maxloc reductions on the world team; values are small integers (exact in both types).
static void run_16(void* src, void* dst, uint64_t seed) {
  const int npes = shmem_n_pes(), me = shmem_my_pe();
  const size_t n = 1000;
  auto val = [&](int pe, size_t i, int mod) { return static_cast<int>(payload(seed, pe, i) % mod); };
  char* s = static_cast<char*>(src);
  char* d = static_cast<char*>(dst);
  // layout in src: half[n] | bf16[n] | half[npes*n] | double2[n]; dst: half[n] | bf16[n] | half[n] | double2[n]
  std::vector<__half> hs(n), rss(static_cast<size_t>(npes) * n);
  std::vector<__nv_bfloat16> bs(n);
  std::vector<double2> ms(n);
  for (size_t i = 0; i < n; ++i) {
    hs[i] = __float2half(static_cast<float>(val(me, i, 100)));
    bs[i] = __float2bfloat16(static_cast<float>(val(me, n + i, 200)));
    ms[i] = make_double2(static_cast<double>(val(me, 2 * n + i, 7)), static_cast<double>(me));
  }
  for (size_t i = 0; i < rss.size(); ++i) rss[i] = __float2half(static_cast<float>(val(me, 3 * n + i, 100)));
  const size_t o_b = 2 * n, o_rs = o_b + 2 * n, o_m = (o_rs + 2 * static_cast<size_t>(npes) * n + 15) / 16 * 16;
  const size_t d_b = 2 * n, d_rs = d_b + 2 * n, d_m = (d_rs + 2 * n + 15) / 16 * 16;
  CK(cudaMemcpy(s, hs.data(), 2 * n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(s + o_b, bs.data(), 2 * n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(s + o_rs, rss.data(), 2 * rss.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(s + o_m, ms.data(), 16 * n, cudaMemcpyHostToDevice));
  CK(cudaMemset(d, 0xa5, d_m + 16 * n));
  shmem_barrier_all();
  r16<<<1, 256>>>(SHMEM_TEAM_WORLD, reinterpret_cast<__half*>(d), reinterpret_cast<__half*>(s),
                  reinterpret_cast<__nv_bfloat16*>(d + d_b), reinterpret_cast<__nv_bfloat16*>(s + o_b),
                  reinterpret_cast<__half*>(d + d_rs), reinterpret_cast<__half*>(s + o_rs),
                  reinterpret_cast<double2*>(d + d_m), reinterpret_cast<double2*>(s + o_m), n);
  CK(cudaDeviceSynchronize());
  std::vector<__half> hd(n), rsd(n);
  std::vector<__nv_bfloat16> bd(n);
  std::vector<double2> md(n);
  CK(cudaMemcpy(hd.data(), d, 2 * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(bd.data(), d + d_b, 2 * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rsd.data(), d + d_rs, 2 * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(md.data(), d + d_m, 16 * n, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    int sum = 0, mx = -1, rsum = 0, mv = -1, mloc = -1;
    for (int p = 0; p < npes; ++p) {
      sum += val(p, i, 100);
      mx = std::max(mx, val(p, n + i, 200));
      rsum += val(p, 3 * n + static_cast<size_t>(me) * n + i, 100);
      const int v = val(p, 2 * n + i, 7);
      if (v > mv) mv = v, mloc = p;
    }
    const struct {
      const char* what;
      double exp, got;
    } c[] = {{"shmemx_half_sum_reduce_block", double(sum), double(__half2float(hd[i]))},
             {"nvshmemx_bfloat16_max_reduce_warp", double(mx), double(__bfloat162float(bd[i]))},
             {"nvshmemx_half_sum_reducescatter_block", double(rsum), double(__half2float(rsd[i]))},
             {"nvshmemx_double2_maxloc_reduce_block value", double(mv), md[i].x},
             {"nvshmemx_double2_maxloc_reduce_block location", double(mloc), md[i].y}};
    for (const auto& k : c)
      if (k.exp != k.got) {
        fprintf(stderr, "FAIL gpu_rs: pe %d: %s element %zu (expected %g got %g)\n", me, k.what, i, k.exp, k.got);
        ++fails;
        return;
      }
  }
}

// On a stream (gshmem's and NVSHMEM's names) and from the host on the device heap.
static void run_stream(void* src, void* dst, uint64_t seed) {
  const int npes = shmem_n_pes(), me = shmem_my_pe();
  const size_t n = 3001;  // several rows at small GSHMEM_COLL_BLOCK_BYTES, one otherwise
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  auto val = [&](int pe, size_t i) { return static_cast<int>(payload(seed, pe, i) % 1000); };
  std::vector<int> got(n);
  for (int mode = 0; mode < 3; ++mode) {
    fill(static_cast<int*>(src), npes, n, seed);  // the values check() recomputes
    CK(cudaMemset(dst, 0xa5, n * sizeof(int)));
    shmem_barrier_all();
    const char* what = mode == 0 ? "shmemx_int_sum_reducescatter_on_stream"
                       : mode == 1 ? "nvshmemx_int_max_reducescatter_on_stream"
                                   : "shmemx_int_sum_reducescatter (host, device heap)";
    if (mode == 0) shmemx_int_sum_reducescatter_on_stream(SHMEM_TEAM_WORLD, static_cast<int*>(dst), static_cast<int*>(src), n, st);
    if (mode == 1) nvshmemx_int_max_reducescatter_on_stream(SHMEM_TEAM_WORLD, static_cast<int*>(dst), static_cast<int*>(src), n, st);
    if (mode == 2) shmemx_int_sum_reducescatter(SHMEM_TEAM_WORLD, static_cast<int*>(dst), static_cast<int*>(src), n);
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(got.data(), dst, n * sizeof(int), cudaMemcpyDeviceToHost));
    check(what, SHMEM_TEAM_WORLD, 0, 1, npes, n, seed, got.data(),
          mode == 1 ? +[](int a, int b) { return a < b ? b : a; } : +[](int a, int b) { return a + b; });
  }
  // half on a stream
  std::vector<__half> h16(static_cast<size_t>(npes) * n), g16(n);
  for (size_t i = 0; i < h16.size(); ++i) h16[i] = __float2half(static_cast<float>(val(me, i) % 100));
  CK(cudaMemcpy(src, h16.data(), h16.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0xa5, n * 2));
  shmem_barrier_all();
  nvshmemx_half_sum_reducescatter_on_stream(SHMEM_TEAM_WORLD, static_cast<__half*>(dst), static_cast<__half*>(src), n, st);
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(g16.data(), dst, n * 2, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    int e = 0;
    for (int p = 0; p < npes; ++p) e += val(p, static_cast<size_t>(me) * n + i) % 100;
    if (__half2float(g16[i]) != static_cast<float>(e)) {
      fprintf(stderr, "FAIL gpu_rs: pe %d: nvshmemx_half_sum_reducescatter_on_stream element %zu (expected %d got %g)\n",
              me, i, e, static_cast<double>(__half2float(g16[i])));
      ++fails;
      break;
    }
  }
  // half and bfloat16 reductions on a stream (the kernel table shared with reduce-scatter)
  std::vector<__nv_bfloat16> b16(n), gb(n);
  for (size_t i = 0; i < n; ++i) {
    h16[i] = __float2half(static_cast<float>(val(me, i) % 100));
    b16[i] = __float2bfloat16(static_cast<float>(val(me, n + i) % 200));
  }
  char* d = static_cast<char*>(dst);
  char* sr = static_cast<char*>(src);
  // half sum of val % 100 at [0, n) and bfloat16 max of val % 200 at [n, 2n) of every PE, in dst
  auto check16 = [&](const char* how) {
    CK(cudaMemcpy(g16.data(), d, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gb.data(), d + 2 * n, n * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
      int e = 0, m = -1;
      for (int p = 0; p < npes; ++p) e += val(p, i) % 100, m = std::max(m, val(p, n + i) % 200);
      if (__half2float(g16[i]) != static_cast<float>(e) || __bfloat162float(gb[i]) != static_cast<float>(m)) {
        fprintf(stderr, "FAIL gpu_rs: pe %d: half sum / bfloat16 max reduce %s, element %zu (expected %d / %d got %g / %g)\n",
                me, how, i, e, m, static_cast<double>(__half2float(g16[i])), static_cast<double>(__bfloat162float(gb[i])));
        ++fails;
        return;
      }
    }
  };
  CK(cudaMemcpy(sr, h16.data(), n * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(sr + 2 * n, b16.data(), n * 2, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0xa5, 4 * n));
  shmem_barrier_all();
  shmemx_half_sum_reduce_on_stream(SHMEM_TEAM_WORLD, reinterpret_cast<shmemx_half_t*>(d),
                                   reinterpret_cast<const shmemx_half_t*>(sr), n, st);
  nvshmemx_bfloat16_max_reduce_on_stream(SHMEM_TEAM_WORLD, reinterpret_cast<__nv_bfloat16*>(d + 2 * n),
                                         reinterpret_cast<const __nv_bfloat16*>(sr + 2 * n), n, st);
  CK(cudaStreamSynchronize(st));
  check16("on a stream");
  // the same from the host (blocking; NVSHMEM's host name and gshmem's), and a bfloat16
  // reduce-scatter from the host
  CK(cudaMemset(dst, 0xa5, 4 * n));
  shmem_barrier_all();
  nvshmem_half_sum_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<__half*>(d), reinterpret_cast<const __half*>(sr), n);
  shmemx_bfloat16_max_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<shmemx_bfloat16_t*>(d + 2 * n),
                             reinterpret_cast<const shmemx_bfloat16_t*>(sr + 2 * n), n);
  check16("from the host");
  // Every partial sum stays at most 256, the integers bfloat16 holds exactly (8 significant bits).
  const int bmod = std::min(50, 256 / npes + 1);
  std::vector<__nv_bfloat16> bs16(static_cast<size_t>(npes) * n);
  for (size_t i = 0; i < bs16.size(); ++i) bs16[i] = __float2bfloat16(static_cast<float>(val(me, 7 * n + i) % bmod));
  CK(cudaMemcpy(sr, bs16.data(), bs16.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0xa5, 2 * n));
  shmem_barrier_all();
  nvshmem_bfloat16_sum_reducescatter(SHMEM_TEAM_WORLD, reinterpret_cast<__nv_bfloat16*>(d),
                                     reinterpret_cast<const __nv_bfloat16*>(sr), n);
  CK(cudaMemcpy(gb.data(), d, n * 2, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    int e = 0;
    for (int p = 0; p < npes; ++p) e += val(p, 7 * n + static_cast<size_t>(me) * n + i) % bmod;
    if (__bfloat162float(gb[i]) != static_cast<float>(e)) {
      fprintf(stderr, "FAIL gpu_rs: pe %d: nvshmem_bfloat16_sum_reducescatter from the host, element %zu (expected %d got %g)\n",
              me, i, e, static_cast<double>(__bfloat162float(gb[i])));
      ++fails;
      break;
    }
  }
  CK(cudaStreamDestroy(st));
}

// NVSHMEM's typed waits on a stream: a one-thread kernel in the stream waits; the left PE's host
// puts release it (int32 all, long long with a negative bound and NVSHMEM_CMP_LT, uint16 vector).
static void run_stream_waits() {
  const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
  auto* iv = static_cast<int32_t*>(shmem_calloc(4, sizeof(int32_t)));
  auto* ll = static_cast<long long*>(shmem_calloc(1, sizeof(long long)));
  auto* us = static_cast<unsigned short*>(shmem_calloc(3, sizeof(unsigned short)));
  unsigned short* want = nullptr;
  CK(cudaMalloc(&want, 3 * sizeof(unsigned short)));
  const unsigned short w[3] = {7, 8, 9};
  CK(cudaMemcpy(want, w, sizeof w, cudaMemcpyHostToDevice));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  shmem_barrier_all();
  nvshmemx_int32_wait_until_all_on_stream(iv, 4, nullptr, NVSHMEM_CMP_GE, 5, st);
  nvshmemx_longlong_wait_until_on_stream(ll, NVSHMEM_CMP_LT, -5, st);
  nvshmemx_ushort_wait_until_all_vector_on_stream(us, 3, nullptr, NVSHMEM_CMP_EQ, want, st);
  shmem_barrier_all();  // every PE's waits are queued before anything arrives
  for (int i = 0; i < 4; ++i) shmem_int32_p(iv + i, 5 + i, right);
  shmem_longlong_p(ll, -7, right);
  for (int i = 0; i < 3; ++i) shmem_ushort_p(us + i, w[i], right);
  shmem_quiet();
  CK(cudaStreamSynchronize(st));  // returns once all three waits were satisfied
  int32_t hv[4];
  long long hl = 0;
  CK(cudaMemcpy(hv, iv, sizeof hv, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hl, ll, sizeof hl, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 4; ++i)
    if (hv[i] != 5 + i) {
      fprintf(stderr, "FAIL gpu_rs: pe %d: ivar %d after the stream waits (expected %d got %d)\n", me, i, 5 + i, hv[i]);
      ++fails;
    }
  if (hl != -7) fprintf(stderr, "FAIL gpu_rs: pe %d: long long ivar (expected -7 got %lld)\n", me, hl), ++fails;
  CK(cudaStreamDestroy(st));
  shmem_barrier_all();
  CK(cudaFree(want));
  shmem_free(us);
  shmem_free(ll);
  shmem_free(iv);
}

// NVSHMEM's single-element and strided RMA on a stream: p (int, double), g (int; returns to the
// host), typed iput (long, every other element), sized iget (32-bit, stride 3), half p.
static void run_stream_rma() {
  const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes, left = (me + npes - 1) % npes;
  auto* iv = static_cast<int*>(shmem_calloc(2, sizeof(int)));
  auto* dv = static_cast<double*>(shmem_calloc(1, sizeof(double)));
  auto* hv = static_cast<__half*>(shmem_calloc(1, sizeof(__half)));
  auto* lv = static_cast<long*>(shmem_calloc(200, sizeof(long)));
  auto* u32 = static_cast<uint32_t*>(shmem_calloc(150, sizeof(uint32_t)));
  long* lsrc = nullptr;
  uint32_t* u32got = nullptr;
  CK(cudaMalloc(&lsrc, 100 * sizeof(long)));
  CK(cudaMalloc(&u32got, 50 * sizeof(uint32_t)));
  std::vector<long> hl(100);
  std::vector<uint32_t> hu(150);
  for (int i = 0; i < 100; ++i) hl[i] = 1000L * me + i;
  for (int i = 0; i < 150; ++i) hu[i] = 7u * static_cast<uint32_t>(me) + static_cast<uint32_t>(i);
  CK(cudaMemcpy(lsrc, hl.data(), 100 * sizeof(long), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(u32, hu.data(), 150 * sizeof(uint32_t), cudaMemcpyHostToDevice));
  const int seeded = 4242 + me;
  CK(cudaMemcpy(iv + 1, &seeded, sizeof seeded, cudaMemcpyHostToDevice));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  shmem_barrier_all();
  nvshmemx_int_p_on_stream(iv, 1234 + me, right, st);
  nvshmemx_double_p_on_stream(dv, 2.5 * me, right, st);
  nvshmemx_half_p_on_stream(hv, __float2half(0.5f + me), right, st);
  nvshmemx_long_iput_on_stream(lv, lsrc, 2, 1, 100, right, st);
  nvshmemx_iget32_on_stream(u32got, u32, 1, 3, 50, left, st);
  const int g = nvshmemx_int_g_on_stream(iv + 1, left, st);  // waits for the stream
  nvshmemx_quiet_on_stream(st);
  CK(cudaStreamSynchronize(st));
  shmem_barrier_all();
  int ih = 0;
  double dh = 0;
  __half hh;
  std::vector<long> gl(200);
  std::vector<uint32_t> gu(50);
  CK(cudaMemcpy(&ih, iv, sizeof ih, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&dh, dv, sizeof dh, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hh, hv, sizeof hh, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gl.data(), lv, 200 * sizeof(long), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gu.data(), u32got, 50 * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  auto bad = [&](const char* what, long long e, long long got) {
    fprintf(stderr, "FAIL gpu_rs: pe %d: %s (expected %lld got %lld)\n", me, what, e, got);
    ++fails;
  };
  if (ih != 1234 + left) bad("nvshmemx_int_p_on_stream", 1234 + left, ih);
  if (dh != 2.5 * left) bad("nvshmemx_double_p_on_stream (x2)", static_cast<long long>(5 * left), static_cast<long long>(2 * dh));
  if (__half2float(hh) != 0.5f + left) bad("nvshmemx_half_p_on_stream (x2)", 1 + 2 * left, static_cast<long long>(2 * __half2float(hh)));
  if (g != 4242 + left) bad("nvshmemx_int_g_on_stream", 4242 + left, g);
  for (int i = 0; i < 200; ++i) {
    const long e = i % 2 ? 0 : 1000L * left + i / 2;
    if (gl[i] != e) { bad("nvshmemx_long_iput_on_stream (dst stride 2)", e, gl[i]); break; }
  }
  for (int i = 0; i < 50; ++i) {
    const uint32_t e = 7u * static_cast<uint32_t>(left) + static_cast<uint32_t>(3 * i);
    if (gu[i] != e) { bad("nvshmemx_iget32_on_stream (source stride 3)", e, gu[i]); break; }
  }
  CK(cudaStreamDestroy(st));
  CK(cudaFree(lsrc));
  CK(cudaFree(u32got));
  shmem_free(u32);
  shmem_free(lv);
  shmem_free(hv);
  shmem_free(dv);
  shmem_free(iv);
}

int main() {
  skip_without_gpu();
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const int npes = shmem_n_pes();
  void* src = shmem_malloc(static_cast<size_t>(npes) * kMax * sizeof(long));
  void* dst = shmem_malloc(kMax * sizeof(long));
  uint64_t* seedbuf = static_cast<uint64_t*>(shmem_malloc(sizeof(uint64_t)));
  uint64_t seed = (static_cast<uint64_t>(time(nullptr)) << 16) ^ 0x5DEECE66Dull;
  CK(cudaMemcpy(seedbuf, &seed, sizeof seed, cudaMemcpyHostToDevice));
  shmem_barrier_all();
  shmem_uint64_broadcast(SHMEM_TEAM_WORLD, seedbuf, seedbuf, 1, 0);
  CK(cudaMemcpy(&seed, seedbuf, sizeof seed, cudaMemcpyDeviceToHost));
  run_team(SHMEM_TEAM_WORLD, 0, 1, npes, src, dst, seed);
  run_16(src, dst, seed ^ 0x1616);
  run_stream(src, dst, seed ^ 0x5757);
  run_stream_waits();
  run_stream_rma();
  {
    int* arr = static_cast<int*>(shmem_calloc(128, sizeof(int)));
    int* bad = nullptr;
    CK(cudaMalloc(&bad, sizeof(int)));
    CK(cudaMemset(bad, 0, sizeof(int)));
    shmem_barrier_all();
    wg_k<<<1, 128>>>(arr, bad, 20);
    CK(cudaDeviceSynchronize());
    int hb = 0;
    CK(cudaMemcpy(&hb, bad, sizeof hb, cudaMemcpyDeviceToHost));
    if (hb) fprintf(stderr, "FAIL gpu_rs: pe %d: nvshmemx_barrier_warpgroup: %d stale slots in 20 rounds\n", shmem_my_pe(), hb), ++fails;
    CK(cudaFree(bad));
    shmem_free(arr);
  }
  // the even PEs (a strided team when there are 3 or more PEs)
  shmem_team_t even = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, nullptr, 0, &even);
  if (even != SHMEM_TEAM_INVALID) run_team(even, 0, 2, (npes + 1) / 2, src, dst, seed ^ 0xABCDEF);
  shmem_barrier_all();
  if (fails) shmem_global_exit(1);
  if (shmem_my_pe() == 0) printf("gpu_rs: %d PEs: reduce-scatter at every scope, world and strided team, half/bfloat16 and maxloc reductions, on a stream and from the host, typed waits, p/g/iput/iget on a stream, warpgroup barrier: PASS\n", npes);
  shmem_finalize();
  return 0;
}
