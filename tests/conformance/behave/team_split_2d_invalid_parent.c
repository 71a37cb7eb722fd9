/* team_split_2d_invalid_parent: shmem_team_split_2d (and shmem_team_split_strided) called with a
 * parent team handle equal to SHMEM_TEAM_INVALID -- the handle a PE holds after an earlier split
 * it is not a member of -- creates nothing, sets every output handle to SHMEM_TEAM_INVALID and
 * returns nonzero; valid splits keep working afterwards.
 *
 * OpenSHMEM 1.5, shmem_team_split_2d, description:
 *   "If parent_team compares equal to SHMEM_TEAM_INVALID, no new teams will be created, and both
 *    xaxis_team and yaxis_team will be assigned the value SHMEM_TEAM_INVALID."
 *   Return values: "Zero on successful creation of both xaxis_team and yaxis_team, nonzero
 *    otherwise."
 *   "The mapping of PE number to coordinates is (x, y) = (pe mod xrange, floor(pe / xrange)),
 *    where pe is the PE number in the parent team."
 *   "the value returned by shmem_team_my_pe(xteam) is the x-coordinate and the value returned by
 *    shmem_team_my_pe(yteam) is the y-coordinate of the calling PE."
 * OpenSHMEM 1.5, shmem_team_split_strided, description:
 *   "If parent_team compares equal to SHMEM_TEAM_INVALID, then no new team will be created and
 *    new_team will be assigned the value SHMEM_TEAM_INVALID."
 *   Return values: "Zero on successful creation of new_team; otherwise, nonzero."
 *   "Those PEs in the parent team that are not members of the new team will have new_team
 *    assigned to SHMEM_TEAM_INVALID."
 * (OpenSHMEM 1.6 changelog: "Clarified that shmem_team_split_strided and [split_2d] return a
 *  nonzero value when the parent team compares equal to SHMEM_TEAM_INVALID." -- in 1.5 the
 *  nonzero return follows from the return-value sentences above, since no team is created.)
 *
 * PE counts: N >= 2 (some PE must be outside the first split); meant for 2, 3, 4. */
#define BEHAVE_NAME "team_split_2d_invalid_parent"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */

static int src_val, dst_val;

static void expect_2d_invalid(const char *what, shmem_team_t parent, int xrange) {
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD; /* must be overwritten */
  int ret = shmem_team_split_2d(parent, xrange, NULL, 0, &x, NULL, 0, &y);
  BH_CHECK(ret != 0, "split_2d(%s, xrange=%d): returned 0, want nonzero", what, xrange);
  BH_CHECK(x == SHMEM_TEAM_INVALID, "split_2d(%s, xrange=%d): xaxis_team is not SHMEM_TEAM_INVALID",
           what, xrange);
  BH_CHECK(y == SHMEM_TEAM_INVALID, "split_2d(%s, xrange=%d): yaxis_team is not SHMEM_TEAM_INVALID",
           what, xrange);
}

static void expect_strided_invalid(const char *what, shmem_team_t parent) {
  shmem_team_t t = SHMEM_TEAM_WORLD;
  int ret = shmem_team_split_strided(parent, 0, 1, 1, NULL, 0, &t);
  BH_CHECK(ret != 0, "split_strided(%s, 0, 1, 1): returned 0, want nonzero", what);
  BH_CHECK(t == SHMEM_TEAM_INVALID, "split_strided(%s, 0, 1, 1): new_team is not SHMEM_TEAM_INVALID",
           what);
}

