/* ctx_invalid: the context routines that OpenSHMEM 1.5 defines for SHMEM_CTX_INVALID behave as
 * defined, including the specification's team-context scenario in which PEs outside a team hold
 * SHMEM_CTX_INVALID and call shmem_ctx_quiet (and shmem_ctx_destroy) on it.
 *
 * OpenSHMEM 1.5 text relied on:
 * shmem_ctx_quiet / shmem_ctx_fence (shmem_quiet, shmem_fence pages):
 *   "If ctx has the value SHMEM_CTX_INVALID, no operation is performed."
 * shmem_ctx_destroy:
 *   "shmem_ctx_destroy destroys a context that was created by a call to shmem_ctx_create or
 *    shmem_team_create_ctx." ... "If ctx has the value SHMEM_CTX_INVALID, no operation is
 *    performed."
 *   (The "no operation is performed" sentences are quoted from the published 1.5 document; the
 *    stored LaTeX versions of shmem_quiet.tex / shmem_fence.tex / shmem_ctx_destroy.tex reachable
 *    here were older drafts without them. Supporting them: the 1.5 changelog entry below, and the
 *    specification's team-context example, which calls shmem_ctx_quiet and shmem_ctx_destroy on
 *    contexts that are SHMEM_CTX_INVALID on the PEs outside the team.)
 * shmem_ctx_get_team:
 *   "If ctx is the default context or one created by a call to shmem_ctx_create, the team is
 *    assigned the handle value SHMEM_TEAM_WORLD."
 *   "If ctx compares equal to SHMEM_CTX_INVALID, then team is assigned the value
 *    SHMEM_TEAM_INVALID and a nonzero value is returned."  Return values: "Zero on success;
 *    otherwise, nonzero."
 * shmem_team_create_ctx (1.5: "This context is created from the team specified by the team
 *   argument; however, the context creation operation is not collective."):
 *   "If team compares equal to SHMEM_TEAM_INVALID, then a nonzero value is returned and ctx is
 *    set to SHMEM_CTX_INVALID."
 *   "All OpenSHMEM routines that operate on this context will do so with respect to the
 *    associated PE team. That is, all point-to-point routines operating on this context will use
 *    team-relative PE numbering."
 * Changelog 1.5: "Specified the validity of communication contexts, added the constant
 *   SHMEM_CTX_INVALID, and clarified the behavior of shmem_ctx_* routines on invalid contexts."
 * NOT tested (undefined), contexts introduction: "A handle value that does not correspond to a
 *   valid context is considered to be invalid, and its use in RMA and AMO routines results in
 *   undefined behavior." -- so no put/get/AMO is ever issued on SHMEM_CTX_INVALID here.
 * The scenario (two teams from WORLD: PEs 0,2,4,... and 0,3,6,...; a context on each; a ring put
 * inside each team through its context; shmem_ctx_quiet on both contexts on every PE, valid or
 * not; then an atomic add through ctx_2 by the PEs in both teams) is the one the 1.5 text gives
 * as the shmem_team_create_ctx / shmem_ctx_get_team example.
 *
 * PE counts: N >= 2 (PE 1 is outside both teams); meant for 2, 3, 4. */
#define BEHAVE_NAME "ctx_invalid"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */

static int sum, val_2 = -1, val_3 = -1;

