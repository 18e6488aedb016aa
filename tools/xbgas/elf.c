/*
 * Loading a static RV64 Linux executable into guest memory and building
 * its initial stack (argc, argv, envp, auxv) as the Linux kernel does.
 *
 * Invariants: only ET_EXEC, ELFCLASS64, little-endian, EM_RISCV files load;
 * every PT_LOAD segment must lie inside [lo, mmap_top) (below the shared
 * region and the stack), else a set-up error names the segment.  The brk
 * area starts at the page after the highest segment.
 */
#include "machine_int.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static uint8_t *read_file(const char *path, size_t *len_p)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        mach_die("cannot open guest program '%s'", path);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(len > 0 ? (size_t)len : 1);
    if (!buf || len <= 0 || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        mach_die("cannot read guest program '%s'", path);
    }
    fclose(f);
    *len_p = (size_t)len;
    return buf;
}

static const Elf64_Ehdr *check_header(const uint8_t *buf, size_t len,
                                      const char *path)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
    if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_RISCV) {
        mach_die("'%s' is not an RV64 ELF executable", path);
    }
    if (eh->e_type != ET_EXEC) {
        mach_die("'%s' is not a static executable (ELF type %u): link it "
                 "with -static (xgas-xbgas-cc does)",
                 path, eh->e_type);
    }
    if (eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > len) {
        mach_die("'%s': truncated program headers", path);
    }
    return eh;
}

static void load_segment(hart_t *h, const Elf64_Phdr *ph, const uint8_t *buf,
                         size_t len, const char *path)
{
    if (ph->p_vaddr < h->lo || ph->p_memsz > h->mmap_top ||
        ph->p_vaddr > h->mmap_top - ph->p_memsz ||
        ph->p_offset + ph->p_filesz > len || ph->p_filesz > ph->p_memsz) {
        mach_die("'%s': segment at 0x%llx (+0x%llx) does not fit guest "
                 "memory [0x%llx, 0x%llx): use a larger --mem",
                 path, (unsigned long long)ph->p_vaddr,
                 (unsigned long long)ph->p_memsz, (unsigned long long)h->lo,
                 (unsigned long long)h->mmap_top);
    }
    memcpy(h->base + ph->p_vaddr, buf + ph->p_offset, ph->p_filesz);
    memset(h->base + ph->p_vaddr + ph->p_filesz, 0, ph->p_memsz - ph->p_filesz);
}

/* Loads the segments; returns the guest address of the program headers. */
static uint64_t load_segments(hart_t *h, const Elf64_Ehdr *eh,
                              const uint8_t *buf, size_t len, const char *path)
{
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(buf + eh->e_phoff);
    uint64_t end = 0, phdr = 0;
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type == PT_PHDR) {
            phdr = ph[i].p_vaddr;
        }
        if (ph[i].p_type != PT_LOAD) {
            continue;
        }
        load_segment(h, &ph[i], buf, len, path);
        if (ph[i].p_vaddr + ph[i].p_memsz > end) {
            end = ph[i].p_vaddr + ph[i].p_memsz;
        }
        if (!phdr && ph[i].p_offset <= eh->e_phoff &&
            eh->e_phoff < ph[i].p_offset + ph[i].p_filesz) {
            phdr = ph[i].p_vaddr + (eh->e_phoff - ph[i].p_offset);
        }
    }
    h->brk_lo = h->brk = (end + 4095) & ~4095ull;
    return phdr;
}

/* Copies @p s below *sp; returns its guest address. */
static uint64_t push_str(hart_t *h, uint64_t *sp, const char *s)
{
    size_t n = strlen(s) + 1;
    if (*sp - h->stack_lo < n + 4096) {
        mach_die("the arguments and environment do not fit the guest "
                 "stack");
    }
    *sp -= n;
    memcpy(h->base + *sp, s, n);
    return *sp;
}

static void build_stack(hart_t *h, const Elf64_Ehdr *eh, uint64_t phdr,
                        int argc, char **argv)
{
    int envc = 0;
    while (environ[envc]) {
        envc++;
    }
    uint64_t sp  = h->stack_top;
    uint64_t *av = calloc((size_t)(argc + envc + 2), sizeof(*av));
    for (int i = 0; i < argc; i++) {
        av[i] = push_str(h, &sp, argv[i]);
    }
    for (int i = 0; i < envc; i++) {
        av[argc + 1 + i] = push_str(h, &sp, environ[i]);
    }
    uint64_t plat = push_str(h, &sp, "riscv64");
    sp            = (sp - 16) & ~15ull;
    uint64_t rnd  = sp;
    for (int i = 0; i < 16; i++) {
        h->base[rnd + i] = (uint8_t)(rand() ^ (i * 37));
    }
    uint64_t hwcap = 1u << ('I' - 'A') | 1u << ('M' - 'A') | 1u << ('A' - 'A') |
                     1u << ('F' - 'A') | 1u << ('D' - 'A') | 1u << ('C' - 'A');
    uint64_t aux[] = {AT_PHDR,   phdr,        AT_PHENT,    sizeof(Elf64_Phdr),
                      AT_PHNUM,  eh->e_phnum, AT_PAGESZ,   4096,
                      AT_BASE,   0,           AT_FLAGS,    0,
                      AT_ENTRY,  eh->e_entry, AT_UID,      0,
                      AT_EUID,   0,           AT_GID,      0,
                      AT_EGID,   0,           AT_PLATFORM, plat,
                      AT_HWCAP,  hwcap,       AT_CLKTCK,   100,
                      AT_SECURE, 0,           AT_RANDOM,   rnd,
                      AT_EXECFN, av[0],       AT_NULL,     0};
    size_t words   = 1 + (size_t)argc + 1 + (size_t)envc + 1 + sizeof(aux) / 8;
    sp             = (sp - words * 8) & ~15ull;
    uint64_t *w    = (uint64_t *)(h->base + sp);
    w[0]           = (uint64_t)argc;
    memcpy(w + 1, av, ((size_t)argc + (size_t)envc + 2) * 8);
    memcpy(w + 1 + argc + 1 + envc + 1, aux, sizeof(aux));
    free(av);
    h->x[2] = sp;
}

void mach_load(hart_t *h, const char *path, int argc, char **argv)
{
    size_t len;
    uint8_t *buf         = read_file(path, &len);
    const Elf64_Ehdr *eh = check_header(buf, len, path);
    uint64_t phdr        = load_segments(h, eh, buf, len, path);
    if (h->brk_lo >= h->mmap_top) {
        mach_die("'%s' leaves no room for its heap below 0x%llx: use a "
                 "larger --mem",
                 path, (unsigned long long)h->mmap_top);
    }
    build_stack(h, eh, phdr, argc, argv);
    h->pc = eh->e_entry;
    free(buf);
}
