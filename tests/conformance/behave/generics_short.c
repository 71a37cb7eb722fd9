/* generics_short: the C11 type-generic point-to-point synchronization interfaces
 * (shmem_wait_until, shmem_wait_until_all/_any/_some and their _vector forms, shmem_test and
 * shmem_test_all/_any/_some and their _vector forms) accept short and unsigned short ivars and
 * every other point-to-point synchronization type, and give the right results. Build with
 * -std=c11.
 *
 * OpenSHMEM 1.5, point-to-point synchronization introduction:
 *   "Where appropriate compiler support is available, OpenSHMEM provides type-generic
 *    point-to-point synchronization interfaces via C11 generic selection. Such type-generic
 *    routines are supported for the "point-to-point synchronization types" identified in
 *    Table [p2psynctypes]."
 *   Table p2psynctypes: short, int, long, long long, unsigned short, unsigned int, unsigned long,
 *    unsigned long long, int32_t, int64_t, uint32_t, uint64_t, size_t, ptrdiff_t.
 * Each routine's C11 synopsis, e.g. shmem_wait_until_any:
 *   "size_t shmem_wait_until_any(TYPE *ivars, size_t nelems, const int *status, int cmp,
 *    TYPE cmp_value); where TYPE is one of the point-to-point synchronization types specified by
 *    Table [p2psynctypes]."
 * Deprecation (1.5): "Deprecated short and unsigned short variants for shmem_wait_until and
 *   shmem_test" and "Deprecated point-to-point synchronization types and names" -- deprecated,
 *   not removed: "The deprecated API must be supported until clearly indicated as otherwise by
 *   the Specification." (deprecation table: last version supported "Current").
 * Results checked against the routine texts:
 *   shmem_test: "returns 1 if the comparison ... evaluates to true; otherwise, it returns 0."
 *   shmem_test_any: "returns the index of an element in the ivars array that satisfies the test
 *     condition. If the test set is empty or no conditions in the test set are satisfied, this
 *     routine returns SIZE_MAX."
 *   shmem_test_some: "the indices array contains the indices of the elements in the test set
 *     that satisfied the test condition during the call ... The return value ... is equal to the
 *     total number of these satisfied elements." (A call may report a subset -- "a series of
 *     calls ... must eventually include i" -- so counts are checked as ranges.)
 *   status: "Elements of status set to 0 will be included in the test set, and elements set to 1
 *     will be ignored." "If status is a null pointer, it is ignored".
 * Remote updates: "ivar arguments ... must be updated using OpenSHMEM AMOs" (1.5 changelog) -- so
 * the cross-PE check uses shmem_atomic_set and is done only for types that have AMOs; short and
 * unsigned short ivars are set by the calling PE itself (there is no short AMO).
 *
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "generics_short"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stddef.h>
#include <stdint.h>

static int valid_indices(const char *ctx, const size_t *idx, size_t cnt, const int *want_set,
                         size_t nelems) {
  int seen[8] = {0};
  for (size_t k = 0; k < cnt; k++) {
    if (idx[k] >= nelems || !want_set[idx[k]] || seen[idx[k]]) {
      bh_fail("%s: index list entry %zu = %zu is not a distinct satisfied index", ctx, k, idx[k]);
      return 0;
    }
    seen[idx[k]] = 1;
  }
  return 1;
}

/* The checks for one type: ivars = {1, 5, 1, 5}, set by this PE. */
#define DEF_LOCAL(T, N)                                                                          \
  static T N##_iv[4];                                                                            \
  static void test_local_##N(void) {                                                             \
    const char *tn = #T;                                                                         \
    T *iv = N##_iv;                                                                              \
    T cv[4] = {(T)1, (T)5, (T)1, (T)5};                                                          \
    T cv1[4] = {(T)0, (T)5, (T)0, (T)0};                                                         \
    const int five[4] = {0, 1, 0, 1}, all4[4] = {1, 1, 1, 1};                                   \
    int st_not_odd[4] = {0, 1, 0, 1}, st_only3[4] = {1, 1, 1, 0}, st_only2[4] = {1, 1, 0, 1};   \
    size_t idx[4];                                                                               \
    size_t r;                                                                                    \
    char ctx[96];                                                                                \
    iv[0] = (T)1; iv[1] = (T)5; iv[2] = (T)1; iv[3] = (T)5;                                      \
    /* shmem_test */                                                                             \
    BH_CHECK(shmem_test(&iv[0], SHMEM_CMP_EQ, (T)1) == 1, "%s: shmem_test EQ 1 != 1", tn);        \
    BH_CHECK(shmem_test(&iv[0], SHMEM_CMP_NE, (T)1) == 0, "%s: shmem_test NE 1 != 0", tn);        \
    BH_CHECK(shmem_test(&iv[1], SHMEM_CMP_GT, (T)4) == 1, "%s: shmem_test GT 4 != 1", tn);        \
    BH_CHECK(shmem_test(&iv[1], SHMEM_CMP_LT, (T)5) == 0, "%s: shmem_test LT 5 != 0", tn);        \
    BH_CHECK(shmem_test(&iv[1], SHMEM_CMP_LE, (T)5) == 1, "%s: shmem_test LE 5 != 1", tn);        \
    BH_CHECK(shmem_test(&iv[1], SHMEM_CMP_GE, (T)6) == 0, "%s: shmem_test GE 6 != 0", tn);        \
    /* shmem_wait_until (condition already true: returns at once) */                             \
    shmem_wait_until(&iv[1], SHMEM_CMP_EQ, (T)5);                                                \
    shmem_wait_until(&iv[0], SHMEM_CMP_LT, (T)2);                                                \
    /* _all */                                                                                   \
    shmem_wait_until_all(iv, 4, NULL, SHMEM_CMP_GE, (T)1);                                       \
    shmem_wait_until_all(iv, 4, st_not_odd, SHMEM_CMP_EQ, (T)1);                                 \
    BH_CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_GE, (T)1) == 1, "%s: test_all GE 1 != 1", tn); \
    BH_CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_GT, (T)1) == 0, "%s: test_all GT 1 != 0", tn); \
    BH_CHECK(shmem_test_all(iv, 4, st_not_odd, SHMEM_CMP_EQ, (T)1) == 1,                         \
             "%s: test_all with status (EQ 1 on 0, 2) != 1", tn);                                \
    /* _any */                                                                                   \
    r = shmem_wait_until_any(iv, 4, st_only3, SHMEM_CMP_EQ, (T)5);                               \
    BH_CHECK(r == 3, "%s: wait_until_any(status = only 3) = %zu, want 3", tn, r);                \
    r = shmem_test_any(iv, 4, NULL, SHMEM_CMP_GT, (T)1);                                         \
    BH_CHECK(r == 1 || r == 3, "%s: test_any GT 1 = %zu, want 1 or 3", tn, r);                   \
    r = shmem_test_any(iv, 4, NULL, SHMEM_CMP_GT, (T)5);                                         \
    BH_CHECK(r == SIZE_MAX, "%s: test_any GT 5 = %zu, want SIZE_MAX", tn, r);                    \
    r = shmem_test_any(iv, 4, st_only2, SHMEM_CMP_EQ, (T)1);                                     \
    BH_CHECK(r == 2, "%s: test_any(status = only 2) = %zu, want 2", tn, r);                      \
    /* _some */                                                                                  \
    r = shmem_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_EQ, (T)5);                            \
    snprintf(ctx, sizeof ctx, "%s: wait_until_some EQ 5", tn);                                   \
    BH_CHECK(r >= 1 && r <= 2, "%s returned %zu, want 1 or 2", ctx, r);                          \
    if (r >= 1 && r <= 2) valid_indices(ctx, idx, r, five, 4);                                   \
    r = shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_EQ, (T)5);                                   \
    snprintf(ctx, sizeof ctx, "%s: test_some EQ 5", tn);                                         \
    BH_CHECK(r >= 1 && r <= 2, "%s returned %zu, want 1 or 2", ctx, r);                          \
    if (r >= 1 && r <= 2) valid_indices(ctx, idx, r, five, 4);                                   \
    r = shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_GT, (T)5);                                   \
    BH_CHECK(r == 0, "%s: test_some GT 5 = %zu, want 0", tn, r);                                 \
    /* _vector forms */                                                                          \
    shmem_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, cv);                                  \
    BH_CHECK(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, cv) == 1,                          \
             "%s: test_all_vector EQ {1,5,1,5} != 1", tn);                                       \
    BH_CHECK(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_NE, cv) == 0,                          \
             "%s: test_all_vector NE {1,5,1,5} != 0", tn);                                       \
    r = shmem_wait_until_any_vector(iv, 4, st_only2, SHMEM_CMP_EQ, cv);                          \
    BH_CHECK(r == 2, "%s: wait_until_any_vector(status = only 2) = %zu, want 2", tn, r);         \
    r = shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, cv1);                                   \
    BH_CHECK(r == 1, "%s: test_any_vector EQ {0,5,0,0} = %zu, want 1", tn, r);                   \
    r = shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_LT, cv1);                                   \
    BH_CHECK(r == SIZE_MAX, "%s: test_any_vector LT {0,5,0,0} = %zu, want SIZE_MAX", tn, r);     \
    r = shmem_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, cv);                        \
    snprintf(ctx, sizeof ctx, "%s: wait_until_some_vector EQ {1,5,1,5}", tn);                    \
    BH_CHECK(r >= 1 && r <= 4, "%s returned %zu, want 1..4", ctx, r);                            \
    if (r >= 1 && r <= 4) valid_indices(ctx, idx, r, all4, 4);                                   \
    r = shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, cv);                              \
    snprintf(ctx, sizeof ctx, "%s: test_some_vector EQ {1,5,1,5}", tn);                          \
    BH_CHECK(r >= 1 && r <= 4, "%s returned %zu, want 1..4", ctx, r);                            \
    if (r >= 1 && r <= 4) valid_indices(ctx, idx, r, all4, 4);                                   \
    r = shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, cv1);                             \
    snprintf(ctx, sizeof ctx, "%s: test_some_vector EQ {0,5,0,0}", tn);                          \
    BH_CHECK(r == 1 && idx[0] == 1, "%s returned %zu (idx[0] %zu), want 1 (1)", ctx, r, idx[0]); \
  }

