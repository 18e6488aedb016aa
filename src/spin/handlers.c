/*
 * Handler files: shared objects built from sPIN handler code, loaded once
 * each (dlopen, RTLD_NOW | RTLD_LOCAL: a missing symbol is reported when
 * the file is loaded, not when a packet first runs into it).  Their
 * handlers are found by name.
 *
 * The driver interface names handlers by 32-bit program-memory addresses
 * (spin_find_handler_by_name, spin_ec_t.hh_addr): here each handler found
 * gets the next 16-byte step of the program memory (PROG_MEM_START) as
 * its name, and the table below maps it back.  Address 0 is no handler.
 *
 * The executable segments of every file are recorded, so the watchdog can
 * tell a handler's own code from a library it called (fault.c).
 *
 * A handler must not end the process: the file's own references to
 * exit, _exit, _Exit, quick_exit, pthread_exit and raise (its GOT
 * entries: every call of a shared object to another goes through them)
 * are pointed at the engine's (fault.c), which end the handler as a
 * fault when one runs and do what the C library does otherwise.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/xg_log.h"
#include "spin/xg_spin_int.h"

#define PROG_STEP 16u
#define PROG_MAX  (PROG_MEM_SIZE / PROG_STEP)

static handler_fn prog_table[PROG_MAX];
static uint32_t prog_n;

/* Executable ranges of every handler file loaded, read by the signal
 * handler: published with a release store of their count. */
#define TEXT_MAX 64
static uintptr_t text_lo[TEXT_MAX], text_hi[TEXT_MAX];
static _Atomic unsigned text_n;

struct text_find {
    void *sym; /* an address inside the file */
    uintptr_t lo, hi;
};

static int text_of(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct text_find *f = arg;
    uintptr_t lo, hi, s = (uintptr_t)f->sym;
    int i, found = 0;

    (void)size;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

        if ((ph->p_type != PT_LOAD) || !(ph->p_flags & PF_X)) {
            continue;
        }
        lo = info->dlpi_addr + ph->p_vaddr;
        hi = lo + ph->p_memsz;
        if ((s >= lo) && (s < hi)) {
            found = 1;
            f->lo = lo;
            f->hi = hi;
        }
    }
    return found;
}

int xg_spin_obj_has_pc(uintptr_t pc)
{
    unsigned n = atomic_load_explicit(&text_n, memory_order_acquire), i;

    for (i = 0; i < n; i++) {
        if ((pc >= text_lo[i]) && (pc < text_hi[i])) {
            return 1;
        }
    }
    return 0;
}

/* The file's relocation target of an engine-served routine: GOT slots of
 * calls (jump slots) and of address loads (-fno-plt calls, pointers). */
#if defined(__x86_64__)
#define REL_SLOT(t) (((t) == R_X86_64_JUMP_SLOT) || ((t) == R_X86_64_GLOB_DAT))
#elif defined(__aarch64__)
#define REL_SLOT(t) \
    (((t) == R_AARCH64_JUMP_SLOT) || ((t) == R_AARCH64_GLOB_DAT))
#endif

#ifdef REL_SLOT
struct relro_find {
    uintptr_t base;   /* the file's load address */
    uintptr_t lo, hi; /* its PT_GNU_RELRO, or 0 */
};

static int relro_of(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct relro_find *f = arg;
    int i;

    (void)size;
    if (info->dlpi_addr != f->base) {
        return 0;
    }
    for (i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            f->lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            f->hi = f->lo + info->dlpi_phdr[i].p_memsz;
        }
    }
    return 1;
}

/* A pointer of the dynamic section: the loader relocated it in place, or
 * it is still the file's offset. */
static uintptr_t dyn_ptr(const struct link_map *lm, ElfW(Addr) p)
{
    return (p < lm->l_addr) ? lm->l_addr + p : p;
}

/* Points @lm's relocations in [rel, rel + size) of routines the engine
 * serves at the engine's.  0, or -1 if a slot could not be written. */
static int contain_rels(const struct link_map *lm, const ElfW(Rela) * rel,
                        size_t size, const ElfW(Sym) * symtab,
                        const char *strtab, const struct relro_find *relro)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t i, n = size / sizeof(*rel);
    uintptr_t slot, pg;
    void *to;

    for (i = 0; i < n; i++) {
        if (!REL_SLOT(ELF64_R_TYPE(rel[i].r_info))) {
            continue;
        }
        to = xg_spin_rt_replacement(strtab +
                                    symtab[ELF64_R_SYM(rel[i].r_info)].st_name);
        if (to == NULL) {
            continue;
        }
        slot = lm->l_addr + rel[i].r_offset;
        pg   = slot & ~(uintptr_t)(page - 1);
        if ((slot >= relro->lo) && (slot < relro->hi)) {
            /* read-only once relocated (RELRO): open it for the write */
            if (mprotect((void *)pg, (size_t)page, PROT_READ | PROT_WRITE) !=
                0) {
                return -1;
            }
            *(void **)slot = to;
            mprotect((void *)pg, (size_t)page, PROT_READ);
        } else {
            *(void **)slot = to;
        }
    }
    return 0;
}

/* See the top: 0, or -1 (logged by the caller) if the file's references
 * could not be redirected. */
