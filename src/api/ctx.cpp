// Communication contexts. A context carries a team (PE numbers are team-relative) and options.
// Every operation delegates to the default-context implementation after translating the PE; on
// CPU PEs each operation has completed when it returns. On GPU PEs every context other than the
// default one owns a CUDA stream, and its host-side operations on the device heap are enqueued
// there (the PE argument's temporary sets the stream for the duration of the call), so
// shmem_ctx_quiet on one context never waits for another's traffic. A BATCH session on a
// context of a CPU PE gathers its small contiguous puts to other nodes (CtxBatch).
#include <shmem.h>

#include <cstring>
#include <memory>
#include <mutex>

#include <algorithm>
#include <vector>

#include "common/fatal.hpp"
#include "common/wait.hpp"
#include "core/rma.hpp"
#include "core/runtime.hpp"
#include "core/streams.hpp"
#include "core/teams.hpp"

// A batch (OpenSHMEM 1.6 session with SHMEM_CTX_SESSION_BATCH): small nbi puts and p's on the
// context to a PE reached through a transport, each starting where the previous one ended, are
// gathered into one run and sent as one put (one transport operation instead of one per call).
// The run is sent before any other operation of the context (every one translates its PE through
// world_pe, which sends it first), and by the context's fence, quiet, pe_quiet, session stop and
// destroy, so the context's completion and ordering are those of the calls themselves: a put of
// the run completes when the calls' puts would have. Small puts to PEs reached by loads and
// stores are stores already and are not gathered.
struct CtxBatch {
  static constexpr size_t kMaxCall = 256;            // larger puts go out on their own
  static constexpr size_t kBytes = size_t{1} << 16;  // a run is sent when it would pass this
  std::mutex mu;
  int pe = -1;
  char* dest = nullptr;
  size_t len = 0;
  unsigned char buf[kBytes];
};

struct gshmem_ctx {
  int team;
  long options;
  bool is_default;
  void* stream;  // GPU PEs: this context's stream (nullptr: the PE's stream)
  // The open session's hints (0 and SIZE_MAX outside a session).
  long session_options = 0;
  size_t session_total_ops = SIZE_MAX;
  std::unique_ptr<CtxBatch> batch = nullptr;  // while a BATCH session is open (contexts of CPU PEs)
};

