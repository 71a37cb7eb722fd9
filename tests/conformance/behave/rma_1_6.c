/* rma_1_6: the RMA, signal and completion routines OpenSHMEM 1.6 added -- shmem_ibput/ibget
 * (typed, sized, context and C11 generic forms), shmem_signal_add/set (plain, context, generic),
 * shmem_pe_quiet/shmem_ctx_pe_quiet, shmem_query_initialized -- and the const cmp_values of the
 * vector waits and tests. Build with -std=c11.
 *
 * OpenSHMEM 1.6, shmem_ibput: "copying strided data blocks (of size bsize) with stride (specified
 *   by sst) of an array from a source array on the local PE to locations specified by stride dst
 *   on a dest array on specified remote PE." dst/sst: "The stride between consecutive blocks ...
 *   must be greater than or equal to bsize and is scaled by the element size ... A value of bsize
 *   indicates contiguous data." "Calling shmem_ibput with a block size of 1 is equivalent to the
 *   shmem_iput API." shmem_ibget: the same from a remote source into a local dest.
 * shmem_signal_add: "adds value to the signal data object pointed to by sig_addr on PE pe."
 * shmem_signal_set: "writes value into the signal data object pointed to by sig_addr on PE pe."
 *   pe: "PE number of the remote PE relative to the team associated with the given ctx when
 *   provided, or the default context otherwise."
 * shmem_pe_quiet: "ensures completion of memory store, blocking PUT, AMO, and put-with-signal,
 *   as well as nonblocking PUT, put-with-signal, and GET routines on the symmetric data objects
 *   issued by the calling PE to the target PEs ... the operations to the target PEs are
 *   guaranteed to be complete and visible to all PEs when shmem_pe_quiet returns." "If npes is
 *   set to 0, the target_pes is ignored and the routine returns immediately."
 * shmem_query_initialized: "If the application has called an OpenSHMEM initialization routine
 *   and has not yet made the corresponding call to shmem_finalize, this routine returns nonzero.
 *   Otherwise, it returns zero. This function may be called at any time".
 * 1.6 changelog: "Added a const qualifier to the cmp_values argument in ... shmem_wait_until_all_vector,
 *   ... shmem_test_some_vector."
 *
 * Every payload is fresh (a seed PE 0 draws from the clock, shared through shmem_g) and every
 * destination poisoned, so a check can only pass on data that moved.
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "rma_1_6"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stdint.h>
#include <time.h>

/* const cmp_values: the routines have exactly the 1.6 prototypes (a mismatch fails to compile). */
_Static_assert(_Generic(&shmem_long_wait_until_all_vector,
                        void (*)(long *, size_t, const int *, int, const long *): 1, default: 0),
               "wait_until_all_vector: const cmp_values");
_Static_assert(_Generic(&shmem_uint64_test_some_vector,
                        size_t (*)(uint64_t *, size_t, size_t *, const int *, int, const uint64_t *): 1,
                        default: 0),
               "test_some_vector: const cmp_values");

#define NB 7   /* blocks */
#define BS 3   /* elements per block */
#define SST 5  /* source stride */
#define DST 4  /* dest stride */
#define LEN 64 /* every array: larger than (NB - 1) * max(SST, DST) + BS */
#define POISON 0x5a5a5a5a

static uint64_t seed;
static uint64_t seed_sym;
static long lsrc[LEN], ldst[LEN];
static int isrc[LEN], idst[LEN];
static double dsrc[LEN], ddst[LEN];
static uint64_t sig_add, sig_set, sig_ctx;
static char big[1 << 16];
static uint64_t big_flag;

/* The value PE pe holds at index i of its source arrays in round r. */
static uint64_t val(int pe, int r, int i) { return bh_mix(seed ^ ((uint64_t)pe << 40) ^ ((uint64_t)r << 20) ^ (uint64_t)i); }

static void fill(int r) {
  for (int i = 0; i < LEN; i++) {
    uint64_t v = val(bh_me, r, i);
    lsrc[i] = (long)v;
    isrc[i] = (int)v;
    dsrc[i] = (double)(v >> 12);
    ldst[i] = POISON;
    idst[i] = POISON;
    ddst[i] = -1.0;
  }
}

