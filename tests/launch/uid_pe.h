/* One PE of a job started without any launcher (tests/launch/test_uid_fault.py starts each PE as
 * its own process): rank 0 prints the unique id as "UID <hex>", the others take it from argv.
 * Shared by uid_fault.c (CPU waits) and tests/gpu/gpu_uid_fault.cu (a kernel waiting). */
#ifndef GSHMEM_TESTS_UID_PE_H
#define GSHMEM_TESTS_UID_PE_H
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* argv: RANK NPES MODE HEX-ID ("-" for rank 0) ...; returns the rank after shmem init, or exits 2 on
 * bad use. */
static int uid_pe_init(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s RANK NPES MODE HEX-ID|- ...\n", argv[0]);
    exit(2);
  }
  const int rank = atoi(argv[1]), n = atoi(argv[2]);
  shmemx_uniqueid_t id;
  unsigned char *b = (unsigned char *)&id;
  if (rank == 0) {
    if (shmemx_get_uniqueid(&id) != 0) exit(2);
    printf("UID ");
    for (size_t i = 0; i < sizeof id; ++i) printf("%02x", b[i]);
    printf("\n");
    fflush(stdout);
  } else {
    const char *hex = argc > 4 ? argv[4] : "";
    if (strlen(hex) != 2 * sizeof id) {
      fprintf(stderr, "rank %d: bad unique id argument\n", rank);
      exit(2);
    }
    for (size_t i = 0; i < sizeof id; ++i) {
      unsigned v;
      sscanf(hex + 2 * i, "%2x", &v);
      b[i] = (unsigned char)v;
    }
  }
  shmemx_init_attr_t attr;
  if (shmemx_set_attr_uniqueid_args(rank, n, &id, &attr) != 0 || shmemx_init_attr(SHMEMX_INIT_WITH_UNIQUEID, &attr) != 0)
    exit(3);
  return rank;
}

/* After init and a barrier: tells the driver this PE is about to block (or, the victim, to wait
 * for its SIGKILL). */
static void uid_pe_ready(int rank) {
  shmem_barrier_all();
  printf("READY %d %d\n", rank, (int)getpid());
  fflush(stdout);
}
#endif