namespace {
gshmem_ctx g_default{SHMEM_TEAM_WORLD, 0, true, nullptr};
constexpr long kKnownOptions = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;

// Sends a run (b.mu held): a blocking put, so its source, the run's buffer, is free on return; its
// completion is the context's quiet, as for the calls it stands for.
void send_run(CtxBatch& b) {
  if (b.len) gshmem::core::put("shmem_ctx_session (a batch of puts)", b.dest, b.buf, b.len, b.pe, false);
  b.len = 0;
}

// Sends the context's gathered run, if any.
void batch_send(shmem_ctx_t ctx) {
  CtxBatch* b = ctx ? ctx->batch.get() : nullptr;
  if (!b) return;
  std::lock_guard<std::mutex> lock(b->mu);
  send_run(*b);
}

// The contexts with an open batch, for the wait hook (common/wait.hpp): a thread that starts to
// wait sends every run no other thread is sending (a run whose lock is held is being sent or
// grown by its holder, which may itself be the one waiting, inside its put).
std::mutex g_batches_mu;
std::vector<shmem_ctx_t> g_batches;
void send_all_batches() {
  thread_local bool sending = false;  // a put below may wait, and its wait calls this again
  if (sending) return;
  sending = true;
  std::lock_guard<std::mutex> lock(g_batches_mu);
  for (shmem_ctx_t c : g_batches) {
    CtxBatch& b = *c->batch;
    std::unique_lock<std::mutex> l(b.mu, std::try_to_lock);
    if (l.owns_lock()) send_run(b);
  }
  sending = false;
}
void batch_open(shmem_ctx_t ctx) {
  std::lock_guard<std::mutex> lock(g_batches_mu);
  ctx->batch = std::make_unique<CtxBatch>();
  g_batches.push_back(ctx);
  gshmem::g_wait_flush_hook.store(send_all_batches, std::memory_order_relaxed);
}
void batch_close(shmem_ctx_t ctx) {
  batch_send(ctx);
  std::lock_guard<std::mutex> lock(g_batches_mu);
  g_batches.erase(std::remove(g_batches.begin(), g_batches.end(), ctx), g_batches.end());
  if (g_batches.empty()) gshmem::g_wait_flush_hook.store(nullptr, std::memory_order_relaxed);
  ctx->batch.reset();
}

int world_pe(const char* call, shmem_ctx_t ctx, int pe) {
  if (!ctx) gshmem::fatal(call, "ctx is SHMEM_CTX_INVALID (target pe %d)", pe);
  batch_send(ctx);  // every operation of the context comes after the puts it issued before
  return gshmem::core::team_world_pe(call, ctx->team, pe);
}

// A put of bytes from src to dest on team PE pe: gathered into the context's batch when a
// BATCH session is open and it qualifies (CtxBatch), else issued as put_nbi. True when gathered.
bool batch_put(const char* call, shmem_ctx_t c, void* dest, const void* src, size_t bytes, int pe) {
  if (!c) gshmem::fatal(call, "ctx is SHMEM_CTX_INVALID (target pe %d)", pe);
  CtxBatch* b = c->batch.get();
  if (!b || bytes > CtxBatch::kMaxCall || bytes == 0) return false;
  const int wpe = gshmem::core::team_world_pe(call, c->team, pe);
  gshmem::core::check_symmetric(call, dest, bytes, wpe, "dest");
  if (gshmem::core::ptr(dest, wpe)) return false;  // a store: nothing to gather
  std::lock_guard<std::mutex> lock(b->mu);
  char* d = static_cast<char*>(dest);
  if (b->len && (wpe != b->pe || d != b->dest + b->len || b->len + bytes > CtxBatch::kBytes)) send_run(*b);
  if (!b->len) b->pe = wpe, b->dest = d;
  memcpy(b->buf + b->len, src, bytes);
  b->len += bytes;
  return true;
}

// The translated PE, passed as the argument of the default-context call; while this temporary
// lives (to the end of the full expression, i.e. the call) the context's stream is in force.
struct CtxPe {
  int pe;
  bool set;
  CtxPe(int p, shmem_ctx_t c) : pe(p), set(c->stream != nullptr) {
    if (set) gshmem::core::set_thread_stream(c->stream);
  }
  ~CtxPe() {
    if (set) gshmem::core::set_thread_stream(nullptr);
  }
  CtxPe(const CtxPe&) = delete;
  CtxPe& operator=(const CtxPe&) = delete;
  operator int() const { return pe; }
};

void ctx_quiet(const char* call, shmem_ctx_t ctx) {
  batch_send(ctx);
  if (ctx->stream) {
    gshmem::core::transport_quiet();
    gshmem::core::memory_fence();
    gshmem::core::context_stream_quiet(call, ctx->stream);
  } else {
    shmem_quiet();
  }
}
}  // namespace

using gshmem::fatal;

extern "C" {

shmem_ctx_t const SHMEM_CTX_DEFAULT = &g_default;

int shmem_ctx_create(long options, shmem_ctx_t* ctx) { return shmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx); }

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx) {
  const char* call = "shmem_team_create_ctx";
  if (!gshmem::core::running()) fatal(call, "called before shmem_init");
  if (!ctx) fatal(call, "ctx is NULL");
  if (options & ~kKnownOptions) fatal(call, "unknown options 0x%lx", options);
  if (!gshmem::core::team_member(team)) {
    *ctx = SHMEM_CTX_INVALID;
    return 1;
  }
  *ctx = new gshmem_ctx{team, options, false, gshmem::core::context_stream_create(call)};
  return 0;
}

void shmem_ctx_destroy(shmem_ctx_t ctx) {
  if (!ctx) return;
  if (ctx->is_default) fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
  if (ctx->batch) batch_close(ctx);
  ctx_quiet("shmem_ctx_destroy", ctx);  // its operations complete before the context goes away
  if (ctx->stream) gshmem::core::context_stream_destroy("shmem_ctx_destroy", ctx->stream);
  delete ctx;
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team) {
  if (!team) return 1;
  if (!ctx) {
    *team = SHMEM_TEAM_INVALID;
    return 1;
  }
  *team = ctx->team;
  return 0;
}

// OpenSHMEM 1.5: fence, quiet and destroy on SHMEM_CTX_INVALID perform no operation.
void shmem_ctx_fence(shmem_ctx_t ctx) {
  if (!ctx) return;
  batch_send(ctx);
  if (ctx->stream) {  // one stream executes in order: the queued nbi puts go first, then the transport
    gshmem::core::context_stream_fence("shmem_ctx_fence", ctx->stream);
    gshmem::core::transport_quiet();
    gshmem::core::memory_fence();
  } else {
    shmem_fence();
  }
}
void shmem_ctx_quiet(shmem_ctx_t ctx) {
  if (!ctx) return;
  ctx_quiet("shmem_ctx_quiet", ctx);
}

