// OpenSHMEM 1.6 on GPU PEs: the scans (shmem_TYPE_sum_inscan/exscan) in kernels at thread, warp
// and block scope, on a stream and from the host on device-heap buffers, on the world team and on
// a strided team, in place and out of place, through the LL round (small) and the owner-slice path
// (large); ibput/ibget in kernels (typed at every scope, sized) and from the host; signal_add /
// signal_set in kernels (every scope) and on a stream; pe_quiet in kernels (every scope: nbi puts
// to the right PE, pe_quiet on that PE alone, then a flag; the right PE checks the payload once
// it sees the flag). Fresh payloads, poisoned destinations; every element recomputed on the host.
#include <vector>

#include "gpu_util.cuh"

constexpr size_t kMax = 4099;  // long: 32 KiB, past the LL round; not a multiple of a scope's size

// Launched with up to 1024 threads: a block-scope scan takes more than 64 registers a thread
// without launch bounds (docs/gpu.md). Every launch below is checked.
template <int Scope, bool Ex>
__global__ void __launch_bounds__(1024) scan_long(shmem_team_t team, long* d, const long* s, size_t n) {
  if (Scope == 0) {
    if (threadIdx.x == 0) {
      if (Ex) shmem_long_sum_exscan(team, d, s, n);
      else shmem_sum_inscan(team, d, s, n);  // C++ overload
    }
  } else if (Scope == 1) {
    if (threadIdx.x < 32) {
      if (Ex) shmemx_long_sum_exscan_warp(team, d, s, n);
      else shmemx_long_sum_inscan_warp(team, d, s, n);
    }
  } else {
    if (Ex) shmemx_long_sum_exscan_block(team, d, s, n);
    else shmemx_long_sum_inscan_block(team, d, s, n);
  }
}
__global__ void scan_double_block(shmem_team_t team, double* d, const double* s, size_t n) {
  shmemx_double_sum_exscan_block(team, d, s, n);
}

// Blocked strided transfers: nb blocks of bs elements, strides dst/sst.
template <int Scope>
__global__ void ib_k(long* d, const long* s, ptrdiff_t dst, ptrdiff_t sst, size_t bs, size_t nb, int pe, bool get) {
  if (Scope == 0) {
    if (threadIdx.x == 0) {
      if (get) shmem_long_ibget(d, s, dst, sst, bs, nb, pe);
      else shmem_long_ibput(d, s, dst, sst, bs, nb, pe);
    }
  } else if (Scope == 1) {
    if (threadIdx.x < 32) {
      if (get) shmemx_long_ibget_warp(d, s, dst, sst, bs, nb, pe);
      else shmemx_long_ibput_warp(d, s, dst, sst, bs, nb, pe);
    }
  } else {
    if (get) shmemx_long_ibget_block(d, s, dst, sst, bs, nb, pe);
    else shmemx_long_ibput_block(d, s, dst, sst, bs, nb, pe);
  }
}
__global__ void ib32_k(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t bs, size_t nb, int pe, bool get) {
  if (threadIdx.x == 0) {
    if (get) shmem_ibget32(d, s, dst, sst, bs, nb, pe);
    else shmem_ibput32(d, s, dst, sst, bs, nb, pe);
  }
}

// Every PE adds me + 1 to sig_add on every PE and sets sig_set on the right PE.
template <int Scope>
__global__ void signal_k(uint64_t* sig_add, uint64_t* sig_set, uint64_t v) {
  const int me = shmem_my_pe(), np = shmem_n_pes();
  for (int pe = 0; pe < np; ++pe) {
    if (Scope == 0) {
      if (threadIdx.x == 0) shmem_signal_add(sig_add, static_cast<uint64_t>(me) + 1, pe);
    } else if (Scope == 1) {
      if (threadIdx.x < 32) shmemx_signal_add_warp(sig_add, static_cast<uint64_t>(me) + 1, pe);
    } else {
      shmemx_signal_add_block(sig_add, static_cast<uint64_t>(me) + 1, pe);
    }
  }
  const int right = (me + 1) % np;
  if (Scope == 0) {
    if (threadIdx.x == 0) shmem_signal_set(sig_set, v ^ static_cast<uint64_t>(me), right);
  } else if (Scope == 1) {
    if (threadIdx.x < 32) shmemx_signal_set_warp(sig_set, v ^ static_cast<uint64_t>(me), right);
  } else {
    shmemx_signal_set_block(sig_set, v ^ static_cast<uint64_t>(me), right);
  }
}

