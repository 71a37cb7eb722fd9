// Collectives: team-based (OpenSHMEM 1.5) and the deprecated active-set forms, all on the
// algorithms of coll/collectives.hpp. Arguments are validated on every PE and (GSHMEM_COLL_CHECKS)
// cross-checked between members, so mismatched nelems or roots are reported, not corrupting.
#include <shmem.h>


#include "api/coll_device.hpp"
#include "api/team_group.hpp"

using namespace gshmem;
using namespace gshmem::api;

namespace {

enum : uint64_t { op_bcast = 0x100, op_collect, op_fcollect, op_alltoall, op_alltoalls, op_reduce };

bool checks_on() { return g_rt->cfg->GSHMEM_COLL_CHECKS; }

template <typename F>
int team_coll(const char* call, int handle, uint64_t op, uint64_t a, uint64_t b, F&& body) {
  team::Team& t = team_for(call, handle);
  if (checks_on()) check_team_args(call, t, op, a, b);
  coll::Group g = team_group(call, t);
  body(g, t.size());
  return 0;
}

// Host collectives on the device heap run the GPU collective kernels on the PE's stream.
bool on_device(const char* call, int handle, const void* d, const void* s, uint64_t op, uint64_t a, uint64_t b) {
  if (!dev_coll_buffers(call, d, s)) return false;
  if (checks_on()) check_team_args(call, team_for(call, handle), op, a, b);
  return true;
}

int bcast(const char* call, int team, void* d, const void* s, size_t n, size_t e, int root) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_bcast, bytes, static_cast<uint64_t>(root)))
    return dev_broadcast(call, team, d, s, bytes, root, nullptr), 0;
  return team_coll(call, team, op_bcast, bytes, static_cast<uint64_t>(root), [&](coll::Group& g, int size) {
    if (root < 0 || root >= size) fatal(call, "PE_root %d is not in the team (size %d)", root, size);
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, bytes, "source");
    coll::broadcast(g, d, s, bytes, root, true);
  });
}
int fcollect(const char* call, int team, void* d, const void* s, size_t n, size_t e) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_fcollect, bytes, 0)) return dev_fcollect(call, team, d, s, bytes, nullptr), 0;
  return team_coll(call, team, op_fcollect, bytes, 0, [&](coll::Group& g, int size) {
    check_sym(call, d, bytes * static_cast<size_t>(size), "dest");
    check_sym(call, s, bytes, "source");
    coll::fcollect(g, d, s, bytes);
  });
}
int collect(const char* call, int team, void* d, const void* s, size_t n, size_t e) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_collect, e, 0)) return dev_collect(call, team, d, s, bytes, nullptr), 0;
  return team_coll(call, team, op_collect, e, 0, [&](coll::Group& g, int) {
    check_sym(call, s, bytes, "source");
    if (bytes) check_sym(call, d, bytes, "dest");
    coll::collect(g, d, s, bytes);
  });
}
int alltoall(const char* call, int team, void* d, const void* s, size_t n, size_t e) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_alltoall, bytes, 0)) return dev_alltoall(call, team, d, s, bytes, nullptr), 0;
  return team_coll(call, team, op_alltoall, bytes, 0, [&](coll::Group& g, int size) {
    check_sym(call, d, bytes * static_cast<size_t>(size), "dest");
    check_sym(call, s, bytes * static_cast<size_t>(size), "source");
    coll::alltoall(g, d, s, bytes);
  });
}
int alltoalls(const char* call, int team, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t e) {
  if (dst < 1 || sst < 1) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  if (on_device(call, team, d, s, op_alltoalls, n, (static_cast<uint64_t>(dst) << 32) ^ static_cast<uint64_t>(sst)))
    return dev_alltoalls(call, team, d, s, dst, sst, n, e, nullptr), 0;
  return team_coll(call, team, op_alltoalls, n, (static_cast<uint64_t>(dst) << 32) ^ static_cast<uint64_t>(sst),
                   [&](coll::Group& g, int size) {
                     const size_t m = bytes_of(call, static_cast<size_t>(size), n);  // overflow-checked
                     auto span_of = [&](ptrdiff_t st) {
                       return m ? bytes_of(call, bytes_of(call, m - 1, static_cast<size_t>(st)) + 1, e) : 0;
                     };
                     const size_t span = span_of(dst), sspan = span_of(sst);
                     check_sym(call, d, span, "dest");
                     check_sym(call, s, sspan, "source");
                     coll::alltoalls(g, d, s, dst, sst, n, e);
                   });
}

template <typename T, typename Op>
int reduce(const char* call, int team, T* d, const T* s, size_t n, Op op) {
  const size_t bytes = bytes_of(call, n, sizeof(T));
  if (on_device(call, team, d, s, op_reduce, bytes, 0))
    return dev_reduce(call, team, d, s, n, sizeof(T), reduce_kind<T>(), Op::name, nullptr), 0;
  return team_coll(call, team, op_reduce, bytes, 0, [&](coll::Group& g, int) {
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, bytes, "source");
    coll::reduce(g, d, s, n, op);
  });
}

