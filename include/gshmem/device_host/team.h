/* Team handles as host and device code pass them: small integers (a kernel argument like any
 * other). The predefined teams have fixed handles; shmem_team_split_* hands out the others. */
#ifndef GSHMEM_DEVICE_HOST_TEAM_H
#define GSHMEM_DEVICE_HOST_TEAM_H

typedef int shmem_team_t;
#define SHMEM_TEAM_INVALID ((shmem_team_t)-1)
#define SHMEM_TEAM_WORLD ((shmem_team_t)0)
#define SHMEM_TEAM_SHARED ((shmem_team_t)1)
#define SHMEMX_TEAM_NODE ((shmem_team_t)2)

#endif
