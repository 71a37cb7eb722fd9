/* Unique-id initialisation as a framework does it, without any launcher: the parent is rank 0,
 * gets the id, forks the other ranks (the id travels by memory, as it would over the framework's
 * own channel), and every rank calls shmemx_init_attr. Then a ring of random puts is checked. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t mix(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
  return x;
}

static int run_rank(int rank, int n, const shmemx_uniqueid_t *id, uint64_t seed) {
  shmemx_init_attr_t attr;
  if (shmemx_set_attr_uniqueid_args(rank, n, id, &attr) != 0) return 10;
  if (shmemx_init_attr(SHMEMX_INIT_WITH_UNIQUEID, &attr) != 0) return 11;
  if (shmem_my_pe() != rank || shmem_n_pes() != n) {
    fprintf(stderr, "FAIL uniqueid: rank %d got pe %d of %d\n", rank, shmem_my_pe(), shmem_n_pes());
    return 12;
  }
  uint64_t *buf = shmem_malloc(1024 * sizeof(uint64_t));
  uint64_t src[1024];
  for (int i = 0; i < 1024; ++i) { src[i] = mix(seed ^ ((uint64_t)rank << 40) ^ (uint64_t)i); buf[i] = 0xA5A5A5A5A5A5A5A5ull; }
  shmem_barrier_all();
  shmem_putmem(buf, src, sizeof src, (rank + 1) % n);
  shmem_barrier_all();
  const int left = (rank + n - 1) % n;
  int bad = 0;
  for (int i = 0; i < 1024; ++i) bad += buf[i] != mix(seed ^ ((uint64_t)left << 40) ^ (uint64_t)i);
  if (bad) fprintf(stderr, "FAIL uniqueid: pe %d: %d of 1024 words from pe %d wrong\n", rank, bad, left);
  if (!bad && strcmp(shmemx_bootstrap_name(), "uid") != 0) {
    fprintf(stderr, "FAIL uniqueid: bootstrap is %s\n", shmemx_bootstrap_name());
    bad = 1;
  }
  shmem_free(buf);
  shmem_finalize();
  return bad ? 13 : 0;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 3;
  shmemx_uniqueid_t id;
  if (shmemx_get_uniqueid(&id) != 0) return 2;
  const uint64_t seed = mix((uint64_t)time(NULL) ^ (uint64_t)getpid());
  pid_t kids[64];
  for (int r = 1; r < n && r < 64; ++r) {
    kids[r] = fork();
    if (kids[r] == 0) _exit(run_rank(r, n, &id, seed));
  }
  int rc = run_rank(0, n, &id, seed);
  for (int r = 1; r < n && r < 64; ++r) {
    int st = 0;
    waitpid(kids[r], &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      fprintf(stderr, "FAIL uniqueid: rank %d ended with status 0x%x\n", r, st);
      rc = 1;
    }
  }
  if (rc == 0) printf("PASS uniqueid: %d ranks\n", n);
  return rc;
}
