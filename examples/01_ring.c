/* 01_ring: a token ring with put-with-signal, plus a shared atomic counter.
 * Each PE sends a random payload to its right neighbour with shmem_putmem_signal, waits for
 * the payload from its left neighbour, checks it, and forwards a running checksum around the
 * ring. Run: oshrun -np 4 ./01_ring */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define N 1024

static uint64_t payload[N]; /* globals are symmetric data objects */
static uint64_t signal_word;
static long tickets;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
  return x;
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  uint64_t *out = shmem_malloc(N * sizeof *out);
  const uint64_t seed = mix((uint64_t)time(NULL) ^ (uint64_t)me << 32);
  for (int i = 0; i < N; ++i) out[i] = mix(seed + (uint64_t)i);
  memset(payload, 0xA5, sizeof payload);
  shmem_barrier_all();

  /* send to the right, tell the left PE's seed so the receiver can check the data */
  static uint64_t left_seed;
  shmem_uint64_p(&left_seed, seed, right);
  shmem_fence();
  shmem_putmem_signal(payload, out, sizeof payload, &signal_word, 1, SHMEM_SIGNAL_SET, right);
  shmem_signal_wait_until(&signal_word, SHMEM_CMP_EQ, 1);

  int bad = 0;
  for (int i = 0; i < N; ++i) bad += payload[i] != mix(left_seed + (uint64_t)i);

  long ticket = shmem_long_atomic_fetch_inc(&tickets, 0);
  shmem_barrier_all();
  long total = shmem_long_g(&tickets, 0);
  printf("pe %d of %d: got %d words from pe %d, %s; ticket %ld of %ld\n", me, npes, N, left,
         bad ? "CORRUPT" : "verified", ticket, total);
  shmem_free(out);
  shmem_finalize();
  return bad || total != npes ? 1 : 0;
}
