/* OpenSHMEM 1.5 specification, example pshmem_weak_symbol_1 (section 10.2.2 OpenSHMEM Library). */
#pragma weak shmem_example = pshmem_example

void pshmem_example(/* appropriate arguments */)
{
    /* function body */
}
