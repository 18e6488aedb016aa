/*
 * Reading and mapping position-independent executables for the PVAS
 * loader (see pvas_elf.h).  A copy is mapped the way the kernel's ELF
 * loader maps one: each PT_LOAD from the file, private, at bias + p_vaddr,
 * its bss zeroed to the end of the last file page and anonymous beyond.
 */
#include "pvas/pvas_elf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define PVAS_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define PVAS_MACHINE EM_AARCH64
#else
#error "the PVAS loader knows x86-64 and arm64 only"
#endif

#define PVAS_PAGE 4096u

static uint64_t pvas_down(uint64_t x)
{
    return x & ~(uint64_t)(PVAS_PAGE - 1);
}
static uint64_t pvas_up(uint64_t x)
{
    return pvas_down(x + PVAS_PAGE - 1);
}

static int pvas_read_at(int fd, void *buf, size_t len, off_t off)
{
    ssize_t n = pread(fd, buf, len, off);

    return (n == (ssize_t)len) ? 0 : -1;
}

/* The checks of the ELF header; 0 or -1 with @why. */
static int pvas_check_ehdr(const Elf64_Ehdr *eh, const char *path, char *why,
                           size_t len)
{
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
        snprintf(why, len,
                 "'%s' is not an ELF executable: --pvas runs "
                 "compiled programs only (a script cannot be loaded into "
                 "the node's address space)",
                 path);
        return -1;
    }
    if ((eh->e_ident[EI_CLASS] != ELFCLASS64) ||
        (eh->e_machine != PVAS_MACHINE)) {
        snprintf(why, len,
                 "'%s' is not a 64-bit executable for this "
                 "machine",
                 path);
        return -1;
    }
    if (eh->e_type == ET_EXEC) {
        snprintf(why, len,
                 "'%s' is not a position-independent executable "
                 "(ELF type ET_EXEC): --pvas loads the program once per PE "
                 "at a different address; rebuild it with -fPIE -pie "
                 "(xgascc does so by default) or run it without --pvas",
                 path);
        return -1;
    }
    if ((eh->e_type != ET_DYN) || (eh->e_entry == 0) ||
        (eh->e_phentsize != sizeof(Elf64_Phdr)) || (eh->e_phnum == 0)) {
        snprintf(why, len,
                 "'%s' is a shared library or an object file, "
                 "not an executable: build the program with -fPIE -pie",
                 path);
        return -1;
    }
    return 0;
}

/* Reads the program headers and what they say; 0 or -1 with @why. */
static int pvas_scan_phdrs(xg_pvas_image_t *img, const char *path, char *why,
                           size_t len)
{
    const Elf64_Phdr *ph;
    uint64_t end;
    int i;

    for (i = 0; i < img->ehdr.e_phnum; i++) {
        ph = &img->phdr[i];
        if (ph->p_type == PT_LOAD) {
            if ((ph->p_vaddr % PVAS_PAGE) != (ph->p_offset % PVAS_PAGE)) {
                snprintf(why, len,
                         "'%s': a loadable segment is not page "
                         "aligned in the file",
                         path);
                return -1;
            }
            end       = pvas_up(ph->p_vaddr + ph->p_memsz);
            img->span = (end > img->span) ? end : img->span;
            if ((img->nloads == 0) && (img->phdr_vaddr == 0) &&
                (img->ehdr.e_phoff >= ph->p_offset) &&
                (img->ehdr.e_phoff < ph->p_offset + ph->p_filesz)) {
                img->phdr_vaddr =
                    ph->p_vaddr + (img->ehdr.e_phoff - ph->p_offset);
            }
            img->nloads++;
        } else if (ph->p_type == PT_PHDR) {
            img->phdr_vaddr = ph->p_vaddr;
        } else if ((ph->p_type == PT_INTERP) &&
                   ((ph->p_filesz == 0) ||
                    (ph->p_filesz >= sizeof(img->interp)) ||
                    (pvas_read_at(img->fd, img->interp, ph->p_filesz,
                                  (off_t)ph->p_offset) != 0))) {
            snprintf(why, len, "'%s': cannot read its interpreter name", path);
            return -1;
        }
    }
    if (img->nloads == 0) {
        snprintf(why, len, "'%s' has nothing to load", path);
        return -1;
    }
    return 0;
}

/* The file offset of virtual address @vaddr, or 0 if no load holds it. */
static uint64_t pvas_file_offset(const xg_pvas_image_t *img, uint64_t vaddr)
{
    const Elf64_Phdr *ph;
    int i;

    for (i = 0; i < img->ehdr.e_phnum; i++) {
        ph = &img->phdr[i];
        if ((ph->p_type == PT_LOAD) && (vaddr >= ph->p_vaddr) &&
            (vaddr < ph->p_vaddr + ph->p_filesz)) {
            return ph->p_offset + (vaddr - ph->p_vaddr);
        }
    }
    return 0;
}

/* Counts the libraries the program names (DT_NEEDED), for the estimate
 * of its mappings; leaves the counts at 0 where the file does not say. */
