// gshmem._ext: the compiled half of the Python package (nanobind). Thin calls into the public C
// API on addresses (ints); python/gshmem/*.py checks arguments and builds the Pythonic surface.
// Also here: symmetric allocations wrapped as NumPy arrays / PyTorch tensors (DLPack, an owner
// capsule), and the collective release of allocations that Python collected (see free_collected).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <gshmem/device_host/state.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace {

cudaStream_t as_stream(uint64_t s) { return reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(s)); }
template <class T = void>
T* ptr(uint64_t a) { return reinterpret_cast<T*>(static_cast<uintptr_t>(a)); }

// ---- Symmetric allocations and their collective release ------------------------------------
// Every allocation is collective (all PEs, same order), so allocation ids agree across PEs. When
// Python collects the last view of one, its id is queued here; the queue is drained at the next
// collective allocation or free, for the ids that every PE has queued (an AND-reduction of a
// bitmap over the live ids), so no PE frees before every PE is done with it.
struct Heap {
  std::mutex mu;                     // guards collected (capsule destructors run in any thread)
  std::vector<uint64_t> collected;   // ids whose Python objects died
  std::map<uint64_t, void*> live;    // id -> address (touched with the GIL held, in collective calls)
  uint64_t next_id = 0;
  uint64_t* scratch = nullptr;       // symmetric: kWords words of source, kWords of result
  bool up = false;
};
Heap g_heap;
constexpr size_t kWords = 256;  // ids per reduction round: 16384

void on_collected(uint64_t id) {
  std::lock_guard<std::mutex> lock(g_heap.mu);
  if (g_heap.up) g_heap.collected.push_back(id);
}

size_t free_collected() {
  if (!g_heap.up) return 0;
  std::vector<uint64_t> mine;
  {
    std::lock_guard<std::mutex> lock(g_heap.mu);
    mine.swap(g_heap.collected);
  }
  // ids freed explicitly since are gone already; the live set is the same on every PE
  mine.erase(std::remove_if(mine.begin(), mine.end(), [](uint64_t id) { return !g_heap.live.count(id); }), mine.end());
  if (g_heap.live.empty()) return 0;
  const uint64_t lo = g_heap.live.begin()->first, hi = g_heap.next_id;  // the same on every PE
  std::vector<uint64_t> agreed;
  std::vector<uint64_t> bits(kWords), out(kWords);
  for (uint64_t base = lo; base < hi; base += 64 * kWords) {
    std::fill(bits.begin(), bits.end(), 0);
    for (uint64_t id : mine)
      if (id >= base && id - base < 64 * kWords) bits[(id - base) / 64] |= uint64_t{1} << ((id - base) % 64);
    // put/get to this PE work on either heap kind (host memory or the GPU's)
    shmem_putmem(g_heap.scratch, bits.data(), kWords * 8, shmem_my_pe());
    shmem_quiet();
    if (shmem_uint64_and_reduce(SHMEM_TEAM_WORLD, g_heap.scratch + kWords, g_heap.scratch, kWords) != 0)
      throw std::runtime_error("gshmem: the reduction that agrees on collected arrays failed");
    shmem_getmem(out.data(), g_heap.scratch + kWords, kWords * 8, shmem_my_pe());
    for (size_t w = 0; w < kWords; ++w)
      for (uint64_t m = out[w]; m; m &= m - 1) agreed.push_back(base + 64 * w + __builtin_ctzll(m));
  }
  std::vector<uint64_t> keep;  // queued here but not yet everywhere: next time
  for (uint64_t id : mine)
    if (!std::binary_search(agreed.begin(), agreed.end(), id)) keep.push_back(id);
  for (uint64_t id : agreed) {
    auto it = g_heap.live.find(id);
    if (it == g_heap.live.end()) continue;  // freed explicitly meanwhile (the same on every PE)
    shmem_free(it->second);
    g_heap.live.erase(it);
  }
  if (!keep.empty()) {
    std::lock_guard<std::mutex> lock(g_heap.mu);
    g_heap.collected.insert(g_heap.collected.end(), keep.begin(), keep.end());
  }
  return agreed.size();
}

