// GPU team collectives: in-kernel at thread, warp and block scope, on a stream, and host calls on
// the device heap; on SHMEM_TEAM_WORLD and on strided teams that skip PEs (even / odd PEs);
// every output element checked against payloads recomputed on the host, destinations poisoned
// first; back-to-back collectives without syncs; 10,000 barriers; team destroy + slot reuse.
// Run: oshrun -np N gpu_coll (N = 2 or 4 GPUs).
#include "coll_diag.cuh"
#include "gpu_util.cuh"
#include "gshmem/device_host/state.h"  // the large LL limits (GSHMEM_DEV_LL_BIG_*)

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <type_traits>
#include <vector>

namespace {

enum Coll { kBcast, kFcollect, kAlltoall, kSumI32, kSumF32, kMaxF64, kXorU64, kMinI8, kProdU16, kCollect, kAlltoalls };
const char* coll_name[] = {"broadcast", "fcollect", "alltoall", "int32 sum", "float sum", "double max",
                           "uint64 xor", "int8 min", "uint16 prod", "collect", "alltoalls"};
enum Scope { kThread, kWarp, kBlock, kStream, kHost };
const char* scope_name[] = {"thread", "warp", "block", "on-stream", "host"};

uint64_t g_seed;
Scope g_first_scope = kThread;  // the first scope of the team cases (main: --on-stream-only)
int g_bcast_repeat = 1;         // runs of the on-stream 3 MiB broadcast case (main: --bcast-repeat K)

// Deterministic per-(pe, byte index) source bytes; reductions get values whose result is exact.
unsigned char src_byte(int pe, size_t i) { return static_cast<unsigned char>(payload(g_seed, pe, i / 8) >> (8 * (i % 8))); }
template <typename T>
T src_elem(Coll c, int pe, size_t i) {
  const uint64_t v = payload(g_seed, pe, i);
  switch (c) {
    case kSumF32: return static_cast<T>(static_cast<int>(v % 2001) - 1000);  // exact in float
    case kMaxF64: return static_cast<T>(static_cast<double>(static_cast<int64_t>(v)) / 7.0);
    case kProdU16: return static_cast<T>(v % 5 + 1);
    default: {
      T t;
      memcpy(&t, &v, sizeof t);
      return t;
    }
  }
}

template <typename T>
__device__ void dev_reduce(Coll c, Scope s, int team, T* d, const T* src, size_t n) {
#define R(FN)                                                                                \
  do {                                                                                       \
    if (s == kThread) {                                                                      \
      if (threadIdx.x == 0) shmem_##FN##_reduce(team, d, src, n);                            \
    } else if (s == kWarp) {                                                                 \
      if (threadIdx.x < 32) shmemx_##FN##_reduce_warp(team, d, src, n);                      \
    } else                                                                                   \
      shmemx_##FN##_reduce_block(team, d, src, n);                                           \
  } while (0)
  if constexpr (sizeof(T) == 4 && !std::is_floating_point_v<T>) R(int32_sum);
  if constexpr (std::is_same_v<T, float>) R(float_sum);
  if constexpr (std::is_same_v<T, double>) R(double_max);
  if constexpr (std::is_same_v<T, uint64_t>) R(uint64_xor);
  if constexpr (std::is_same_v<T, int8_t>) R(int8_min);
  if constexpr (std::is_same_v<T, uint16_t>) R(uint16_prod);
#undef R
  (void)c;
}

// reps > 1: the same collective back to back, no sync between (reductions chain src → d → d).
// One kernel per element type and scope, and the byte collectives (broadcast, fcollect, alltoall)
// only in the unsigned char kernels, the reductions only in the others: one kernel holding every
// collective at every scope took ptxas minutes.
template <typename T, int S>
__global__ void coll_kernel(Coll c, int team, T* d, const T* src, size_t n, int root, int reps) {
  for (int r = 0; r < reps; ++r) {
    const bool one = S == kThread ? threadIdx.x == 0 : S == kWarp ? threadIdx.x < 32 : true;
    if constexpr (std::is_same_v<T, unsigned char>) {
      if (c == kBcast) {
        if (S == kThread) { if (one) shmem_broadcastmem(team, d, src, n, root); }
        else if (S == kWarp) { if (one) shmemx_broadcastmem_warp(team, d, src, n, root); }
        else shmemx_broadcastmem_block(team, d, src, n, root);
      } else if (c == kFcollect) {
        if (S == kThread) { if (one) shmem_fcollectmem(team, d, src, n); }
        else if (S == kWarp) { if (one) shmemx_fcollectmem_warp(team, d, src, n); }
        else shmemx_fcollectmem_block(team, d, src, n);
      } else if (c == kAlltoall) {
        if (S == kThread) { if (one) shmem_alltoallmem(team, d, src, n); }
        else if (S == kWarp) { if (one) shmemx_alltoallmem_warp(team, d, src, n); }
        else shmemx_alltoallmem_block(team, d, src, n);
      }
    } else {
      (void)one;
      (void)root;
      dev_reduce<T>(c, static_cast<Scope>(S), team, d, r == 0 ? src : d, n);
    }
    __syncthreads();
  }
}

template <typename T>
void launch_coll(Coll c, Scope s, int team, T* d, const T* src, size_t n, int root, int reps, cudaStream_t st) {
  if (s == kThread) coll_kernel<T, kThread><<<1, 256, 0, st>>>(c, team, d, src, n, root, reps);
  else if (s == kWarp) coll_kernel<T, kWarp><<<1, 256, 0, st>>>(c, team, d, src, n, root, reps);
  else coll_kernel<T, kBlock><<<1, 256, 0, st>>>(c, team, d, src, n, root, reps);
}

// collect: n bytes from this PE; alltoalls: n uint32 elements per member, strides 2 (dest), 3 (source).
__global__ void coll2_kernel(Coll c, Scope s, int team, void* d, const void* src, size_t n) {
  const bool one = s == kThread ? threadIdx.x == 0 : s == kWarp ? threadIdx.x < 32 : true;
  if (c == kCollect) {
    if (s == kThread) { if (one) shmem_collectmem(team, d, src, n); }
    else if (s == kWarp) { if (one) shmemx_collectmem_warp(team, d, src, n); }
    else shmemx_collectmem_block(team, d, src, n);
  } else {
    uint32_t* dd = static_cast<uint32_t*>(d);
    const uint32_t* ss = static_cast<const uint32_t*>(src);
    if (s == kThread) { if (one) shmem_uint32_alltoalls(team, dd, ss, 2, 3, n); }
    else if (s == kWarp) { if (one) shmemx_uint32_alltoalls_warp(team, dd, ss, 2, 3, n); }
    else shmemx_uint32_alltoalls_block(team, dd, ss, 2, 3, n);
  }
}

// An LL reduction of nr ints into d (16: small LL words; 2048: a large LL round for team WORLD)
// immediately followed by a broadcast of nb ints into d (no sync between; nb = 16: an LL
// broadcast, nb = 2048: the push path): the broadcast's data must win on every member.
__global__ void ll_then_bcast(int team, int32_t* d, const int32_t* s, const int32_t* s2, size_t nr, size_t nb, int root,
                              int reps) {
  for (int r = 0; r < reps; ++r) {
    shmemx_int32_sum_reduce_block(team, d, s, nr);
    shmemx_int32_broadcast_block(team, d, s2, nb, root);
  }
}

// LL rounds of every kind back to back in one kernel, no sync between: per rep a broadcast of
// 24 bytes from root rep % n, an fcollect of 16 bytes, an int sum of 24; each source changes every
// rep (src[k] = base[k] + rep), so a round that read a stale or a future word shows. The sum
// is of 24 ints: a raw round at thread scope, LL words at warp and block scope.
__global__ void ll_mixed(Scope s, int team, unsigned char* bd, unsigned char* fd, int32_t* rd, unsigned char* bs,
                         unsigned char* fs, int32_t* rs, int reps, int n) {
  const bool one = s == kThread ? threadIdx.x == 0 : s == kWarp ? threadIdx.x < 32 : true;
  const int me = shmem_team_my_pe(team);
  for (int r = 0; r < reps; ++r) {
    if (threadIdx.x == 0) {
      for (int k = 0; k < 24; ++k) bs[k] = static_cast<unsigned char>(k * 7 + me * 31 + r);
      for (int k = 0; k < 16; ++k) fs[k] = static_cast<unsigned char>(k * 5 + me * 17 + r);
      for (int k = 0; k < 24; ++k) rs[k] = k * 1000 + me + r;
    }
    __syncthreads();
    if (one) {
      if (s == kThread) {
        shmem_broadcastmem(team, bd, bs, 24, r % n);
        shmem_fcollectmem(team, fd, fs, 16);
        shmem_int32_sum_reduce(team, rd, rs, 24);
      } else if (s == kWarp) {
        shmemx_broadcastmem_warp(team, bd, bs, 24, r % n);
        shmemx_fcollectmem_warp(team, fd, fs, 16);
        shmemx_int32_sum_reduce_warp(team, rd, rs, 24);
      } else {
        shmemx_broadcastmem_block(team, bd, bs, 24, r % n);
        shmemx_fcollectmem_block(team, fd, fs, 16);
        shmemx_int32_sum_reduce_block(team, rd, rs, 24);
      }
    }
    __syncthreads();
  }
}

__global__ void team_query(int team, int* out) {
  out[0] = shmem_team_my_pe(team);
  out[1] = shmem_team_n_pes(team);
}

__global__ void barrier_loop(int iters, int team) {
  for (int i = 0; i < iters; ++i) {
    if (i % 2) shmemx_barrier_all_block();
    else shmemx_team_sync_block(team);
  }
}

struct Ctx {
  int me, npes;
  cudaStream_t stream;
};

// shmem_malloc is collective: every PE passes the same size. With an odd number of PEs the even and
// odd teams differ in size, and so do the sizes the cases compute from their team: all take the
// largest (g_size_words: two symmetric words, this PE's size and the maximum).
uint64_t* g_size_words;
void* sym_malloc(size_t bytes) {
  uint64_t v = bytes;
  CK(cudaMemcpy(g_size_words, &v, sizeof v, cudaMemcpyHostToDevice));
  shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, g_size_words + 1, g_size_words, 1);
  CK(cudaMemcpy(&v, g_size_words + 1, sizeof v, cudaMemcpyDeviceToHost));
  return shmem_malloc(v);
}

