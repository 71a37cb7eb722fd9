// OpenSHMEM type-generic names through the C++ overloads that shmem.h
// provides when __cplusplus is defined. The test body is shared with
// generic_c11.c: see generic_common.h. Built as C++17.
#include "generic_common.h"

#if __cplusplus < 201703L
#error "generic_cxx.cpp expects C++17"
#endif

int main()
{
    generic_main("generic_cxx");
    return 0;
}
