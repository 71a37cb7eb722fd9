/* test_any_fairness: with a NULL status array and several ivars satisfying the condition,
 * repeated shmem_test_any (and shmem_test_any_vector, shmem_wait_until_any,
 * shmem_wait_until_any_vector) must not keep returning the same index: every satisfied index must
 * come back within a bounded number of calls. Also runs the specification's own shmem_test_any
 * example loop (status array, each PE's flag set remotely) with an iteration cap.
 *
 * OpenSHMEM 1.5, shmem_test_any:
 *   "The order in which these elements are tested is unspecified. If an entry i in ivars within
 *    the test set satisfies the test condition, a series of calls to shmem_test_any must
 *    eventually return i."
 *   "If status is a null pointer, it is ignored and all elements in ivars are included in the
 *    test set."
 *   Return values: "shmem_test_any returns the index of an element in the ivars array that
 *    satisfies the test condition. If the test set is empty or no conditions in the test set are
 *    satisfied, this routine returns SIZE_MAX."
 * shmem_test_any_vector: "If an entry i in ivars within the test set satisfies the test
 *   condition, a series of calls to shmem_test_any_vector must eventually return i."
 * shmem_wait_until_any (and _vector): "If an entry i in ivars within the wait set satisfies the
 *   wait condition, a series of calls to shmem_wait_until_any must eventually return i."
 * shmem_test_any example (C11): every PE does shmem_atomic_set(&flags[mype], 1, i) on all PEs i,
 *   then loops "while (ncompleted < npes) { completed_idx = shmem_test_any(flags, npes, status,
 *   SHMEM_CMP_EQ, 1); if (completed_idx != SIZE_MAX) { ncompleted++; status[completed_idx] = 1;
 *   } else { [overlap some computation here] } }".
 * "Eventually" is made finite with a cap of CAP calls; reaching it is a FAIL (a correct
 * implementation that rotates, or picks at random, returns all NSAT indices far sooner).
 * ivars are updated only by AMOs (1.5: ivars "must be updated using OpenSHMEM AMOs").
 *
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "test_any_fairness"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stdint.h>
#include <time.h>

#define NIV 8
#define CAP 100000L
static int ivars[NIV];
static long livars[NIV];
static const int satisfied[NIV] = {0, 1, 0, 1, 1, 0, 0, 1}; /* indices 1, 3, 4, 7 */
#define NSAT 4

static int *flags; /* the example's flags (symmetric heap) */

static void report(const char *what, long calls, const int *seen) {
  char list[64] = "";
  size_t len = 0;
  for (int i = 0; i < NIV; i++)
    if (seen[i]) len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", len ? "," : "", i);
  bh_fail("%s: after %ld calls only indices {%s} of the satisfied {1,3,4,7} were returned", what,
          calls, list);
}

/* Drive `call` until every satisfied index was returned; fail on a wrong index or the cap. */
#define FAIRNESS_LOOP(WHAT, CALL)                                                       \
  do {                                                                                  \
    int seen[NIV] = {0}, nseen = 0;                                                     \
    long calls = 0;                                                                     \
    int wrong = 0;                                                                      \
    while (nseen < NSAT && calls < CAP) {                                               \
      size_t r = (CALL);                                                                \
      calls++;                                                                          \
      if (r >= NIV || !satisfied[r]) {                                                  \
        bh_fail("%s: call %ld returned %zu, not a satisfied index", WHAT, calls, r);    \
        wrong = 1;                                                                      \
        break;                                                                          \
      }                                                                                 \
      if (!seen[r]) { seen[r] = 1; nseen++; }                                           \
    }                                                                                   \
    if (!wrong && nseen < NSAT) report(WHAT, calls, seen);                              \
  } while (0)

int main(void) {
  bh_start();
  const int me = bh_me, npes = bh_npes, right = (me + 1) % npes;

  /* My left neighbour sets my satisfied ivars with AMOs; a barrier completes them before the
   * loops (so no call has to wait for data). */
  for (int i = 0; i < NIV; i++) {
    if (!satisfied[i]) continue;
    shmem_int_atomic_set(&ivars[i], 1, right);
    shmem_long_atomic_set(&livars[i], 1L, right);
  }
  shmem_barrier_all();

  int one_i[NIV];
  long one_l[NIV];
  for (int i = 0; i < NIV; i++) { one_i[i] = 1; one_l[i] = 1L; }

  FAIRNESS_LOOP("shmem_int_test_any(status NULL)",
                shmem_int_test_any(ivars, NIV, NULL, SHMEM_CMP_EQ, 1));
  FAIRNESS_LOOP("shmem_test_any(long, status NULL)",
                shmem_test_any(livars, NIV, NULL, SHMEM_CMP_EQ, 1L));
  FAIRNESS_LOOP("shmem_int_test_any_vector(status NULL)",
                shmem_int_test_any_vector(ivars, NIV, NULL, SHMEM_CMP_EQ, one_i));
  FAIRNESS_LOOP("shmem_test_any_vector(long, status NULL)",
                shmem_test_any_vector(livars, NIV, NULL, SHMEM_CMP_EQ, one_l));
  FAIRNESS_LOOP("shmem_int_wait_until_any(status NULL)",
                shmem_int_wait_until_any(ivars, NIV, NULL, SHMEM_CMP_EQ, 1));
  FAIRNESS_LOOP("shmem_int_wait_until_any_vector(status NULL)",
                shmem_int_wait_until_any_vector(ivars, NIV, NULL, SHMEM_CMP_EQ, one_i));
  /* a different comparison: NE 0 */
  FAIRNESS_LOOP("shmem_int_test_any(NE 0, status NULL)",
                shmem_int_test_any(ivars, NIV, NULL, SHMEM_CMP_NE, 0));

  /* The specification's example, bounded by 15 s instead of unbounded. */
  shmem_barrier_all();
  flags = (int *)shmem_calloc((size_t)npes, sizeof(int));
  int *status = (int *)calloc((size_t)npes, sizeof(int));
  BH_CHECK(flags != NULL && status != NULL, "allocation failed");
  if (flags != NULL && status != NULL) {
    for (int i = 0; i < npes; i++) shmem_atomic_set(&flags[me], 1, i);
    int ncompleted = 0;
    long calls = 0;
    size_t completed_idx;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
      if (ncompleted >= npes) break;
      if ((calls & 1023) == 0) { /* the flags come from other PEs: bound the loop by time */
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (t1.tv_sec - t0.tv_sec > 15) break;
      }
      completed_idx = shmem_test_any(flags, (size_t)npes, status, SHMEM_CMP_EQ, 1);
      calls++;
      if (completed_idx != SIZE_MAX) {
        if (completed_idx >= (size_t)npes || status[completed_idx]) {
          bh_fail("spec example: test_any returned %zu (excluded or out of range)", completed_idx);
          break;
        }
        ncompleted++;
        status[completed_idx] = 1;
      }
    }
    BH_CHECK(ncompleted == npes, "spec example: %d of %d flags seen after %ld calls", ncompleted,
             npes, calls);
    /* All excluded now: the test set is empty, SIZE_MAX. */
    size_t r = shmem_test_any(flags, (size_t)npes, status, SHMEM_CMP_EQ, 1);
    BH_CHECK(r == SIZE_MAX, "test_any with every element excluded returned %zu, want SIZE_MAX", r);
  }
  shmem_barrier_all();
  free(status);
  if (flags) shmem_free(flags);
  return bh_finish();
}