// Reduction operators (bitwise ones only instantiated for integer types).
struct And { static constexpr const char* name = "and"; template <typename T> T operator()(T a, T b) const { return a & b; } };
struct Or { static constexpr const char* name = "or"; template <typename T> T operator()(T a, T b) const { return a | b; } };
struct Xor { static constexpr const char* name = "xor"; template <typename T> T operator()(T a, T b) const { return a ^ b; } };
struct Max { static constexpr const char* name = "max"; template <typename T> T operator()(T a, T b) const { return a > b ? a : b; } };
struct Min { static constexpr const char* name = "min"; template <typename T> T operator()(T a, T b) const { return a < b ? a : b; } };
struct Sum { static constexpr const char* name = "sum"; template <typename T> T operator()(T a, T b) const { return a + b; } };
struct Prod { static constexpr const char* name = "prod"; template <typename T> T operator()(T a, T b) const { return a * b; } };

// Deprecated active-set forms.
template <typename F>
void active(const char* call, int start, int log_stride, int size, long* pSync, F&& body) {
  coll::Group g = active_set_group(call, start, log_stride, size, pSync);
  body(g);
  pSync[64] = SHMEM_SYNC_VALUE;  // the published word (collect) goes back to the initial value
}

}  // namespace

extern "C" {

int shmem_broadcastmem(shmem_team_t t, void* d, const void* s, size_t n, int root) {
  return bcast("shmem_broadcastmem", t, d, s, n, 1, root);
}
int shmem_collectmem(shmem_team_t t, void* d, const void* s, size_t n) { return collect("shmem_collectmem", t, d, s, n, 1); }
int shmem_fcollectmem(shmem_team_t t, void* d, const void* s, size_t n) {
  return fcollect("shmem_fcollectmem", t, d, s, n, 1);
}
int shmem_alltoallmem(shmem_team_t t, void* d, const void* s, size_t n) {
  return alltoall("shmem_alltoallmem", t, d, s, n, 1);
}
int shmem_alltoallsmem(shmem_team_t t, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n) {
  return alltoalls("shmem_alltoallsmem", t, d, s, dst, sst, n, 1);
}

#define GSHMEM_DEF_TEAM_COLL(T, N)                                                                      \
  int shmem_##N##_broadcast(shmem_team_t t, T* d, const T* s, size_t n, int root) {                     \
    return bcast("shmem_" #N "_broadcast", t, d, s, n, sizeof(T), root);                                \
  }                                                                                                     \
  int shmem_##N##_collect(shmem_team_t t, T* d, const T* s, size_t n) {                                 \
    return collect("shmem_" #N "_collect", t, d, s, n, sizeof(T));                                      \
  }                                                                                                     \
  int shmem_##N##_fcollect(shmem_team_t t, T* d, const T* s, size_t n) {                                \
    return fcollect("shmem_" #N "_fcollect", t, d, s, n, sizeof(T));                                    \
  }                                                                                                     \
  int shmem_##N##_alltoall(shmem_team_t t, T* d, const T* s, size_t n) {                                \
    return alltoall("shmem_" #N "_alltoall", t, d, s, n, sizeof(T));                                    \
  }                                                                                                     \
  int shmem_##N##_alltoalls(shmem_team_t t, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { \
    return alltoalls("shmem_" #N "_alltoalls", t, d, s, dst, sst, n, sizeof(T));                        \
  }
GSHMEM_RMA_TYPES(GSHMEM_DEF_TEAM_COLL)
#undef GSHMEM_DEF_TEAM_COLL

#define GSHMEM_DEF_REDUCE(T, N, OP, F)                                                                  \
  int shmem_##N##_##OP##_reduce(shmem_team_t t, T* d, const T* s, size_t n) {                           \
    return reduce("shmem_" #N "_" #OP "_reduce", t, d, s, n, F{});                                      \
  }
#define GSHMEM_DEF_REDUCE_BIT(T, N) GSHMEM_DEF_REDUCE(T, N, and, And) GSHMEM_DEF_REDUCE(T, N, or, Or) GSHMEM_DEF_REDUCE(T, N, xor, Xor)
#define GSHMEM_DEF_REDUCE_MINMAX(T, N) GSHMEM_DEF_REDUCE(T, N, max, Max) GSHMEM_DEF_REDUCE(T, N, min, Min)
#define GSHMEM_DEF_REDUCE_ARITH(T, N) GSHMEM_DEF_REDUCE(T, N, sum, Sum) GSHMEM_DEF_REDUCE(T, N, prod, Prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_REDUCE_BIT)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_REDUCE_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_REDUCE_ARITH)
GSHMEM_REDUCE_COMPLEX_TYPES(GSHMEM_DEF_REDUCE_ARITH)

// ---- Deprecated active-set forms ----
void shmem_barrier(int start, int ls, int size, long* pSync) {
  active("shmem_barrier", start, ls, size, pSync, [](coll::Group& g) {
    shmem_quiet();
    g.sync();
  });
}
void shmem_sync(int start, int ls, int size, long* pSync) {
  active("shmem_sync", start, ls, size, pSync, [](coll::Group& g) { g.sync(); });
}

#define GSHMEM_DEF_ACTIVE_SIZED(B)                                                                      \
  void shmem_broadcast##B(void* d, const void* s, size_t n, int root, int start, int ls, int size, long* pSync) { \
    const char* call = "shmem_broadcast" #B;                                                            \
    if (root < 0 || root >= size) fatal(call, "PE_root %d is not in the active set (size %d)", root, size); \
    const size_t bytes = bytes_of(call, n, B / 8);                                                      \
    check_sym(call, d, bytes, "dest");                                                                  \
    check_sym(call, s, bytes, "source");                                                                \
    active(call, start, ls, size, pSync, [&](coll::Group& g) { coll::broadcast(g, d, s, bytes, root, false); }); \
  }                                                                                                     \
  void shmem_collect##B(void* d, const void* s, size_t n, int start, int ls, int size, long* pSync) {   \
    const char* call = "shmem_collect" #B;                                                              \
    const size_t bytes = bytes_of(call, n, B / 8);                                                      \
    check_sym(call, s, bytes, "source");                                                                \
    active(call, start, ls, size, pSync, [&](coll::Group& g) { coll::collect(g, d, s, bytes); });      \
  }                                                                                                     \
  void shmem_fcollect##B(void* d, const void* s, size_t n, int start, int ls, int size, long* pSync) {  \
    const char* call = "shmem_fcollect" #B;                                                             \
    const size_t bytes = bytes_of(call, n, B / 8);                                                      \
    check_sym(call, d, bytes * static_cast<size_t>(size), "dest");                                      \
    check_sym(call, s, bytes, "source");                                                                \
    active(call, start, ls, size, pSync, [&](coll::Group& g) { coll::fcollect(g, d, s, bytes); });     \
  }                                                                                                     \
  void shmem_alltoall##B(void* d, const void* s, size_t n, int start, int ls, int size, long* pSync) {  \
    const char* call = "shmem_alltoall" #B;                                                             \
    const size_t bytes = bytes_of(call, n, B / 8);                                                      \
    check_sym(call, d, bytes * static_cast<size_t>(size), "dest");                                      \
    check_sym(call, s, bytes * static_cast<size_t>(size), "source");                                    \
    active(call, start, ls, size, pSync, [&](coll::Group& g) { coll::alltoall(g, d, s, bytes); });     \
  }                                                                                                     \
  void shmem_alltoalls##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int start, int ls, \
                          int size, long* pSync) {                                                      \
    const char* call = "shmem_alltoalls" #B;                                                            \
    if (dst < 1 || sst < 1) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);   \
    active(call, start, ls, size, pSync,                                                                \
           [&](coll::Group& g) { coll::alltoalls(g, d, s, dst, sst, n, B / 8); });                     \
  }