void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* pes, size_t n) {
  const char* call = "shmem_ctx_pe_quiet";
  if (!ctx || n == 0) return;
  batch_send(ctx);
  if (ctx->stream) gshmem::core::context_stream_quiet(call, ctx->stream);
  gshmem::core::pe_quiet(
      call, pes, n,
      [](const char* c, int pe, void* x) {
        return gshmem::core::team_world_pe(c, static_cast<shmem_ctx_t>(x)->team, pe);
      },
      ctx);
}

// Sessions are hints (OpenSHMEM 1.6): starting or stopping one changes no completion or ordering.
// SHMEM_CTX_SESSION_BATCH on a context of a CPU PE (not the default context, whose plain shmem_
// calls bypass it) gathers small contiguous puts (CtxBatch).
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config,
                             long config_mask) {
  const char* call = "shmem_ctx_session_start";
  if (!ctx) return;
  if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS) fatal(call, "unknown config_mask bits 0x%lx", config_mask);
  if (config_mask && !config) fatal(call, "config is NULL with config_mask 0x%lx", config_mask);
  ctx->session_options |= options;  // a second start on the context adds its options
  if (config_mask & SHMEM_CTX_SESSION_TOTAL_OPS) ctx->session_total_ops = config->total_ops;
  if ((ctx->session_options & SHMEM_CTX_SESSION_BATCH) && !ctx->is_default && !ctx->stream && !ctx->batch)
    batch_open(ctx);
}

void shmem_ctx_session_stop(shmem_ctx_t ctx) {
  if (!ctx) return;
  if (ctx->batch) batch_close(ctx);
  ctx->session_options = 0;
  ctx->session_total_ops = SIZE_MAX;
}

#define W(NAME) CtxPe(world_pe("shmem_ctx_" NAME, c, pe), c)
#define GSHMEM_DEF_CTX_RMA(T, N)                                                                                    \
  void shmem_ctx_##N##_put(shmem_ctx_t c, T* d, const T* s, size_t n, int pe) {                                     \
    shmem_##N##_put(d, s, n, W(#N "_put"));                                                                         \
  }                                                                                                                 \
  void shmem_ctx_##N##_put_nbi(shmem_ctx_t c, T* d, const T* s, size_t n, int pe) {                                 \
    if (!batch_put("shmem_ctx_" #N "_put_nbi", c, d, s, n * sizeof(T), pe))                                         \
      shmem_##N##_put_nbi(d, s, n, W(#N "_put_nbi"));                                                               \
  }                                                                                                                 \
  void shmem_ctx_##N##_get(shmem_ctx_t c, T* d, const T* s, size_t n, int pe) {                                     \
    shmem_##N##_get(d, s, n, W(#N "_get"));                                                                         \
  }                                                                                                                 \
  void shmem_ctx_##N##_get_nbi(shmem_ctx_t c, T* d, const T* s, size_t n, int pe) {                                 \
    shmem_##N##_get_nbi(d, s, n, W(#N "_get_nbi"));                                                                 \
  }                                                                                                                 \
  void shmem_ctx_##N##_p(shmem_ctx_t c, T* d, T v, int pe) {                                                        \
    if (!batch_put("shmem_ctx_" #N "_p", c, d, &v, sizeof(T), pe)) shmem_##N##_p(d, v, W(#N "_p"));                 \
  }                                                                                                                 \
  T shmem_ctx_##N##_g(shmem_ctx_t c, const T* s, int pe) { return shmem_##N##_g(s, W(#N "_g")); }                   \
  void shmem_ctx_##N##_iput(shmem_ctx_t c, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {      \
    shmem_##N##_iput(d, s, dst, sst, n, W(#N "_iput"));                                                             \
  }                                                                                                                 \
  void shmem_ctx_##N##_iget(shmem_ctx_t c, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {      \
    shmem_##N##_iget(d, s, dst, sst, n, W(#N "_iget"));                                                             \
  }                                                                                                                 \
  void shmem_ctx_##N##_ibput(shmem_ctx_t c, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n,     \
                             int pe) {                                                                              \
    shmem_##N##_ibput(d, s, dst, sst, b, n, W(#N "_ibput"));                                                        \
  }                                                                                                                 \
  void shmem_ctx_##N##_ibget(shmem_ctx_t c, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n,     \
                             int pe) {                                                                              \
    shmem_##N##_ibget(d, s, dst, sst, b, n, W(#N "_ibget"));                                                        \
  }                                                                                                                 \
  void shmem_ctx_##N##_put_signal(shmem_ctx_t c, T* d, const T* s, size_t n, uint64_t* sa, uint64_t sv, int op,     \
                                  int pe) {                                                                         \
    shmem_##N##_put_signal(d, s, n, sa, sv, op, W(#N "_put_signal"));                                               \
  }                                                                                                                 \
  void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t c, T* d, const T* s, size_t n, uint64_t* sa, uint64_t sv, int op, \
                                      int pe) {                                                                     \
    shmem_##N##_put_signal_nbi(d, s, n, sa, sv, op, W(#N "_put_signal_nbi"));                                       \
  }
