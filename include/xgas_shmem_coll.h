#ifndef XGAS_SHMEM_COLL_H
#define XGAS_SHMEM_COLL_H
#include "shmem.h"
#endif
