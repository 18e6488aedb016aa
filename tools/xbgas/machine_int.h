/*
 * The xBGAS machine's private header: one RV64GC hart with the xBGAS
 * extension, per PE.  Shared by the files of tools/xbgas/ only.
 *
 * Invariants:
 * - Guest address g is host address base + g; the guest may touch
 *   [lo, lo + span) only (lo is the first mapped guest page).  Every local
 *   access is checked against it; nothing outside is ever dereferenced.
 * - x[32] is a write sink: the decoder turns a destination x0 into 32, so
 *   x[0] stays 0 without a store per instruction; e[32] is the same for e0.
 *   A field that names a register that is only read is used as rd & 31.
 * - Code runs as translated basic blocks (block_t, block.c): each
 *   instruction decoded once into an insn_t with its handler's address.
 *   A block is made only from bytes inside guest memory; fence.i, the
 *   riscv_flush_icache call and a local store into a page that holds
 *   translated code empty the block cache (every block at once).
 * - The total of retired instructions is added when a block is entered
 *   (exact whenever an out-of-line case runs); the other counters are
 *   the block's entries times its counts, added to h->st at a flush and
 *   when mach_run returns (mach_block_fold).  A block left before its end
 *   (a store into code) takes the rest back (mach_block_uncount).
 * - Single-threaded: a hart is run by one thread of its process.
 */
#ifndef XG_XBGAS_MACHINE_INT_H
#define XG_XBGAS_MACHINE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "xgas.h"

#define mach_likely(x)   __builtin_expect(!!(x), 1)
#define mach_unlikely(x) __builtin_expect(!!(x), 0)

/* Every operation of the decoded form, with its mnemonic. */
/* clang-format off */
#define MACH_OPS(X)                                                        \
    X(ILLEGAL, "illegal") X(LUI, "lui") X(AUIPC, "auipc") X(JAL, "jal")     \
    X(JALR, "jalr") X(BEQ, "beq") X(BNE, "bne") X(BLT, "blt")               \
    X(BGE, "bge") X(BLTU, "bltu") X(BGEU, "bgeu") X(LB, "lb") X(LH, "lh")   \
    X(LW, "lw") X(LD, "ld") X(LBU, "lbu") X(LHU, "lhu") X(LWU, "lwu")       \
    X(SB, "sb") X(SH, "sh") X(SW, "sw") X(SD, "sd") X(ADDI, "addi")         \
    X(SLTI, "slti") X(SLTIU, "sltiu") X(XORI, "xori") X(ORI, "ori")         \
    X(ANDI, "andi") X(SLLI, "slli") X(SRLI, "srli") X(SRAI, "srai")         \
    X(ADD, "add") X(SUB, "sub") X(SLL, "sll") X(SLT, "slt")                 \
    X(SLTU, "sltu") X(XOR, "xor") X(SRL, "srl") X(SRA, "sra") X(OR, "or")   \
    X(AND, "and") X(ADDIW, "addiw") X(SLLIW, "slliw") X(SRLIW, "srliw")     \
    X(SRAIW, "sraiw") X(ADDW, "addw") X(SUBW, "subw") X(SLLW, "sllw")       \
    X(SRLW, "srlw") X(SRAW, "sraw") X(MUL, "mul") X(MULH, "mulh")           \
    X(MULHSU, "mulhsu") X(MULHU, "mulhu") X(DIV, "div") X(DIVU, "divu")     \
    X(REM, "rem") X(REMU, "remu") X(MULW, "mulw") X(DIVW, "divw")           \
    X(DIVUW, "divuw") X(REMW, "remw") X(REMUW, "remuw")                     \
    X(FENCE, "fence") X(FENCE_I, "fence.i") X(ECALL, "ecall")               \
    X(EBREAK, "ebreak") X(CSR, "csr") X(LR, "lr") X(SC, "sc")               \
    X(AMO, "amo") X(FLW, "flw") X(FLD, "fld") X(FSW, "fsw") X(FSD, "fsd")   \
    X(FP, "fp") X(FMA, "fmadd")                                             \
    X(ELOAD, "eld") X(ESTORE, "esd") X(ERLOAD, "erld") X(ERSTORE, "ersd")   \
    X(ELE, "ele") X(ESE, "ese") X(ERLE, "erle") X(ERSE, "erse")             \
    X(EADDI, "eaddi") X(EADDIE, "eaddie") X(EADDIX, "eaddix")               \
    X(EAMO, "eamo") X(EAMOCAS, "eamocas")
/* clang-format on */

#define MACH_OP_ENUM(name, str) OP_##name,
typedef enum {
    MACH_OPS(MACH_OP_ENUM) OP_COUNT
} mach_op_t;

