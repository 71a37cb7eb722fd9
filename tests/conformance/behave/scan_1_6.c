/* scan_1_6: the scans OpenSHMEM 1.6 added -- shmem_TYPENAME_sum_inscan / shmem_TYPENAME_sum_exscan
 * and the C11 generic shmem_sum_inscan / shmem_sum_exscan -- over TEAM_WORLD and over a strided
 * team, out of place and in place, for integer, real and complex types. Build with -std=c11.
 *
 * OpenSHMEM 1.6, shmem_scan: "For shmem_sum_inscan, the value of the j-th element in the dest
 *   array on PE i is defined as: dest_{i,j} = sum_{k=0}^{i} source_{k,j}". "For
 *   shmem_sum_exscan ... dest_{i,j} = sum_{k=0}^{i-1} source_{k,j} if i != 0, 0 if i = 0".
 *   "The dest and source arguments must either be the same symmetric address, or two different
 *   symmetric addresses corresponding to buffers that do not overlap in memory." "Team-based scan
 *   routines operate over all PEs in the provided team argument." Return: "Zero on successful
 *   local completion." PE i is the PE's number in the team.
 *
 * Every payload is fresh (a seed PE 0 draws from the clock, shared through shmem_g) and every
 * destination poisoned. Real and complex payloads are small integers, so every sum is exact in
 * any order. Sizes: 1, 37 and 1000 elements (more elements than PEs, so the work splits), and 0
 * (dest untouched). PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "scan_1_6"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <complex.h>
#include <stdint.h>
#include <time.h>

#define MAXN 1000
#define POISON 0x5a

static uint64_t seed, seed_sym;
static int isrc[MAXN], idst[MAXN];
static long lsrc[MAXN], ldst[MAXN];
static double dsrc[MAXN], ddst[MAXN];
static size_t zsrc[MAXN], zdst[MAXN];
static unsigned char usrc[MAXN], udst[MAXN];
static long double qsrc[MAXN], qdst[MAXN];
static float _Complex csrc[MAXN], cdst[MAXN];

/* What world PE pe holds at index i of its sources in round r. */
static uint64_t val(int pe, int r, int i) { return bh_mix(seed ^ ((uint64_t)pe << 40) ^ ((uint64_t)r << 20) ^ (uint64_t)i); }

static void fill(int r) {
  memset(idst, POISON, sizeof idst), memset(ldst, POISON, sizeof ldst), memset(ddst, POISON, sizeof ddst);
  memset(zdst, POISON, sizeof zdst), memset(udst, POISON, sizeof udst), memset(qdst, POISON, sizeof qdst);
  memset(cdst, POISON, sizeof cdst);
  for (int i = 0; i < MAXN; i++) {
    uint64_t v = val(bh_me, r, i);
    isrc[i] = (int)v;
    lsrc[i] = (long)v;
    dsrc[i] = (double)(v & 0xfffff);
    zsrc[i] = (size_t)v;
    usrc[i] = (unsigned char)v;
    qsrc[i] = (long double)(v & 0xffff);
    csrc[i] = (float)(v & 0x3ff) + (float)((v >> 10) & 0x3ff) * I;
  }
}

/* The members of the team, in team order (world PE numbers). */
static int members[64], nmembers, myidx;

/* Checks type T's dest against the prefix over members up to (exclusive: below) myidx. UNSIGNED
 * arithmetic wraps as the C types do, so the expected values are computed in the same types. */
