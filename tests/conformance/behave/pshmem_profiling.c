/* pshmem_profiling: the OpenSHMEM profiling interface. The program is its own "profiling
 * library": it defines shmem_putmem and shmem_barrier_all, each counting the call and forwarding
 * to the name-shifted pshmem_putmem / pshmem_barrier_all, then checks the counts and the data
 * after a known number of calls; it also calls shmem_pcontrol with levels 0, 1 and 2 (and the
 * name-shifted pshmem_pcontrol), which must return and change nothing. Includes <pshmem.h>.
 *
 * OpenSHMEM 1.5, profiling interface:
 *   "An OpenSHMEM implementation must provide a mechanism through which all of the OpenSHMEM
 *    defined functions may be accessible with a name shift. This requires an alternate entry
 *    point name, with the prefix pshmem_ for each OpenSHMEM function."
 *   "It must be ensured that the OpenSHMEM functions that are not replaced as above, may still
 *    be linked into an executable image without causing name clashes."
 *   "A no-op routine, shmem_pcontrol, must be provided in the OpenSHMEM library."
 *   "It must be ensured that any OpenSHMEM types or constants that are needed by the pshmem_
 *    interfaces are defined in pshmem.h."
 *   "Provided that an OpenSHMEM implementation meets these requirements, it is possible for the
 *    implementor of the profiling system to intercept the OpenSHMEM calls that are made by the
 *    user program. The information required can be collected before and after calling the
 *    underlying OpenSHMEM implementation through the name shifted entry points."
 *   Multiple counting: "It is the developer's responsibility to ensure the profiling application
 *    does not count a function more than once if that effect is not intended. For a
 *    single-threaded profiler, this can be achieved through a static variable" -- hence the
 *    `depth` guard below (calls the library makes from inside a wrapped call are not counted).
 *   shmem_pcontrol: "void shmem_pcontrol(const int level, ...);" "OpenSHMEM libraries make no
 *    use of this routine and simply return immediately to the user code."
 *   The specification's profiler example: "#include <pshmem.h>" and a user-defined
 *    shmem_long_put that calls pshmem_long_put.
 *
 * Expected to fail to compile for now: gshmem does not ship <pshmem.h> yet.
 * PE counts: any N >= 1 (meant for 2, 3, 4). */
#define BEHAVE_NAME "pshmem_profiling"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <pshmem.h>

static long n_putmem, n_barrier_all, n_long_put;
static int depth;

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe) {
  if (depth == 0) n_putmem++;
  depth++;
  pshmem_putmem(dest, source, nelems, pe);
  depth--;
}

void shmem_barrier_all(void) {
  if (depth == 0) n_barrier_all++;
  depth++;
  pshmem_barrier_all();
  depth--;
}

void shmem_long_put(long *dest, const long *source, size_t nelems, int pe) {
  if (depth == 0) n_long_put++;
  depth++;
  pshmem_long_put(dest, source, nelems, pe);
  depth--;
}

#define K_PUT 5
#define M_BAR 3
static char box[K_PUT][16];
static long lbox[4];

int main(void) {
  bh_start();
  const int me = bh_me, n = bh_npes, right = (me + 1) % n, left = (me - 1 + n) % n;

  shmem_pcontrol(1);
  shmem_pcontrol(0);
  shmem_pcontrol(2);
  shmem_pcontrol(1);
  pshmem_pcontrol(1);
  BH_CHECK(pshmem_my_pe() == me && pshmem_n_pes() == n,
           "pshmem_my_pe/pshmem_n_pes disagree with shmem_my_pe/shmem_n_pes");

  pshmem_barrier_all(); /* not counted: called by name */
  n_putmem = n_barrier_all = n_long_put = 0;

  /* The measured section: K_PUT putmem, 1 long_put, M_BAR barrier_all, nothing else wrapped. */
  char msg[16];
  for (int k = 0; k < K_PUT; k++) {
    snprintf(msg, sizeof msg, "p%d-k%d", me, k);
    shmem_putmem(box[k], msg, sizeof msg, right);
  }
  long lsrc[4] = {me, me + 10, me + 20, me + 30};
  shmem_long_put(lbox, lsrc, 4, right);
  for (int b = 0; b < M_BAR; b++) shmem_barrier_all();
  long got_put = n_putmem, got_bar = n_barrier_all, got_lput = n_long_put;

  BH_CHECK(got_put == K_PUT, "wrapper shmem_putmem counted %ld calls, want %d", got_put, K_PUT);
  BH_CHECK(got_bar == M_BAR, "wrapper shmem_barrier_all counted %ld calls, want %d", got_bar,
           M_BAR);
  BH_CHECK(got_lput == 1, "wrapper shmem_long_put counted %ld calls, want 1", got_lput);
  for (int k = 0; k < K_PUT; k++) {
    snprintf(msg, sizeof msg, "p%d-k%d", left, k);
    BH_CHECK(strcmp(box[k], msg) == 0, "putmem data from PE %d: slot %d holds \"%.15s\", want \"%s\"",
             left, k, box[k], msg);
  }
  for (int i = 0; i < 4; i++)
    BH_CHECK(lbox[i] == left + 10 * i, "long_put data from PE %d: [%d] = %ld", left, i, lbox[i]);

  shmem_pcontrol(0); /* "profiling disabled": still a no-op for the library */
  shmem_barrier_all();
  return bh_finish();
}