GSHMEM_RMA_TYPES(GSHMEM_DEF_CTX_RMA)
#undef GSHMEM_DEF_CTX_RMA

#define GSHMEM_DEF_CTX_SIZED(B)                                                                                      \
  void shmem_ctx_put##B(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) {                                   \
    shmem_put##B(d, s, n, W("put" #B));                                                                              \
  }                                                                                                                  \
  void shmem_ctx_put##B##_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) {                             \
    if (!batch_put("shmem_ctx_put" #B "_nbi", c, d, s, n * (B / 8), pe))                                             \
      shmem_put##B##_nbi(d, s, n, W("put" #B "_nbi"));                                                               \
  }                                                                                                                  \
  void shmem_ctx_get##B(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) {                                   \
    shmem_get##B(d, s, n, W("get" #B));                                                                              \
  }                                                                                                                  \
  void shmem_ctx_get##B##_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) {                             \
    shmem_get##B##_nbi(d, s, n, W("get" #B "_nbi"));                                                                 \
  }                                                                                                                  \
  void shmem_ctx_iput##B(shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {    \
    shmem_iput##B(d, s, dst, sst, n, W("iput" #B));                                                                  \
  }                                                                                                                  \
  void shmem_ctx_iget##B(shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {    \
    shmem_iget##B(d, s, dst, sst, n, W("iget" #B));                                                                  \
  }                                                                                                                  \
  void shmem_ctx_ibput##B(shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n,   \
                          int pe) {                                                                                  \
    shmem_ibput##B(d, s, dst, sst, b, n, W("ibput" #B));                                                             \
  }                                                                                                                  \
  void shmem_ctx_ibget##B(shmem_ctx_t c, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n,   \
                          int pe) {                                                                                  \
    shmem_ibget##B(d, s, dst, sst, b, n, W("ibget" #B));                                                             \
  }                                                                                                                  \
  void shmem_ctx_put##B##_signal(shmem_ctx_t c, void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, \
                                 int pe) {                                                                           \
    shmem_put##B##_signal(d, s, n, sa, sv, op, W("put" #B "_signal"));                                               \
  }                                                                                                                  \
  void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv,     \
                                     int op, int pe) {                                                               \
    shmem_put##B##_signal_nbi(d, s, n, sa, sv, op, W("put" #B "_signal_nbi"));                                       \
  }
GSHMEM_SIZES(GSHMEM_DEF_CTX_SIZED)
#undef GSHMEM_DEF_CTX_SIZED

void shmem_ctx_putmem(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) { shmem_putmem(d, s, n, W("putmem")); }
void shmem_ctx_putmem_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) {
  if (!batch_put("shmem_ctx_putmem_nbi", c, d, s, n, pe)) shmem_putmem_nbi(d, s, n, W("putmem_nbi"));
}
void shmem_ctx_getmem(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) { shmem_getmem(d, s, n, W("getmem")); }
void shmem_ctx_getmem_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, int pe) {
  shmem_getmem_nbi(d, s, n, W("getmem_nbi"));
}
void shmem_ctx_putmem_signal(shmem_ctx_t c, void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op,
                             int pe) {
  shmem_putmem_signal(d, s, n, sa, sv, op, W("putmem_signal"));
}
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op,
                                 int pe) {
  shmem_putmem_signal_nbi(d, s, n, sa, sv, op, W("putmem_signal_nbi"));
}

void shmem_ctx_signal_add(shmem_ctx_t c, uint64_t* sa, uint64_t sv, int pe) {
  shmem_signal_add(sa, sv, W("signal_add"));
}
void shmem_ctx_signal_set(shmem_ctx_t c, uint64_t* sa, uint64_t sv, int pe) {
  shmem_signal_set(sa, sv, W("signal_set"));
}

