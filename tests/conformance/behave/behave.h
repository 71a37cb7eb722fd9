/* Shared harness of the tests/conformance/behave programs (see README.md in this folder).
 *
 * A program defines BEHAVE_NAME, includes this header before any other header, calls bh_start() first
 * and returns bh_finish() from main. Every PE checks its own part with BH_CHECK; a failing PE
 * prints "FAIL <name>: pe K: <what>" (at most BH_MAX_LINES lines). bh_finish() adds up the
 * failing PEs on PE 0, which prints "PASS <name>" when none failed; every PE then exits 1 if any
 * PE failed, 0 otherwise. A watchdog (SIGALRM after BH_TIMEOUT_S seconds) turns a call that never
 * returns into "FAIL <name>: pe K: timed out ..." and exit status 1, so no program can hang.
 * bh_skip() prints "SKIP <name>: <why>" on PE 0 and exits 77 on every PE. */
#ifndef BEHAVE_H
#define BEHAVE_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* alarm, write, clock_gettime under -std=c11 */
#endif
#include <shmem.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BEHAVE_NAME
#error "define BEHAVE_NAME before including behave.h"
#endif

#ifndef BH_TIMEOUT_S
#define BH_TIMEOUT_S 45
#endif
#define BH_MAX_LINES 8

static int bh_me = -1;
static int bh_npes = 0;
static int bh_failures = 0;
static int bh_total_failed; /* symmetric (file-scope static): failing PEs, counted on PE 0 */
static char bh_timeout_msg[256];
static size_t bh_timeout_len;

static void bh_set_timeout_msg(void) {
  int n = snprintf(bh_timeout_msg, sizeof bh_timeout_msg,
                   "FAIL %s: pe %d: timed out after %d s (a call did not return)\n", BEHAVE_NAME,
                   bh_me, BH_TIMEOUT_S);
  bh_timeout_len = n > 0 ? (size_t)n : 0;
}

static void bh_on_alarm(int sig) {
  (void)sig;
  ssize_t w = write(STDOUT_FILENO, bh_timeout_msg, bh_timeout_len);
  (void)w;
  _exit(1);
}

static void bh_start(void) {
  bh_set_timeout_msg();
  signal(SIGALRM, bh_on_alarm);
  alarm(BH_TIMEOUT_S);
  shmem_init();
  bh_me = shmem_my_pe();
  bh_npes = shmem_n_pes();
  bh_set_timeout_msg();
}

static void bh_fail(const char *fmt, ...) {
  bh_failures++;
  if (bh_failures > BH_MAX_LINES) return;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  printf("FAIL %s: pe %d: %s%s\n", BEHAVE_NAME, bh_me, what,
         bh_failures == BH_MAX_LINES ? " (further failures of this PE not printed)" : "");
  fflush(stdout);
}

#define BH_CHECK(cond, ...)    \
  do {                         \
    if (!(cond)) bh_fail(__VA_ARGS__); \
  } while (0)

/* splitmix64: the payload generator of the programs that draw fresh values from a shared seed. */
static inline uint64_t bh_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Collective over all PEs: report and return the exit status for main. */
static int bh_finish(void) {
  shmem_barrier_all();
  if (bh_failures) shmem_int_atomic_add(&bh_total_failed, 1, 0);
  shmem_barrier_all();
  int total = shmem_int_atomic_fetch(&bh_total_failed, 0);
  if (bh_me == 0) {
    if (total == 0)
      printf("PASS %s\n", BEHAVE_NAME);
    else
      printf("FAIL %s: %d of %d PEs reported failures\n", BEHAVE_NAME, total, bh_npes);
    fflush(stdout);
  }
  shmem_finalize();
  alarm(0);
  return total == 0 ? 0 : 1;
}

static inline void bh_skip(const char *why) {
  if (bh_me == 0) {
    printf("SKIP %s: %s\n", BEHAVE_NAME, why);
    fflush(stdout);
  }
  shmem_finalize();
  alarm(0);
  exit(77);
}

#endif
