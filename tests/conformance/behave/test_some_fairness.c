/* test_some_fairness: with a NULL status array and several ivars satisfying the condition,
 * repeated shmem_test_some (and shmem_test_some_vector, shmem_wait_until_some,
 * shmem_wait_until_some_vector) must eventually include every satisfied index in the indices
 * array, within a bounded number of calls; each returned list holds distinct satisfied indices,
 * and test_some's count equals the number of satisfied elements it found. Also the
 * specification's shmem_test_some example pattern (remote flags, status array, bounded).
 *
 * OpenSHMEM 1.5, shmem_test_some:
 *   "Upon return, the indices array contains the indices of the elements in the test set that
 *    satisfied the test condition during the call to shmem_test_some. The return value of
 *    shmem_test_some is equal to the total number of these satisfied elements. If the return
 *    value is N, then the first N elements of the indices array contain those unique indices
 *    that satisfied the test condition."
 *   "If an entry i in ivars within the test set satisfies the test condition, a series of calls
 *    to shmem_test_some must eventually include i in the indices array."
 *   "If status is a null pointer, it is ignored and all elements in ivars are included in the
 *    test set."
 *   Return values: "shmem_test_some returns the number of indices returned in the indices array.
 *    If the test set is empty, this routine returns 0."
 * shmem_test_some_vector / shmem_wait_until_some / shmem_wait_until_some_vector carry the same
 *   "a series of calls ... must eventually include i in the indices array" sentence.
 * shmem_test_some example (C11): like the shmem_test_any example ("This pattern is similar to
 *   the shmem_test_any example above, but each while loop iteration may process more than one
 *   data item"): loop until every flag was reported, marking reported ones in status.
 * "Eventually" is made finite with a cap; reaching it is a FAIL. (A single call is not required
 * to report every satisfied element -- the "eventually" sentence allows a subset per call -- so
 * only distinctness, validity and eventual coverage are checked.) ivars are updated only by AMOs.
 *
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "test_some_fairness"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stdint.h>
#include <time.h>

#define NIV 8
#define CAP 100000L
static int ivars[NIV];
static const int satisfied[NIV] = {1, 0, 0, 1, 0, 1, 1, 0}; /* indices 0, 3, 5, 6 */
#define NSAT 4

/* EXACT: the call must report every satisfied element (not used: the text allows a subset). */
#define FAIRNESS_LOOP(WHAT, CALL, EXACT)                                                       \
  do {                                                                                         \
    int seen[NIV] = {0}, nseen = 0, wrong = 0;                                                 \
    long calls = 0;                                                                            \
    size_t idx[NIV];                                                                           \
    while (nseen < NSAT && calls < CAP && !wrong) {                                            \
      for (int q = 0; q < NIV; q++) idx[q] = (size_t)-7;                                       \
      size_t r = (CALL);                                                                       \
      calls++;                                                                                 \
      if (r > NSAT || (EXACT && r != NSAT)) {                                                  \
        bh_fail("%s: call %ld returned %zu, want %s%d", WHAT, calls, r, EXACT ? "" : "<= ",   \
                NSAT);                                                                         \
        wrong = 1;                                                                             \
        break;                                                                                 \
      }                                                                                        \
      int once[NIV] = {0};                                                                     \
      for (size_t k = 0; k < r; k++) {                                                         \
        if (idx[k] >= NIV || !satisfied[idx[k]] || once[idx[k]]) {                             \
          bh_fail("%s: call %ld: indices[%zu] = %zu is not a distinct satisfied index", WHAT,  \
                  calls, k, idx[k]);                                                           \
          wrong = 1;                                                                           \
          break;                                                                               \
        }                                                                                      \
        once[idx[k]] = 1;                                                                      \
        if (!seen[idx[k]]) { seen[idx[k]] = 1; nseen++; }                                      \
      }                                                                                        \
    }                                                                                          \
    if (!wrong && nseen < NSAT)                                                                \
      bh_fail("%s: after %ld calls only %d of the %d satisfied indices were reported", WHAT,   \
              calls, nseen, NSAT);                                                             \
  } while (0)