static int obj_contain(void *dl)
{
    const ElfW(Rela) *rela = NULL, *jmprel = NULL;
    size_t relasz = 0, pltrelsz = 0;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab      = NULL;
    struct relro_find relro;
    struct link_map *lm;
    const ElfW(Dyn) * d;

    if ((dlinfo(dl, RTLD_DI_LINKMAP, &lm) != 0) || (lm->l_ld == NULL)) {
        return -1;
    }
    for (d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_RELA:
            rela = (const ElfW(Rela) *)dyn_ptr(lm, d->d_un.d_ptr);
            break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_JMPREL:
            jmprel = (const ElfW(Rela) *)dyn_ptr(lm, d->d_un.d_ptr);
            break;
        case DT_PLTRELSZ: pltrelsz = d->d_un.d_val; break;
        case DT_SYMTAB:
            symtab = (const ElfW(Sym) *)dyn_ptr(lm, d->d_un.d_ptr);
            break;
        case DT_STRTAB:
            strtab = (const char *)dyn_ptr(lm, d->d_un.d_ptr);
            break;
        default: break;
        }
    }
    if ((symtab == NULL) || (strtab == NULL)) {
        return -1;
    }
    memset(&relro, 0, sizeof(relro));
    relro.base = lm->l_addr;
    dl_iterate_phdr(relro_of, &relro);
    if (((rela != NULL) &&
         (contain_rels(lm, rela, relasz, symtab, strtab, &relro) != 0)) ||
        ((jmprel != NULL) &&
         (contain_rels(lm, jmprel, pltrelsz, symtab, strtab, &relro) != 0))) {
        return -1;
    }
    return 0;
}
#else
static int obj_contain(void *dl)
{
    (void)dl;
    return -1; /* relocations of this architecture not known here */
}
#endif

xg_spin_obj_t *xg_spin_obj_load(const char *fn, const char *path)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    struct text_find find;
    xg_spin_obj_t *obj;
    unsigned n;
    void *dl;

    for (obj = e->objs; obj != NULL; obj = obj->next) {
        if (strcmp(obj->path, path) == 0) {
            return obj;
        }
    }
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        xg_error("spin",
                 "%s: cannot load handler file %s: %s (build it "
                 "with `xgascc -spin-handler` or the flags of xgas-spin.pc; "
                 "a path without '/' is searched like a library)",
                 fn, path, dlerror());
        return NULL;
    }
    obj = calloc(1, sizeof(*obj));
    if ((obj == NULL) || ((obj->path = strdup(path)) == NULL)) {
        free(obj);
        dlclose(dl);
        xg_error("spin", "%s: no memory to load %s", fn, path);
        return NULL;
    }
    obj->dl = dl;
    if (obj_contain(dl) != 0) {
        xg_warn("spin",
                "%s: the references of handler file %s to exit, "
                "_exit, pthread_exit and raise could not be redirected: a "
                "handler calling them ends the process (docs/spin.md, "
                "\"Faults and isolation\")",
                fn, path);
    }
    /* the file's code: around init_handlers, which every file defines */
    memset(&find, 0, sizeof(find));
    find.sym = dlsym(dl, "init_handlers");
    if (find.sym != NULL) {
        void (*init)(handler_fn *, handler_fn *, handler_fn *, void **) =
            (void (*)(handler_fn *, handler_fn *, handler_fn *, void **))(
                uintptr_t)find.sym;
        handler_fn hh = NULL, ph = NULL, th = NULL;
        void *mem = NULL;

        init(&hh, &ph, &th, &mem); /* PsPIN calls it once at boot */
        if (dl_iterate_phdr(text_of, &find) != 0) {
            n = atomic_load_explicit(&text_n, memory_order_relaxed);
            if (n < TEXT_MAX) {
                text_lo[n] = find.lo;
                text_hi[n] = find.hi;
                atomic_store_explicit(&text_n, n + 1, memory_order_release);
            }
        }
    } else {
        xg_warn("spin",
                "%s: handler file %s defines no init_handlers (every "
                "PsPIN handler file does); the watchdog cannot tell its "
                "code from a library's",
                fn, path);
    }
    obj->next = e->objs;
    e->objs   = obj;
    return obj;
}

handler_fn xg_spin_obj_sym(xg_spin_obj_t *obj, const char *name, size_t *size_p)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    void *p;

    dlerror();
    p = dlsym(obj->dl, name);
    if (p == NULL) {
        return NULL;
    }
    if (size_p != NULL) {
        *size_p = 0;
        if ((dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) != 0) &&
            (sym != NULL)) {
            *size_p = sym->st_size;
        }
    }
    return (handler_fn)(uintptr_t)p;
}

uint32_t xg_spin_prog_addr(handler_fn fn)
{
    uint32_t i;

    if (fn == NULL) {
        return 0;
    }
    for (i = 0; i < prog_n; i++) {
        if (prog_table[i] == fn) {
            return PROG_MEM_START + i * PROG_STEP;
        }
    }
    if (prog_n == PROG_MAX) {
        return 0;
    }
    prog_table[prog_n] = fn;
    return PROG_MEM_START + (prog_n++) * PROG_STEP;
}

handler_fn xg_spin_prog_fn(uint32_t addr)
{
    uint32_t i;

    if ((addr < PROG_MEM_START) || ((addr - PROG_MEM_START) % PROG_STEP) ||
        ((i = (addr - PROG_MEM_START) / PROG_STEP) >= prog_n)) {
        return NULL;
    }
    return prog_table[i];
}

void xg_spin_obj_unload_all(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_obj_t *obj;

    /* the program memory and the code ranges go with them */
    atomic_store_explicit(&text_n, 0, memory_order_release);
    prog_n = 0;
    while ((obj = e->objs) != NULL) {
        e->objs = obj->next;
        dlclose(obj->dl);
        free(obj->path);
        free(obj);
    }
}
