/* 04_nvshmem_host: an NVSHMEM program, unchanged, on gshmem (docs/nvshmem.md): only <nvshmem.h> and
 * NVSHMEM's names and constants. It uses the host API, so it runs on CPU PEs as well as GPU PEs
 * whose heap the host can read (GSHMEM_HEAP_KIND=host); 05_nvshmem_device.cu is the GPU one.
 *
 * Each PE sends a fresh random block to its right neighbour with put-with-signal, waits for the
 * left neighbour's with NVSHMEM comparison constants (whose values differ from gshmem's own),
 * checks every element, then splits the world into even and odd PEs and reduces and broadcasts
 * within each team, checking every PE's contribution; then makes the world in reverse order a team
 * from a unique id (nvshmemx_team_init) and broadcasts from its first PE.
 * Build: cc 04_nvshmem_host.c $(pkg-config --cflags --libs gshmem-nvshmem)   Run: oshrun -np 4 ./a.out */
#include <nvshmem.h>
#include <nvshmemx.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 4096

static uint64_t next(uint64_t *s) {
  *s += 0x9E3779B97F4A7C15ull;
  uint64_t z = *s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int fail(int me, const char *what, long long expected, long long got) {
  fprintf(stderr, "FAIL 04_nvshmem_host: pe %d: %s (expected %lld got %lld)\n", me, what, expected, got);
  nvshmem_global_exit(1);
  return 1;
}

int main(void) {
  nvshmem_init();
  const int me = nvshmem_my_pe(), n = nvshmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  int maj = 0, min = 0, patch = 0;
  nvshmemx_vendor_get_version_info(&maj, &min, &patch);
  if (maj != NVSHMEM_VENDOR_MAJOR_VERSION) return fail(me, "nvshmemx_vendor_get_version_info major", NVSHMEM_VENDOR_MAJOR_VERSION, maj);

  /* every PE's seed, so each can regenerate what its left neighbour sent */
  uint64_t *seeds = (uint64_t *)nvshmem_malloc(sizeof(uint64_t) * (size_t)n);
  uint64_t *seed_src = (uint64_t *)nvshmem_malloc(sizeof(uint64_t));
  *seed_src = ((uint64_t)time(NULL) << 20) ^ (uint64_t)me * 0x5851F42D4C957F2Dull;
  nvshmem_uint64_fcollect(NVSHMEM_TEAM_WORLD, seeds, seed_src, 1);

  long *inbox = (long *)nvshmem_malloc(sizeof(long) * N);
  long *outbox = (long *)malloc(sizeof(long) * N);
  uint64_t *sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
  int *flags = (int *)nvshmem_calloc(2, sizeof(int));
  for (int i = 0; i < N; i++) inbox[i] = -1;
  uint64_t s = seeds[me];
  for (int i = 0; i < N; i++) outbox[i] = (long)(next(&s) >> 1);
  nvshmem_barrier_all();

  nvshmem_long_put_signal_nbi(inbox, outbox, N, sig, 3, NVSHMEM_SIGNAL_ADD, right);
  nvshmem_int_p(&flags[0], 5, right);
  nvshmem_quiet();
  nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, 3);     /* NVSHMEM_CMP_GE is 5 (gshmem's LE) */
  nvshmem_int_wait_until(&flags[0], NVSHMEM_CMP_GE, 5);
  if (flags[0] != 5) return fail(me, "nvshmem_int_wait_until(NVSHMEM_CMP_GE) returned early: flag", 5, flags[0]);
  if (nvshmem_int_test(&flags[1], NVSHMEM_CMP_LE, -1))   /* 0 <= -1 is false */
    return fail(me, "nvshmem_int_test(0, NVSHMEM_CMP_LE, -1)", 0, 1);
  if (nvshmem_signal_fetch(sig) != 3) return fail(me, "signal after NVSHMEM_SIGNAL_ADD of 3", 3, (long long)nvshmem_signal_fetch(sig));
  s = seeds[left];
  for (int i = 0; i < N; i++) {
    const long e = (long)(next(&s) >> 1);
    if (inbox[i] != e) return fail(me, "element of the left neighbour's block", e, inbox[i]);
  }

  /* teams: even and odd PEs */
  nvshmem_team_t half = NVSHMEM_TEAM_INVALID;
  nvshmem_team_config_t cfg = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  const int start = me % 2, size = (n - start + 1) / 2;
  nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, &cfg, 0, &half);
  nvshmem_team_t other = NVSHMEM_TEAM_INVALID;
  nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 1, 2, n / 2, &cfg, 0, &other);
  nvshmem_team_t mine = start == 0 ? half : other;
  if (nvshmem_team_n_pes(mine) != size) return fail(me, "nvshmem_team_n_pes", size, nvshmem_team_n_pes(mine));
  long *contrib = (long *)nvshmem_malloc(sizeof(long) * 8), *sum = (long *)nvshmem_malloc(sizeof(long) * 8);
  for (int i = 0; i < 8; i++) contrib[i] = (long)(seeds[me] % 100000) + i;
  nvshmem_barrier(mine);
  nvshmem_long_sum_reduce(mine, sum, contrib, 8);
  for (int i = 0; i < 8; i++) {
    long e = 0;
    for (int p = start; p < n; p += 2) e += (long)(seeds[p] % 100000) + i;
    if (sum[i] != e) return fail(me, "nvshmem_long_sum_reduce over the team", e, sum[i]);
  }
  long *b = (long *)nvshmem_malloc(sizeof(long));
  nvshmem_long_broadcast(mine, b, contrib, 1, 0);
  if (*b != (long)(seeds[start] % 100000)) return fail(me, "nvshmem_long_broadcast from the team's PE 0", (long)(seeds[start] % 100000), *b);

  /* a team from a unique id (no parent split): the world in reverse order */
  uint64_t *tid = (uint64_t *)nvshmem_malloc(sizeof(uint64_t));
  *tid = 0;
  nvshmem_barrier_all();
  if (me == n - 1) {
    nvshmemx_team_uniqueid_t id;
    nvshmemx_team_get_uniqueid(&id);
    for (int p = 0; p < n; p++) nvshmem_uint64_p(tid, id, p);
  }
  nvshmem_barrier_all();
  nvshmem_team_config_t rcfg = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  rcfg.uniqueid = *tid;
  nvshmem_team_t rev = NVSHMEM_TEAM_INVALID;
  if (nvshmemx_team_init(&rev, &rcfg, NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID, n, n - 1 - me) != 0)
    return fail(me, "nvshmemx_team_init returned", 0, 1);
  if (nvshmem_team_my_pe(rev) != n - 1 - me) return fail(me, "nvshmem_team_my_pe of the reversed team", n - 1 - me, nvshmem_team_my_pe(rev));
  if (nvshmem_team_translate_pe(rev, 0, NVSHMEM_TEAM_WORLD) != n - 1)
    return fail(me, "the reversed team's PE 0 in the world", n - 1, nvshmem_team_translate_pe(rev, 0, NVSHMEM_TEAM_WORLD));
  nvshmem_long_broadcast(rev, b, contrib, 1, 0);
  if (*b != (long)(seeds[n - 1] % 100000)) return fail(me, "nvshmem_long_broadcast from the reversed team's PE 0", (long)(seeds[n - 1] % 100000), *b);
  nvshmem_team_destroy(rev);
  nvshmem_barrier_all();
  if (me == 0) printf("04_nvshmem_host: %d PEs: ring, waits, team reduce and broadcast, team from a unique id: PASS\n", n);
  nvshmem_team_destroy(half);
  nvshmem_team_destroy(other);
  nvshmem_finalize();
  free(outbox);
  return 0;
}
