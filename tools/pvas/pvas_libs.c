/*
 * The shared libraries a dynamic PIE loads, counted the way ld.so finds
 * them (pvas_elf.h, xg_pvas_count_libraries): for the root's estimate
 * of the node's memory mappings against vm.max_map_count.  Each library
 * costs every PE about five mappings, and the closure differs by build
 * (libxgas with or without libfabric and libpmix: 2 or 22 libraries), so
 * it is read from the files, not guessed.
 *
 * Invariants: reads files only (pread), allocates a bounded table, and
 * never fails the job: what it cannot resolve it does not count.
 */
#include "pvas/pvas_elf.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIBS_MAX     512 /* distinct libraries followed */
#define LIBS_DYN_MAX 512 /* dynamic entries read per object */
#define LIBS_STR_MAX 1024

/* The default directories of Debian's ld.so (after RPATH, LD_LIBRARY_PATH,
 * RUNPATH and ld.so.cache, whose entries lie in these). */
static const char *const libs_default_dirs[] = {"/lib/x86_64-linux-gnu",
                                                "/usr/lib/x86_64-linux-gnu",
                                                "/lib/aarch64-linux-gnu",
                                                "/usr/lib/aarch64-linux-gnu",
                                                "/lib64",
                                                "/usr/lib64",
                                                "/lib",
                                                "/usr/lib",
                                                "/usr/local/lib"};

typedef struct libs {
    char *path[LIBS_MAX]; /* resolved, each once */
    int count;
} libs_t;

/* An object's dynamic section: its entries, and where its strings are. */
typedef struct libs_obj {
    int fd;
    Elf64_Dyn dyn[LIBS_DYN_MAX];
    size_t ndyn;
    uint64_t strtab;    /* file offset */
    char dir[PATH_MAX]; /* for $ORIGIN */
} libs_obj_t;

static int libs_read_dynamic(libs_obj_t *o)
{
    Elf64_Ehdr eh;
    Elf64_Phdr ph[64];
    uint64_t strtab_vaddr = 0;
    size_t i, n;

    if ((pread(o->fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh)) ||
        (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) ||
        (eh.e_ident[EI_CLASS] != ELFCLASS64) || (eh.e_phnum > 64) ||
        (pread(o->fd, ph, eh.e_phnum * sizeof(ph[0]), (off_t)eh.e_phoff) !=
         (ssize_t)(eh.e_phnum * sizeof(ph[0])))) {
        return -1;
    }
    for (i = 0; i < eh.e_phnum; i++) {
        if (ph[i].p_type != PT_DYNAMIC) {
            continue;
        }
        n       = ph[i].p_filesz / sizeof(Elf64_Dyn);
        o->ndyn = (n > LIBS_DYN_MAX) ? LIBS_DYN_MAX : n;
        if (pread(o->fd, o->dyn, o->ndyn * sizeof(Elf64_Dyn),
                  (off_t)ph[i].p_offset) < 0) {
            return -1;
        }
    }
    for (i = 0; (i < o->ndyn) && (o->dyn[i].d_tag != DT_NULL); i++) {
        if (o->dyn[i].d_tag == DT_STRTAB) {
            strtab_vaddr = o->dyn[i].d_un.d_ptr;
        }
    }
    for (i = 0; (strtab_vaddr != 0) && (i < eh.e_phnum); i++) {
        if ((ph[i].p_type == PT_LOAD) && (strtab_vaddr >= ph[i].p_vaddr) &&
            (strtab_vaddr < ph[i].p_vaddr + ph[i].p_filesz)) {
            o->strtab = ph[i].p_offset + (strtab_vaddr - ph[i].p_vaddr);
        }
    }
    return (o->strtab != 0) ? 0 : -1;
}

static void libs_string(const libs_obj_t *o, uint64_t off, char *out,
                        size_t len)
{
    ssize_t n = pread(o->fd, out, len - 1, (off_t)(o->strtab + off));

    out[(n > 0) ? n : 0] = '\0';
}

/* 1 if @dir/@name (with $ORIGIN in @dir) is a file: its path in @out. */
static int libs_try(const libs_obj_t *o, const char *dir, size_t dir_len,
                    const char *name, char *out, size_t len)
{
    int n;

    if ((dir_len >= 7) && (strncmp(dir, "$ORIGIN", 7) == 0)) {
        n = snprintf(out, len, "%s%.*s/%s", o->dir, (int)(dir_len - 7), dir + 7,
                     name);
    } else {
        n = snprintf(out, len, "%.*s/%s", (int)dir_len, dir, name);
    }
    return (n > 0) && ((size_t)n < len) && (access(out, R_OK) == 0);
}