// nbi put of the payload to the right PE, pe_quiet on it, a flag; then wait for the left PE's flag.
template <int Scope>
__global__ void __launch_bounds__(1024) pe_quiet_k(uint64_t* big, const uint64_t* payload_src, size_t n, uint64_t* flag, int round) {
  const int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np;
  const int targets[2] = {right, me};
  if (Scope == 0) {
    if (threadIdx.x == 0) {
      shmem_uint64_put_nbi(big, payload_src, n, right);
      shmem_pe_quiet(targets, 1);
      shmem_uint64_atomic_set(flag, static_cast<uint64_t>(round), right);
    }
  } else {
    if (Scope == 1 && threadIdx.x >= 32) return;
    if (Scope == 1) {
      shmemx_putmem_nbi_warp(big, payload_src, n * 8, right);
      shmemx_pe_quiet_warp(targets, 2);
    } else {
      shmemx_putmem_nbi_block(big, payload_src, n * 8, right);
      shmemx_pe_quiet_block(targets, 2);
    }
    if (threadIdx.x == 0) shmem_uint64_atomic_set(flag, static_cast<uint64_t>(round), right);
  }
  if (threadIdx.x == 0) shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, static_cast<uint64_t>(round));
}

static void fill_long(long* dsrc, size_t n, uint64_t seed) {
  std::vector<long> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = static_cast<long>(payload(seed, shmem_my_pe(), i));
  CK(cudaMemcpy(dsrc, h.data(), n * sizeof(long), cudaMemcpyHostToDevice));
}

