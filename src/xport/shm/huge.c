/*
 * Huge pages for the node region (XGAS_HUGE_PAGES=1): the region is
 * advised MADV_HUGEPAGE, so that where the system allows transparent huge
 * pages the kernel backs it with 2 MiB pages -- 512 times fewer page-table
 * entries and TLB entries for the same memory.  Conventional mode maps a
 * memfd, which gets them when /sys/kernel/mm/transparent_hugepage/
 * shmem_enabled is advise, always, within_size or force; a PVAS node's
 * room is anonymous memory, which gets them when .../enabled is madvise
 * or always.  Otherwise the region keeps 4 KiB pages and the node's first
 * PE says so in one line.
 *
 * Invariants: the library only reads the system's setting, never changes
 * it; advice that is not taken is not an error (the job runs as without
 * it).
 */
#include "xport/shm/xg_shm.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"

#define HUGE_SYSFS "/sys/kernel/mm/transparent_hugepage/"

/* The selected word of a THP setting file ("[advise]" -> "advise"), or
 * "unknown" if it cannot be read. */
static void huge_mode(const char *path, char *word, size_t len)
{
    char text[256], *open_br, *close_br;
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    snprintf(word, len, "unknown");
    if (fd < 0) {
        return;
    }
    n = read(fd, text, sizeof(text) - 1);
    close(fd);
    text[(n > 0) ? n : 0] = '\0';
    open_br               = strchr(text, '[');
    close_br              = (open_br != NULL) ? strchr(open_br, ']') : NULL;
    if (close_br != NULL) {
        snprintf(word, len, "%.*s", (int)(close_br - open_br - 1), open_br + 1);
    }
}

/* 1 if THP mode @word gives huge pages to memory advised MADV_HUGEPAGE. */
static int huge_mode_takes_advice(const char *word, int anonymous)
{
    static const char *const shmem[] = {"advise", "always", "within_size",
                                        "force"};
    static const char *const anon[]  = {"madvise", "always"};
    const char *const *ok            = anonymous ? anon : shmem;
    size_t n                         = anonymous ? 2 : 4, i;

    for (i = 0; i < n; i++) {
        if (strcmp(word, ok[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

void xg_shm_huge_advise(void *addr, size_t len, int anonymous)
{
    const char *path =
        anonymous ? HUGE_SYSFS "enabled" : HUGE_SYSFS "shmem_enabled";
    xg_boot_identity_t me;
    char word[32];

    if (!xg_config.huge_pages) {
        return;
    }
    xg_boot_identity(&me);
    huge_mode(path, word, sizeof(word));
    if (!huge_mode_takes_advice(word, anonymous)) {
        if (me.local_rank == 0) {
            xg_warn("shm",
                    "XGAS_HUGE_PAGES=1: %s is '%s', so the kernel "
                    "gives the node region no huge pages: it uses 4 KiB "
                    "pages (an administrator may set it to %s)",
                    path, word, anonymous ? "madvise" : "advise");
        }
        return;
    }
    if (madvise(addr, len, MADV_HUGEPAGE) != 0) {
        if (me.local_rank == 0) {
            xg_warn("shm", "XGAS_HUGE_PAGES=1: madvise(MADV_HUGEPAGE) on the "
                           "node region failed (%m): it uses 4 KiB pages");
        }
        return;
    }
    xg_debug("shm", "node region advised huge pages (%s is '%s')", path, word);
}
