/* Deprecated include path (OpenSHMEM 1.5 still accepts <mpp/shmem.h>): the same as <shmem.h>. */
#include <shmem.h>
