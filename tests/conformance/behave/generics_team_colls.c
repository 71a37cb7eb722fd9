/* generics_team_colls: the OpenSHMEM 1.5 C11 type-generic team-based collectives compile and
 * work -- shmem_{and,or,xor,max,min,sum,prod}_reduce(team, dest, source, nreduce) for the types
 * the reduction table lists, shmem_broadcast, shmem_collect, shmem_fcollect, shmem_alltoall,
 * shmem_alltoalls and shmem_sync(team) -- and the deprecated active-set
 * shmem_sync(PE_start, logPE_stride, PE_size, pSync) still works in the same program.
 * Build with -std=c11.
 *
 * OpenSHMEM 1.5 text relied on:
 * Reductions: "int shmem_and_reduce(shmem_team_t team, TYPE *dest, const TYPE *source,
 *   size_t nreduce); where TYPE is one of the integer types supported for the AND operation as
 *   specified by Table [teamreducetypes]" (likewise or, xor; max, min: "integer or real types";
 *   sum, prod: "integer, real, or complex types").
 *   Table teamreducetypes: AND/OR/XOR for unsigned char, unsigned short, unsigned int,
 *   unsigned long, unsigned long long, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t,
 *   uint32_t, uint64_t, size_t; MAX/MIN/SUM/PROD for all of those and char, signed char, short,
 *   int, long, long long, ptrdiff_t, float, double, long double; SUM/PROD also double _Complex,
 *   float _Complex. (Complex reductions are optional in C -- 1.4 changelog: "complex-typed
 *   reductions in C are optionally supported" -- and are not tested.)
 *   "The results of the reductions are placed in the dest array on all PEs participating in the
 *   reduction."
 * Broadcast: "int shmem_broadcast(shmem_team_t team, TYPE *dest, const TYPE *source,
 *   size_t nelems, int PE_root); where TYPE is one of the standard RMA types";
 *   "For team-based broadcasts: The dest object is updated on all PEs." (1.5 changelog:
 *   "team-based broadcast operations update the dest object on all PEs, including the root PE").
 *   "PE numbering is relative to the team."
 * Collect: "int shmem_collect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);"
 *   and shmem_fcollect likewise; collect concatenates blocks in team PE order and lets nelems
 *   vary from PE to PE, fcollect needs the same nelems on all PEs.
 * Alltoall: "int shmem_alltoall(shmem_team_t team, TYPE *dest, const TYPE *source,
 *   size_t nelems);" -- the j-th block of source on PE i goes to the i-th block of dest on PE j.
 * Alltoalls: "int shmem_alltoalls(shmem_team_t team, TYPE *dest, const TYPE *source,
 *   ptrdiff_t dst, ptrdiff_t sst, size_t nelems);" strides "scaled by the element size"
 *   (nelems = 1 here, so element j*sst of source on PE i lands at element i*dst of dest on PE j).
 * Sync: C11 synopsis "int shmem_sync(shmem_team_t team);", C synopsis "int
 *   shmem_team_sync(shmem_team_t team);", deprecated C synopsis "void shmem_sync(int PE_start,
 *   int logPE_stride, int PE_size, long *pSync);" -- both spellings are in 1.5; they are told
 *   apart by their arguments (one team handle vs. the four active-set arguments). Deprecation
 *   table: "C/C++: Active-set-based shmem_sync -- deprecated 1.5 -- last supported: Current";
 *   "The deprecated API must be supported until clearly indicated as otherwise".
 *   "The shmem_sync routine can be used to portably ensure that memory access operations observe
 *   remote updates in the order enforced by the initiator PEs, provided that the initiator PE
 *   ensures completion of remote updates with a call to shmem_quiet prior to the call to the
 *   shmem_sync routine."
 * Team-based collectives return "zero on successful local completion; otherwise, nonzero."
 *
 * Every collective below has its own dest (and source) arrays, so "the dest array on all PEs in
 * the team is ready to accept the results" holds without extra synchronization.
 * PE counts: any N >= 1 (meant for 2, 3, 4; N <= 4 keeps every value inside a char). */
#define BEHAVE_NAME "generics_team_colls"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stddef.h>
#include <stdint.h>

#define MAXPE 4