/* Valid 2D split of `parent` (size tn, my rank r): check coordinates and sizes, sync both. */
static void check_2d(shmem_team_t parent, int xrange, const char *what) {
  int tn = shmem_team_n_pes(parent), r = shmem_team_my_pe(parent);
  shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
  int ret = shmem_team_split_2d(parent, xrange, NULL, 0, &x, NULL, 0, &y);
  BH_CHECK(ret == 0, "valid split_2d(%s, xrange=%d) returned %d", what, xrange, ret);
  BH_CHECK(x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID,
           "valid split_2d(%s, xrange=%d) gave an invalid handle to a member", what, xrange);
  if (x == SHMEM_TEAM_INVALID || y == SHMEM_TEAM_INVALID) return;
  int row = r / xrange, col = r % xrange;
  int xn = (tn - row * xrange) < xrange ? (tn - row * xrange) : xrange;
  int yn = (tn - col + xrange - 1) / xrange;
  BH_CHECK(shmem_team_my_pe(x) == col, "split_2d(%s): my_pe(xteam) = %d, want %d", what,
           shmem_team_my_pe(x), col);
  BH_CHECK(shmem_team_my_pe(y) == row, "split_2d(%s): my_pe(yteam) = %d, want %d", what,
           shmem_team_my_pe(y), row);
  BH_CHECK(shmem_team_n_pes(x) == xn, "split_2d(%s): n_pes(xteam) = %d, want %d", what,
           shmem_team_n_pes(x), xn);
  BH_CHECK(shmem_team_n_pes(y) == yn, "split_2d(%s): n_pes(yteam) = %d, want %d", what,
           shmem_team_n_pes(y), yn);
  BH_CHECK(shmem_team_sync(x) == 0, "split_2d(%s): team_sync(xteam) failed", what);
  BH_CHECK(shmem_team_sync(y) == 0, "split_2d(%s): team_sync(yteam) failed", what);
  shmem_team_destroy(x);
  shmem_team_destroy(y);
}

int main(void) {
  bh_start();
  const int me = bh_me, n = bh_npes;
  if (n < 2) bh_skip("needs at least 2 PEs (a PE outside the first split)");

  /* Even PEs form `even`; odd PEs receive SHMEM_TEAM_INVALID, as the spec says. */
  shmem_team_t even = SHMEM_TEAM_WORLD;
  int ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
  BH_CHECK(ret == 0, "split_strided(WORLD, 0, 2, %d) returned %d", (n + 1) / 2, ret);
  if (me % 2 == 0)
    BH_CHECK(even != SHMEM_TEAM_INVALID, "member of the even split got SHMEM_TEAM_INVALID");
  else
    BH_CHECK(even == SHMEM_TEAM_INVALID, "non-member of the even split did not get SHMEM_TEAM_INVALID");

  if (me % 2 == 1) {
    /* Outside PEs: their handle is SHMEM_TEAM_INVALID; splitting it must fail cleanly. */
    expect_2d_invalid("handle from an earlier split", even, 1);
    expect_2d_invalid("handle from an earlier split", even, 2);
    expect_strided_invalid("handle from an earlier split", even);
  } else if (even != SHMEM_TEAM_INVALID) {
    /* Members meanwhile keep using `even` (collective over the members only). */
    check_2d(even, 1, "even team");
    src_val = me;
    int r = shmem_int_sum_reduce(even, &dst_val, &src_val, 1);
    int want = 0;
    for (int i = 0; i < n; i += 2) want += i;
    BH_CHECK(r == 0 && dst_val == want, "sum over even team: ret %d value %d want %d", r, dst_val,
             want);
  }

  /* Every PE, with the constant itself (a local, non-collective situation on every PE). */
  expect_2d_invalid("SHMEM_TEAM_INVALID", SHMEM_TEAM_INVALID, 1);
  expect_2d_invalid("SHMEM_TEAM_INVALID", SHMEM_TEAM_INVALID, 3);
  expect_strided_invalid("SHMEM_TEAM_INVALID", SHMEM_TEAM_INVALID);

  /* The library still works for everybody: barrier, valid 2D splits of WORLD. */
  shmem_barrier_all();
  check_2d(SHMEM_TEAM_WORLD, 2, "WORLD");
  check_2d(SHMEM_TEAM_WORLD, n, "WORLD");
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  shmem_barrier_all();
  return bh_finish();
}
