/* A translation unit that registers its device state through the entry point of headers before
 * device-state version 7, as a unit compiled against those headers does: shmem_init must fail
 * with a message naming both versions, not run device code against a state of another layout. */
#include <gshmem/device_host/state.h>
#include <shmem.h>

static void update(const gshmem_device_state* s) { (void)s; }

int main(void) {
  gshmemi_register_device_state(update);
  shmem_init();
  shmem_finalize();
  return 0;
}
