/* Deprecated include path (OpenSHMEM 1.5 still accepts <mpp/shmemx.h>): the same as <shmemx.h>. */
#include <shmemx.h>