static long long fact(int k) {
  long long f = 1;
  for (int i = 2; i <= k; i++) f *= i;
  return f;
}

/* ---- reductions: T the C type, N a token; one dest per (team, op) ---- */
#define DEF_RED_ARITH(T, N)                                                                       \
  static T N##_as[2][2], N##_ad[2][4][2];                                                         \
  static void red_arith_##N(int ti, shmem_team_t team) {                                          \
    int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team), r;                             \
    T *s = N##_as[ti];                                                                            \
    s[0] = (T)(tme + 1);                                                                          \
    s[1] = (T)(tme + 1);                                                                          \
    r = shmem_max_reduce(team, N##_ad[ti][0], s, 2);                                              \
    BH_CHECK(r == 0 && N##_ad[ti][0][0] == (T)tn && N##_ad[ti][0][1] == (T)tn,                    \
             "team %d: shmem_max_reduce(%s) ret %d", ti, #T, r);                                  \
    r = shmem_min_reduce(team, N##_ad[ti][1], s, 2);                                              \
    BH_CHECK(r == 0 && N##_ad[ti][1][0] == (T)1 && N##_ad[ti][1][1] == (T)1,                      \
             "team %d: shmem_min_reduce(%s) ret %d", ti, #T, r);                                  \
    r = shmem_sum_reduce(team, N##_ad[ti][2], s, 2);                                              \
    BH_CHECK(r == 0 && N##_ad[ti][2][0] == (T)(tn * (tn + 1) / 2) &&                              \
                 N##_ad[ti][2][1] == (T)(tn * (tn + 1) / 2),                                      \
             "team %d: shmem_sum_reduce(%s) ret %d", ti, #T, r);                                  \
    r = shmem_prod_reduce(team, N##_ad[ti][3], s, 2);                                             \
    BH_CHECK(r == 0 && N##_ad[ti][3][0] == (T)fact(tn) && N##_ad[ti][3][1] == (T)fact(tn),        \
             "team %d: shmem_prod_reduce(%s) ret %d", ti, #T, r);                                 \
  }

#define DEF_RED_BIT(T, N)                                                                         \
  static T N##_bs[2][2], N##_bd[2][3][2];                                                         \
  static void red_bit_##N(int ti, shmem_team_t team) {                                            \
    int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team), r;                             \
    T *s = N##_bs[ti];                                                                            \
    s[0] = (T)(0x70 | (1 << tme));                                                                \
    s[1] = (T)(1 << tme);                                                                         \
    unsigned low = (1u << tn) - 1u;                                                               \
    T want_and0 = (T)(tn == 1 ? (0x70 | 1) : 0x70), want_and1 = (T)(tn == 1 ? 1 : 0);             \
    T want_or0 = (T)(0x70 | low), want_or1 = (T)low;                                              \
    T want_xor0 = (T)((tn % 2 ? 0x70 : 0) | low), want_xor1 = (T)low;                             \
    r = shmem_and_reduce(team, N##_bd[ti][0], s, 2);                                              \
    BH_CHECK(r == 0 && N##_bd[ti][0][0] == want_and0 && N##_bd[ti][0][1] == want_and1,            \
             "team %d: shmem_and_reduce(%s) ret %d", ti, #T, r);                                  \
    r = shmem_or_reduce(team, N##_bd[ti][1], s, 2);                                               \
    BH_CHECK(r == 0 && N##_bd[ti][1][0] == want_or0 && N##_bd[ti][1][1] == want_or1,              \
             "team %d: shmem_or_reduce(%s) ret %d", ti, #T, r);                                   \
    r = shmem_xor_reduce(team, N##_bd[ti][2], s, 2);                                              \
    BH_CHECK(r == 0 && N##_bd[ti][2][0] == want_xor0 && N##_bd[ti][2][1] == want_xor1,            \
             "team %d: shmem_xor_reduce(%s) ret %d", ti, #T, r);                                  \
  }

/* ---- data movement: broadcast, collect, fcollect, alltoall, alltoalls ---- */
#define V(src, dst, k) ((src) * 16 + (dst) * 4 + (k)) /* < 64 for N <= 4 */
#define DEF_MOVE(T, N)                                                                            \
  static T N##_bs_src[2][3], N##_bs_dst[2][3];                                                    \
  static T N##_cs[2][MAXPE], N##_cd[2][MAXPE * (MAXPE + 1) / 2];                                  \
  static T N##_fs[2][2], N##_fd[2][2 * MAXPE];                                                    \
  static T N##_xs[2][2 * MAXPE], N##_xd[2][2 * MAXPE];                                            \
  static T N##_ss[2][3 * MAXPE], N##_sd[2][2 * MAXPE];                                            \
  static void move_##N(int ti, shmem_team_t team) {                                               \
    int tn = shmem_team_n_pes(team), me = shmem_team_my_pe(team), r, bad;                         \
    const char *tname = #T;                                                                       \
    /* broadcast from the last PE of the team */                                                  \
    int root = tn - 1;                                                                            \
    for (int k = 0; k < 3; k++) {                                                                 \
      N##_bs_src[ti][k] = (T)V(me, 0, k);                                                         \
      N##_bs_dst[ti][k] = (T)99;                                                                  \
    }                                                                                             \
    r = shmem_broadcast(team, N##_bs_dst[ti], N##_bs_src[ti], 3, root);                           \
    bad = 0;                                                                                      \
    for (int k = 0; k < 3; k++) bad |= N##_bs_dst[ti][k] != (T)V(root, 0, k);                     \
    BH_CHECK(r == 0 && !bad, "team %d: shmem_broadcast(%s) ret %d%s", ti, tname, r,               \
             bad ? ", dest wrong (it must be updated on the root too)" : "");                     \
    /* collect: PE j contributes j+1 elements */                                                  \
    for (int k = 0; k <= me; k++) N##_cs[ti][k] = (T)V(me, 0, k);                                 \
    r = shmem_collect(team, N##_cd[ti], N##_cs[ti], (size_t)me + 1);                              \
    bad = 0;                                                                                      \
    for (int j = 0, off = 0; j < tn; off += j + 1, j++)                                           \
      for (int k = 0; k <= j; k++) bad |= N##_cd[ti][off + k] != (T)V(j, 0, k);                   \
    BH_CHECK(r == 0 && !bad, "team %d: shmem_collect(%s) ret %d%s", ti, tname, r,                 \
             bad ? ", dest wrong" : "");                                                          \
    /* fcollect: 2 elements each */                                                               \
    for (int k = 0; k < 2; k++) N##_fs[ti][k] = (T)V(me, 1, k);                                   \
    r = shmem_fcollect(team, N##_fd[ti], N##_fs[ti], 2);                                          \
    bad = 0;                                                                                      \
    for (int j = 0; j < tn; j++)                                                                  \
      for (int k = 0; k < 2; k++) bad |= N##_fd[ti][2 * j + k] != (T)V(j, 1, k);                  \
    BH_CHECK(r == 0 && !bad, "team %d: shmem_fcollect(%s) ret %d%s", ti, tname, r,                \
             bad ? ", dest wrong" : "");                                                          \
    /* alltoall: block j of my source goes to PE j */                                             \
    for (int j = 0; j < tn; j++)                                                                  \
      for (int k = 0; k < 2; k++) N##_xs[ti][2 * j + k] = (T)V(me, j, k);                         \
    r = shmem_alltoall(team, N##_xd[ti], N##_xs[ti], 2);                                          \
    bad = 0;                                                                                      \
    for (int j = 0; j < tn; j++)                                                                  \
      for (int k = 0; k < 2; k++) bad |= N##_xd[ti][2 * j + k] != (T)V(j, me, k);                 \
    BH_CHECK(r == 0 && !bad, "team %d: shmem_alltoall(%s) ret %d%s", ti, tname, r,                \
             bad ? ", dest wrong" : "");                                                          \
    /* alltoalls: nelems 1, dst 2, sst 3 */                                                       \
    for (int j = 0; j < tn; j++) N##_ss[ti][3 * j] = (T)V(me, j, 2);                              \
    r = shmem_alltoalls(team, N##_sd[ti], N##_ss[ti], 2, 3, 1);                                   \
    bad = 0;                                                                                      \
    for (int j = 0; j < tn; j++) bad |= N##_sd[ti][2 * j] != (T)V(j, me, 2);                      \
    BH_CHECK(r == 0 && !bad, "team %d: shmem_alltoalls(%s) ret %d%s", ti, tname, r,               \
             bad ? ", dest wrong" : "");                                                          \
  }

/* Types of the reduction table for MAX/MIN/SUM/PROD (every distinct C type, plus aliases). */
DEF_RED_ARITH(char, char)
DEF_RED_ARITH(signed char, schar)
DEF_RED_ARITH(short, short)
DEF_RED_ARITH(int, int)
DEF_RED_ARITH(long, long)
DEF_RED_ARITH(long long, longlong)
DEF_RED_ARITH(ptrdiff_t, ptrdiff)
DEF_RED_ARITH(unsigned char, uchar)
DEF_RED_ARITH(unsigned short, ushort)
DEF_RED_ARITH(unsigned int, uint)
DEF_RED_ARITH(unsigned long, ulong)
DEF_RED_ARITH(unsigned long long, ulonglong)
DEF_RED_ARITH(int8_t, int8)
DEF_RED_ARITH(int16_t, int16)
DEF_RED_ARITH(int32_t, int32)
DEF_RED_ARITH(int64_t, int64)
DEF_RED_ARITH(uint8_t, uint8)
DEF_RED_ARITH(uint16_t, uint16)
DEF_RED_ARITH(uint32_t, uint32)
DEF_RED_ARITH(uint64_t, uint64)
DEF_RED_ARITH(size_t, size)
DEF_RED_ARITH(float, float)
DEF_RED_ARITH(double, double)
DEF_RED_ARITH(long double, longdouble)
/* Types of the reduction table for AND/OR/XOR. */
DEF_RED_BIT(unsigned char, uchar)
DEF_RED_BIT(unsigned short, ushort)
DEF_RED_BIT(unsigned int, uint)
DEF_RED_BIT(unsigned long, ulong)
DEF_RED_BIT(unsigned long long, ulonglong)
DEF_RED_BIT(int8_t, int8)
DEF_RED_BIT(int16_t, int16)
DEF_RED_BIT(int32_t, int32)
DEF_RED_BIT(int64_t, int64)
DEF_RED_BIT(uint8_t, uint8)
DEF_RED_BIT(uint16_t, uint16)
DEF_RED_BIT(uint32_t, uint32)
DEF_RED_BIT(uint64_t, uint64)
DEF_RED_BIT(size_t, size)
/* Standard RMA types for the data-movement collectives (every distinct C type + aliases). */
DEF_MOVE(char, char)
DEF_MOVE(signed char, schar)
DEF_MOVE(short, short)
DEF_MOVE(int, int)
DEF_MOVE(long, long)
DEF_MOVE(long long, longlong)
DEF_MOVE(unsigned char, uchar)
DEF_MOVE(unsigned short, ushort)
DEF_MOVE(unsigned int, uint)
DEF_MOVE(unsigned long, ulong)
DEF_MOVE(unsigned long long, ulonglong)
DEF_MOVE(float, float)
DEF_MOVE(double, double)
DEF_MOVE(long double, longdouble)
DEF_MOVE(int8_t, int8)
DEF_MOVE(uint64_t, uint64)
DEF_MOVE(size_t, size)
DEF_MOVE(ptrdiff_t, ptrdiff)

static void all_collectives(int ti, shmem_team_t t) {
  red_arith_char(ti, t); red_arith_schar(ti, t); red_arith_short(ti, t); red_arith_int(ti, t);
  red_arith_long(ti, t); red_arith_longlong(ti, t); red_arith_ptrdiff(ti, t);
  red_arith_uchar(ti, t); red_arith_ushort(ti, t); red_arith_uint(ti, t); red_arith_ulong(ti, t);
  red_arith_ulonglong(ti, t); red_arith_int8(ti, t); red_arith_int16(ti, t);
  red_arith_int32(ti, t); red_arith_int64(ti, t); red_arith_uint8(ti, t); red_arith_uint16(ti, t);
  red_arith_uint32(ti, t); red_arith_uint64(ti, t); red_arith_size(ti, t); red_arith_float(ti, t);
  red_arith_double(ti, t); red_arith_longdouble(ti, t);
  red_bit_uchar(ti, t); red_bit_ushort(ti, t); red_bit_uint(ti, t); red_bit_ulong(ti, t);
  red_bit_ulonglong(ti, t); red_bit_int8(ti, t); red_bit_int16(ti, t); red_bit_int32(ti, t);
  red_bit_int64(ti, t); red_bit_uint8(ti, t); red_bit_uint16(ti, t); red_bit_uint32(ti, t);
  red_bit_uint64(ti, t); red_bit_size(ti, t);
  move_char(ti, t); move_schar(ti, t); move_short(ti, t); move_int(ti, t); move_long(ti, t);
  move_longlong(ti, t); move_uchar(ti, t); move_ushort(ti, t); move_uint(ti, t);
  move_ulong(ti, t); move_ulonglong(ti, t); move_float(ti, t); move_double(ti, t);
  move_longdouble(ti, t); move_int8(ti, t); move_uint64(ti, t); move_size(ti, t);
  move_ptrdiff(ti, t);
}

static long pSync_world[SHMEM_BARRIER_SYNC_SIZE], pSync_even[SHMEM_BARRIER_SYNC_SIZE];
static int cnt[6];

int main(void) {
  bh_start();
  const int me = bh_me, n = bh_npes;
  if (n > MAXPE) bh_skip("written for at most 4 PEs (values must fit a char)");
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
    pSync_world[i] = pSync_even[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();

  /* Team 0: SHMEM_TEAM_WORLD. */
  all_collectives(0, SHMEM_TEAM_WORLD);

  /* Team 1: the even PEs (team-relative numbering, root = last even PE). */
  shmem_team_t even = SHMEM_TEAM_INVALID;
  int ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
  BH_CHECK(ret == 0, "split of the even PEs returned %d", ret);
  if (even != SHMEM_TEAM_INVALID) all_collectives(1, even);

  /* shmem_sync, both spellings, each checked by AMO + quiet before it and a read after it. */
  shmem_int_atomic_inc(&cnt[0], 0);
  shmem_quiet();
  shmem_sync(0, 0, n, pSync_world); /* deprecated active-set form: all PEs */
  if (me == 0) {
    int c = shmem_int_atomic_fetch(&cnt[0], 0);
    BH_CHECK(c == n, "after shmem_sync(0, 0, %d, pSync): counter %d, want %d", n, c, n);
  }
  shmem_int_atomic_inc(&cnt[1], 0);
  shmem_quiet();
  int rs = shmem_sync(SHMEM_TEAM_WORLD); /* C11 team form */
  BH_CHECK(rs == 0, "shmem_sync(SHMEM_TEAM_WORLD) returned %d", rs);
  if (me == 0) {
    int c = shmem_int_atomic_fetch(&cnt[1], 0);
    BH_CHECK(c == n, "after shmem_sync(SHMEM_TEAM_WORLD): counter %d, want %d", c, n);
  }
  if (me % 2 == 0) {
    int en = (n + 1) / 2;
    shmem_int_atomic_inc(&cnt[2], 0);
    shmem_quiet();
    shmem_sync(0, 1, en, pSync_even); /* active set: PEs 0, 2, 4, ... */
    if (me == 0) {
      int c = shmem_int_atomic_fetch(&cnt[2], 0);
      BH_CHECK(c == en, "after shmem_sync(0, 1, %d, pSync): counter %d, want %d", en, c, en);
    }
    if (even != SHMEM_TEAM_INVALID) {
      shmem_int_atomic_inc(&cnt[3], 0);
      shmem_quiet();
      rs = shmem_sync(even);
      BH_CHECK(rs == 0, "shmem_sync(even) returned %d", rs);
      if (me == 0) {
        int c = shmem_int_atomic_fetch(&cnt[3], 0);
        BH_CHECK(c == en, "after shmem_sync(even): counter %d, want %d", c, en);
      }
    }
  }
  /* The two spellings again, back to back, on all PEs. */
  shmem_sync(0, 0, n, pSync_world);
  rs = shmem_sync(SHMEM_TEAM_WORLD);
  BH_CHECK(rs == 0, "second shmem_sync(SHMEM_TEAM_WORLD) returned %d", rs);
  BH_CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "shmem_team_sync(SHMEM_TEAM_WORLD) failed");

  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  shmem_barrier_all();
  return bh_finish();
}
