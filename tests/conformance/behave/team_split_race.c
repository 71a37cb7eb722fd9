/* team_split_race: back-to-back team creation with no synchronization between the steps,
 * repeated 50 times in one process: split WORLD (even PEs), split that team again, split_2d it,
 * use every new team (queries, translate_pe, team_sync, a reduction), destroy them, repeat.
 * PEs outside the even team go straight on to the next iteration's split of WORLD while the even
 * PEs still work in (and split) the previous teams.
 *
 * OpenSHMEM 1.5, teams introduction (Team Creation):
 *   "Upon completion of a team creation operation, the parent and any resulting child teams will
 *    be immediately usable for any team-based operations, including creating new child teams,
 *    without any intervening synchronization."
 *   "As with any collective routine on a team, team creation is matched across PEs based on
 *    ordering. So, team creation events must occur in the same order on all PEs in the parent
 *    team."
 *   "PEs in a newly created teams are consecutively numbered with starting with PE number 0. PEs
 *    are always ordered by the existing global PE number that would be returned by the
 *    shmem_my_pe routine."
 * Collectives introduction (Team-based collectives):
 *   "On completion of a team-based collective call, the PE may immediately call another
 *    collective on that same team without any other intervening synchronization across the team."
 * shmem_team_split_2d: "(x, y) = (pe mod xrange, floor(pe / xrange))" and "shmem_team_my_pe(xteam)
 *   is the x-coordinate and ... shmem_team_my_pe(yteam) is the y-coordinate of the calling PE."
 * Reductions: "Before any PE calls a reduction routine, ... The dest array on all PEs in the team
 *   is ready to accept the results of the operation." -- every reduction below has its own
 *   source and dest arrays (never reused), so this holds without extra synchronization.
 *
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "team_split_race"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */

#define ITERS 50
enum { S_EVEN, S_SUB, S_X, S_Y, S_COUNT };
static int src[ITERS][S_COUNT], dst[ITERS][S_COUNT]; /* symmetric, one pair per reduction */

/* Sum of the world PE numbers of the members of `t`, computed through translate_pe. Also checks
 * that translate_pe is a bijection onto the expected world PEs given by world_of(i). */
static int check_team(int it, const char *name, shmem_team_t t, int want_n, int want_me,
                      int world_start, int world_stride) {
  int tn = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
  BH_CHECK(tn == want_n, "iter %d %s: n_pes %d, want %d", it, name, tn, want_n);
  BH_CHECK(tme == want_me, "iter %d %s: my_pe %d, want %d", it, name, tme, want_me);
  int sum = 0;
  for (int i = 0; i < want_n; i++) {
    int w = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
    int want_w = world_start + i * world_stride;
    BH_CHECK(w == want_w, "iter %d %s: translate_pe(team %d -> WORLD) = %d, want %d", it, name, i,
             w, want_w);
    sum += want_w;
  }
  int back = shmem_team_translate_pe(SHMEM_TEAM_WORLD, bh_me, t);
  BH_CHECK(back == want_me, "iter %d %s: translate_pe(WORLD %d -> team) = %d, want %d", it, name,
           bh_me, back, want_me);
  return sum;
}

static void reduce_check(int it, int slot, const char *name, shmem_team_t t, int want) {
  src[it][slot] = bh_me;
  dst[it][slot] = -12345;
  int r = shmem_int_sum_reduce(t, &dst[it][slot], &src[it][slot], 1);
  BH_CHECK(r == 0, "iter %d %s: sum_reduce returned %d", it, name, r);
  BH_CHECK(dst[it][slot] == want, "iter %d %s: sum of world PE numbers %d, want %d", it, name,
           dst[it][slot], want);
}

int main(void) {
  bh_start();
  const int me = bh_me, n = bh_npes;
  const int en = (n + 1) / 2; /* even team: world PEs 0, 2, 4, ... */

  for (int it = 0; it < ITERS; it++) {
    shmem_team_t even = SHMEM_TEAM_WORLD;
    int ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, en, NULL, 0, &even);
    BH_CHECK(ret == 0, "iter %d: split_strided(WORLD, 0, 2, %d) returned %d", it, en, ret);
    if (me % 2 == 1) {
      BH_CHECK(even == SHMEM_TEAM_INVALID, "iter %d: odd PE did not get SHMEM_TEAM_INVALID", it);
      continue; /* straight on to the next split of WORLD */
    }
    if (even == SHMEM_TEAM_INVALID) {
      bh_fail("iter %d: even PE got SHMEM_TEAM_INVALID", it);
      continue;
    }
    int er = me / 2;
    int esum = check_team(it, "even", even, en, er, 0, 2);

    /* Child of `even`: its ranks start .. en-1 (start varies with the iteration), no sync. */
    int start = it % en, subn = en - start;
    shmem_team_t sub = SHMEM_TEAM_WORLD;
    ret = shmem_team_split_strided(even, start, 1, subn, NULL, 0, &sub);
    BH_CHECK(ret == 0, "iter %d: split_strided(even, %d, 1, %d) returned %d", it, start, subn, ret);
    if (er >= start) {
      if (sub == SHMEM_TEAM_INVALID) {
        bh_fail("iter %d: member of sub got SHMEM_TEAM_INVALID", it);
      } else {
        int ssum = check_team(it, "sub", sub, subn, er - start, 2 * start, 2);
        BH_CHECK(shmem_team_sync(sub) == 0, "iter %d: team_sync(sub) failed", it);
        reduce_check(it, S_SUB, "sub", sub, ssum);
      }
    } else {
      BH_CHECK(sub == SHMEM_TEAM_INVALID, "iter %d: non-member of sub did not get SHMEM_TEAM_INVALID",
               it);
    }

    /* 2D split of `even` right away (the sub team is still alive), no sync. */
    int xrange = 1 + it % en;
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    ret = shmem_team_split_2d(even, xrange, NULL, 0, &x, NULL, 0, &y);
    BH_CHECK(ret == 0, "iter %d: split_2d(even, %d) returned %d", it, xrange, ret);
    if (x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID && ret == 0) {
      int row = er / xrange, col = er % xrange;
      int xn = (en - row * xrange) < xrange ? (en - row * xrange) : xrange;
      int yn = (en - col + xrange - 1) / xrange;
      /* xteam: even ranks row*xrange .. ; world PEs 2*(row*xrange) + 2*i */
      int xsum = check_team(it, "xteam", x, xn, col, 2 * row * xrange, 2);
      /* yteam: even ranks col, col+xrange, ...; world PEs 2*col + 2*xrange*i */
      int ysum = check_team(it, "yteam", y, yn, row, 2 * col, 2 * xrange);
      BH_CHECK(shmem_team_sync(x) == 0, "iter %d: team_sync(xteam) failed", it);
      reduce_check(it, S_X, "xteam", x, xsum);
      BH_CHECK(shmem_team_sync(y) == 0, "iter %d: team_sync(yteam) failed", it);
      reduce_check(it, S_Y, "yteam", y, ysum);
    } else {
      bh_fail("iter %d: split_2d(even, %d) gave SHMEM_TEAM_INVALID to a member", it, xrange);
    }

    /* A collective on the parent after its children were created and used. */
    reduce_check(it, S_EVEN, "even", even, esum);

    if (x != SHMEM_TEAM_INVALID && x != SHMEM_TEAM_WORLD) shmem_team_destroy(x);
    if (y != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_WORLD) shmem_team_destroy(y);
    if (sub != SHMEM_TEAM_INVALID && sub != SHMEM_TEAM_WORLD) shmem_team_destroy(sub);
    shmem_team_destroy(even);
  }
  return bh_finish();
}
