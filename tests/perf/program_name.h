// A perf program's name. Programs that differ only in their name share one compiled object, and
// each links a one-line object of its own (program_name.cpp, built with -DGSHMEM_PERF_PROGRAM_NAME)
// that defines gshmem_perf_program. A build that compiles each program on its own (NVSHMEM's
// side-by-side build, build_nvshmem.sh) names it with a macro instead (PERFTEST_PROGRAM,
// GSHMEM_PERF_SUITE), read through GSHMEM_PERF_STR.
#pragma once
#define GSHMEM_PERF_STR2(x) #x
#define GSHMEM_PERF_STR(x) GSHMEM_PERF_STR2(x)
extern const char gshmem_perf_program[];