template <typename T>
void run_reduce_stream(Coll c, int team, T* d, const T* s, size_t n, cudaStream_t st) {
  switch (c) {
    case kSumI32: shmemx_int32_sum_reduce_on_stream(team, (int32_t*)d, (const int32_t*)s, n, st); break;
    case kSumF32: shmemx_float_sum_reduce_on_stream(team, (float*)d, (const float*)s, n, st); break;
    case kMaxF64: shmemx_double_max_reduce_on_stream(team, (double*)d, (const double*)s, n, st); break;
    case kXorU64: shmemx_uint64_xor_reduce_on_stream(team, (uint64_t*)d, (const uint64_t*)s, n, st); break;
    case kMinI8: shmemx_int8_min_reduce_on_stream(team, (int8_t*)d, (const int8_t*)s, n, st); break;
    default: shmemx_uint16_prod_reduce_on_stream(team, (uint16_t*)d, (const uint16_t*)s, n, st); break;
  }
}
template <typename T>
void run_reduce_host(Coll c, int team, T* d, const T* s, size_t n) {
  switch (c) {
    case kSumI32: shmem_int32_sum_reduce(team, (int32_t*)d, (const int32_t*)s, n); break;
    case kSumF32: shmem_float_sum_reduce(team, (float*)d, (const float*)s, n); break;
    case kMaxF64: shmem_double_max_reduce(team, (double*)d, (const double*)s, n); break;
    case kXorU64: shmem_uint64_xor_reduce(team, (uint64_t*)d, (const uint64_t*)s, n); break;
    case kMinI8: shmem_int8_min_reduce(team, (int8_t*)d, (const int8_t*)s, n); break;
    default: shmem_uint16_prod_reduce(team, (uint16_t*)d, (const uint16_t*)s, n); break;
  }
}