int main(void) {
  bh_start();
  const int me = bh_me, npes = bh_npes, right = (me + 1) % npes;

  /* My left neighbour sets my satisfied ivars with AMOs; the barrier completes them. */
  for (int i = 0; i < NIV; i++)
    if (satisfied[i]) shmem_int_atomic_set(&ivars[i], 1, right);
  shmem_barrier_all();

  int one[NIV];
  for (int i = 0; i < NIV; i++) one[i] = 1;

  FAIRNESS_LOOP("shmem_int_test_some(status NULL)",
                shmem_int_test_some(ivars, NIV, idx, NULL, SHMEM_CMP_EQ, 1), 0);
  FAIRNESS_LOOP("shmem_test_some(int, status NULL)",
                shmem_test_some(ivars, NIV, idx, NULL, SHMEM_CMP_EQ, 1), 0);
  FAIRNESS_LOOP("shmem_int_test_some_vector(status NULL)",
                shmem_int_test_some_vector(ivars, NIV, idx, NULL, SHMEM_CMP_EQ, one), 0);
  FAIRNESS_LOOP("shmem_int_wait_until_some(status NULL)",
                shmem_int_wait_until_some(ivars, NIV, idx, NULL, SHMEM_CMP_EQ, 1), 0);
  FAIRNESS_LOOP("shmem_int_wait_until_some_vector(status NULL)",
                shmem_int_wait_until_some_vector(ivars, NIV, idx, NULL, SHMEM_CMP_EQ, one), 0);
  FAIRNESS_LOOP("shmem_int_test_some(NE 0, status NULL)",
                shmem_int_test_some(ivars, NIV, idx, NULL, SHMEM_CMP_NE, 0), 0);
  {
    size_t idx[NIV];
    size_t r = shmem_int_test_some(ivars, NIV, idx, NULL, SHMEM_CMP_GT, 1);
    BH_CHECK(r == 0, "shmem_int_test_some(GT 1) returned %zu, want 0", r);
    int all_out[NIV];
    for (int i = 0; i < NIV; i++) all_out[i] = 1;
    r = shmem_int_test_some(ivars, NIV, idx, all_out, SHMEM_CMP_EQ, 1);
    BH_CHECK(r == 0, "shmem_int_test_some(every element excluded) returned %zu, want 0", r);
  }

  /* The example pattern: every PE sets its flag on every PE; loop with a status mask. */
  shmem_barrier_all();
  int *flags = (int *)shmem_calloc((size_t)npes, sizeof(int));
  int *status = (int *)calloc((size_t)npes, sizeof(int));
  size_t *indices = (size_t *)malloc((size_t)npes * sizeof(size_t));
  BH_CHECK(flags && status && indices, "allocation failed");
  if (flags && status && indices) {
    for (int i = 0; i < npes; i++) shmem_atomic_set(&flags[me], 1, i);
    int ncompleted = 0;
    long calls = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
      if (ncompleted >= npes) break;
      if ((calls & 1023) == 0) { /* the flags come from other PEs: bound the loop by time */
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (t1.tv_sec - t0.tv_sec > 15) break;
      }
      size_t c = shmem_test_some(flags, (size_t)npes, indices, status, SHMEM_CMP_EQ, 1);
      calls++;
      for (size_t k = 0; k < c; k++) {
        if (indices[k] >= (size_t)npes || status[indices[k]]) {
          bh_fail("spec example: test_some reported %zu (excluded or out of range)", indices[k]);
          ncompleted = npes + 1;
          break;
        }
        status[indices[k]] = 1;
        ncompleted++;
      }
    }
    BH_CHECK(ncompleted == npes, "spec example: %d of %d flags reported after %ld calls",
             ncompleted, npes, calls);
  }
  shmem_barrier_all();
  free(status);
  free(indices);
  if (flags) shmem_free(flags);
  return bh_finish();
}
