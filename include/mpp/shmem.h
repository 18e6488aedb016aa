/* mpp/shmem.h: the header directory of OpenSHMEM 1.0, deprecated since 1.1
 * and still part of 1.6.  The same declarations as <shmem.h>. */
#include "../shmem.h"