/*
 * One decoded instruction.  For loads and stores f3 is the RISC-V funct3
 * (size and sign); AMO/EAMO keep funct5 in f7 and the width in f3; FP
 * keeps funct7 in f7, rm in f3, and FMA the operation (0..3) in f7 and
 * the format in rs3's top bit.
 */
typedef struct insn {
    const void *fn; /* the handler (a label of mach_run) */
    uint64_t pc;    /* the pc this record decodes */
    int64_t imm;
    uint32_t raw; /* the instruction bits (16 or 32) */
    uint16_t op;
    uint8_t rd, rs1, rs2, rs3, f3, f7, len;
    uint8_t left; /* instructions after this one in its block */
} insn_t;

/*
 * The handlers beyond one per operation: the end of a block that is not
 * ended by a jump (H_END, a record that is no instruction), the cases run
 * out of line (H_OTHER; H_OTHER_END when they end the block), the 8-byte
 * forms of the xBGAS load/store fast path, and the fused pairs (the first
 * instruction's record names the pair; the second keeps its own record,
 * so a fault in it names its pc).
 */
/* clang-format off */
#define MACH_HANDLERS(X)                                                   \
    X(END) X(OTHER) X(OTHER_END) X(ELD) X(ESD) X(LI)                      \
    X(EADDIE_ELD) X(EADDIE_ESD) X(EADDIE_ELOAD) X(EADDIE_ESTORE)          \
    X(LI_ADDI) X(LI_LD) X(LI_JALR) X(ADDI_BNE) X(ADDI_BLT) X(ADDIW_BNE)   \
    X(ADDI_BLTU)
/* clang-format on */
#define MACH_H_ENUM(name) H_##name,
enum {
    H_FIRST = OP_COUNT - 1,
    MACH_HANDLERS(MACH_H_ENUM) H_COUNT
};

/* A translated basic block: up to MACH_BLOCK_MAX instructions, then an
 * H_END record unless a jump, branch or block-ending case ends it. */
#define MACH_BLOCK_MAX 48
typedef struct block {
    uint64_t pc;            /* the tag: its first instruction's pc */
    uint64_t execs;         /* entries not yet added to the counters */
    struct block *next[2];  /* chained successors: fall-through, taken */
    uint32_t n;             /* instructions */
    uint32_t loads, stores; /* counters of mach_stats_t, per entry */
    uint32_t xmem, xaddr;
    insn_t ins[];
} block_t;

#define MACH_BTAB_SIZE  (1u << 14) /* block table rows (by pc) */
#define MACH_ARENA_SIZE (8u << 20) /* bytes of blocks between flushes */

/* Counters of retired instructions (printed by --stats). */
typedef struct mach_stats {
    uint64_t total;   /* every retired instruction */
    uint64_t loads;   /* local loads (integer, FP, lr) */
    uint64_t stores;  /* local stores (integer, FP, sc, amo) */
    uint64_t xmem;    /* xBGAS memory instructions (e* loads/stores/amos) */
    uint64_t xremote; /* ... of them with a namespace other than 0 */
    uint64_t xaddr;   /* eaddi / eaddie / eaddix */
} mach_stats_t;

typedef struct hart {
    uint64_t x[33];
    uint64_t f[32];
    uint64_t e[33];
    uint64_t pc;
    uint8_t *base;     /* host address of guest address 0 */
    uint64_t lo, span; /* guest memory is [lo, lo + span) */
    uint64_t size;     /* guest memory is [0, size) in the heap */
    uint32_t fcsr;
    uint64_t resv_addr; /* lr/sc reservation, or UINT64_MAX */
    uint64_t resv_val;  /* the value lr read */
    int pe, npes;
    uint8_t **ns_ptr;     /* per PE: direct host base, or NULL (ops) */
    uint8_t **ns_dir;     /* per namespace: NULL (0), then ns_ptr[] */
    uint8_t *ns_known;    /* per PE: ns_ptr[] filled */
    xg_gaddr_t *ns_gaddr; /* per PE: its guest address 0, for the ops */
    mach_stats_t st;
    /* brk and mmap areas, the stack, the shared region (e12/e13) */
    uint64_t brk, brk_lo, mmap_top, mmap_lo;
    uint64_t shared_lo, shared_size, stack_lo, stack_top;
    const char *prog;
    int exited, exit_code;
    int start_gate;    /* --start-gate: the first remote access waits */
    int gate_done;     /* ... for every hart's (or its exit), once */
    block_t **btab;    /* by pc: a block starting there, or NULL */
    uint8_t *arena;    /* the blocks, MACH_ARENA_SIZE bytes */
    size_t arena_used; /* ... of them in use */
    uint64_t gen;      /* flushes so far: a chain made across one is lost */
    uint8_t *codemap;  /* per 4 KiB guest page: holds translated code */
    int flush_pending; /* an out-of-line store wrote into code */
} hart_t;

/** @brief --start-gate: the one xg_barrier of every hart, at its first
 * remote access or at its exit, whichever comes first. */