// dest on this PE after a scan over members (world PEs start + k * stride, k < size) of seed's
// payloads; wrap-around is the same on both sides (unsigned arithmetic).
static void check_scan(const char* what, const long* dptr, size_t n, int start, int stride, int myidx, bool ex,
                       uint64_t seed) {
  std::vector<long> got(n + 1);
  CK(cudaMemcpy(got.data(), dptr, (n + 1) * sizeof(long), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    uint64_t e = 0;
    for (int k = 0; k < (ex ? myidx : myidx + 1); ++k) e += payload(seed, start + k * stride, i);
    if (static_cast<uint64_t>(got[i]) != e) {
      EXPECT(false, "%s, n %zu, element %zu: expected %llx got %llx", what, n, i, (unsigned long long)e,
             (unsigned long long)got[i]);
      return;
    }
  }
  long poison;
  memset(&poison, 0xa5, sizeof poison);
  EXPECT(got[n] == poison, "%s, n %zu: the element past nelems changed", what, n);
}

static void run_scans(shmem_team_t team, int start, int stride, int size, long* src, long* dst, uint64_t seed0) {
  if (team == SHMEM_TEAM_INVALID) {  // not a member: keep the world barriers matched
    for (int k = 0; k < 3 * 6 + 3 * 2 + 3; ++k) shmem_barrier_all();
    return;
  }
  const int myidx = shmem_team_my_pe(team);
  EXPECT(shmem_team_n_pes(team) == size, "scan team: %d members, expected %d", shmem_team_n_pes(team), size);
  const char* names[3][2] = {{"shmem_sum_inscan (thread)", "shmem_long_sum_exscan (thread)"},
                             {"shmemx_long_sum_inscan_warp", "shmemx_long_sum_exscan_warp"},
                             {"shmemx_long_sum_inscan_block", "shmemx_long_sum_exscan_block"}};
  for (size_t n : {size_t{1}, size_t{33}, kMax}) {
    for (int scope = 0; scope < 3; ++scope) {
      for (int ex = 0; ex < 2; ++ex) {
        const uint64_t seed = seed0 ^ (n * 977u + static_cast<uint64_t>(scope * 2 + ex));
        fill_long(src, n, seed);
        CK(cudaMemset(dst, 0xa5, (n + 1) * sizeof(long)));
        CK(cudaDeviceSynchronize());
        shmem_barrier_all();
        auto k = scope == 0 ? (ex ? scan_long<0, true> : scan_long<0, false>)
                 : scope == 1 ? (ex ? scan_long<1, true> : scan_long<1, false>)
                              : (ex ? scan_long<2, true> : scan_long<2, false>);
        k<<<1, 256>>>(team, dst, src, n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        check_scan(names[scope][ex], dst, n, start, stride, myidx, ex, seed);
      }
    }
    // in place (block scope, exclusive), then on a stream and from the host (inclusive)
    for (int form = 0; form < 2; ++form) {
      const uint64_t seed = seed0 ^ (n * 31u + 100u + static_cast<uint64_t>(form));
      fill_long(src, n, seed);
      CK(cudaMemcpy(dst, src, n * sizeof(long), cudaMemcpyDeviceToDevice));
      CK(cudaMemset(dst + n, 0xa5, sizeof(long)));
      CK(cudaDeviceSynchronize());
      shmem_barrier_all();
      if (form == 0) {
        scan_long<2, true><<<1, 1024>>>(team, dst, dst, n);
        CK(cudaGetLastError());
      } else {
        cudaStream_t st;
        CK(cudaStreamCreate(&st));
        shmemx_long_sum_exscan_on_stream(team, dst, dst, n, st);
        CK(cudaStreamSynchronize(st));
        CK(cudaStreamDestroy(st));
      }
      CK(cudaDeviceSynchronize());
      check_scan(form ? "shmemx_long_sum_exscan_on_stream in place" : "exscan_block in place (1024 threads)", dst, n,
                 start, stride, myidx, true, seed);
    }
    const uint64_t seed = seed0 ^ (n * 57u + 300u);
    fill_long(src, n, seed);
    CK(cudaMemset(dst, 0xa5, (n + 1) * sizeof(long)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    EXPECT(shmem_long_sum_inscan(team, dst, src, n) == 0, "host shmem_long_sum_inscan returned nonzero");
    check_scan("shmem_long_sum_inscan from the host (device heap)", dst, n, start, stride, myidx, false, seed);
  }
}

// ibput/ibget: to the right PE (put) or from the left PE (get); dest on the receiving side checked.
static void run_ib(long* src, long* dst, uint64_t seed0) {
  const int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  constexpr ptrdiff_t DST = 7, SST = 5;
  constexpr size_t BS = 3, NB = 300, LEN = (NB - 1) * 7 + BS + 8;
  const char* names[] = {"shmem_long_ibput", "shmemx_long_ibput_warp", "shmemx_long_ibput_block", "shmem_ibput32",
                         "host shmem_long_ibput", "shmem_long_ibget", "shmemx_long_ibget_warp",
                         "shmemx_long_ibget_block", "shmem_ibget32", "host shmem_long_ibget"};
  for (int kind = 0; kind < 10; ++kind) {
    const bool get = kind >= 5;
    const int form = kind % 5;
    const uint64_t seed = seed0 ^ (0x1b00u + static_cast<uint64_t>(kind));
    fill_long(src, LEN, seed);
    CK(cudaMemset(dst, 0xa5, LEN * sizeof(long)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    const int pe = get ? left : right;
    // 32-bit form: the same bytes as pairs of 32-bit elements (strides and sizes doubled)
    switch (form) {
      case 0: ib_k<0><<<1, 64>>>(dst, src, DST, SST, BS, NB, pe, get); break;
      case 1: ib_k<1><<<1, 64>>>(dst, src, DST, SST, BS, NB, pe, get); break;
      case 2: ib_k<2><<<1, 512>>>(dst, src, DST, SST, BS, NB, pe, get); break;
      case 3: ib32_k<<<1, 32>>>(dst, src, 2 * DST, 2 * SST, 2 * BS, NB, pe, get); break;
      default:
        if (get) shmem_long_ibget(dst, src, DST, SST, BS, NB, pe);
        else shmem_long_ibput(dst, src, DST, SST, BS, NB, pe);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    shmem_quiet();
    shmem_barrier_all();
    std::vector<long> got(LEN);
    CK(cudaMemcpy(got.data(), dst, LEN * sizeof(long), cudaMemcpyDeviceToHost));
    long poison;
    memset(&poison, 0xa5, sizeof poison);
    for (size_t i = 0; i < LEN; ++i) {
      const bool in = i % DST < BS && i / DST < NB;
      const long e = in ? static_cast<long>(payload(seed, left, (i / DST) * SST + i % DST)) : poison;
      if (got[i] != e) {
        EXPECT(false, "%s: dest[%zu] expected %lx got %lx", names[kind], i, e, got[i]);
        break;
      }
    }
  }
}

static void run_signals(uint64_t seed) {
  const int me = shmem_my_pe(), np = shmem_n_pes(), left = (me + np - 1) % np;
  auto* sig = static_cast<uint64_t*>(shmem_calloc(2, sizeof(uint64_t)));
  for (int scope = 0; scope < 4; ++scope) {
    CK(cudaMemset(sig, 0, 2 * sizeof(uint64_t)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    const uint64_t v = mix64(seed + static_cast<uint64_t>(scope));
    if (scope == 0) signal_k<0><<<1, 32>>>(sig, sig + 1, v);
    else if (scope == 1) signal_k<1><<<1, 64>>>(sig, sig + 1, v);
    else if (scope == 2) signal_k<2><<<1, 256>>>(sig, sig + 1, v);
    CK(cudaGetLastError());
    if (scope == 3) {  // on a stream
      cudaStream_t st;
      CK(cudaStreamCreate(&st));
      for (int pe = 0; pe < np; ++pe) shmemx_signal_add_on_stream(sig, static_cast<uint64_t>(me) + 1, pe, st);
      shmemx_signal_set_on_stream(sig + 1, v ^ static_cast<uint64_t>(me), (me + 1) % np, st);
      CK(cudaStreamSynchronize(st));
      CK(cudaStreamDestroy(st));
    }
    CK(cudaDeviceSynchronize());
    shmem_quiet();
    shmem_barrier_all();
    uint64_t h[2];
    CK(cudaMemcpy(h, sig, sizeof h, cudaMemcpyDeviceToHost));
    const uint64_t want_add = static_cast<uint64_t>(np) * static_cast<uint64_t>(np + 1) / 2;
    EXPECT(h[0] == want_add, "signal_add (scope %d): %llu, expected %llu", scope, (unsigned long long)h[0],
           (unsigned long long)want_add);
    EXPECT(h[1] == (v ^ static_cast<uint64_t>(left)), "signal_set (scope %d): %llx, expected %llx", scope,
           (unsigned long long)h[1], (unsigned long long)(v ^ static_cast<uint64_t>(left)));
  }
  shmem_barrier_all();
  shmem_free(sig);
}

static void run_pe_quiet(uint64_t seed0) {
  const int me = shmem_my_pe(), np = shmem_n_pes(), left = (me + np - 1) % np;
  constexpr size_t N = 1 << 16;  // 512 KiB
  auto* big = static_cast<uint64_t*>(shmem_malloc(N * sizeof(uint64_t)));
  auto* src = static_cast<uint64_t*>(shmem_malloc(N * sizeof(uint64_t)));
  auto* flag = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  unsigned long long* bad = nullptr;
  CK(cudaMalloc(&bad, sizeof *bad));
  for (int scope = 0; scope < 3; ++scope) {
    const uint64_t seed = seed0 ^ (0x9e00u + static_cast<uint64_t>(scope));
    std::vector<uint64_t> h(N);
    for (size_t i = 0; i < N; ++i) h[i] = payload(seed, me, i);
    CK(cudaMemcpy(src, h.data(), N * sizeof(uint64_t), cudaMemcpyHostToDevice));
    CK(cudaMemset(big, 0, N * sizeof(uint64_t)));
    CK(cudaMemset(bad, 0, sizeof *bad));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    const int round = scope + 1;
    if (scope == 0) pe_quiet_k<0><<<1, 32>>>(big, src, N, flag, round);
    else if (scope == 1) pe_quiet_k<1><<<1, 64>>>(big, src, N, flag, round);
    else pe_quiet_k<2><<<1, 1024>>>(big, src, N, flag, round);
    CK(cudaGetLastError());
    // Synchronised before the next launch: with the proxy on, pe_quiet_k waits for this PE's proxy,
    // whose CUDA calls a launch that loads a kernel would block (docs/gpu.md, lazy loading).
    CK(cudaDeviceSynchronize());
    verify<<<64, 256>>>(big, N, seed, left, bad);  // the left PE's payload, once its flag arrived
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long nbad = 0;
    CK(cudaMemcpy(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost));
    EXPECT(nbad == 0, "pe_quiet (scope %d): %llu of %zu words from pe %d missing when its flag arrived", scope, nbad,
           N, left);
    shmem_barrier_all();
  }
  CK(cudaFree(bad));
  shmem_free(flag);
  shmem_free(src);
  shmem_free(big);
}

int main() {
  skip_without_gpu();
  shmem_init();
  skip_unless_gpu_per_pe(2);
  require_device_heap();
  const int me = shmem_my_pe(), np = shmem_n_pes();
  const uint64_t seed = shared_seed();
  auto* src = static_cast<long*>(shmem_malloc((kMax + 8) * sizeof(long) * 2));
  auto* dst = static_cast<long*>(shmem_malloc((kMax + 8) * sizeof(long) * 2));
  progress("scans, world");
  run_scans(SHMEM_TEAM_WORLD, 0, 1, np, src, dst, seed);
  progress("scans, odd team");
  // PEs 1, 3, ... (team of 1 at 2 PEs, 2 at 4)
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, np / 2, nullptr, 0, &odd);
  run_scans(odd, 1, 2, np / 2, src, dst, seed ^ 0x0ddull);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  {  // a double exscan at block scope over the world, values exact in any order
    const size_t n = 700;
    std::vector<double> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = static_cast<double>(payload(seed, me, i) & 0xffff);
    auto* ds = reinterpret_cast<double*>(src);
    auto* dd = reinterpret_cast<double*>(dst);
    CK(cudaMemcpy(ds, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemset(dd, 0xa5, n * sizeof(double)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    scan_double_block<<<1, 128>>>(SHMEM_TEAM_WORLD, dd, ds, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
      double e = 0;
      for (int p = 0; p < me; ++p) e += static_cast<double>(payload(seed, p, i) & 0xffff);
      if (h[i] != e) {
        EXPECT(false, "shmemx_double_sum_exscan_block: element %zu expected %g got %g", i, e, h[i]);
        break;
      }
    }
  }
  progress("ibput/ibget");
  run_ib(src, dst, seed);
  progress("signals");
  run_signals(seed);
  progress("pe_quiet");
  run_pe_quiet(seed);
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
  int total = 0;
  static int sym_fail;
  shmem_finalize();
  // A second life (OpenSHMEM 1.6 re-initialization) on the GPU PE: the device heap, the device
  // state and the collective kernels come back; a kernel puts to the right PE, a kernel scans.
  int init = 1;
  shmem_query_initialized(&init);
  EXPECT(init == 0, "shmem_query_initialized after the last finalize gave %d", init);
  shmem_init();
  require_device_heap();
  EXPECT(shmem_my_pe() == me && shmem_n_pes() == np, "second life: pe %d of %d", shmem_my_pe(), shmem_n_pes());
  {
    const uint64_t seed2 = shared_seed();
    auto* s2 = static_cast<long*>(shmem_malloc(64 * sizeof(long)));
    auto* d2 = static_cast<long*>(shmem_malloc(65 * sizeof(long)));
    fill_long(s2, 64, seed2);
    CK(cudaMemset(d2, 0xa5, 65 * sizeof(long)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    scan_long<2, false><<<1, 128>>>(SHMEM_TEAM_WORLD, d2, s2, 64);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    check_scan("second life: shmemx_long_sum_inscan_block", d2, 64, 0, 1, me, false, seed2);
    CK(cudaMemset(d2, 0xa5, 65 * sizeof(long)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    shmemx_long_sum_exscan_on_stream(SHMEM_TEAM_WORLD, d2, s2, 64, nullptr);
    CK(cudaDeviceSynchronize());
    check_scan("second life: shmemx_long_sum_exscan_on_stream", d2, 64, 0, 1, me, true, seed2);
    shmem_free(d2);
    shmem_free(s2);
  }
  sym_fail = g_failures;
  shmem_barrier_all();
  total = 0;
  for (int p = 0; p < np; ++p) total += shmem_int_g(&sym_fail, p);
  if (me == 0) printf(total ? "FAIL gpu_1_6: %d failures\n" : "PASS gpu_1_6\n", total);
  shmem_finalize();
  return total ? 1 : 0;
}