/* Checks dest[] after a blocked transfer of round r from PE src_pe with strides (dst, sst). */
static void check_long(const char *what, int src_pe, int r, int dst, int sst, int bs, int nb) {
  for (int i = 0; i < LEN; i++) {
    long want = POISON;
    if (i % dst < bs && i / dst < nb) want = (long)val(src_pe, r, (i / dst) * sst + i % dst);
    BH_CHECK(ldst[i] == want, "%s: dest[%d] = %ld, want %ld", what, i, ldst[i], want);
  }
}
static void check_int(const char *what, int src_pe, int r, int dst, int sst, int bs, int nb) {
  for (int i = 0; i < LEN; i++) {
    int want = POISON;
    if (i % dst < bs && i / dst < nb) want = (int)val(src_pe, r, (i / dst) * sst + i % dst);
    BH_CHECK(idst[i] == want, "%s: dest[%d] = %d, want %d", what, i, idst[i], want);
  }
}
static void check_double(const char *what, int src_pe, int r, int dst, int sst, int bs, int nb) {
  for (int i = 0; i < LEN; i++) {
    double want = -1.0;
    if (i % dst < bs && i / dst < nb) want = (double)(val(src_pe, r, (i / dst) * sst + i % dst) >> 12);
    BH_CHECK(ddst[i] == want, "%s: dest[%d] = %g, want %g", what, i, ddst[i], want);
  }
}

/* Round r: every PE puts (or gets) blocks to (from) its right neighbour; the left neighbour's
 * data arrives here. kind selects the interface. */
static void ib_round(int r, int kind, shmem_ctx_t ctx) {
  const int right = (bh_me + 1) % bh_npes, left = (bh_me + bh_npes - 1) % bh_npes;
  fill(r);
  shmem_barrier_all();
  const char *names[] = {"long_ibput",  "ibput32",       "ctx_long_ibput", "generic ibput(double)",
                         "generic ibput(ctx, long)", "long_ibget", "ibget32", "ctx_double_ibget",
                         "generic ibget(long)", "contiguous long_ibput (dst = sst = bsize)",
                         "iput equivalence: long_ibput with bsize 1"};
  switch (kind) {
    case 0: shmem_long_ibput(ldst, lsrc, DST, SST, BS, NB, right); break;
    case 1: shmem_ibput32(idst, isrc, DST, SST, BS, NB, right); break;
    case 2: shmem_ctx_long_ibput(ctx, ldst, lsrc, DST, SST, BS, NB, right); break;
    case 3: shmem_ibput(ddst, dsrc, DST, SST, BS, NB, right); break;
    case 4: shmem_ibput(ctx, ldst, lsrc, DST, SST, BS, NB, right); break;
    case 5: shmem_long_ibget(ldst, lsrc, DST, SST, BS, NB, left); break;
    case 6: shmem_ibget32(idst, isrc, DST, SST, BS, NB, left); break;
    case 7: shmem_ctx_double_ibget(ctx, ddst, dsrc, DST, SST, BS, NB, left); break;
    case 8: shmem_ibget(ldst, lsrc, DST, SST, BS, NB, left); break;
    case 9: shmem_long_ibput(ldst, lsrc, BS, BS, BS, NB, right); break;
    case 10: shmem_long_ibput(ldst, lsrc, DST, SST, 1, NB, right); break;
  }
  shmem_quiet();
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  const char *w = names[kind];
  if (kind == 1 || kind == 6) check_int(w, left, r, DST, SST, BS, NB);
  else if (kind == 3 || kind == 7) check_double(w, left, r, DST, SST, BS, NB);
  else if (kind == 9) check_long(w, left, r, BS, BS, BS, NB);
  else if (kind == 10) check_long(w, left, r, DST, SST, 1, NB);
  else check_long(w, left, r, DST, SST, BS, NB);
  shmem_barrier_all();
}

