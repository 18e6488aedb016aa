/*
 * The ELF side of the PVAS loader (docs/pvas.md): reads a position-
 * independent executable once and maps copies of it, and of its program
 * interpreter, at chosen load biases inside the reserved node range.
 *
 * Invariants:
 *  - Only the root process (pvas_root.c) calls these; it maps with
 *    MAP_FIXED into the range it reserved itself, never elsewhere.
 *  - An image is checked when opened: 64-bit, this machine, ET_DYN with
 *    an entry point, at least one PT_LOAD, page-aligned loads.  A refusal
 *    says what the file is and how to build one that works.
 */
#ifndef XG_PVAS_ELF_H
#define XG_PVAS_ELF_H

#include <elf.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xg_pvas_image {
    int fd;
    Elf64_Ehdr ehdr;
    Elf64_Phdr *phdr;    /* ehdr.e_phnum headers */
    uint64_t span;       /* bytes from 0 to the end of the loads */
    uint64_t phdr_vaddr; /* where the headers are once loaded */
    int nloads;
    int nneeded;           /* DT_NEEDED entries */
    int needs_xgas;        /* one of them is libxgas */
    char sanitizer[32];    /* a sanitizer runtime it needs, or "" */
    char interp[PATH_MAX]; /* PT_INTERP, "" for a static PIE */
} xg_pvas_image_t;

/* Opens @path and checks it can be loaded at any address.  Returns 0, or
 * -1 with the reason in @why (@len bytes): names the file and the fix. */
int xg_pvas_image_open(xg_pvas_image_t *img, const char *path, char *why,
                       size_t len);

/* Maps a copy of @img with load bias @bias (page aligned), over whatever
 * the root reserved there.  Returns 0, or -1 with errno set. */
int xg_pvas_image_map(const xg_pvas_image_t *img, uintptr_t bias);

void xg_pvas_image_close(xg_pvas_image_t *img);

/* The number of distinct shared libraries the program at @path loads
 * (its DT_NEEDED closure, found through RPATH, LD_LIBRARY_PATH, RUNPATH
 * and the default directories, as ld.so does; pvas_libs.c).  Libraries
 * it cannot find are not counted; 0 for a static program. */
int xg_pvas_count_libraries(const char *path);

#endif