void heap_start() {
  g_heap.scratch = static_cast<uint64_t*>(shmem_malloc(2 * kWords * 8));
  if (!g_heap.scratch) throw std::runtime_error("gshmem.init: no symmetric memory for the allocator's scratch");
  g_heap.up = true;
}

void heap_stop() {
  std::lock_guard<std::mutex> lock(g_heap.mu);
  g_heap.up = false;
  g_heap.collected.clear();
  g_heap.live.clear();
  g_heap.scratch = nullptr;
}

// Collective: returns (address, id); address 0 when the heap is full.
std::tuple<uint64_t, uint64_t> alloc(size_t bytes) {
  nb::gil_scoped_release nogil;
  free_collected();
  void* p = shmem_malloc(std::max<size_t>(bytes, 1));
  if (!p) return {0, 0};
  const uint64_t id = g_heap.next_id++;
  g_heap.live[id] = p;
  return {reinterpret_cast<uintptr_t>(p), id};
}

// Collective: frees allocation id now (its Python objects may still exist: the user said so).
bool free_id(uint64_t id) {
  nb::gil_scoped_release nogil;
  auto it = g_heap.live.find(id);
  const bool found = it != g_heap.live.end();
  if (found) {
    shmem_free(it->second);
    g_heap.live.erase(it);
  }
  free_collected();
  return found;
}

// A NumPy array or PyTorch tensor over [addr, ...) owning allocation id through a capsule.
nb::object wrap(uint64_t addr, std::vector<size_t> shape, uint8_t code, uint8_t bits, const std::string& framework,
                int device_type, int device_id, uint64_t id) {
  nb::capsule owner(reinterpret_cast<void*>(static_cast<uintptr_t>(id + 1)),
                    [](void* p) noexcept { on_collected(reinterpret_cast<uintptr_t>(p) - 1); });
  nb::dlpack::dtype dt{code, bits, 1};
  if (framework == "numpy")
    return nb::cast(nb::ndarray<nb::numpy>(ptr(addr), shape.size(), shape.data(), owner, nullptr, dt, device_type,
                                           device_id));
  if (framework == "torch")
    return nb::cast(nb::ndarray<nb::pytorch>(ptr(addr), shape.size(), shape.data(), owner, nullptr, dt, device_type,
                                             device_id));
  throw std::invalid_argument("gshmem: unknown framework " + framework);
}

// ---- Reductions: (type, op) -> host and on-stream functions ----------------------------------
using ReduceHost = int (*)(shmem_team_t, void*, const void*, size_t);
using ReduceStream = int (*)(shmem_team_t, void*, const void*, size_t, cudaStream_t);
struct ReduceFns {
  ReduceHost host = nullptr;
  ReduceStream stream = nullptr;
};
std::map<std::string, ReduceFns>& reductions() {
  static std::map<std::string, ReduceFns> m;
  return m;
}

#define GSHMEMPY_RED_HOST(T, N, OP)                                                                   \
  reductions()[#N "_" #OP].host = [](shmem_team_t t, void* d, const void* s, size_t n) {               \
    return shmem_##N##_##OP##_reduce(t, static_cast<T*>(d), static_cast<const T*>(s), n);             \
  };
#define GSHMEMPY_RED_BOTH(T, N, OP)                                                                   \
  GSHMEMPY_RED_HOST(T, N, OP)                                                                         \
  reductions()[#N "_" #OP].stream = [](shmem_team_t t, void* d, const void* s, size_t n, cudaStream_t st) { \
    return shmemx_##N##_##OP##_reduce_on_stream(t, static_cast<T*>(d), static_cast<const T*>(s), n, st);    \
  };
#define GSHMEMPY_RED_BIT(T, N) GSHMEMPY_RED_BOTH(T, N, and) GSHMEMPY_RED_BOTH(T, N, or) GSHMEMPY_RED_BOTH(T, N, xor)
#define GSHMEMPY_RED_ARITH(T, N)                                                                      \
  GSHMEMPY_RED_BOTH(T, N, max) GSHMEMPY_RED_BOTH(T, N, min) GSHMEMPY_RED_BOTH(T, N, sum) GSHMEMPY_RED_BOTH(T, N, prod)