/* For types with AMOs: the left neighbour sets my ivar with shmem_atomic_set; after a barrier
 * (which completes it) the wait returns at once and the tests see the value. */
#define DEF_CROSS(T, N)                                                                          \
  static T N##_x;                                                                                \
  static void test_cross_##N(void) {                                                             \
    const int right = (bh_me + 1) % bh_npes, left = (bh_me - 1 + bh_npes) % bh_npes;           \
    N##_x = (T)0;                                                                                \
    shmem_barrier_all();                                                                         \
    shmem_atomic_set(&N##_x, (T)(bh_me + 3), right);                                             \
    shmem_barrier_all();                                                                         \
    shmem_wait_until(&N##_x, SHMEM_CMP_EQ, (T)(left + 3));                                       \
    BH_CHECK(shmem_test(&N##_x, SHMEM_CMP_EQ, (T)(left + 3)) == 1,                               \
             "%s: value set by PE %d's shmem_atomic_set not seen", #T, left);                    \
    shmem_barrier_all();                                                                         \
  }

DEF_LOCAL(short, short)
DEF_LOCAL(unsigned short, ushort)
DEF_LOCAL(int, int)
DEF_LOCAL(long, long)
DEF_LOCAL(long long, longlong)
DEF_LOCAL(unsigned int, uint)
DEF_LOCAL(unsigned long, ulong)
DEF_LOCAL(unsigned long long, ulonglong)
DEF_LOCAL(int32_t, int32)
DEF_LOCAL(int64_t, int64)
DEF_LOCAL(uint32_t, uint32)
DEF_LOCAL(uint64_t, uint64)
DEF_LOCAL(size_t, size)
DEF_LOCAL(ptrdiff_t, ptrdiff)

DEF_CROSS(int, int)
DEF_CROSS(long, long)
DEF_CROSS(long long, longlong)
DEF_CROSS(unsigned int, uint)
DEF_CROSS(unsigned long, ulong)
DEF_CROSS(unsigned long long, ulonglong)
DEF_CROSS(int32_t, int32)
DEF_CROSS(int64_t, int64)
DEF_CROSS(uint32_t, uint32)
DEF_CROSS(uint64_t, uint64)
DEF_CROSS(size_t, size)
DEF_CROSS(ptrdiff_t, ptrdiff)

int main(void) {
  bh_start();
  test_local_short();
  test_local_ushort();
  test_local_int();
  test_local_long();
  test_local_longlong();
  test_local_uint();
  test_local_ulong();
  test_local_ulonglong();
  test_local_int32();
  test_local_int64();
  test_local_uint32();
  test_local_uint64();
  test_local_size();
  test_local_ptrdiff();
  test_cross_int();
  test_cross_long();
  test_cross_longlong();
  test_cross_uint();
  test_cross_ulong();
  test_cross_ulonglong();
  test_cross_int32();
  test_cross_int64();
  test_cross_uint32();
  test_cross_uint64();
  test_cross_size();
  test_cross_ptrdiff();
  return bh_finish();
}
