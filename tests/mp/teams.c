/* Teams: split_strided (teams that skip PEs), split_2d, translate, config, team_ptr, 10,000 team
 * syncs, destroy/re-create, and team exhaustion (a clear non-zero return, then recovery). */
#include "mp_util.h"
#include <shmemx.h>

int main(void) {
    mp_init("teams");
    const int me = mp_me, n = mp_npes;

    /* predefined teams */
    MP_CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == n,
             "WORLD: my_pe %d n_pes %d (expected %d %d)", shmem_team_my_pe(SHMEM_TEAM_WORLD),
             shmem_team_n_pes(SHMEM_TEAM_WORLD), me, n);
    /* NODE: the PEs of this node (all PEs on one machine, 2 per namespace in the two-node test);
     * SHARED: the PEs that map each other's memory (the node, or only this PE when
     * GSHMEM_FORCE_PROXY=1) */
    const int local = shmemx_local_npes();
    MP_CHECK(shmem_team_n_pes(SHMEMX_TEAM_NODE) == local, "NODE has %d PEs (expected %d on this node)",
             shmem_team_n_pes(SHMEMX_TEAM_NODE), local);
    MP_CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == local || shmem_team_n_pes(SHMEM_TEAM_SHARED) == 1,
             "SHARED has %d PEs (expected %d, or 1 under GSHMEM_FORCE_PROXY)", shmem_team_n_pes(SHMEM_TEAM_SHARED), local);
    MP_CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "INVALID team my_pe (expected -1)");

    /* odd PEs: start 1, stride 2 (skips every even PE) */
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    MP_CHECK(rc == 0, "split_strided returned %d (expected 0)", rc);
    if (me % 2 == 1) {
        MP_CHECK(odd != SHMEM_TEAM_INVALID && shmem_team_my_pe(odd) == me / 2 && shmem_team_n_pes(odd) == n / 2,
                 "odd team: handle %d my_pe %d n_pes %d (expected %d %d)", odd, shmem_team_my_pe(odd),
                 shmem_team_n_pes(odd), me / 2, n / 2);
        MP_CHECK(shmem_team_translate_pe(odd, 0, SHMEM_TEAM_WORLD) == 1, "translate odd 0 -> world (expected 1)");
        MP_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, odd) == -1, "translate world 0 -> odd (expected -1)");
        static long cell;
        long *p = (long *)shmem_team_ptr(odd, &cell, 0); /* odd team PE 0 = world PE 1 */
        const int shares = shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1, SHMEM_TEAM_SHARED) >= 0;
        MP_CHECK((p != NULL) == shares, "team_ptr to odd-team PE 0 (world PE 1) is %s, but PE 1 is %sin SHARED",
                 p ? "non-NULL" : "NULL", shares ? "" : "not ");
        for (int i = 0; i < 10000; ++i) shmem_team_sync(odd);
    } else {
        MP_CHECK(odd == SHMEM_TEAM_INVALID, "even PE got odd-team handle %d (expected SHMEM_TEAM_INVALID)", odd);
    }

    /* 2D: rows of 2 */
    shmem_team_t xt, yt;
    shmem_team_config_t cfg = {3};
    rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &xt, NULL, 0, &yt);
    MP_CHECK(rc == 0, "split_2d returned %d", rc);
    MP_CHECK(shmem_team_my_pe(xt) == me % 2 && shmem_team_my_pe(yt) == me / 2,
             "2d: x index %d y index %d (expected %d %d)", shmem_team_my_pe(xt), shmem_team_my_pe(yt), me % 2, me / 2);
    shmem_team_config_t got = {0};
    shmem_team_get_config(xt, SHMEM_TEAM_NUM_CONTEXTS, &got);
    MP_CHECK(got.num_contexts == 3, "x team num_contexts %d (expected 3)", got.num_contexts);
    /* a sum over the y team (column) checks the membership really is the column */
    static long col_in, col_out;
    col_in = me;
    shmem_long_sum_reduce(yt, &col_out, &col_in, 1);
    long want = 0;
    for (int pe = me % 2; pe < n; pe += 2) want += pe;
    MP_CHECK(col_out == want, "sum over the y team: %ld (expected %ld)", col_out, want);
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);

    /* exhaustion: create until a split fails, then destroy all and create again */
    shmem_team_t made[80];
    int count = 0;
    for (; count < 80; ++count) {
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &made[count]) != 0) break;
        MP_CHECK(made[count] != SHMEM_TEAM_INVALID, "split %d succeeded without a handle", count);
    }
    MP_CHECK(count > 10 && count < 80, "team exhaustion: %d splits succeeded (expected a clean failure)", count);
    for (int i = 0; i < count; ++i) shmem_team_destroy(made[i]);
    shmem_team_t again;
    MP_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &again) == 0, "split after destroying all");
    for (int i = 0; i < 100; ++i) shmem_team_sync(again); /* reused slot starts from zero flags */
    shmem_team_destroy(again);
    if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
    mp_pass();
    shmem_finalize();
    return 0;
}