GSHMEM_DEF_ACTIVE_SIZED(32)
GSHMEM_DEF_ACTIVE_SIZED(64)
#undef GSHMEM_DEF_ACTIVE_SIZED

#define GSHMEM_DEF_TO_ALL(T, N, OP, F)                                                                  \
  void shmem_##N##_##OP##_to_all(T* d, const T* s, int n, int start, int ls, int size, T* pWrk, long* pSync) { \
    const char* call = "shmem_" #N "_" #OP "_to_all";                                                   \
    (void)pWrk;                                                                                         \
    if (n < 0) fatal(call, "nreduce %d is negative", n);                                            \
    check_sym(call, d, static_cast<size_t>(n) * sizeof(T), "dest");                                     \
    check_sym(call, s, static_cast<size_t>(n) * sizeof(T), "source");                                   \
    active(call, start, ls, size, pSync, [&](coll::Group& g) { coll::reduce(g, d, s, static_cast<size_t>(n), F{}); }); \
  }
#define GSHMEM_DEF_TO_ALL_BIT(T, N) GSHMEM_DEF_TO_ALL(T, N, and, And) GSHMEM_DEF_TO_ALL(T, N, or, Or) GSHMEM_DEF_TO_ALL(T, N, xor, Xor)
#define GSHMEM_DEF_TO_ALL_ARITH(T, N)                                                                   \
  GSHMEM_DEF_TO_ALL(T, N, max, Max) GSHMEM_DEF_TO_ALL(T, N, min, Min) GSHMEM_DEF_TO_ALL(T, N, sum, Sum) \
  GSHMEM_DEF_TO_ALL(T, N, prod, Prod)
GSHMEM_TO_ALL_BIT_TYPES(GSHMEM_DEF_TO_ALL_BIT)
GSHMEM_TO_ALL_ARITH_TYPES(GSHMEM_DEF_TO_ALL_ARITH)
GSHMEM_DEF_TO_ALL(double _Complex, complexd, sum, Sum)
GSHMEM_DEF_TO_ALL(double _Complex, complexd, prod, Prod)
GSHMEM_DEF_TO_ALL(float _Complex, complexf, sum, Sum)
GSHMEM_DEF_TO_ALL(float _Complex, complexf, prod, Prod)

}  // extern "C"
