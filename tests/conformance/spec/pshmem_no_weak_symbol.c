/* OpenSHMEM 1.5 specification, example pshmem_no_weak_symbol (section 10.2.2 OpenSHMEM Library). */
#ifdef BUILD_PSHMEM_INTERFACES
#define SHFN(fn) p##fn
#else
#define SHFN(fn) fn
#endif

void SHFN(shmem_example)(/* appropriate arguments */)
{
    /* function body */
}
