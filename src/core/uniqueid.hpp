// Unique-id initialisation for frameworks: rank 0 creates a listening socket and a secret
// (get_uniqueid), the framework ships the id to every rank its own way, and every rank starts the
// runtime with its rank and the rank count.
#pragma once
#include <cstddef>

namespace gshmem::core {

// Writes the id's text (NUL-terminated, fits 128 bytes) to out. 0, or nonzero with a message.
int get_uniqueid(char* out, size_t size);
// Starts the runtime from an id (rank 0 must pass the id it got from get_uniqueid). 0, or nonzero
// with a message naming call; failures after the bootstrap started end the job.
int init_from_uniqueid(const char* call, int rank, int nranks, const char* id);
// Starts the runtime over the program's MPI communicator (comm: the address of its MPI_Comm; MPI
// initialised): the communicator's ranks are the PEs.
int init_from_mpi_comm(const char* call, const void* comm);

}  // namespace gshmem::core
