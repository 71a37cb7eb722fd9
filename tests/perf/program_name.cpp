// One program's name (program_name.h), from -DGSHMEM_PERF_PROGRAM_NAME.
#include "program_name.h"

extern const char gshmem_perf_program[] = GSHMEM_PERF_STR(GSHMEM_PERF_PROGRAM_NAME);
