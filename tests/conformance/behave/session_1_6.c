/* session_1_6: OpenSHMEM 1.6 sessions with SHMEM_CTX_SESSION_BATCH, where gshmem gathers a
 * context's small contiguous puts into one transport operation: what the program sees must not
 * change. Build with -std=c11. Run it with PEs on several nodes (or GSHMEM_EMULATE_NODES): only
 * puts to PEs reached through a transport are gathered.
 *
 * OpenSHMEM 1.6, sessions: "informing the library implementation ahead of time that it is free to
 *   delay transferring data in order to buffer, combine, and/or coalesce the issued OpenSHMEM
 *   routines"; "Because sessions do not affect the completion or ordering semantics of any
 *   OpenSHMEM routines in the program, ..."; shmem_ctx_session_stop "does not quiet the context".
 * shmem_fence: puts issued before the fence to a PE are delivered before those after it.
 *
 * Inside a session on a context, each PE puts to its right neighbour: 1000 contiguous 8-byte
 * put_nbi (one run), 300 int p's in descending addresses (no two contiguous), contiguous
 * putmem_nbi of 1..40 bytes, a 4000-byte putmem_nbi (too large to gather), put32_nbi; then a
 * fence and a flag p. The neighbour waits for the flag (its wait must not stall on puts its left
 * PE holds back) and checks every byte before any quiet (the fence orders them before the flag);
 * then session stop, quiet, and a second session whose puts are completed by ctx_quiet alone.
 * Fresh random payloads, poisoned destinations. PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "session_1_6"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stdint.h>
#include <time.h>

#define NA 1000
#define NB 300
#define NC 40
#define ND 4000
#define NE 64
static long a[NA];
static int b[NB];
static unsigned char c[NC * (NC + 1) / 2];
static unsigned char d[ND];
static uint32_t e[NE];
static long flag;
static uint64_t seed_sym;

static uint64_t seed;
static uint64_t val(int pe, int round, int what, int i) {
  return bh_mix(seed ^ ((uint64_t)pe << 40) ^ ((uint64_t)round << 32) ^ ((uint64_t)what << 24) ^ (uint64_t)i);
}

static void poison(void) {
  memset(a, 0x5a, sizeof a), memset(b, 0x5a, sizeof b), memset(c, 0x5a, sizeof c);
  memset(d, 0x5a, sizeof d), memset(e, 0x5a, sizeof e);
}

static void issue(shmem_ctx_t ctx, int round, int right) {
  static long sa[NA];
  static unsigned char sc[sizeof c], sd[ND];
  static uint32_t se[NE];
  for (int i = 0; i < NA; i++) sa[i] = (long)val(bh_me, round, 1, i);
  for (int i = 0; i < NA; i++) shmem_ctx_long_put_nbi(ctx, &a[i], &sa[i], 1, right);
  for (int i = NB - 1; i >= 0; i--) shmem_ctx_int_p(ctx, &b[i], (int)val(bh_me, round, 2, i), right);
  for (size_t i = 0; i < sizeof c; i++) sc[i] = (unsigned char)val(bh_me, round, 3, (int)i);
  for (int len = 1, off = 0; len <= NC; off += len, len++) shmem_ctx_putmem_nbi(ctx, c + off, sc + off, (size_t)len, right);
  for (int i = 0; i < ND; i++) sd[i] = (unsigned char)val(bh_me, round, 4, i);
  shmem_ctx_putmem_nbi(ctx, d, sd, ND, right);
  for (int i = 0; i < NE; i++) se[i] = (uint32_t)val(bh_me, round, 5, i);
  for (int i = 0; i < NE; i += 4) shmem_ctx_put32_nbi(ctx, e + i, se + i, 4, right);
}

static void check(const char *what, int round, int left) {
  int bad = 0;
  for (int i = 0; i < NA; i++) bad += a[i] != (long)val(left, round, 1, i);
  BH_CHECK(bad == 0, "%s: %d of %d contiguous long put_nbi from pe %d wrong", what, bad, NA, left);
  bad = 0;
  for (int i = 0; i < NB; i++) bad += b[i] != (int)val(left, round, 2, i);
  BH_CHECK(bad == 0, "%s: %d of %d int p wrong", what, bad, NB);
  bad = 0;
  for (size_t i = 0; i < sizeof c; i++) bad += c[i] != (unsigned char)val(left, round, 3, (int)i);
  BH_CHECK(bad == 0, "%s: %d of %zu bytes of the 1..%d-byte putmem_nbi chain wrong", what, bad, sizeof c, NC);
  bad = 0;
  for (int i = 0; i < ND; i++) bad += d[i] != (unsigned char)val(left, round, 4, i);
  BH_CHECK(bad == 0, "%s: %d of %d bytes of the large putmem_nbi wrong", what, bad, ND);
  bad = 0;
  for (int i = 0; i < NE; i++) bad += e[i] != (uint32_t)val(left, round, 5, i);
  BH_CHECK(bad == 0, "%s: %d of %d put32_nbi elements wrong", what, bad, NE);
}

int main(void) {
  bh_start();
  if (bh_me == 0) seed_sym = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)clock();
  shmem_barrier_all();
  seed = shmem_uint64_g(&seed_sym, 0);
  const int right = (bh_me + 1) % bh_npes, left = (bh_me + bh_npes - 1) % bh_npes;
  shmem_ctx_t ctx;
  BH_CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");
  shmem_ctx_session_config_t cfg = {.total_ops = NA + NB + NC + 1 + NE / 4 + 1};

  /* round 1: fence + flag, checked before any quiet */
  poison();
  flag = 0;
  shmem_barrier_all();
  shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  issue(ctx, 1, right);
  shmem_ctx_fence(ctx);
  shmem_ctx_long_p(ctx, &flag, 1, right);
  shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
  check("after the flag (fence order)", 1, left);
  shmem_ctx_session_stop(ctx);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();

  /* round 2: completion by ctx_quiet inside the session, then a barrier */
  poison();
  shmem_barrier_all();
  shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
  issue(ctx, 2, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  check("after ctx_quiet and a barrier", 2, left);
  shmem_barrier_all();
  shmem_ctx_session_stop(ctx);
  shmem_ctx_destroy(ctx);
  return bh_finish();
}