#define GSHMEMPY_RED_COMPLEX(T, N) GSHMEMPY_RED_HOST(T, N, sum) GSHMEMPY_RED_HOST(T, N, prod)

#define GSHMEMPY_RED_STREAM(T, N, OP)                                                                 \
  reductions()[#N "_" #OP].stream = [](shmem_team_t t, void* d, const void* s, size_t n, cudaStream_t st) { \
    return shmemx_##N##_##OP##_reduce_on_stream(t, static_cast<T*>(d), static_cast<const T*>(s), n, st);    \
  };
#define GSHMEMPY_RED_STREAM16(T, N) \
  GSHMEMPY_RED_STREAM(T, N, sum) GSHMEMPY_RED_STREAM(T, N, prod) GSHMEMPY_RED_STREAM(T, N, min) GSHMEMPY_RED_STREAM(T, N, max)

void fill_reductions() {
  GSHMEMPY_RED_STREAM16(shmemx_half_t, half)  // GPU memory only (on a stream)
  GSHMEMPY_RED_STREAM16(shmemx_bfloat16_t, bfloat16)
  GSHMEM_REDUCE_BIT_TYPES(GSHMEMPY_RED_BIT)
  GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMPY_RED_ARITH)
#if GSHMEM_HAVE_COMPLEX
  GSHMEM_REDUCE_COMPLEX_TYPES(GSHMEMPY_RED_COMPLEX)
#endif
}

// type: an OpenSHMEM type name (int32, float, ...), op: sum/prod/min/max/and/or/xor.
// Returns the C routine's result; -1 when the pair has no routine (the caller checked first).
int reduce(int team, const std::string& type, const std::string& op, uint64_t dest, uint64_t src, size_t n,
           int64_t stream) {
  auto it = reductions().find(type + "_" + op);
  if (it == reductions().end()) return -1;
  if (stream >= 0 || !it->second.host) {  // half / bfloat16 on stream 0 when called without one
    if (!it->second.stream) return -1;
    nb::gil_scoped_release nogil;
    return it->second.stream(team, ptr(dest), ptr(src), n, as_stream(static_cast<uint64_t>(stream < 0 ? 0 : stream)));
  }
  nb::gil_scoped_release nogil;
  return it->second.host(team, ptr(dest), ptr(src), n);
}
// The (type_op) names with a routine: on a stream, or else from the host (host=true) / at all.
std::vector<std::string> reduce_names(bool on_stream, bool host) {
  std::vector<std::string> v;
  for (auto& [k, f] : reductions())
    if (on_stream ? f.stream != nullptr : host ? f.host != nullptr : true) v.push_back(k);
  return v;
}

// ---- Atomics on 4- and 8-byte types ---------------------------------------------------------
// op: fetch set swap cswap finc inc fadd add fand and for fxor xor (the OpenSHMEM names).
template <class T>
uint64_t as_bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}
template <class T>
T from_bits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

