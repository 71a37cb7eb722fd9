/* OpenSHMEM 1.5 C11 type-generic interfaces (_Generic selection in shmem.h).
 * The test body is shared with generic_cxx.cpp: see generic_common.h. */
#include "generic_common.h"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "generic_c11.c must be compiled as C11 or later"
#endif

int main(void)
{
    generic_main("generic_c11");
    return 0;
}
