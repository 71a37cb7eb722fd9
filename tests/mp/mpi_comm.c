/* shmemx_init_attr(SHMEMX_INIT_WITH_MPI_COMM): the PEs are the ranks of the communicator the
 * program passes, not MPI_COMM_WORLD's. The world is split in two (even and odd world ranks) with
 * the rank order reversed, so each half is a job of its own whose PE numbers differ from the world
 * ranks; each checks my_pe/n_pes against the communicator, then moves a fresh random payload
 * around its ring and checks every byte. Run under mpirun at 2 and 4 ranks. */
#include "mp_util.h"

#include <mpi.h>
#include <shmemx.h>

#define NBYTES 4096

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &comm);
    int crank, csize;
    MPI_Comm_rank(comm, &crank);
    MPI_Comm_size(comm, &csize);

    shmemx_init_attr_t attr;
    memset(&attr, 0, sizeof attr);
    attr.mpi_comm = &comm;
    int rc = shmemx_init_attr(SHMEMX_INIT_WITH_MPI_COMM, &attr);
    mp_name = "mpi_comm";
    if (rc != 0) {
        fprintf(stderr, "FAIL mpi_comm: world rank %d: shmemx_init_attr (expected 0 got %d)\n", wrank, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    mp_setup("mpi_comm");
    MP_CHECK_EQ("shmem_my_pe() vs the communicator's rank", crank, shmem_my_pe());
    MP_CHECK_EQ("shmem_n_pes() vs the communicator's size", csize, shmem_n_pes());
    MP_CHECK(strcmp(shmemx_bootstrap_name(), "mpi") == 0, "bootstrap (expected mpi got %s)",
             shmemx_bootstrap_name());

    unsigned char *dst = (unsigned char *)shmem_malloc(NBYTES);
    unsigned char *src = (unsigned char *)malloc(NBYTES);
    MP_CHECK(dst && src, "allocation (expected non-NULL got NULL)");
    const uint64_t tag = mp_tag("mpi_comm", (uint64_t)wrank % 2);
    mp_poison(dst, NBYTES);
    mp_fill(src, NBYTES, mp_me, tag);
    shmem_barrier_all();
    shmem_putmem(dst, src, NBYTES, mp_right());
    shmem_barrier_all();
    mp_check_bytes("putmem from the left PE of the communicator's ring", dst, NBYTES, mp_left(), tag);
    shmem_free(dst);
    free(src);
    mp_pass();
    shmem_finalize();
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