template <typename T>
T combine(Coll c, T a, T b) {
  switch (c) {
    case kSumI32: return static_cast<T>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    case kSumF32: return a + b;
    case kMaxF64: return a < b ? b : a;
    case kXorU64: return static_cast<T>(static_cast<uint64_t>(a) ^ static_cast<uint64_t>(b));
    case kMinI8: return b < a ? b : a;
    default: return static_cast<T>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
  }
}

// One reduction case: fill, poison, run (reps chained), verify on the host.
// off: elements from the allocation's start to src and dest (an 8-byte offset with 4-byte elements
// keeps the size a multiple of 16 bytes but not the addresses).
template <typename T>
void reduce_case(const Ctx& x, Coll c, Scope s, int team, size_t n, int reps, bool in_place, size_t off = 0) {
  const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
  std::vector<T> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = src_elem<T>(c, x.me, i);
  T* src_base = static_cast<T*>(sym_malloc((n + off) * sizeof(T)));
  T* dst_base = in_place ? src_base : static_cast<T*>(sym_malloc((n + off) * sizeof(T)));
  T *src = src_base + off, *dst = dst_base + off;
  CK(cudaMemcpy(src, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  if (!in_place) CK(cudaMemset(dst, 0xA5, n * sizeof(T)));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (s <= kBlock) {
    launch_coll<T>(c, s, team, dst, src, n, 0, reps, x.stream);
    CK(cudaStreamSynchronize(x.stream));
  } else {
    for (int r = 0; r < reps; ++r) {
      if (s == kStream) run_reduce_stream<T>(c, team, dst, r ? dst : src, n, x.stream);
      else run_reduce_host<T>(c, team, dst, r ? dst : src, n);
    }
    CK(cudaStreamSynchronize(x.stream));
  }
  std::vector<T> got(n);
  CK(cudaMemcpy(got.data(), dst, n * sizeof(T), cudaMemcpyDeviceToHost));
  // Expected: members' world PEs from the team (translate), combined in team order, reps times.
  std::vector<int> world(static_cast<size_t>(tn));
  for (int i = 0; i < tn; ++i) world[static_cast<size_t>(i)] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    std::vector<T> cur(static_cast<size_t>(tn));
    for (int j = 0; j < tn; ++j) cur[static_cast<size_t>(j)] = src_elem<T>(c, world[static_cast<size_t>(j)], i);
    T acc{};
    for (int r = 0; r < reps; ++r) {
      acc = cur[0];
      for (int j = 1; j < tn; ++j) acc = combine(c, acc, cur[static_cast<size_t>(j)]);
      for (auto& v : cur) v = acc;  // every member's dest holds acc and is the next source
    }
    if (memcmp(&acc, &got[i], sizeof(T)) != 0 && bad++ == 0) first = i;
  }
  EXPECT(bad == 0, "%s %s team %d (index %d of %d) n %zu reps %d%s, offset %zu elements: %zu of %zu elements wrong, "
         "first at %zu", scope_name[s], coll_name[c], team, tme, tn, n, reps, in_place ? " in place" : "", off, bad, n,
         first);
  shmem_barrier_all();
  if (!in_place) shmem_free(dst_base);
  shmem_free(src_base);
}

// broadcast / fcollect / alltoall of `bytes` per block (one block per member for alltoall source).
void data_case(const Ctx& x, Coll c, Scope s, int team, size_t bytes, int reps) {
  const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
  const size_t src_bytes = c == kAlltoall ? bytes * tn : bytes;
  const size_t dst_bytes = c == kBcast ? bytes : bytes * tn;
  std::vector<unsigned char> h(src_bytes);
  for (size_t i = 0; i < src_bytes; ++i) h[i] = src_byte(x.me, i);
  unsigned char* src = static_cast<unsigned char*>(sym_malloc(src_bytes ? src_bytes : 1));
  unsigned char* dst = static_cast<unsigned char*>(sym_malloc(dst_bytes ? dst_bytes : 1));
  CK(cudaMemcpy(src, h.data(), src_bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0xA5, dst_bytes));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  const int root = tn - 1;
  if (s <= kBlock) {
    launch_coll<unsigned char>(c, s, team, dst, src, bytes, root, reps, x.stream);
  } else {
    for (int r = 0; r < reps; ++r) {
      if (s == kStream) {
        if (c == kBcast) shmemx_broadcastmem_on_stream(team, dst, src, bytes, root, x.stream);
        else if (c == kFcollect) shmemx_fcollectmem_on_stream(team, dst, src, bytes, x.stream);
        else shmemx_alltoallmem_on_stream(team, dst, src, bytes, x.stream);
      } else {
        if (c == kBcast) shmem_broadcastmem(team, dst, src, bytes, root);
        else if (c == kFcollect) shmem_fcollectmem(team, dst, src, bytes);
        else shmem_alltoallmem(team, dst, src, bytes);
      }
    }
  }
  CK(cudaStreamSynchronize(x.stream));
  std::vector<unsigned char> got(dst_bytes);
  CK(cudaMemcpy(got.data(), dst, dst_bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0, first = 0, poison = 0, last = 0;
  std::vector<unsigned char> want(dst_bytes);
  for (size_t i = 0; i < dst_bytes; ++i) {
    if (c == kBcast) want[i] = src_byte(shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD), i);
    else if (c == kFcollect) want[i] = src_byte(shmem_team_translate_pe(team, static_cast<int>(i / bytes), SHMEM_TEAM_WORLD), i % bytes);
    else want[i] = src_byte(shmem_team_translate_pe(team, static_cast<int>(i / bytes), SHMEM_TEAM_WORLD), tme * bytes + i % bytes);
    if (got[i] != want[i]) {
      if (bad++ == 0) first = i;
      last = i;
      poison += got[i] == 0xA5;
    }
  }
  // Where the wrong bytes lie and whether they are the poison (never written) tell a late or
  // missing store from a wrong one.
  EXPECT(bad == 0,
         "%s %s team %d (index %d of %d) %zu bytes reps %d: %zu of %zu bytes wrong, in [%zu, %zu], %zu of them "
         "the poison 0xa5 (first: got 0x%02x, want 0x%02x)",
         scope_name[s], coll_name[c], team, tme, tn, bytes, reps, bad, dst_bytes, first, last + 1, poison,
         bad ? got[first] : 0, bad ? want[first] : 0);
  if (bad) {
    auto member_byte = [team](int p, size_t i) { return src_byte(shmem_team_translate_pe(team, p, SHMEM_TEAM_WORLD), i); };
    explain_wrong(team, dst, got, want, c == kBcast ? &member_byte : nullptr);
  }
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

// Broadcast with dest and src in one symmetric buffer: in place (dest == src), and dest past src
// at bytes + 4 and bytes + 13 (for 128 and 4096 bytes: 4 and 5 modulo 8, not 8-byte aligned; for
// 100 bytes: 0 and 1 modulo 8). Every byte of the buffer is checked: the bytes outside dest must
// keep this PE's own data. (A partial overlap is undefined in OpenSHMEM.)
void bcast_layout_case(const Ctx& x, Scope s, int team, size_t bytes, size_t dst_off) {
  const int tme = shmem_team_my_pe(team), root = shmem_team_n_pes(team) - 1;
  const size_t total = dst_off + bytes + 8;
  std::vector<unsigned char> h(total);
  for (size_t i = 0; i < total; ++i) h[i] = src_byte(x.me, i);
  unsigned char* buf = static_cast<unsigned char*>(sym_malloc(total));
  CK(cudaMemcpy(buf, h.data(), total, cudaMemcpyHostToDevice));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  launch_coll<unsigned char>(kBcast, s, team, buf + dst_off, buf, bytes, root, 1, x.stream);
  CK(cudaStreamSynchronize(x.stream));
  std::vector<unsigned char> got(total);
  CK(cudaMemcpy(got.data(), buf, total, cudaMemcpyDeviceToHost));
  const int root_w = shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < total; ++i) {
    const bool in_dest = i >= dst_off && i < dst_off + bytes;
    const unsigned char want = in_dest ? src_byte(root_w, i - dst_off) : src_byte(x.me, i);
    if (got[i] != want && bad++ == 0) first = i;
  }
  EXPECT(bad == 0, "%s broadcast team %d (index %d) %zu bytes, dest at src + %zu: %zu of %zu bytes wrong, first at %zu",
         scope_name[s], team, tme, bytes, dst_off, bad, total, first);
  shmem_barrier_all();
  shmem_free(buf);
}

// collect with a different size on every member (base + 7 * team index bytes), and alltoalls
// of uint32 elements with dest stride 2 and source stride 3; gaps in dest must stay poisoned.
void collect_case(const Ctx& x, Scope s, int team, size_t base) {
  const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
  auto size_of = [&](int i) { return base + 7 * static_cast<size_t>(i); };
  size_t total = 0, off = 0;
  for (int i = 0; i < tn; ++i) {
    if (i < tme) off += size_of(i);
    total += size_of(i);
  }
  const size_t mine = size_of(tme);
  std::vector<unsigned char> h(mine);
  for (size_t i = 0; i < mine; ++i) h[i] = src_byte(x.me, i);
  // shmem_malloc is collective with the same size everywhere: the largest member's block.
  unsigned char* src = static_cast<unsigned char*>(sym_malloc(size_of(tn - 1) + 1));
  unsigned char* dst = static_cast<unsigned char*>(sym_malloc(total + 1));
  CK(cudaMemcpy(src, h.data(), mine, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0xA5, total + 1));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (s <= kBlock) coll2_kernel<<<1, 256, 0, x.stream>>>(kCollect, s, team, dst, src, mine);
  else if (s == kStream) shmemx_collectmem_on_stream(team, dst, src, mine, x.stream);
  else shmem_collectmem(team, dst, src, mine);
  CK(cudaStreamSynchronize(x.stream));
  std::vector<unsigned char> got(total + 1);
  CK(cudaMemcpy(got.data(), dst, total + 1, cudaMemcpyDeviceToHost));
  size_t bad = 0, at = 0;
  for (int i = 0, o = 0; i < tn; o += static_cast<int>(size_of(i)), ++i)
    for (size_t k = 0; k < size_of(i); ++k)
      if (got[o + k] != src_byte(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD), k) && bad++ == 0) at = o + k;
  if (got[total] != 0xA5 && bad++ == 0) at = total;
  EXPECT(bad == 0, "%s collect team %d (index %d of %d) base %zu: %zu bytes wrong, first at %zu", scope_name[s], team,
         tme, tn, base, bad, at);
  (void)off;
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

void alltoalls_case(const Ctx& x, Scope s, int team, size_t n) {
  const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
  const size_t m = static_cast<size_t>(tn) * n, src_elems = (m - 1) * 3 + 1, dst_elems = (m - 1) * 2 + 1;
  std::vector<uint32_t> h(src_elems);
  for (size_t i = 0; i < src_elems; ++i) h[i] = static_cast<uint32_t>(payload(g_seed, x.me, i));
  uint32_t* src = static_cast<uint32_t*>(sym_malloc(src_elems * 4));
  uint32_t* dst = static_cast<uint32_t*>(sym_malloc(dst_elems * 4));
  CK(cudaMemcpy(src, h.data(), src_elems * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0xA5, dst_elems * 4));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (s <= kBlock) coll2_kernel<<<1, 256, 0, x.stream>>>(kAlltoalls, s, team, dst, src, n);
  else if (s == kStream) shmemx_uint32_alltoalls_on_stream(team, dst, src, 2, 3, n, x.stream);
  else shmem_uint32_alltoalls(team, dst, src, 2, 3, n);
  CK(cudaStreamSynchronize(x.stream));
  std::vector<uint32_t> got(dst_elems);
  CK(cudaMemcpy(got.data(), dst, dst_elems * 4, cudaMemcpyDeviceToHost));
  size_t bad = 0, at = 0;
  for (size_t e = 0; e < dst_elems; ++e) {
    uint32_t want = 0xA5A5A5A5u;
    if (e % 2 == 0) {
      const size_t idx = e / 2, i = idx / n, k = idx % n;  // from member i, element k
      want = static_cast<uint32_t>(
          payload(g_seed, shmem_team_translate_pe(team, static_cast<int>(i), SHMEM_TEAM_WORLD), (tme * n + k) * 3));
    }
    if (got[e] != want && bad++ == 0) at = e;
  }
  EXPECT(bad == 0, "%s alltoalls team %d (index %d of %d) n %zu: %zu of %zu elements wrong, first at %zu",
         scope_name[s], team, tme, tn, n, bad, dst_elems, at);
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

void ll_then_push_case(const Ctx& x, int team, bool stream, size_t nb, size_t nr = 16) {
  const int tn = shmem_team_n_pes(team), root = tn - 1;
  const size_t nd = nb > nr ? nb : nr;
  int32_t* buf = static_cast<int32_t*>(sym_malloc((nd + nr + nb) * sizeof(int32_t)));
  int32_t *d = buf, *s = buf + nd, *s2 = buf + nd + nr;
  std::vector<int32_t> h(nr + nb);
  for (size_t i = 0; i < nr + nb; ++i) h[i] = static_cast<int32_t>(payload(g_seed ^ 0x11, x.me, i));
  CK(cudaMemcpy(s, h.data(), (nr + nb) * sizeof(int32_t), cudaMemcpyHostToDevice));
  CK(cudaMemset(d, 0xA5, nd * sizeof(int32_t)));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (stream) {
    for (int r = 0; r < 50; ++r) {
      shmemx_int32_sum_reduce_on_stream(team, d, s, nr, x.stream);
      shmemx_int32_broadcast_on_stream(team, d, s2, nb, root, x.stream);
    }
  } else {
    ll_then_bcast<<<1, 256, 0, x.stream>>>(team, d, s, s2, nr, nb, root, 50);
  }
  CK(cudaStreamSynchronize(x.stream));
  std::vector<int32_t> got(nb);
  CK(cudaMemcpy(got.data(), d, nb * sizeof(int32_t), cudaMemcpyDeviceToHost));
  const int rw = shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD);
  size_t bad = 0;
  for (size_t i = 0; i < nb; ++i) bad += got[i] != static_cast<int32_t>(payload(g_seed ^ 0x11, rw, nr + i));
  EXPECT(bad == 0, "LL reduction of %zu ints then broadcast of %zu ints into the same dest (%s), team %d: %zu of %zu wrong",
         nr, nb, stream ? "on-stream" : "block", team, bad, nb);
  shmem_barrier_all();
  shmem_free(buf);
}

// Small LL reductions (16 ints) and large ones (4096 ints: a large LL round for team WORLD of 2
// PEs, reduce-scatter otherwise) alternately, back to back with no sync between, each chained in
// place: the two LL areas share the slot's round count and parity.
__global__ void ll_alternate(int team, int32_t* small, int32_t* large, int reps) {
  for (int r = 0; r < reps; ++r) {
    shmemx_int32_sum_reduce_block(team, small, small, 16);
    shmemx_int32_sum_reduce_block(team, large, large, 4096);
  }
}

// Reductions of 16, 4096 and (on stream) 16384 ints alternately, in place, with no sync between.
// Team WORLD of 2 PEs: small LL, large LL of one row and large LL of 4 rows (4 PEs on stream:
// small LL, large LL of 2 rows and of 8 rows), which share the slot's count and parity while
// the large area's layout changes from round to round.
void ll_alternate_case(const Ctx& x, Scope s, int team) {
  const int tn = shmem_team_n_pes(team), reps = 7;
  const size_t ns = 16, nl = 4096, nh = s == kStream ? 16384 : 0;
  int32_t* small = static_cast<int32_t*>(sym_malloc((ns + nl + nh) * sizeof(int32_t)));
  int32_t* large = small + ns;  // 64 bytes in: still 16-byte aligned
  int32_t* huge = large + nl;
  std::vector<int32_t> h(ns + nl + nh);
  for (size_t i = 0; i < h.size(); ++i) h[i] = src_elem<int32_t>(kSumI32, x.me, i);
  CK(cudaMemcpy(small, h.data(), h.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (s == kBlock) {
    ll_alternate<<<1, 256, 0, x.stream>>>(team, small, large, reps);
  } else {
    for (int r = 0; r < reps; ++r) {
      shmemx_int32_sum_reduce_on_stream(team, small, small, ns, x.stream);
      shmemx_int32_sum_reduce_on_stream(team, large, large, nl, x.stream);
      shmemx_int32_sum_reduce_on_stream(team, huge, huge, nh, x.stream);
    }
  }
  CK(cudaStreamSynchronize(x.stream));
  std::vector<int32_t> got(h.size());
  CK(cudaMemcpy(got.data(), small, got.size() * sizeof(int32_t), cudaMemcpyDeviceToHost));
  std::vector<int> world(static_cast<size_t>(tn));
  for (int j = 0; j < tn; ++j) world[static_cast<size_t>(j)] = shmem_team_translate_pe(team, j, SHMEM_TEAM_WORLD);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    uint32_t acc = 0;
    for (int w : world) acc += static_cast<uint32_t>(src_elem<int32_t>(kSumI32, w, i));
    for (int r = 1; r < reps; ++r) acc *= static_cast<uint32_t>(tn);  // every member holds acc: the next sum is tn x acc
    if (static_cast<uint32_t>(got[i]) != acc && bad++ == 0) first = i;
  }
  EXPECT(bad == 0, "%s small and large LL reductions alternately x %d, team %d: %zu of %zu values wrong, first at %zu",
         scope_name[s], reps, team, bad, got.size(), first);
  shmem_barrier_all();
  shmem_free(small);
}

// threads: the block's size; at block scope, 2 threads leave a team of 4 or more with more
// senders than threads (each thread then waits for several members' words).
void ll_mixed_case(const Ctx& x, Scope s, int team, int threads = 256) {
  const int tn = shmem_team_n_pes(team), reps = 37;
  unsigned char* m = static_cast<unsigned char*>(sym_malloc(1024));
  unsigned char *bd = m, *fd = m + 64, *bs = m + 512, *fs = m + 576;
  int32_t *rd = reinterpret_cast<int32_t*>(m + 640), *rs = reinterpret_cast<int32_t*>(m + 768);
  CK(cudaMemset(m, 0xA5, 1024));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  ll_mixed<<<1, threads, 0, x.stream>>>(s, team, bd, fd, rd, bs, fs, rs, reps, tn);
  CK(cudaStreamSynchronize(x.stream));
  std::vector<unsigned char> got(1024);
  CK(cudaMemcpy(got.data(), m, 1024, cudaMemcpyDeviceToHost));
  const int r = reps - 1, root = r % tn;
  size_t bad = 0;
  for (int k = 0; k < 24; ++k) bad += got[k] != static_cast<unsigned char>(k * 7 + root * 31 + r);
  for (int j = 0; j < tn; ++j)
    for (int k = 0; k < 16; ++k) bad += got[64 + 16 * j + k] != static_cast<unsigned char>(k * 5 + j * 17 + r);
  for (size_t k = 64 + 16 * static_cast<size_t>(tn); k < 512; ++k) bad += got[k] != 0xA5;  // past fcollect's dest
  for (int k = 0; k < 24; ++k) {
    int32_t want = 0;
    for (int j = 0; j < tn; ++j) want += k * 1000 + j + r;
    int32_t v;
    memcpy(&v, &got[640 + 4 * k], 4);
    bad += v != want;
  }
  EXPECT(bad == 0, "%s LL broadcast/fcollect/reduce back to back x %d, team %d, %d threads: %zu values wrong",
         scope_name[s], reps, team, threads, bad);
  shmem_barrier_all();
  shmem_free(m);
}

// Kernel-written data across an on-stream sync/barrier: round r, every PE's kernel stores
// payload(seed + r, me, i) into the right neighbour's dest with p (NVLink stores), the stream
// syncs (barrier_all, team barrier, sync_all or team sync, in turn), and the next kernel checks
// what the left neighbour stored; a second on-stream sync before the next round's stores. The
// sync kernel's flags are relaxed: the kernel boundaries are what order the data
// (docs/memory-model.md), which a stale or missing word here would show.
__global__ void p_round(uint64_t* d, size_t n, int to, uint64_t seed, int me) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    shmem_uint64_p(d + i, payload(seed, me, i), to);
}

void stream_sync_visibility_case(const Ctx& x) {
  // Through the proxy (GSHMEM_FORCE_PROXY) every p is a trigger: fewer words and rounds there. The
  // second target (me + 2, 3 PEs or more) is stored by another lane of the sync kernel than the
  // first, so it checks that every lane waits for the proxy quiet.
  const bool proxy = getenv("GSHMEM_FORCE_PROXY") && atoi(getenv("GSHMEM_FORCE_PROXY")) != 0;
  const size_t n = proxy ? 512 : 64 * 1024;  // 512 KiB per round on NVLink
  uint64_t* d = static_cast<uint64_t*>(sym_malloc(n * sizeof(uint64_t)));
  unsigned long long* bad;
  CK(cudaMallocManaged(&bad, sizeof *bad));
  *bad = 0;
  CK(cudaMemset(d, 0, n * sizeof(uint64_t)));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  const int right = (x.me + 1) % x.npes, left = (x.me + x.npes - 1) % x.npes;
  auto sync = [&](int k) {
    switch (k % 4) {
      case 0: shmemx_barrier_all_on_stream(x.stream); break;
      case 1: shmemx_team_barrier_on_stream(SHMEM_TEAM_WORLD, x.stream); break;
      case 2: shmemx_sync_all_on_stream(x.stream); break;
      default: shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, x.stream); break;
    }
  };
  // Both kernels are launched once, empty, before the loop: the first launch of a kernel loads it
  // (lazy module loading) and holds the context lock until earlier work ends, and a p_round waiting
  // for the proxy, whose copies need that lock, would then never end (docs/gpu.md).
  p_round<<<1, 32, 0, x.stream>>>(d, 0, right, 0, x.me);
  verify<<<1, 32, 0, x.stream>>>(d, 0, 0, left, bad);
  CK(cudaStreamSynchronize(x.stream));
  const int rounds = proxy ? 8 : 64;
  const int far = x.npes > 2 ? 2 : 0;  // me + 2 and me - 2, in the second half of d
  const size_t half = far ? n / 2 : n;
  for (int r = 0; r < rounds; ++r) {
    p_round<<<16, 256, 0, x.stream>>>(d, half, right, g_seed + 1000 + r, x.me);
    if (far) p_round<<<16, 256, 0, x.stream>>>(d + half, n - half, (x.me + far) % x.npes, g_seed + 5000 + r, x.me);
    sync(r);
    verify<<<16, 256, 0, x.stream>>>(d, half, g_seed + 1000 + r, left, bad);
    if (far)
      verify<<<16, 256, 0, x.stream>>>(d + half, n - half, g_seed + 5000 + r, (x.me + x.npes - far) % x.npes, bad);
    sync(r + 1);
  }
  CK(cudaStreamSynchronize(x.stream));
  EXPECT(*bad == 0, "on-stream sync/barrier: %llu of %zu words stale after %d rounds", *bad, n * rounds, rounds);
  CK(cudaFree(bad));
  shmem_barrier_all();
  shmem_free(d);
}

void all_cases(const Ctx& x, int team) {
  if (team == SHMEM_TEAM_INVALID) return;
  int* q;
  CK(cudaMallocManaged(&q, 2 * sizeof(int)));
  team_query<<<1, 1>>>(team, q);
  CK(cudaDeviceSynchronize());
  EXPECT(q[0] == shmem_team_my_pe(team) && q[1] == shmem_team_n_pes(team),
         "device team query of team %d: my_pe %d n_pes %d, host says %d and %d", team, q[0], q[1],
         shmem_team_my_pe(team), shmem_team_n_pes(team));
  CK(cudaFree(q));
  char what[96];
  snprintf(what, sizeof what, "team %d: LL then push", team);
  progress(what);
  ll_then_push_case(x, team, false, 16);
  ll_then_push_case(x, team, false, 2048);
  ll_then_push_case(x, team, true, 16);
  ll_then_push_case(x, team, true, 2048);
  for (bool stream : {false, true}) {  // a large LL reduction (team WORLD) before each broadcast path
    ll_then_push_case(x, team, stream, 16, 2048);
    ll_then_push_case(x, team, stream, 2048, 2048);
  }
  for (int s = g_first_scope; s <= kHost; ++s) {
    const Scope sc = static_cast<Scope>(s);
    const bool big = sc >= kStream;
    snprintf(what, sizeof what, "team %d %s: broadcast, fcollect, alltoall", team, scope_name[sc]);
    progress(what);
    for (Coll c : {kBcast, kFcollect, kAlltoall})
      for (size_t bytes : {size_t{8}, size_t{1001}, size_t{65536}, big ? size_t{3u << 20} : size_t{200000}})
        for (int k = 0; k < (sc == kStream && c == kBcast && bytes == (3u << 20) ? g_bcast_repeat : 1); ++k)
          data_case(x, c, sc, team, bytes, 1);
    data_case(x, kFcollect, sc, team, 24, 5);
    // the LL limits (broadcast: thread 128 bytes, warp and block 4 KiB; fcollect: thread 64 bytes,
    // warp 2 KiB, block 4 KiB) and one byte past them
    for (size_t bytes : {size_t{64}, size_t{65}, size_t{128}, size_t{129}, size_t{2048}, size_t{2049}, size_t{4096},
                         size_t{4097}})
      for (Coll c : {kBcast, kFcollect}) data_case(x, c, sc, team, bytes, 3);
    if (sc <= kBlock) ll_mixed_case(x, sc, team);
    if (sc == kBlock) ll_mixed_case(x, sc, team, 2);
    if (sc <= kBlock)
      for (size_t bytes : {size_t{100}, size_t{128}, size_t{4096}})
        for (size_t off : {size_t{0}, bytes + 4, bytes + 13}) bcast_layout_case(x, sc, team, bytes, off);
    snprintf(what, sizeof what, "team %d %s: collect, alltoalls, reductions", team, scope_name[sc]);
    progress(what);
    for (size_t base : {size_t{0}, size_t{5}, size_t{4096}, big ? size_t{1u << 20} : size_t{30000}}) collect_case(x, sc, team, base);
    for (size_t n : {size_t{1}, size_t{33}, big ? size_t{100000} : size_t{3000}}) alltoalls_case(x, sc, team, n);
    for (size_t n : {size_t{1}, size_t{16}, size_t{1000}, big ? size_t{1u << 20} : size_t{70001}}) {
      reduce_case<int32_t>(x, kSumI32, sc, team, n, 1, false);
      reduce_case<float>(x, kSumF32, sc, team, n, 1, false);
    }
    reduce_case<double>(x, kMaxF64, sc, team, 5000, 1, true);
    reduce_case<uint64_t>(x, kXorU64, sc, team, 9, 1, false);
    reduce_case<uint64_t>(x, kXorU64, sc, team, 500, 1, true);   // LL in place, 8-byte elements
    reduce_case<int8_t>(x, kMinI8, sc, team, 1001, 3, false);    // LL chained, 1-byte elements
    reduce_case<float>(x, kSumF32, sc, team, 1024, 6, false);    // LL at its 4 KiB limit, chained
    reduce_case<uint64_t>(x, kXorU64, sc, team, big ? 300000 : 3000, 1, true);
    reduce_case<int8_t>(x, kMinI8, sc, team, 77, 1, false);
    reduce_case<int8_t>(x, kMinI8, sc, team, 33, 2, false);        // the first raw round at thread scope
    reduce_case<int8_t>(x, kMinI8, sc, team, 32, 2, false);        // the last LL one
    reduce_case<uint16_t>(x, kProdU16, sc, team, 17, 1, false);
    reduce_case<int8_t>(x, kMinI8, sc, team, 4099, 1, false);
    reduce_case<uint16_t>(x, kProdU16, sc, team, 10, 1, false);
    // back to back, no sync between: LL (small) and phased (large) paths
    reduce_case<int32_t>(x, kSumI32, sc, team, 8, 20, false);
    reduce_case<int32_t>(x, kSumI32, sc, team, big ? 200000 : 5000, 4, false);
    // Around the large LL rounds (team WORLD, gshmem_dev_ll_big_fits; other teams run the same
    // sizes as reduce-scatter): one block's limit (16 KiB sent in all: 2 PEs 16 KiB, 4 PEs 5456
    // bytes) and 16 bytes past it (on stream: 2 rows); the limit of several rows (regions of
    // 1 KiB per 512 bytes filling a parity's 1 MiB: 2 PEs 512 KiB, 4 PEs 174592 bytes), in place,
    // and 16 bytes past it; 8 KiB; 32 KiB in place; 64 KiB; 3 rows of unequal ranges (32784
    // bytes); a size not a multiple of 16 bytes; 1- and 2-byte elements; and alternating with
    // small LL rounds. gpu-coll-rows-oshrun-* runs the on-stream and host cases with 1 KiB per
    // row, so up to 64 rows, some with empty ranges.
    if (sc >= kBlock) {
      const size_t others = static_cast<size_t>(shmem_team_n_pes(team) > 1 ? shmem_team_n_pes(team) - 1 : 1);
      const size_t one_row = GSHMEM_DEV_LL_BIG_ONE_ROW / others / 16 * 4;  // int32s, 16-byte multiple
      const size_t rows = GSHMEM_DEV_LL_BIG_AREA / 1024 / others * 128;    // 128 int32s per 1 KiB region
      reduce_case<int32_t>(x, kSumI32, sc, team, one_row, 2, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, one_row + 4, 1, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, rows, 2, true);
      reduce_case<int32_t>(x, kSumI32, sc, team, rows + 4, 1, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, 2048, 3, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, 8192, 2, true);
      reduce_case<int32_t>(x, kSumI32, sc, team, 8196, 1, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, 16384, 1, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, 2049, 1, false);
      reduce_case<float>(x, kSumF32, sc, team, 4100, 1, true);
      reduce_case<int8_t>(x, kMinI8, sc, team, 8208, 2, false);
      reduce_case<uint16_t>(x, kProdU16, sc, team, 4104, 1, false);
      reduce_case<int32_t>(x, kSumI32, sc, team, 2048, 2, false, 2);  // 8-byte aligned: reduce-scatter
      reduce_case<int32_t>(x, kSumI32, sc, team, 2048, 1, true, 2);
      if (sc <= kStream) ll_alternate_case(x, sc, team);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // --on-stream-only (gpu-coll-rows-oshrun-*): the team cases at on-stream and host scope only,
  // the scopes that GSHMEM_COLL_BLOCK_BYTES and GSHMEM_COLL_THREADS reach
  // --bcast-repeat K: the on-stream broadcast of 3 MiB K times where it runs (a race hunt)
  for (int a = 1; a < argc; ++a) {
    if (strcmp(argv[a], "--on-stream-only") == 0) g_first_scope = kStream;
    else if (strcmp(argv[a], "--bcast-repeat") == 0 && a + 1 < argc) g_bcast_repeat = atoi(argv[++a]);
  }
  skip_without_gpu();
  shmem_init();
  Ctx x{shmem_my_pe(), shmem_n_pes(), nullptr};
  skip_unless_gpu_per_pe();
  g_seed = shared_seed();
  CK(cudaStreamCreateWithFlags(&x.stream, cudaStreamNonBlocking));
  g_size_words = static_cast<uint64_t*>(shmem_malloc(2 * sizeof(uint64_t)));

  all_cases(x, SHMEM_TEAM_WORLD);

  // Teams that skip PEs: even and odd world PEs (strided), each PE in one of them.
  shmem_team_t even = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (x.npes + 1) / 2, nullptr, 0, &even);
  if (x.npes > 1) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, x.npes / 2, nullptr, 0, &odd);
  all_cases(x, x.me % 2 ? odd : even);

  progress("barriers");
  // 10,000 barriers and syncs in one kernel, then 1,000 on-stream syncs.
  barrier_loop<<<1, 128, 0, x.stream>>>(10000, x.me % 2 ? odd : even);
  CK(cudaStreamSynchronize(x.stream));
  for (int i = 0; i < 1000; ++i) shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, x.stream);
  CK(cudaStreamSynchronize(x.stream));
  stream_sync_visibility_case(x);

  // Destroy and re-create: the reused slot starts from clean device state.
  shmem_team_destroy(even);
  shmem_team_destroy(odd);
  for (int round = 0; round < 3; ++round) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, x.npes, nullptr, 0, &t);
    reduce_case<int32_t>(x, kSumI32, kBlock, t, 16, 3, false);
    reduce_case<int32_t>(x, kSumI32, kBlock, t, 2048, 3, false);  // slot != 0: reduce-scatter, not large LL
    reduce_case<int32_t>(x, kSumI32, kStream, t, 2048, 3, true);
    reduce_case<int32_t>(x, kSumI32, kStream, t, 100000, 2, false);
    data_case(x, kFcollect, kBlock, t, 4096, 2);
    shmem_team_destroy(t);
  }

  // OpenSHMEM 1.5 team semantics seen from kernels: a split that selects nothing returns nonzero
  // and leaves SHMEM_TEAM_INVALID, which device queries report as -1; teams made by back-to-back
  // splits (a child split at once, then split_2d of it, no synchronization between) are usable in
  // kernels straight away.
  {
    shmem_team_t none = 7;  // poisoned
    const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 0, nullptr, 0, &none);
    EXPECT(rc != 0 && none == SHMEM_TEAM_INVALID, "empty split: rc %d team %d", rc, none);
    int* q;
    CK(cudaMallocManaged(&q, 2 * sizeof(int)));
    team_query<<<1, 1>>>(SHMEM_TEAM_INVALID, q);
    CK(cudaDeviceSynchronize());
    EXPECT(q[0] == -1 && q[1] == -1, "device query of SHMEM_TEAM_INVALID: my_pe %d n_pes %d", q[0], q[1]);
    shmem_team_t a = SHMEM_TEAM_INVALID, b = SHMEM_TEAM_INVALID, tx = SHMEM_TEAM_INVALID, ty = SHMEM_TEAM_INVALID;
    EXPECT(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, x.npes, nullptr, 0, &a) == 0, "split of WORLD failed");
    EXPECT(shmem_team_split_strided(a, 0, 1, x.npes, nullptr, 0, &b) == 0, "split of the new team failed");
    EXPECT(shmem_team_split_2d(b, 2, nullptr, 0, &tx, nullptr, 0, &ty) == 0, "split_2d of the child failed");
    for (shmem_team_t t : {a, b, tx, ty}) {
      team_query<<<1, 1>>>(t, q);
      CK(cudaDeviceSynchronize());
      EXPECT(q[0] == shmem_team_my_pe(t) && q[1] == shmem_team_n_pes(t) && q[1] > 0,
             "device query of team %d: my_pe %d n_pes %d, host says %d and %d", t, q[0], q[1], shmem_team_my_pe(t),
             shmem_team_n_pes(t));
      reduce_case<int32_t>(x, kSumI32, kBlock, t, 64, 2, false);
    }
    CK(cudaFree(q));
    for (shmem_team_t t : {ty, tx, b, a}) shmem_team_destroy(t);
  }

  static int total_bad;
  total_bad = g_failures;
  shmem_barrier_all();
  int sum = 0;
  for (int pe = 0; pe < x.npes; ++pe) sum += shmem_int_g(&total_bad, pe);
  if (x.me == 0) printf("gpu_coll: %d PEs, %s\n", x.npes, sum ? "FAILED" : "all collectives verified");
  shmem_finalize();
  return sum ? 1 : 0;
}