#define GSHMEM_DEF_CTX_AMO_EXT(T, N)                                               \
  T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t c, const T* s, int pe) {              \
    return shmem_##N##_atomic_fetch(s, W(#N "_atomic_fetch"));                     \
  }                                                                                \
  void shmem_ctx_##N##_atomic_set(shmem_ctx_t c, T* d, T v, int pe) {              \
    shmem_##N##_atomic_set(d, v, W(#N "_atomic_set"));                             \
  }                                                                                \
  T shmem_ctx_##N##_atomic_swap(shmem_ctx_t c, T* d, T v, int pe) {                \
    return shmem_##N##_atomic_swap(d, v, W(#N "_atomic_swap"));                    \
  }                                                                                \
  void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t c, T* f, const T* s, int pe) { \
    shmem_##N##_atomic_fetch_nbi(f, s, W(#N "_atomic_fetch_nbi"));                 \
  }                                                                                \
  void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) {   \
    shmem_##N##_atomic_swap_nbi(f, d, v, W(#N "_atomic_swap_nbi"));                \
  }
GSHMEM_AMO_EXT_TYPES(GSHMEM_DEF_CTX_AMO_EXT)
#undef GSHMEM_DEF_CTX_AMO_EXT

#define GSHMEM_DEF_CTX_AMO_STD(T, N)                                                                               \
  T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t c, T* d, T cond, T v, int pe) {                                \
    return shmem_##N##_atomic_compare_swap(d, cond, v, W(#N "_atomic_compare_swap"));                              \
  }                                                                                                                \
  T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t c, T* d, int pe) {                                                \
    return shmem_##N##_atomic_fetch_inc(d, W(#N "_atomic_fetch_inc"));                                             \
  }                                                                                                                \
  void shmem_ctx_##N##_atomic_inc(shmem_ctx_t c, T* d, int pe) { shmem_##N##_atomic_inc(d, W(#N "_atomic_inc")); } \
  T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t c, T* d, T v, int pe) {                                           \
    return shmem_##N##_atomic_fetch_add(d, v, W(#N "_atomic_fetch_add"));                                          \
  }                                                                                                                \
  void shmem_ctx_##N##_atomic_add(shmem_ctx_t c, T* d, T v, int pe) {                                              \
    shmem_##N##_atomic_add(d, v, W(#N "_atomic_add"));                                                             \
  }                                                                                                                \
  void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t c, T* f, T* d, T cond, T v, int pe) {                   \
    shmem_##N##_atomic_compare_swap_nbi(f, d, cond, v, W(#N "_atomic_compare_swap_nbi"));                          \
  }                                                                                                                \
  void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t c, T* f, T* d, int pe) {                                   \
    shmem_##N##_atomic_fetch_inc_nbi(f, d, W(#N "_atomic_fetch_inc_nbi"));                                         \
  }                                                                                                                \
  void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) {                              \
    shmem_##N##_atomic_fetch_add_nbi(f, d, v, W(#N "_atomic_fetch_add_nbi"));                                      \
  }
GSHMEM_AMO_STD_TYPES(GSHMEM_DEF_CTX_AMO_STD)
#undef GSHMEM_DEF_CTX_AMO_STD

#define GSHMEM_DEF_CTX_AMO_BIT_OP(T, N, OP)                                              \
  T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t c, T* d, T v, int pe) {                \
    return shmem_##N##_atomic_fetch_##OP(d, v, W(#N "_atomic_fetch_" #OP));              \
  }                                                                                      \
  void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t c, T* d, T v, int pe) {                   \
    shmem_##N##_atomic_##OP(d, v, W(#N "_atomic_" #OP));                                 \
  }                                                                                      \
  void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t c, T* f, T* d, T v, int pe) { \
    shmem_##N##_atomic_fetch_##OP##_nbi(f, d, v, W(#N "_atomic_fetch_" #OP "_nbi"));     \
  }
#define GSHMEM_DEF_CTX_AMO_BIT(T, N) \
  GSHMEM_DEF_CTX_AMO_BIT_OP(T, N, and) GSHMEM_DEF_CTX_AMO_BIT_OP(T, N, or) GSHMEM_DEF_CTX_AMO_BIT_OP(T, N, xor)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DEF_CTX_AMO_BIT)
#undef GSHMEM_DEF_CTX_AMO_BIT
#undef GSHMEM_DEF_CTX_AMO_BIT_OP
#undef W

}  // extern "C"