int main(void) {
  int before = -1;
  shmem_query_initialized(&before);
  bh_start();
  BH_CHECK(before == 0, "shmem_query_initialized before shmem_init gave %d, want 0", before);
  int during = 0;
  shmem_query_initialized(&during);
  BH_CHECK(during != 0, "shmem_query_initialized after shmem_init gave 0");

  if (bh_me == 0) seed_sym = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)clock();
  shmem_barrier_all();
  seed = shmem_uint64_g(&seed_sym, 0);

  shmem_ctx_t ctx;
  BH_CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create failed");
  for (int kind = 0; kind <= 10; kind++) ib_round(kind, kind, ctx);

  /* signal_add from every PE to every PE; signal_set from the left neighbour. */
  const int right = (bh_me + 1) % bh_npes, left = (bh_me + bh_npes - 1) % bh_npes;
  sig_add = 0, sig_set = 0, sig_ctx = 0;
  shmem_barrier_all();
  for (int pe = 0; pe < bh_npes; pe++) {
    if (pe % 3 == 0) shmem_signal_add(&sig_add, (uint64_t)bh_me + 1, pe);
    else if (pe % 3 == 1) shmem_ctx_signal_add(ctx, &sig_add, (uint64_t)bh_me + 1, pe);
    else shmem_signal_add(ctx, &sig_add, (uint64_t)bh_me + 1, pe); /* C11 generic, context form */
  }
  shmem_signal_set(&sig_set, seed ^ (uint64_t)bh_me, right);
  shmem_signal_set(ctx, &sig_ctx, seed + (uint64_t)bh_me, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  const uint64_t want_add = (uint64_t)bh_npes * (uint64_t)(bh_npes + 1) / 2;
  BH_CHECK(shmem_signal_fetch(&sig_add) == want_add, "signal_add: %llu, want %llu",
           (unsigned long long)shmem_signal_fetch(&sig_add), (unsigned long long)want_add);
  BH_CHECK(sig_set == (seed ^ (uint64_t)left), "signal_set: %llx, want %llx", (unsigned long long)sig_set,
           (unsigned long long)(seed ^ (uint64_t)left));
  BH_CHECK(sig_ctx == seed + (uint64_t)left, "generic signal_set(ctx): %llx, want %llx",
           (unsigned long long)sig_ctx, (unsigned long long)(seed + (uint64_t)left));
  shmem_barrier_all();

  /* pe_quiet: nbi data to the right neighbour, completed by pe_quiet on that PE alone, then a
   * flag; the neighbour sees the whole payload once it sees the flag. Twice: the default context,
   * then a context on a team whose PE numbers differ from the world's. */
  shmem_pe_quiet(NULL, 0); /* npes 0: target_pes is ignored */
  shmem_team_t tail = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, bh_npes > 1 ? bh_npes - 1 : 1, NULL, 0, &tail);
  for (int round = 0; round < 2; round++) {
    big_flag = 0;
    memset(big, 0, sizeof big);
    shmem_barrier_all();
    uint64_t tag = bh_mix(seed + 77 + (uint64_t)round);
    char *payload = malloc(sizeof big);
    for (size_t i = 0; i < sizeof big; i++) payload[i] = (char)(bh_mix(tag ^ (bh_me * 131071ull) ^ i) & 0xff);
    int expect_from = -1;
    if (round == 0) {
      shmem_putmem_nbi(big, payload, sizeof big, right);
      shmem_pe_quiet(&right, 1);
      shmem_uint64_atomic_set(&big_flag, 1, right);
      expect_from = left;
    } else if (tail != SHMEM_TEAM_INVALID && shmem_team_n_pes(tail) > 1) {
      shmem_ctx_t tctx;
      BH_CHECK(shmem_team_create_ctx(tail, 0, &tctx) == 0, "shmem_team_create_ctx failed");
      int tn = shmem_team_n_pes(tail), tme = shmem_team_my_pe(tail);
      int tright = (tme + 1) % tn;                    /* team numbering */
      int targets[2] = {tright, tright};              /* a repeated PE is fine */
      shmem_ctx_putmem_nbi(tctx, big, payload, sizeof big, tright);
      shmem_ctx_pe_quiet(tctx, targets, 2);
      shmem_ctx_uint64_atomic_set(tctx, &big_flag, 1, tright);
      expect_from = 1 + (tme + tn - 1) % tn;          /* world number of the team-left PE */
      shmem_ctx_quiet(tctx);
      shmem_ctx_destroy(tctx);
    }
    if (expect_from >= 0) {
      shmem_uint64_wait_until(&big_flag, SHMEM_CMP_EQ, 1);
      size_t bad = 0, first = 0;
      for (size_t i = 0; i < sizeof big; i++)
        if (big[i] != (char)(bh_mix(tag ^ ((uint64_t)expect_from * 131071ull) ^ i) & 0xff) && !bad++) first = i;
      BH_CHECK(bad == 0, "pe_quiet round %d: %zu of %zu bytes from pe %d not there when the flag was (first at %zu)",
               round, bad, sizeof big, expect_from, first);
    }
    free(payload);
    shmem_barrier_all();
  }
  if (tail != SHMEM_TEAM_INVALID) shmem_team_destroy(tail);

  /* const cmp_values in use */
  static long ivars[2];
  const long cmpv[2] = {0, 0};
  const int st[2] = {0, 0};
  shmem_long_wait_until_all_vector(ivars, 2, st, SHMEM_CMP_EQ, cmpv);
  BH_CHECK(shmem_long_test_all_vector(ivars, 2, st, SHMEM_CMP_EQ, cmpv) == 1, "test_all_vector with const cmp_values");

  shmem_ctx_destroy(ctx);
  int rc = bh_finish();
  int after = -1;
  shmem_query_initialized(&after);
  if (after != 0) {
    printf("FAIL %s: pe %d: shmem_query_initialized after shmem_finalize gave %d, want 0\n", BEHAVE_NAME, bh_me, after);
    return 1;
  }
  return rc;
}
