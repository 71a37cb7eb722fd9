/* OpenSHMEM 1.5 specification, example shmem_atomic_compare_swap_example (section 9.8.3 SHMEM_ATOMIC_COMPARE_SWAP). */
#include <stdio.h>
#include <shmem.h>

int main(void)
{
   static int race_winner = -1;
   int oldval;
   shmem_init();
   oldval = shmem_atomic_compare_swap(&race_winner, -1, shmem_my_pe(), 0);
   if(oldval == -1) printf("pe %d was first\n",shmem_my_pe());
   shmem_finalize();
   return 0;
}
