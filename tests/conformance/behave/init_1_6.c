/* init_1_6: repeated and nested initialization as OpenSHMEM 1.6 allows it, with
 * shmem_query_initialized. Build with -std=c11.
 *
 * OpenSHMEM 1.6, shmem_init: "The shmem_init and shmem_init_thread initialization routines may be
 *   called multiple times within an OpenSHMEM program. A corresponding call to shmem_finalize must
 *   be made for each call to an OpenSHMEM initialization routine. The OpenSHMEM library must not
 *   be finalized until after the last call to shmem_finalize and may be re-initialized with a
 *   subsequent call to an initialization routine."
 * shmem_finalize: "The last call to shmem_finalize performs an implicit global barrier ... All
 *   other calls to shmem_finalize perform an operation semantically equivalent to
 *   shmem_barrier_all and return without freeing any OpenSHMEM resources." "The last call to
 *   shmem_finalize causes the OpenSHMEM library to enter an uninitialized state."
 * shmem_query_initialized: nonzero between an initialization and "the corresponding call to
 *   shmem_finalize", zero otherwise; "may be called at any time".
 *
 * Three lives of the library in one process. In each: nested init (shmem_init, then
 * shmem_init_thread), the PE numbering, a ring of fresh random payloads through a symmetric heap
 * object and through a global (globals stay symmetric across lives), a team split, the inner
 * finalize (a barrier: data put before it is visible after it, the library still initialized),
 * the outer finalize. PE counts: any N >= 1 (meant for 2, 3, 4). */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define N 257
static long global_ring[N];
static uint64_t seed_sym;
static int failures;

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "FAIL init_1_6: timed out (a call did not return)\n";
  ssize_t w = write(STDOUT_FILENO, msg, sizeof msg - 1);
  (void)w;
  _exit(1);
}

#define CHECK(cond, ...)                         \
  do {                                           \
    if (!(cond)) {                               \
      if (++failures <= 8) {                     \
        printf("FAIL init_1_6: pe %d: ", me);   \
        printf(__VA_ARGS__);                     \
        printf("\n");                            \
        fflush(stdout);                          \
      }                                          \
    }                                            \
  } while (0)

static uint64_t mix(uint64_t x) { /* splitmix64 */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

int main(void) {
  signal(SIGALRM, on_alarm);
  alarm(60);
  int me = -1, npes0 = -1, me0 = -1, init = -1;
  shmem_query_initialized(&init);
  if (init != 0) printf("FAIL init_1_6: shmem_query_initialized before any init gave %d\n", init), failures++;
  for (int life = 0; life < 3; life++) {
    shmem_init();
    int provided = -1;
    shmem_init_thread(SHMEM_THREAD_SINGLE, &provided); /* nested: counts, starts nothing */
    me = shmem_my_pe();
    const int npes = shmem_n_pes();
    if (life == 0) me0 = me, npes0 = npes;
    CHECK(me == me0 && npes == npes0, "life %d: pe %d of %d, first life pe %d of %d", life, me, npes, me0, npes0);
    shmem_query_initialized(&init);
    CHECK(init != 0, "life %d: shmem_query_initialized after init gave 0", life);

    if (me == 0) seed_sym = mix((uint64_t)time(NULL) ^ ((uint64_t)clock() << 20) ^ (uint64_t)life);
    shmem_barrier_all();
    const uint64_t seed = shmem_uint64_g(&seed_sym, 0);
    const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long *heap_ring = shmem_malloc(N * sizeof(long));
    CHECK(heap_ring != NULL, "life %d: shmem_malloc returned NULL", life);
    long mine[N];
    for (int i = 0; i < N; i++) {
      mine[i] = (long)mix(seed ^ ((uint64_t)me << 32) ^ (uint64_t)i);
      heap_ring[i] = global_ring[i] = -1;
    }
    shmem_barrier_all();
    shmem_long_put(heap_ring, mine, N, right);
    shmem_long_put(global_ring, mine, N, right);
    /* the inner finalize: a barrier_all, the library stays initialized */
    shmem_finalize();
    shmem_query_initialized(&init);
    CHECK(init != 0, "life %d: shmem_query_initialized after the inner finalize gave 0", life);
    int bad_heap = 0, bad_global = 0;
    for (int i = 0; i < N; i++) {
      const long want = (long)mix(seed ^ ((uint64_t)left << 32) ^ (uint64_t)i);
      bad_heap += heap_ring[i] != want;
      bad_global += global_ring[i] != want;
    }
    CHECK(bad_heap == 0, "life %d: %d of %d heap elements from pe %d missing after the inner finalize", life,
          bad_heap, N, left);
    CHECK(bad_global == 0, "life %d: %d of %d global elements from pe %d missing after the inner finalize", life,
          bad_global, N, left);

    shmem_team_t half = SHMEM_TEAM_INVALID;
    const int hsize = (npes + 1) / 2;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, hsize, NULL, 0, &half);
    CHECK((half != SHMEM_TEAM_INVALID) == (me < hsize), "life %d: team split membership", life);
    if (half != SHMEM_TEAM_INVALID) {
      CHECK(shmem_team_my_pe(half) == me, "life %d: team pe %d", life, shmem_team_my_pe(half));
      shmem_team_destroy(half);
    }
    shmem_free(heap_ring);
    static int total;
    total = 0;
    shmem_barrier_all();
    if (failures) shmem_int_atomic_add(&total, 1, 0);
    shmem_barrier_all();
    if (life == 2 && me == 0) {
      const int t = shmem_int_atomic_fetch(&total, 0);
      if (t == 0) printf("PASS init_1_6\n");
      else printf("FAIL init_1_6: %d PEs reported failures\n", t);
      fflush(stdout);
    }
    shmem_finalize(); /* the last: the library is uninitialized */
    shmem_query_initialized(&init);
    CHECK(init == 0, "life %d: shmem_query_initialized after the last finalize gave %d", life, init);
  }
  alarm(0);
  return failures ? 1 : 0;
}
