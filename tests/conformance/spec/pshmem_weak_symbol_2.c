/* OpenSHMEM 1.5 specification, example pshmem_weak_symbol_2 (section 10.2.2 OpenSHMEM Library). */
void pshmem_example(/* appropriate arguments */)
{
    /* function body */
}

void shmem_example(/* appropriate arguments */) __attribute__ ((weak, alias("pshmem_example")));
