/* A PE that blocks forever on a peer that will be killed: MODE "barrier" (shmem_barrier_all),
 * "wait" (shmem_long_wait_until on a flag nobody sets) or "outside" (blocked in the program's own
 * code, as a host thread in cudaStreamSynchronize is: only gshmem's health monitor can see it). The victim (argv[5]) never blocks in
 * gshmem: it sleeps until the driver kills it. Nothing here ends the survivors: only gshmem
 * noticing the dead PE can (tests/launch/test_uid_fault.py). */
#include "uid_pe.h"

static long flag;

int main(int argc, char **argv) {
  const int rank = uid_pe_init(argc, argv);
  const char *mode = argv[3];
  const int victim = argc > 5 ? atoi(argv[5]) : 1;
  uid_pe_ready(rank);
  if (rank == victim)
    for (;;) pause();
  if (strcmp(mode, "barrier") == 0) shmem_barrier_all();
  else if (strcmp(mode, "wait") == 0) shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
  else if (strcmp(mode, "outside") == 0)
    for (;;) pause();
  printf("pe %d: the %s returned although pe %d is dead\n", rank, mode, victim);
  return 0;  /* a survivor that gets here is the failure the driver reports */
}