#define CHECK_PREFIX(T, DST, CONV, FMT, PRINT)                                                      \
  static void check_##DST(const char *what, int r, int n, int exclusive) {                          \
    for (int i = 0; i < MAXN; i++) {                                                                \
      T got = DST[i];                                                                               \
      if (i >= n) {                                                                                 \
        T poison;                                                                                   \
        memset(&poison, POISON, sizeof poison);                                                     \
        BH_CHECK(memcmp(&DST[i], &poison, sizeof poison) == 0, /* the bytes, padding included */    \
                 "%s n=%d: " #DST "[%d] past nelems changed", what, n, i);                          \
        continue;                                                                                   \
      }                                                                                             \
      T want = 0;                                                                                   \
      int last = exclusive ? myidx - 1 : myidx;                                                     \
      for (int k = 0; k <= last; k++) want = (T)(want + CONV(val(members[k], r, i)));               \
      BH_CHECK(got == want, "%s n=%d: " #DST "[%d] = " FMT ", want " FMT, what, n, i, PRINT(got), PRINT(want)); \
    }                                                                                               \
  }
#define C_INT(v) ((int)(v))
#define C_LONG(v) ((long)(v))
#define C_DBL(v) ((double)((v) & 0xfffff))
#define C_SZ(v) ((size_t)(v))
#define C_UC(v) ((unsigned char)(v))
#define C_LD(v) ((long double)((v) & 0xffff))
#define C_CPX(v) ((float)((v) & 0x3ff) + (float)(((v) >> 10) & 0x3ff) * I)
#define P_SAME(x) (x)
#define P_LD(x) ((double)(x))
#define P_CPX(x) ((double)crealf(x) + 1e6 * (double)cimagf(x))
CHECK_PREFIX(int, idst, C_INT, "%d", P_SAME)
CHECK_PREFIX(long, ldst, C_LONG, "%ld", P_SAME)
CHECK_PREFIX(double, ddst, C_DBL, "%g", P_SAME)
CHECK_PREFIX(size_t, zdst, C_SZ, "%zu", P_SAME)
CHECK_PREFIX(unsigned char, udst, C_UC, "%d", P_SAME)
CHECK_PREFIX(long double, qdst, C_LD, "%g", P_LD)
CHECK_PREFIX(float _Complex, cdst, C_CPX, "%g", P_CPX)

static int round_no;

/* One round over team for n elements: every type, inclusive then exclusive, each through one of
 * the interfaces (typed, generic), out of place; then in place (dest == source) for long. */
static void scans(shmem_team_t team, int n) {
  for (int exclusive = 0; exclusive <= 1; exclusive++) {
    const int r = ++round_no;
    fill(r);
    shmem_barrier_all(); /* no member overwrites a dest another still checks */
    int rc = 0;
    if (!exclusive) {
      rc |= shmem_int_sum_inscan(team, idst, isrc, (size_t)n);
      rc |= shmem_sum_inscan(team, ldst, lsrc, (size_t)n); /* C11 generic */
      rc |= shmem_double_sum_inscan(team, ddst, dsrc, (size_t)n);
      rc |= shmem_size_sum_inscan(team, zdst, zsrc, (size_t)n);
      rc |= shmem_sum_inscan(team, udst, usrc, (size_t)n);
      rc |= shmem_longdouble_sum_inscan(team, qdst, qsrc, (size_t)n);
      rc |= shmem_sum_inscan(team, cdst, csrc, (size_t)n);
    } else {
      rc |= shmem_sum_exscan(team, idst, isrc, (size_t)n);
      rc |= shmem_long_sum_exscan(team, ldst, lsrc, (size_t)n);
      rc |= shmem_sum_exscan(team, ddst, dsrc, (size_t)n);
      rc |= shmem_sum_exscan(team, zdst, zsrc, (size_t)n);
      rc |= shmem_uchar_sum_exscan(team, udst, usrc, (size_t)n);
      rc |= shmem_sum_exscan(team, qdst, qsrc, (size_t)n);
      rc |= shmem_complexf_sum_exscan(team, cdst, csrc, (size_t)n);
    }
    BH_CHECK(rc == 0, "scans (exclusive %d, n %d) returned nonzero", exclusive, n);
    const char *w = exclusive ? "exscan" : "inscan";
    check_idst(w, r, n, exclusive);
    check_ldst(w, r, n, exclusive);
    check_ddst(w, r, n, exclusive);
    check_zdst(w, r, n, exclusive);
    check_udst(w, r, n, exclusive);
    check_qdst(w, r, n, exclusive);
    check_cdst(w, r, n, exclusive);

    /* in place: the result replaces the source on every member */
    const int r2 = ++round_no;
    fill(r2);
    memcpy(ldst, lsrc, sizeof ldst);
    memset(ldst + n, POISON, sizeof ldst - (size_t)n * sizeof ldst[0]);
    shmem_barrier_all();
    rc = exclusive ? shmem_long_sum_exscan(team, ldst, ldst, (size_t)n) : shmem_long_sum_inscan(team, ldst, ldst, (size_t)n);
    BH_CHECK(rc == 0, "in-place scan returned nonzero");
    check_ldst(exclusive ? "in-place exscan" : "in-place inscan", r2, n, exclusive);
  }
}

int main(void) {
  bh_start();
  if (bh_me == 0) seed_sym = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)clock();
  shmem_barrier_all();
  seed = shmem_uint64_g(&seed_sym, 0);

  const int sizes[] = {1, 37, MAXN, 0};
  nmembers = bh_npes;
  for (int k = 0; k < bh_npes; k++) members[k] = k;
  myidx = bh_me;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) scans(SHMEM_TEAM_WORLD, sizes[s]);

  /* A team whose numbering differs from the world's: the PEs from 1 on with stride 2 (PE 1, 3, ...;
   * with one PE, the world again). Its members scan in team order; the others wait. */
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  const int start = bh_npes > 1 ? 1 : 0, size = bh_npes > 1 ? bh_npes / 2 : 1;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &odd);
  nmembers = size;
  for (int k = 0; k < size; k++) members[k] = start + 2 * k;
  myidx = odd == SHMEM_TEAM_INVALID ? -1 : shmem_team_my_pe(odd);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    if (odd != SHMEM_TEAM_INVALID) {
      scans(odd, sizes[s]);
    } else { /* keep the world barriers inside scans() matched */
      for (int b = 0; b < 4; b++) {
        ++round_no;
        shmem_barrier_all();
      }
    }
  }
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  return bh_finish();
}