void mach_start_gate(hart_t *h);

/* decode.c */
/** @brief Decodes the instruction at @p pc into @p d (faults if bad). */
void mach_decode(hart_t *h, insn_t *d, uint64_t pc);

/* block.c */
/** @brief Allocates @p h's block cache for @p size bytes of guest memory
 * (fatal without memory); mach_code_free frees it. */
void mach_code_init(hart_t *h);
void mach_code_free(hart_t *h);
/** @brief Empties the block cache (fence.i, a store into code). */
void mach_code_flush(hart_t *h);
/**
 * @brief The block that starts at @p pc, translated now if it is not in
 * the table; @p fn maps handler numbers (OP_*, H_*) to mach_run's labels
 * (NULL: H_OTHER).  Faults like an instruction fetch if @p pc is outside
 * guest memory.
 */
block_t *mach_block(hart_t *h, uint64_t pc, const void *const *fn);
/** @brief Adds the counters of every block's entries to h->st. */
void mach_block_fold(hart_t *h);
/** @brief Takes back the counters of the records after @p d in its block
 * (the block is left after @p d); returns how many instructions. */
uint64_t mach_block_uncount(hart_t *h, const insn_t *d);
/** @brief A store by the machine's own hart wrote guest [@p a, @p a + @p
 * n): if it holds translated code, marks the cache for a flush. */
void mach_code_written(hart_t *h, uint64_t a, uint64_t n);
/** @brief The same for host address @p p (xBGAS stores through a PE's
 * host base, which may be this PE's own). */
void mach_code_written_host(hart_t *h, const void *p, uint64_t n);

/** @brief True if guest [@p a, @p a + @p n) touches a page of code. */
static inline int mach_is_code(const hart_t *h, uint64_t a, uint64_t n)
{
    return h->codemap[a >> 12] | h->codemap[(a + n - 1) >> 12];
}

/* exec.c */
/** @brief Runs @p h until the guest exits; returns its exit code. */
int mach_run(hart_t *h);

/* fp.c */
/** @brief Executes an OP-FP or fused multiply-add instruction @p d. */
void mach_exec_fp(hart_t *h, const insn_t *d);
/** @brief Executes a Zicsr instruction @p d. */
void mach_exec_csr(hart_t *h, const insn_t *d);

/* atomic.c */
/** @brief Executes lr, sc or an amo on local guest memory. */
void mach_exec_amo(hart_t *h, const insn_t *d);

/**
 * @brief The amo of funct5 @p f5 on host memory @p p (8 bytes if @p wide,
 * else 4, the old value sign-extended); returns the old value.
 */
uint64_t mach_amo_host(void *p, int f5, uint64_t v, int wide);

/* xbgas.c */
/** @brief Executes an xBGAS instruction @p d. */
void mach_exec_xbgas(hart_t *h, const insn_t *d);
/** @brief Sets the e-registers of the runtime's conventions. */
void mach_xbgas_reset(hart_t *h);

/* syscall.c */
/** @brief Serves the ecall at @p d (a7 = number); may end the guest. */
void mach_syscall(hart_t *h, const insn_t *d);

/* elf.c */
/**
 * @brief Loads static RV64 ELF @p path into @p h's guest memory and builds
 * the stack (argc, argv, envp, auxv); sets pc and sp.  Fatal on error.
 */
void mach_load(hart_t *h, const char *path, int argc, char **argv);

/* fault.c */
/** @return the mnemonic of @p d. */
const char *mach_mnemonic(const insn_t *d);
/**
 * @brief Ends the job: "PE n: pc 0x..: <mnemonic>: <why>, address 0x..".
 * @p d may be NULL (no instruction).
 */
__attribute__((noreturn, format(printf, 4, 5))) void mach_fault(
    const hart_t *h, const insn_t *d, uint64_t addr, const char *fmt, ...);
/** @brief A fatal error of the machine itself (set-up). */
__attribute__((noreturn, format(printf, 1, 2))) void mach_die(const char *fmt,
                                                              ...);
/**
 * @brief Prints the counters of @p h to stderr, with the run's @p seconds
 * of wall time and @p cpu seconds of this process's CPU time.
 */
void mach_print_stats(const hart_t *h, double seconds, double cpu);

/** @brief Faults unless guest [@p a, @p a + @p n) is guest memory. */
static inline uint8_t *mach_mem(const hart_t *h, const insn_t *d, uint64_t a,
                                uint64_t n)
{
    if (mach_unlikely(a - h->lo > h->span - n)) {
        mach_fault(h, d, a,
                   "guest segfault: outside guest memory "
                   "[0x%llx, 0x%llx)",
                   (unsigned long long)h->lo,
                   (unsigned long long)(h->lo + h->span));
    }
    return h->base + a;
}

#endif