/* 1 if some directory of the ':'-list @list holds @name. */
static int libs_try_list(const libs_obj_t *o, const char *list,
                         const char *name, char *out, size_t len)
{
    const char *sep;

    for (; (list != NULL) && (*list != '\0'); list = sep + (*sep != '\0')) {
        sep = strchrnul(list, ':');
        if ((sep > list) &&
            libs_try(o, list, (size_t)(sep - list), name, out, len)) {
            return 1;
        }
    }
    return 0;
}

/* Finds library @name needed by @o, as ld.so would (roughly). */
static int libs_resolve(const libs_obj_t *o, const char *name,
                        const char *rpath, const char *runpath, char *out,
                        size_t len)
{
    size_t i;

    if (strchr(name, '/') != NULL) {
        snprintf(out, len, "%s", name);
        return access(out, R_OK) == 0;
    }
    if (((runpath[0] == '\0') && libs_try_list(o, rpath, name, out, len)) ||
        libs_try_list(o, getenv("LD_LIBRARY_PATH"), name, out, len) ||
        libs_try_list(o, runpath, name, out, len)) {
        return 1;
    }
    for (i = 0; i < sizeof(libs_default_dirs) / sizeof(*libs_default_dirs);
         i++) {
        if (libs_try(o, libs_default_dirs[i], strlen(libs_default_dirs[i]),
                     name, out, len)) {
            return 1;
        }
    }
    return 0;
}

static int libs_seen(const libs_t *l, const char *path)
{
    int i;

    for (i = 0; i < l->count; i++) {
        if (strcmp(l->path[i], path) == 0) {
            return 1;
        }
    }
    return 0;
}

static void libs_follow(libs_t *l, const char *path);

/* Adds every library @o needs, and theirs. */
static void libs_needed(libs_t *l, const libs_obj_t *o)
{
    char rpath[LIBS_STR_MAX] = "", runpath[LIBS_STR_MAX] = "";
    char name[256], found[PATH_MAX];
    size_t i;

    for (i = 0; (i < o->ndyn) && (o->dyn[i].d_tag != DT_NULL); i++) {
        if (o->dyn[i].d_tag == DT_RPATH) {
            libs_string(o, o->dyn[i].d_un.d_val, rpath, sizeof(rpath));
        } else if (o->dyn[i].d_tag == DT_RUNPATH) {
            libs_string(o, o->dyn[i].d_un.d_val, runpath, sizeof(runpath));
        }
    }
    for (i = 0; (i < o->ndyn) && (o->dyn[i].d_tag != DT_NULL); i++) {
        if (o->dyn[i].d_tag != DT_NEEDED) {
            continue;
        }
        libs_string(o, o->dyn[i].d_un.d_val, name, sizeof(name));
        if (libs_resolve(o, name, rpath, runpath, found, sizeof(found)) &&
            !libs_seen(l, found) && (l->count < LIBS_MAX)) {
            l->path[l->count] = strdup(found);
            if (l->path[l->count] != NULL) {
                l->count++;
                libs_follow(l, found);
            }
        }
    }
}

static void libs_follow(libs_t *l, const char *path)
{
    libs_obj_t *o     = calloc(1, sizeof(*o));
    const char *slash = strrchr(path, '/');

    if (o == NULL) {
        return;
    }
    snprintf(o->dir, sizeof(o->dir), "%.*s",
             (int)((slash != NULL) ? slash - path : 1),
             (slash != NULL) ? path : ".");
    o->fd = open(path, O_RDONLY | O_CLOEXEC);
    if ((o->fd >= 0) && (libs_read_dynamic(o) == 0)) {
        libs_needed(l, o);
    }
    if (o->fd >= 0) {
        close(o->fd);
    }
    free(o);
}

int xg_pvas_count_libraries(const char *path)
{
    libs_t l = {.count = 0};
    int i, count;

    libs_follow(&l, path);
    count = l.count;
    for (i = 0; i < l.count; i++) {
        free(l.path[i]);
    }
    return count;
}