int main(void) {
  bh_start();
  const int me = bh_me, npes = bh_npes;
  if (npes < 2) bh_skip("needs at least 2 PEs (a PE outside the teams)");

  /* 1. The routines on the constant itself, on every PE. */
  shmem_ctx_quiet(SHMEM_CTX_INVALID);
  shmem_ctx_fence(SHMEM_CTX_INVALID);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);
  {
    shmem_team_t t = SHMEM_TEAM_WORLD;
    int r = shmem_ctx_get_team(SHMEM_CTX_INVALID, &t);
    BH_CHECK(r != 0, "shmem_ctx_get_team(SHMEM_CTX_INVALID) returned 0, want nonzero");
    BH_CHECK(t == SHMEM_TEAM_INVALID,
             "shmem_ctx_get_team(SHMEM_CTX_INVALID) did not assign SHMEM_TEAM_INVALID");
    t = SHMEM_TEAM_INVALID;
    r = shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t);
    BH_CHECK(r == 0 && t == SHMEM_TEAM_WORLD,
             "shmem_ctx_get_team(SHMEM_CTX_DEFAULT): ret %d, team is%s SHMEM_TEAM_WORLD", r,
             t == SHMEM_TEAM_WORLD ? "" : " not");
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    if (shmem_ctx_create(0, &c) == 0) {
      t = SHMEM_TEAM_INVALID;
      r = shmem_ctx_get_team(c, &t);
      BH_CHECK(r == 0 && t == SHMEM_TEAM_WORLD,
               "shmem_ctx_get_team(ctx from shmem_ctx_create): ret %d, team is%s SHMEM_TEAM_WORLD",
               r, t == SHMEM_TEAM_WORLD ? "" : " not");
      shmem_ctx_destroy(c);
    }
  }
  shmem_barrier_all();

  /* 2. The specification's scenario. */
  shmem_team_t team_2 = SHMEM_TEAM_WORLD, team_3 = SHMEM_TEAM_WORLD;
  shmem_ctx_t ctx_2 = SHMEM_CTX_DEFAULT, ctx_3 = SHMEM_CTX_DEFAULT; /* must be overwritten */
  shmem_team_config_t conf;
  conf.num_contexts = 1;
  long cmask = SHMEM_TEAM_NUM_CONTEXTS;
  const int n2 = (npes + 1) / 2, n3 = (npes + 2) / 3;
  const int in2 = me % 2 == 0, in3 = me % 3 == 0;

  int ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n2, &conf, cmask, &team_2);
  BH_CHECK(ret == 0, "split team_2 returned %d", ret);
  ret = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 3, n3, &conf, cmask, &team_3);
  BH_CHECK(ret == 0, "split team_3 returned %d", ret);
  BH_CHECK((team_2 != SHMEM_TEAM_INVALID) == in2, "team_2 membership wrong");
  BH_CHECK((team_3 != SHMEM_TEAM_INVALID) == in3, "team_3 membership wrong");

  ret = shmem_team_create_ctx(team_2, 0, &ctx_2);
  if (in2) {
    BH_CHECK(ret == 0 && ctx_2 != SHMEM_CTX_INVALID, "team_create_ctx(team_2) failed on a member");
  } else {
    BH_CHECK(ret != 0, "team_create_ctx(SHMEM_TEAM_INVALID) returned 0, want nonzero");
    BH_CHECK(ctx_2 == SHMEM_CTX_INVALID, "team_create_ctx(SHMEM_TEAM_INVALID) left ctx != SHMEM_CTX_INVALID");
  }
  ret = shmem_team_create_ctx(team_3, 0, &ctx_3);
  if (in3) {
    BH_CHECK(ret == 0 && ctx_3 != SHMEM_CTX_INVALID, "team_create_ctx(team_3) failed on a member");
  } else {
    BH_CHECK(ret != 0, "team_create_ctx(SHMEM_TEAM_INVALID) returned 0, want nonzero");
    BH_CHECK(ctx_3 == SHMEM_CTX_INVALID, "team_create_ctx(SHMEM_TEAM_INVALID) left ctx != SHMEM_CTX_INVALID");
  }
  /* The team of a team context, and of the invalid one. */
  if (in2 && ctx_2 != SHMEM_CTX_INVALID) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int r = shmem_ctx_get_team(ctx_2, &t);
    BH_CHECK(r == 0 && t == team_2, "ctx_get_team(ctx_2): ret %d, team %s team_2", r,
             t == team_2 ? "==" : "!=");
  } else if (!in2) {
    shmem_team_t t = SHMEM_TEAM_WORLD;
    int r = shmem_ctx_get_team(ctx_2, &t);
    BH_CHECK(r != 0 && t == SHMEM_TEAM_INVALID, "ctx_get_team(invalid ctx_2): ret %d, team %s",
             r, t == SHMEM_TEAM_INVALID ? "SHMEM_TEAM_INVALID" : "not SHMEM_TEAM_INVALID");
  }

  /* Ring put inside each team through its context (team-relative PE numbers). */
  if (ctx_2 != SHMEM_CTX_INVALID && in2) {
    int pe = shmem_team_my_pe(team_2);
    shmem_ctx_int_put(ctx_2, &val_2, &pe, 1, (pe + 1) % shmem_team_n_pes(team_2));
  }
  if (ctx_3 != SHMEM_CTX_INVALID && in3) {
    int pe = shmem_team_my_pe(team_3);
    shmem_ctx_int_put(ctx_3, &val_3, &pe, 1, (pe + 1) % shmem_team_n_pes(team_3));
  }
  /* Every PE quiets both contexts: SHMEM_CTX_INVALID on PEs outside a team ("no operation"). */
  shmem_ctx_quiet(ctx_2);
  shmem_ctx_quiet(ctx_3);
  shmem_ctx_fence(ctx_2);
  shmem_ctx_fence(ctx_3);
  shmem_team_sync(SHMEM_TEAM_WORLD);

  if (in2) {
    int r = shmem_team_my_pe(team_2);
    int want = (r - 1 + n2) % n2;
    BH_CHECK(val_2 == want, "ring put through ctx_2: got %d, want %d", val_2, want);
  }
  if (in3) {
    int r = shmem_team_my_pe(team_3);
    int want = (r - 1 + n3) % n3;
    BH_CHECK(val_3 == want, "ring put through ctx_3: got %d, want %d", val_3, want);
  }

  /* PEs in both teams add val_2 + val_3 to `sum` on team_2's PE 0 (world PE 0) through ctx_2. */
  if (in2 && in3 && ctx_2 != SHMEM_CTX_INVALID) shmem_ctx_int_atomic_add(ctx_2, &sum, val_2 + val_3, 0);
  shmem_ctx_quiet(ctx_2);
  shmem_team_sync(SHMEM_TEAM_WORLD);
  if (me == 0) {
    int want = 0;
    for (int i = 0; i < npes; i++) {
      if (i % 2 == 0 && i % 3 == 0) {
        want += (i / 2 - 1 + n2) % n2;
        want += (i / 3 - 1 + n3) % n3;
      }
    }
    BH_CHECK(sum == want, "atomic add through ctx_2: sum %d, want %d", sum, want);
  }

  /* Contexts before teams; destroying SHMEM_CTX_INVALID (outside PEs) is no operation. */
  shmem_ctx_destroy(ctx_2);
  shmem_ctx_destroy(ctx_3);
  if (team_2 != SHMEM_TEAM_INVALID) shmem_team_destroy(team_2);
  if (team_3 != SHMEM_TEAM_INVALID) shmem_team_destroy(team_3);

  /* Once more on the constant after all of that, then the library must still work. */
  shmem_ctx_quiet(SHMEM_CTX_INVALID);
  shmem_ctx_fence(SHMEM_CTX_INVALID);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);
  shmem_barrier_all();
  return bh_finish();
}