static void pvas_count_needed(xg_pvas_image_t *img)
{
    Elf64_Dyn dyn[512];
    uint64_t strtab = 0, name_off;
    char name[64];
    size_t i, n = 0;
    int k;

    for (k = 0; k < img->ehdr.e_phnum; k++) {
        if (img->phdr[k].p_type == PT_DYNAMIC) {
            n = img->phdr[k].p_filesz / sizeof(Elf64_Dyn);
            n = (n > 512) ? 512 : n;
            if (pvas_read_at(img->fd, dyn, n * sizeof(Elf64_Dyn),
                             (off_t)img->phdr[k].p_offset) != 0) {
                return;
            }
            break;
        }
    }
    for (i = 0; (i < n) && (dyn[i].d_tag != DT_NULL); i++) {
        if (dyn[i].d_tag == DT_STRTAB) {
            strtab = pvas_file_offset(img, dyn[i].d_un.d_ptr);
        }
    }
    for (i = 0; (i < n) && (dyn[i].d_tag != DT_NULL); i++) {
        if (dyn[i].d_tag != DT_NEEDED) {
            continue;
        }
        img->nneeded++;
        name_off = strtab + dyn[i].d_un.d_val;
        memset(name, 0, sizeof(name));
        if ((strtab != 0) &&
            (pread(img->fd, name, sizeof(name) - 1, (off_t)name_off) > 0) &&
            (strncmp(name, "libxgas", 7) == 0)) {
            img->needs_xgas = 1;
        }
        if ((strncmp(name, "libasan", 7) == 0) ||
            (strncmp(name, "libtsan", 7) == 0) ||
            (strncmp(name, "libhwasan", 9) == 0)) {
            snprintf(img->sanitizer, sizeof(img->sanitizer), "%.31s", name);
        }
    }
}

int xg_pvas_image_open(xg_pvas_image_t *img, const char *path, char *why,
                       size_t len)
{
    size_t bytes;
    ssize_t got;

    memset(img, 0, sizeof(*img));
    img->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (img->fd < 0) {
        snprintf(why, len, "cannot open '%s' (%s)", path, strerror(errno));
        return -1;
    }
    /* a short file is judged by its first bytes: a script is not ELF */
    got = pread(img->fd, &img->ehdr, sizeof(img->ehdr), 0);
    if ((got >= (ssize_t)SELFMAG) && (got < (ssize_t)sizeof(img->ehdr)) &&
        (memcmp(img->ehdr.e_ident, ELFMAG, SELFMAG) == 0)) {
        snprintf(why, len, "'%s' is too short to be an ELF executable", path);
        goto err_close;
    }
    if (pvas_check_ehdr(&img->ehdr, path, why, len) != 0) {
        goto err_close;
    }
    bytes     = (size_t)img->ehdr.e_phnum * sizeof(Elf64_Phdr);
    img->phdr = malloc(bytes);
    if ((img->phdr == NULL) || (pvas_read_at(img->fd, img->phdr, bytes,
                                             (off_t)img->ehdr.e_phoff) != 0)) {
        snprintf(why, len, "cannot read the program headers of '%s'", path);
        goto err_close;
    }
    img->interp[0] = '\0';
    if (pvas_scan_phdrs(img, path, why, len) != 0) {
        goto err_close;
    }
    pvas_count_needed(img);
    return 0;

err_close:
    xg_pvas_image_close(img);
    return -1;
}

static int pvas_prot(uint32_t flags)
{
    return ((flags & PF_R) ? PROT_READ : 0) |
           ((flags & PF_W) ? PROT_WRITE : 0) | ((flags & PF_X) ? PROT_EXEC : 0);
}

/* Maps one PT_LOAD @ph of @img at @bias. */
static int pvas_map_load(const xg_pvas_image_t *img, const Elf64_Phdr *ph,
                         uintptr_t bias)
{
    uint64_t start      = bias + pvas_down(ph->p_vaddr);
    uint64_t file_end   = bias + ph->p_vaddr + ph->p_filesz;
    uint64_t mem_end    = pvas_up(bias + ph->p_vaddr + ph->p_memsz);
    uint64_t file_pages = pvas_up(file_end);
    int prot            = pvas_prot(ph->p_flags);

    if (ph->p_filesz > 0) {
        /* writable while the bss part of its last page is cleared */
        if (mmap((void *)start, file_pages - start,
                 prot | ((ph->p_memsz > ph->p_filesz) ? PROT_WRITE : 0),
                 MAP_PRIVATE | MAP_FIXED, img->fd,
                 (off_t)pvas_down(ph->p_offset)) == MAP_FAILED) {
            return -1;
        }
        if (ph->p_memsz > ph->p_filesz) {
            memset((void *)file_end, 0, file_pages - file_end);
            if (mprotect((void *)start, file_pages - start, prot) != 0) {
                return -1;
            }
        }
        start = file_pages;
    }
    if ((mem_end > start) &&
        (mmap((void *)start, mem_end - start, prot,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)) {
        return -1;
    }
    return 0;
}

int xg_pvas_image_map(const xg_pvas_image_t *img, uintptr_t bias)
{
    int i;

    for (i = 0; i < img->ehdr.e_phnum; i++) {
        if ((img->phdr[i].p_type == PT_LOAD) &&
            (pvas_map_load(img, &img->phdr[i], bias) != 0)) {
            return -1;
        }
    }
    return 0;
}

void xg_pvas_image_close(xg_pvas_image_t *img)
{
    if (img->fd >= 0) {
        close(img->fd);
    }
    img->fd = -1;
    free(img->phdr);
    img->phdr = NULL;
}