#define GSHMEMPY_AMO_STD(T, N)                                                                       \
  if (op == "finc") return as_bits(shmem_##N##_atomic_fetch_inc(d, pe));                             \
  if (op == "inc") return shmem_##N##_atomic_inc(d, pe), 0;                                          \
  if (op == "fadd") return as_bits(shmem_##N##_atomic_fetch_add(d, from_bits<T>(v), pe));            \
  if (op == "add") return shmem_##N##_atomic_add(d, from_bits<T>(v), pe), 0;                         \
  if (op == "cswap") return as_bits(shmem_##N##_atomic_compare_swap(d, from_bits<T>(c), from_bits<T>(v), pe));
#define GSHMEMPY_AMO_EXT(T, N)                                                                       \
  if (op == "fetch") return as_bits(shmem_##N##_atomic_fetch(d, pe));                                \
  if (op == "set") return shmem_##N##_atomic_set(d, from_bits<T>(v), pe), 0;                         \
  if (op == "swap") return as_bits(shmem_##N##_atomic_swap(d, from_bits<T>(v), pe));
#define GSHMEMPY_AMO_BIT(T, N)                                                                       \
  if (op == "fand") return as_bits(shmem_##N##_atomic_fetch_and(d, from_bits<T>(v), pe));            \
  if (op == "and") return shmem_##N##_atomic_and(d, from_bits<T>(v), pe), 0;                         \
  if (op == "for") return as_bits(shmem_##N##_atomic_fetch_or(d, from_bits<T>(v), pe));              \
  if (op == "or") return shmem_##N##_atomic_or(d, from_bits<T>(v), pe), 0;                           \
  if (op == "fxor") return as_bits(shmem_##N##_atomic_fetch_xor(d, from_bits<T>(v), pe));            \
  if (op == "xor") return shmem_##N##_atomic_xor(d, from_bits<T>(v), pe), 0;

// One function per type: the integer types take every operation, the floating ones fetch/set/swap.
#define GSHMEMPY_AMO_INT(T, N)                                                                      \
  uint64_t amo_##N(const std::string& op, T* d, uint64_t v, uint64_t c, int pe) {                   \
    GSHMEMPY_AMO_STD(T, N) GSHMEMPY_AMO_EXT(T, N) GSHMEMPY_AMO_BIT(T, N)                            \
    throw std::invalid_argument(op);                                                                \
  }
#define GSHMEMPY_AMO_FLOAT(T, N)                                                                    \
  uint64_t amo_##N(const std::string& op, T* d, uint64_t v, uint64_t, int pe) {                     \
    GSHMEMPY_AMO_EXT(T, N)                                                                          \
    throw std::invalid_argument(op);                                                                \
  }
GSHMEMPY_AMO_INT(int32_t, int32)
GSHMEMPY_AMO_INT(int64_t, int64)
GSHMEMPY_AMO_INT(uint32_t, uint32)
GSHMEMPY_AMO_INT(uint64_t, uint64)
GSHMEMPY_AMO_FLOAT(float, float)
GSHMEMPY_AMO_FLOAT(double, double)

// type: int32 int64 uint32 uint64 float32 float64; value and cond are the operand's bits.
uint64_t atomic(const std::string& op, const std::string& type, uint64_t dest, uint64_t value, uint64_t cond, int pe) {
  nb::gil_scoped_release nogil;
  if (type == "int32") return amo_int32(op, ptr<int32_t>(dest), value, cond, pe);
  if (type == "int64") return amo_int64(op, ptr<int64_t>(dest), value, cond, pe);
  if (type == "uint32") return amo_uint32(op, ptr<uint32_t>(dest), value, cond, pe);
  if (type == "uint64") return amo_uint64(op, ptr<uint64_t>(dest), value, cond, pe);
  if (type == "float32") return amo_float(op, ptr<float>(dest), value, cond, pe);
  if (type == "float64") return amo_double(op, ptr<double>(dest), value, cond, pe);
  throw std::invalid_argument(type);
}

// The file libgshmem was loaded from (for extensions that link the same library).
std::string library_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&shmem_my_pe), &info) && info.dli_fname) return info.dli_fname;
  return "";
}

}  // namespace

NB_MODULE(_ext, m) {
  fill_reductions();
  // The package hands out GPU memory (PyTorch tensors), so the library treats it like a program
  // with GPU code: GSHMEM_HEAP_KIND=auto picks the device heap where the PE has a usable GPU.
  gshmemi_register_device_state2([](const gshmem_device_state*) {}, GSHMEM_DEVICE_STATE_VERSION,
                                 sizeof(gshmem_device_state));
  using nb::arg;
  const auto nogil = nb::call_guard<nb::gil_scoped_release>();

  // setup
  m.def("init", [] { shmem_init(); heap_start(); }, nogil);
  m.def("get_unique_id", [] {
    shmemx_uniqueid_t id;
    if (shmemx_get_uniqueid(&id) != 0) throw std::runtime_error("gshmem.get_unique_id: shmemx_get_uniqueid failed");
    return nb::bytes(id.internal, sizeof id.internal);
  });
  m.def("init_uid", [](int rank, int nranks, nb::bytes uid) {
    if (uid.size() != sizeof(shmemx_uniqueid_t::internal))
      throw std::invalid_argument("gshmem.init: the unique id must be 128 bytes");
    shmemx_uniqueid_t id;
    std::memcpy(id.internal, uid.c_str(), sizeof id.internal);
    shmemx_init_attr_t attr;
    shmemx_set_attr_uniqueid_args(rank, nranks, &id, &attr);
    int rc;
    {
      nb::gil_scoped_release nogil;
      rc = shmemx_init_attr(SHMEMX_INIT_WITH_UNIQUEID, &attr);
    }
    if (rc == 0) heap_start();
    return rc;
  });
  m.def("finalize", [] { heap_stop(); shmem_finalize(); }, nogil);
  m.def("my_pe", &shmem_my_pe);
  m.def("n_pes", &shmem_n_pes);
  m.def("heap_kind", &shmemx_heap_kind);
  m.def("device", &shmemx_device);
  m.def("bootstrap", [] { return std::string(shmemx_bootstrap_name()); });
  m.def("heap_size", &shmemx_heap_size);
  m.def("heap_used", &shmemx_heap_used);
  m.def("library_path", &library_path);
  m.def("version", [] {
    int major = 0, minor = 0;
    shmem_info_get_version(&major, &minor);
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    return std::make_tuple(major, minor, std::string(name));
  });

  // memory
  m.def("alloc", &alloc);
  m.def("free_id", &free_id);
  m.def("free_collected", [] {
    nb::gil_scoped_release nogil;
    return free_collected();
  });
  // The sum over team of n (a collective through the allocator's scratch), -1 on failure.
  m.def("team_sum", [](int team, int64_t n) -> int64_t {
    nb::gil_scoped_release nogil;
    auto* s = reinterpret_cast<int64_t*>(g_heap.scratch);
    const int me = shmem_my_pe();
    shmem_putmem(s, &n, sizeof n, me);
    shmem_quiet();
    if (shmem_int64_sum_reduce(team, s + 1, s, 1) != 0) return -1;
    int64_t total = 0;
    shmem_getmem(&total, s + 1, sizeof total, me);
    return total;
  });
  m.def("live_allocations", [] { return g_heap.live.size(); });
  m.def("wrap", &wrap);
  m.def("accessible", [](uint64_t addr, int pe) { return shmem_addr_accessible(ptr(addr), pe) != 0; });

  // teams
  m.def("team_my_pe", &shmem_team_my_pe);
  m.def("team_n_pes", &shmem_team_n_pes);
  m.def("team_translate_pe", &shmem_team_translate_pe);
  m.def("team_split_strided", [](int parent, int start, int stride, int size) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc;
    {
      nb::gil_scoped_release nogil;
      rc = shmem_team_split_strided(parent, start, stride, size, nullptr, 0, &t);
    }
    return std::make_tuple(rc, static_cast<int>(t));
  });
  m.def("team_destroy", &shmem_team_destroy, nogil);

  // RMA (stream < 0: the blocking host call)
  m.def("putmem", [](uint64_t d, uint64_t s, size_t n, int pe, int64_t st) {
    if (st >= 0) return shmemx_putmem_on_stream(ptr(d), ptr(s), n, pe, as_stream(st));
    shmem_putmem(ptr(d), ptr(s), n, pe);
  }, nogil);
  m.def("getmem", [](uint64_t d, uint64_t s, size_t n, int pe, int64_t st) {
    if (st >= 0) return shmemx_getmem_on_stream(ptr(d), ptr(s), n, pe, as_stream(st));
    shmem_getmem(ptr(d), ptr(s), n, pe);
  }, nogil);
  m.def("putmem_signal", [](uint64_t d, uint64_t s, size_t n, uint64_t sig, uint64_t value, int op, int pe, int64_t st) {
    if (st >= 0) return shmemx_putmem_signal_on_stream(ptr(d), ptr(s), n, ptr<uint64_t>(sig), value, op, pe, as_stream(st));
    shmem_putmem_signal(ptr(d), ptr(s), n, ptr<uint64_t>(sig), value, op, pe);
  }, nogil);
  m.def("signal_fetch", [](uint64_t sig) { return shmem_signal_fetch(ptr<const uint64_t>(sig)); }, nogil);
  m.def("signal_wait_until", [](uint64_t sig, int cmp, uint64_t value, int64_t st) -> uint64_t {
    if (st >= 0) return shmemx_signal_wait_until_on_stream(ptr<uint64_t>(sig), cmp, value, as_stream(st)), 0;
    return shmem_signal_wait_until(ptr<uint64_t>(sig), cmp, value);
  }, nogil);
  m.def("atomic", &atomic);

  // ordering and synchronisation
  m.def("fence", &shmem_fence, nogil);
  m.def("quiet", [](int64_t st) {
    if (st >= 0) return shmemx_quiet_on_stream(as_stream(st));
    shmem_quiet();
  }, nogil);
  m.def("barrier_all", [](int64_t st) {
    if (st >= 0) return shmemx_barrier_all_on_stream(as_stream(st));
    shmem_barrier_all();
  }, nogil);
  m.def("team_sync", [](int team, int64_t st) -> int {
    if (st >= 0) return shmemx_team_sync_on_stream(team, as_stream(st)), 0;
    return shmem_team_sync(team);
  }, nogil);

  // collectives on bytes (nelems in bytes; root a team PE)
  m.def("broadcastmem", [](int team, uint64_t d, uint64_t s, size_t n, int root, int64_t st) {
    if (st >= 0) return shmemx_broadcastmem_on_stream(team, ptr(d), ptr(s), n, root, as_stream(st));
    return shmem_broadcastmem(team, ptr(d), ptr(s), n, root);
  }, nogil);
  m.def("fcollectmem", [](int team, uint64_t d, uint64_t s, size_t n, int64_t st) {
    if (st >= 0) return shmemx_fcollectmem_on_stream(team, ptr(d), ptr(s), n, as_stream(st));
    return shmem_fcollectmem(team, ptr(d), ptr(s), n);
  }, nogil);
  m.def("collectmem", [](int team, uint64_t d, uint64_t s, size_t n, int64_t st) {
    if (st >= 0) return shmemx_collectmem_on_stream(team, ptr(d), ptr(s), n, as_stream(st));
    return shmem_collectmem(team, ptr(d), ptr(s), n);
  }, nogil);
  m.def("alltoallmem", [](int team, uint64_t d, uint64_t s, size_t n, int64_t st) {
    if (st >= 0) return shmemx_alltoallmem_on_stream(team, ptr(d), ptr(s), n, as_stream(st));
    return shmem_alltoallmem(team, ptr(d), ptr(s), n);
  }, nogil);
  m.def("reduce", &reduce);
  m.def("reduce_names", &reduce_names, arg("on_stream") = false, arg("host") = true);

  m.attr("TEAM_WORLD") = static_cast<int>(SHMEM_TEAM_WORLD);
  m.attr("TEAM_SHARED") = static_cast<int>(SHMEM_TEAM_SHARED);
  m.attr("TEAM_NODE") = static_cast<int>(SHMEMX_TEAM_NODE);
  m.attr("TEAM_INVALID") = static_cast<int>(SHMEM_TEAM_INVALID);
  m.attr("CMP_EQ") = SHMEM_CMP_EQ;
  m.attr("CMP_NE") = SHMEM_CMP_NE;
  m.attr("CMP_GT") = SHMEM_CMP_GT;
  m.attr("CMP_GE") = SHMEM_CMP_GE;
  m.attr("CMP_LT") = SHMEM_CMP_LT;
  m.attr("CMP_LE") = SHMEM_CMP_LE;
  m.attr("SIGNAL_SET") = SHMEM_SIGNAL_SET;
  m.attr("SIGNAL_ADD") = SHMEM_SIGNAL_ADD;
  m.attr("HEAP_KIND_HOST") = SHMEMX_HEAP_KIND_HOST;
  m.attr("HEAP_KIND_DEVICE") = SHMEMX_HEAP_KIND_DEVICE;
}
