/* team_split_invalid: shmem_team_split_strided asked for an invalid PE triplet returns nonzero
 * and leaves *new_team == SHMEM_TEAM_INVALID on every PE, and the program keeps working.
 *
 * OpenSHMEM 1.5, shmem_team_split_strided, description:
 *   "A valid triplet is one such that:
 *      start + stride * i \in Z_{N-1}  \forall i \in Z_{size-1}
 *    where Z is the set of natural numbers (0, 1, ...), N is the number of PEs in the parent
 *    team, size is a positive number indicating the number of PEs in the new team, and stride is
 *    an integer."
 *   "If the new team cannot be created or an invalid PE triplet is provided, then new_team will
 *    be assigned the value SHMEM_TEAM_INVALID and shmem_team_split_strided will return a nonzero
 *    value on all PEs in the parent team."
 *   argument size: "size must be a positive integer."
 *   Return values: "Zero on successful creation of new_team; otherwise, nonzero."
 * Teams introduction (Team Creation):
 *   "Upon completion of a team creation operation, the parent and any resulting child teams will
 *    be immediately usable for any team-based operations, including creating new child teams,
 *    without any intervening synchronization."
 *
 * Only triplets that are invalid by the definition above and are not in the cases 1.5 leaves
 * undefined or that 1.6 later declared undefined are used: every stride is positive (1.6 added
 * the stride-0 and negative-stride rules and the wrap-around rule), and no triplet wraps around
 * (every sequence is increasing and runs past N-1 or starts outside [0, N-1]).
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "team_split_invalid"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */

static int src_val, dst_val;

static void expect_invalid(const char *what, int start, int stride, int size) {
  shmem_team_t t = SHMEM_TEAM_WORLD; /* anything but SHMEM_TEAM_INVALID: the call must overwrite it */
  int ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t);
  BH_CHECK(ret != 0, "%s (start=%d stride=%d size=%d): returned 0, want nonzero", what, start,
           stride, size);
  BH_CHECK(t == SHMEM_TEAM_INVALID,
           "%s (start=%d stride=%d size=%d): *new_team is not SHMEM_TEAM_INVALID", what, start,
           stride, size);
  if (ret == 0 && t != SHMEM_TEAM_INVALID && t != SHMEM_TEAM_WORLD) shmem_team_destroy(t);
}

int main(void) {
  bh_start();
  const int me = bh_me, n = bh_npes;

  /* Every call below is made by every PE of the parent team with the same triplet. */
  expect_invalid("size 0", 0, 1, 0);
  expect_invalid("start beyond the parent (start = N)", n, 1, 1);
  expect_invalid("start beyond the parent (start = N + 3)", n + 3, 1, 2);
  expect_invalid("negative start", -1, 1, 1);
  expect_invalid("stride leaves the parent (0, N)", 0, n, 2);
  expect_invalid("size larger than the parent (0..N)", 0, 1, n + 1);
  expect_invalid("last member beyond the parent (1..N)", 1, 1, n);
  if (n >= 2) expect_invalid("stride 2 past the end", n - 1, 2, 2);

  /* The library must still work: a barrier, then a valid split of the even PEs used for data. */
  shmem_barrier_all();
  shmem_team_t even = SHMEM_TEAM_INVALID;
  int esize = (n + 1) / 2;
  int ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, esize, NULL, 0, &even);
  BH_CHECK(ret == 0, "valid split (0, 2, %d) after the invalid ones returned %d", esize, ret);
  if (me % 2 == 0) {
    BH_CHECK(even != SHMEM_TEAM_INVALID, "valid split: member PE got SHMEM_TEAM_INVALID");
  } else {
    BH_CHECK(even == SHMEM_TEAM_INVALID, "valid split: non-member PE did not get SHMEM_TEAM_INVALID");
  }
  if (ret == 0 && even != SHMEM_TEAM_INVALID) {
    BH_CHECK(shmem_team_my_pe(even) == me / 2, "team_my_pe(even) = %d, want %d",
             shmem_team_my_pe(even), me / 2);
    BH_CHECK(shmem_team_n_pes(even) == esize, "team_n_pes(even) = %d, want %d",
             shmem_team_n_pes(even), esize);
    src_val = me;
    dst_val = -1;
    int r = shmem_int_sum_reduce(even, &dst_val, &src_val, 1);
    int want = 0;
    for (int i = 0; i < n; i += 2) want += i;
    BH_CHECK(r == 0 && dst_val == want, "sum over the even team: ret %d value %d, want 0 and %d", r,
             dst_val, want);
    BH_CHECK(shmem_team_sync(even) == 0, "shmem_team_sync(even) failed");
    shmem_team_destroy(even);
  }
  shmem_barrier_all();
  /* And one more invalid request after valid work, then a last barrier. */
  expect_invalid("size 0 again", 0, 1, 0);
  shmem_barrier_all();
  return bh_finish();
}
