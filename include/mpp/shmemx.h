/* mpp/shmemx.h: see mpp/shmem.h. */
#include "../shmemx.h"
