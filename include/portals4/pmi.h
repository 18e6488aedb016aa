/*
 * <portals4/pmi.h>: where Portals 4 programs (the reference implementation's
 * tests among them) look for PMI.  xgas's PMI-1 is <pmi.h>, in libpmi.
 */
#ifndef XGAS_PORTALS4_PMI_H
#define XGAS_PORTALS4_PMI_H

#include <pmi.h>

#endif
