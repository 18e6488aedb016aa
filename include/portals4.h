/**
 * @file portals4.h
 * @brief The Portals 4 network programming interface, as provided by xgas.
 *
 * Portals is a low-level one- and two-sided messaging interface: a process
 * exposes memory through list entries attached to a portal table, other
 * processes put, get and apply atomic operations to it, and completion is
 * reported through full events (event queues) or counting events.  In xgas
 * every operation is carried out by the software NIC (src/nic): a progress
 * thread per process matches and delivers incoming messages, posts events
 * and fires triggered operations without the application calling in.
 *
 * This header follows the names, signatures and semantics of the Portals
 * 4.1 specification (Sandia report SAND2017-3825).  The numeric values of
 * the constants are this implementation's own.  Extensions beyond 4.1 are
 * marked as such: job identifiers for access control (PtlGetJid,
 * PTL_ME_AUTH_USE_JID and the jid field of the entries, from 4.0), the
 * memory-descriptor option PTL_MD_REMOTE_FAILURE_DISABLE, the Portals 4.3
 * additions the reference test suite uses (PtlAbort and PTL_ABORTED,
 * counting search, PTL_PT_MATCH_UNORDERED, the *_OPTIONS_MASK names) and
 * the reference implementation's PtlTriggeredMEAppend/PtlTriggeredMEUnlink.
 *
 * Processes are started with xgasrun; rank r of the job is the logical
 * process r of every logically addressed NI (no PtlSetMap needed), and its
 * physical identifier is (nid 0, pid r).  docs/portals.md is the guide.
 */
#ifndef PORTALS4_H
#define PORTALS4_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @name Return codes of every routine */
/**@{*/
enum ptl_retvals {
    PTL_OK = 0,          /**< success */
    PTL_ARG_INVALID,     /**< an argument is not valid */
    PTL_CT_NONE_REACHED, /**< PtlCTPoll timed out */
    PTL_EQ_DROPPED,      /**< an event was returned; earlier ones were lost */
    PTL_EQ_EMPTY,        /**< no event (or PtlEQPoll timed out) */
    PTL_FAIL,            /**< unspecified failure */
    PTL_IGNORED,         /**< the request had no effect */
    PTL_IN_USE,          /**< the object still has operations or entries */
    PTL_INTERRUPTED,     /**< the awaited object was freed meanwhile */
    PTL_LIST_TOO_LONG,   /**< a list would exceed max_list_size */
    PTL_NO_INIT,         /**< PtlInit was not called (or PtlFini was) */
    PTL_NO_SPACE,        /**< an object limit or memory is exhausted */
    PTL_PID_IN_USE,      /**< the requested pid is taken */
    PTL_PT_FULL,         /**< no free portal table entry */
    PTL_PT_EQ_NEEDED,    /**< flow control requested without an EQ */
    PTL_PT_IN_USE,       /**< the requested portal index is allocated */
    PTL_ABORTED          /**< a wait or poll ended by PtlAbort (4.3) */
};
/**@}*/

/** @name Scalar types */
/**@{*/
typedef uint64_t ptl_size_t;          /**< sizes, offsets, counts */
typedef uint32_t ptl_pt_index_t;      /**< portal table index */
typedef uint64_t ptl_match_bits_t;    /**< match and ignore bits */
typedef uint64_t ptl_hdr_data_t;      /**< 64 bits of user header data */
typedef unsigned int ptl_time_t;      /**< timeout in milliseconds */
typedef unsigned int ptl_interface_t; /**< network interface number */
typedef uint32_t ptl_nid_t;           /**< node identifier */
typedef uint32_t ptl_pid_t;           /**< process identifier on a node */
typedef uint32_t ptl_rank_t;          /**< logical process identifier */
typedef uint32_t ptl_uid_t;           /**< user identifier */
typedef uint32_t ptl_jid_t;           /**< job identifier (4.0 extension) */
typedef int64_t ptl_sr_value_t;       /**< value of a status register */
typedef unsigned int ptl_sr_index_t;  /**< status register number */
/**@}*/

/** @name Handles
 * Every handle is a 32-bit value naming an object of one NI; handles of
 * freed objects are never valid again until their slot is reused many
 * generations later. */
/**@{*/
typedef uint32_t ptl_handle_any_t;
typedef ptl_handle_any_t ptl_handle_ni_t;
typedef ptl_handle_any_t ptl_handle_eq_t;
typedef ptl_handle_any_t ptl_handle_ct_t;
typedef ptl_handle_any_t ptl_handle_md_t;
typedef ptl_handle_any_t ptl_handle_le_t;
typedef ptl_handle_any_t ptl_handle_me_t;

#define PTL_INVALID_HANDLE ((ptl_handle_any_t)0xffffffffu) /**< no object */
#define PTL_EQ_NONE        ((ptl_handle_eq_t)0xfffffffeu) /**< no event queue */
#define PTL_CT_NONE        ((ptl_handle_ct_t)0xfffffffdu) /**< no counter */
/**@}*/

/** @name Wildcards and special values */
/**@{*/
#define PTL_IFACE_DEFAULT ((ptl_interface_t)0xffffffffu)
#define PTL_NID_ANY       ((ptl_nid_t)0xffffffffu)
#define PTL_PID_ANY       ((ptl_pid_t)0xffffffffu)
#define PTL_RANK_ANY      ((ptl_rank_t)0xffffffffu)
#define PTL_UID_ANY       ((ptl_uid_t)0xffffffffu)
#define PTL_JID_ANY       ((ptl_jid_t)0xffffffffu)
#define PTL_JID_NONE      ((ptl_jid_t)0)
#define PTL_PT_ANY        ((ptl_pt_index_t)0xffffffffu)
#define PTL_TIME_FOREVER  ((ptl_time_t)0xffffffffu)
#define PTL_SIZE_MAX      ((ptl_size_t)UINT64_MAX)
/**@}*/

/** A process: a logical rank (logical NIs) or a node/process pair. */
typedef union {
    ptl_rank_t rank;
    struct {
        ptl_nid_t nid;
        ptl_pid_t pid;
    } phys;
} ptl_process_t;

/** One element of a scatter/gather list (option PTL_IOVEC). */
typedef struct {
    void *iov_base;
    ptl_size_t iov_len;
} ptl_iovec_t;

/** Shared by MDs, MEs and LEs: @c start points to an array of @c length
 *  ptl_iovec_t elements instead of a contiguous region. */
#define PTL_IOVEC (1u << 0)

/** @name Status registers (PtlNIStatus) */
/**@{*/
#define PTL_SR_DROP_COUNT            ((ptl_sr_index_t)0)
#define PTL_SR_PERMISSION_VIOLATIONS ((ptl_sr_index_t)1)
#define PTL_SR_OPERATION_VIOLATIONS  ((ptl_sr_index_t)2)
#define PTL_SR_LAST                  ((ptl_sr_index_t)3)
/* spellings used by earlier revisions of the specification */
#define PTL_SR_PERMISSIONS_VIOLATIONS PTL_SR_PERMISSION_VIOLATIONS
#define PTL_SR_OPERATIONS_VIOLATIONS  PTL_SR_OPERATION_VIOLATIONS
/**@}*/

/* ------------------------------------------------------------------------
 * Initialization
 * --------------------------------------------------------------------- */

/**
 * Initializes the library (reference counted).  Not collective: the
 * process publishes its packet queue and returns.  Sends to a process
 * that has not initialized (or has finalized, or exited) fail with
 * PTL_NI_UNDELIVERABLE in their events; they never wait.
 * @return PTL_OK, or PTL_FAIL with a message on stderr saying why.
 */
int PtlInit(void);

/** Drops one reference of PtlInit; the last one frees every object. */
void PtlFini(void);

/**
 * Portals 4.3: ends every PtlEQWait, PtlEQPoll, PtlCTWait and PtlCTPoll in
 * progress in this process, which return PTL_ABORTED; later calls of them
 * return PTL_ABORTED at once, until the last PtlFini.  Returns once no
 * thread is inside one of them any more, so the application may then free
 * the queues and counters those threads waited on.
 */
void PtlAbort(void);

/* ------------------------------------------------------------------------
 * Network interfaces
 * --------------------------------------------------------------------- */

/** @name PtlNIInit options: one of each pair */
/**@{*/
#define PTL_NI_MATCHING    (1u << 0) /**< MEs with match bits */
#define PTL_NI_NO_MATCHING (1u << 1) /**< LEs, first entry takes all */
#define PTL_NI_LOGICAL     (1u << 2) /**< processes named by rank */
#define PTL_NI_PHYSICAL    (1u << 3) /**< processes named by nid/pid */
/** Every PtlNIInit option (4.3 name). */
#define PTL_NI_INIT_OPTIONS_MASK \
    (PTL_NI_MATCHING | PTL_NI_NO_MATCHING | PTL_NI_LOGICAL | PTL_NI_PHYSICAL)
/**@}*/

/** @name NI features (ptl_ni_limits_t.features) */
/**@{*/
#define PTL_TARGET_BIND_INACCESSIBLE (1u << 0)
#define PTL_TOTAL_DATA_ORDERING      (1u << 1)
#define PTL_COHERENT_ATOMICS         (1u << 2)
/**@}*/

/** Why an operation failed (ptl_event_t.ni_fail_type). */
typedef unsigned char ptl_ni_fail_t;
#define PTL_NI_OK             ((ptl_ni_fail_t)0) /**< no failure */
#define PTL_NI_UNDELIVERABLE  ((ptl_ni_fail_t)1) /**< target unreachable */
#define PTL_NI_DROPPED        ((ptl_ni_fail_t)2) /**< no entry matched */
#define PTL_NI_PT_DISABLED    ((ptl_ni_fail_t)3) /**< portal disabled */
#define PTL_NI_PERM_VIOLATION ((ptl_ni_fail_t)4) /**< uid/jid not allowed */
#define PTL_NI_OP_VIOLATION   ((ptl_ni_fail_t)5) /**< put/get not enabled */
#define PTL_NI_NO_MATCH       ((ptl_ni_fail_t)6) /**< search found nothing */
#define PTL_NI_SEGV           ((ptl_ni_fail_t)7) /**< invalid memory access */

/** The limits of an NI (desired ones are lowered to what is supported). */
typedef struct {
    int max_entries;            /**< MEs/LEs allocated at once */
    int max_unexpected_headers; /**< headers queued at once */
    int max_mds;
    int max_cts;
    int max_eqs;
    int max_pt_index;      /**< largest valid portal index */
    int max_iovecs;        /**< elements of one PTL_IOVEC list */
    int max_list_size;     /**< entries on one portal index */
    int max_triggered_ops; /**< pending triggered operations */
    ptl_size_t max_msg_size;
    ptl_size_t max_atomic_size;       /**< PtlAtomic length */
    ptl_size_t max_fetch_atomic_size; /**< PtlFetchAtomic/PtlSwap length */
    ptl_size_t max_waw_ordered_size;  /**< write-after-write ordered size */
    ptl_size_t max_war_ordered_size;  /**< write-after-read ordered size */
    ptl_size_t max_volatile_size;     /**< PTL_MD_VOLATILE length */
    unsigned int features;            /**< PTL_TARGET_BIND_INACCESSIBLE... */
} ptl_ni_limits_t;

/**
 * Opens (or, if already open, references) the NI of kind @p options.
 * @param [in]  iface     0 or PTL_IFACE_DEFAULT (this node has one NIC).
 * @param [in]  options   PTL_NI_MATCHING or PTL_NI_NO_MATCHING, or'ed with
 *                        PTL_NI_LOGICAL or PTL_NI_PHYSICAL.
 * @param [in]  pid       PTL_PID_ANY or this process's pid (its rank among
 *                        the processes of its node).
 * @param [in]  desired   wanted limits, or NULL (ignored if already open).
 * @param [out] actual    the limits in force, or NULL.
 * @param [out] ni_handle the NI.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_PID_IN_USE, PTL_NO_SPACE.
 */
int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid,
              const ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni_handle);

/** Drops a reference of PtlNIInit; the last frees the NI's objects.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlNIFini(ptl_handle_ni_t ni_handle);

/** The NI that @p handle (of any object kind) belongs to.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle);

/** Reads status register @p status_register (PTL_SR_*).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlNIStatus(ptl_handle_ni_t ni_handle, ptl_sr_index_t status_register,
                ptl_sr_value_t *status);

/**
 * Replaces the rank -> nid/pid map of a logical NI.  Not needed under
 * xgasrun (rank r is pid r); a map must name processes of this job.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE.
 */
int PtlSetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size,
              const ptl_process_t *mapping);

/** Copies up to @p map_size entries of the map; *actual_map_size is the
 *  map's full size.  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlGetMap(ptl_handle_ni_t ni_handle, ptl_size_t map_size,
              ptl_process_t *mapping, ptl_size_t *actual_map_size);

/** This process as the NI names it (rank or nid/pid).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_t *id);

/** This process's nid/pid, whatever the NI's addressing.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlGetPhysId(ptl_handle_ni_t ni_handle, ptl_process_t *id);

/** The user identifier carried in this process's messages.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlGetUid(ptl_handle_ni_t ni_handle, ptl_uid_t *uid);

/** The job identifier carried in this process's messages (4.0 extension).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlGetJid(ptl_handle_ni_t ni_handle, ptl_jid_t *jid);

/* ------------------------------------------------------------------------
 * Portal table
 * --------------------------------------------------------------------- */

/** @name PtlPTAlloc options */
/**@{*/
#define PTL_PT_ONLY_USE_ONCE (1u << 0) /**< hint: every entry is use-once */
#define PTL_PT_FLOWCTRL      (1u << 1) /**< disable instead of dropping */
#define PTL_PT_ONLY_TRUNCATE (1u << 2) /**< hint: no PTL_ME_NO_TRUNCATE */
#define PTL_PT_MATCH_UNORDERED \
    (1u << 3) /**< hint (4.3): matching need not
                                              follow list order; ignored,
                                              lists are always ordered */
/** Every PtlPTAlloc option (4.3 name). */
#define PTL_PT_ALLOC_OPTIONS_MASK                                    \
    (PTL_PT_ONLY_USE_ONCE | PTL_PT_FLOWCTRL | PTL_PT_ONLY_TRUNCATE | \
     PTL_PT_MATCH_UNORDERED)
/**@}*/

/**
 * Allocates portal index @p pt_index_req (or any free one: PTL_PT_ANY).
 * With PTL_PT_FLOWCTRL, running out of resources (no matching entry, no
 * unexpected-header space, a full event queue) disables the index and
 * posts PTL_EVENT_PT_DISABLED instead of dropping messages silently.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_PT_FULL,
 *         PTL_PT_IN_USE, PTL_PT_EQ_NEEDED.
 */
int PtlPTAlloc(ptl_handle_ni_t ni_handle, unsigned int options,
               ptl_handle_eq_t eq_handle, ptl_pt_index_t pt_index_req,
               ptl_pt_index_t *pt_index);

/** Frees a portal index that has no entries left.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_IN_USE. */
int PtlPTFree(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);

/** Stops accepting messages at a portal index; returns once messages in
 *  progress there have completed.  @return PTL_OK, PTL_NO_INIT,
 *  PTL_ARG_INVALID. */
int PtlPTDisable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);

/** Accepts messages again (after PtlPTDisable or flow control).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlPTEnable(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index);

/* ------------------------------------------------------------------------
 * Memory descriptors
 * --------------------------------------------------------------------- */

/** @name MD options (or'ed with PTL_IOVEC) */
/**@{*/
#define PTL_MD_EVENT_SUCCESS_DISABLE (1u << 1) /**< no successful events */
#define PTL_MD_EVENT_SEND_DISABLE    (1u << 2) /**< no PTL_EVENT_SEND */
#define PTL_MD_EVENT_CT_SEND         (1u << 3) /**< count SEND events */
#define PTL_MD_EVENT_CT_REPLY        (1u << 4) /**< count REPLY events */
#define PTL_MD_EVENT_CT_ACK          (1u << 5) /**< count ACK events */
#define PTL_MD_EVENT_CT_BYTES        (1u << 6) /**< count bytes, not events */
#define PTL_MD_UNORDERED             (1u << 7) /**< hint: may be reordered */
#define PTL_MD_VOLATILE              (1u << 8) /**< reusable on return */
#define PTL_MD_REMOTE_FAILURE_DISABLE \
    (1u << 9) /**< no failure ACK events
                                                      for PTL_NO_ACK_REQ */
/** Every PtlMDBind option (4.3 name). */
#define PTL_MD_OPTIONS_MASK                                                 \
    (PTL_IOVEC | PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_EVENT_SEND_DISABLE | \
     PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_REPLY | PTL_MD_EVENT_CT_ACK |   \
     PTL_MD_EVENT_CT_BYTES | PTL_MD_UNORDERED | PTL_MD_VOLATILE |           \
     PTL_MD_REMOTE_FAILURE_DISABLE)
/**@}*/

/** An initiator's memory region and where its completions go. */
typedef struct {
    void *start;               /**< region, or ptl_iovec_t array */
    ptl_size_t length;         /**< bytes, or number of ptl_iovec_t */
    unsigned int options;      /**< PTL_MD_* */
    ptl_handle_eq_t eq_handle; /**< SEND/ACK/REPLY events, or PTL_EQ_NONE */
    ptl_handle_ct_t ct_handle; /**< counts them, or PTL_CT_NONE */
} ptl_md_t;

/** Creates a memory descriptor.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE. */
int PtlMDBind(ptl_handle_ni_t ni_handle, const ptl_md_t *md,
              ptl_handle_md_t *md_handle);

/** Releases a memory descriptor without operations in progress.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_IN_USE. */
int PtlMDRelease(ptl_handle_md_t md_handle);

/* ------------------------------------------------------------------------
 * List entries (non-matching NIs) and match list entries (matching NIs)
 * --------------------------------------------------------------------- */

/** Which list of a portal index an entry goes to. */
typedef enum {
    PTL_PRIORITY_LIST = 0,
    PTL_OVERFLOW_LIST = 1
} ptl_list_t;

/** What PtlMESearch / PtlLESearch do with the headers they find. */
typedef enum {
    PTL_SEARCH_ONLY   = 0, /**< report the first match (PTL_EVENT_SEARCH) */
    PTL_SEARCH_DELETE = 1  /**< consume matches (overflow events) */
} ptl_search_op_t;

/** @name ME options (LE options are the same bits, PTL_LE_*) */
/**@{*/
#define PTL_ME_OP_PUT                 (1u << 1) /**< accept puts/atomics */
#define PTL_ME_OP_GET                 (1u << 2) /**< accept gets/fetches */
#define PTL_ME_USE_ONCE               (1u << 3) /**< unlink after one match */
#define PTL_ME_ACK_DISABLE            (1u << 4) /**< never acknowledge */
#define PTL_ME_UNEXPECTED_HDR_DISABLE (1u << 5) /**< overflow: no header */
#define PTL_ME_IS_ACCESSIBLE          (1u << 6) /**< hint: memory is mapped */
#define PTL_ME_EVENT_LINK_DISABLE     (1u << 7)
#define PTL_ME_EVENT_COMM_DISABLE     (1u << 8)
#define PTL_ME_EVENT_FLOWCTRL_DISABLE (1u << 9)
#define PTL_ME_EVENT_SUCCESS_DISABLE  (1u << 10)
#define PTL_ME_EVENT_OVER_DISABLE     (1u << 11)
#define PTL_ME_EVENT_UNLINK_DISABLE   (1u << 12)
#define PTL_ME_EVENT_CT_COMM          (1u << 13) /**< count comm events */
#define PTL_ME_EVENT_CT_OVERFLOW      (1u << 14) /**< count overflow events */
#define PTL_ME_EVENT_CT_BYTES         (1u << 15) /**< count bytes */
#define PTL_ME_AUTH_USE_JID           (1u << 16) /**< check jid, not uid */
#define PTL_ME_MANAGE_LOCAL           (1u << 17) /**< offsets kept locally */
#define PTL_ME_NO_TRUNCATE            (1u << 18) /**< no match if too short */
#define PTL_ME_MAY_ALIGN              (1u << 19) /**< hint (MANAGE_LOCAL) */
#define PTL_ME_LOCAL_INC_UH_RLENGTH   (1u << 20) /**< advance by rlength */

#define PTL_LE_OP_PUT                 PTL_ME_OP_PUT
#define PTL_LE_OP_GET                 PTL_ME_OP_GET
#define PTL_LE_USE_ONCE               PTL_ME_USE_ONCE
#define PTL_LE_ACK_DISABLE            PTL_ME_ACK_DISABLE
#define PTL_LE_UNEXPECTED_HDR_DISABLE PTL_ME_UNEXPECTED_HDR_DISABLE
#define PTL_LE_IS_ACCESSIBLE          PTL_ME_IS_ACCESSIBLE
#define PTL_LE_EVENT_LINK_DISABLE     PTL_ME_EVENT_LINK_DISABLE
#define PTL_LE_EVENT_COMM_DISABLE     PTL_ME_EVENT_COMM_DISABLE
#define PTL_LE_EVENT_FLOWCTRL_DISABLE PTL_ME_EVENT_FLOWCTRL_DISABLE
#define PTL_LE_EVENT_SUCCESS_DISABLE  PTL_ME_EVENT_SUCCESS_DISABLE
#define PTL_LE_EVENT_OVER_DISABLE     PTL_ME_EVENT_OVER_DISABLE
#define PTL_LE_EVENT_UNLINK_DISABLE   PTL_ME_EVENT_UNLINK_DISABLE
#define PTL_LE_EVENT_CT_COMM          PTL_ME_EVENT_CT_COMM
#define PTL_LE_EVENT_CT_OVERFLOW      PTL_ME_EVENT_CT_OVERFLOW
#define PTL_LE_EVENT_CT_BYTES         PTL_ME_EVENT_CT_BYTES
#define PTL_LE_AUTH_USE_JID           PTL_ME_AUTH_USE_JID
/** Every option PtlLEAppend takes (4.3 name). */
#define PTL_LE_APPEND_OPTIONS_MASK                                 \
    (PTL_IOVEC | PTL_LE_OP_PUT | PTL_LE_OP_GET | PTL_LE_USE_ONCE | \
     PTL_LE_ACK_DISABLE | PTL_LE_UNEXPECTED_HDR_DISABLE |          \
     PTL_LE_IS_ACCESSIBLE | PTL_LE_EVENT_LINK_DISABLE |            \
     PTL_LE_EVENT_COMM_DISABLE | PTL_LE_EVENT_FLOWCTRL_DISABLE |   \
     PTL_LE_EVENT_SUCCESS_DISABLE | PTL_LE_EVENT_OVER_DISABLE |    \
     PTL_LE_EVENT_UNLINK_DISABLE | PTL_LE_EVENT_CT_COMM |          \
     PTL_LE_EVENT_CT_OVERFLOW | PTL_LE_EVENT_CT_BYTES | PTL_LE_AUTH_USE_JID)
/** Every option PtlMEAppend takes (4.3 name). */
#define PTL_ME_APPEND_OPTIONS_MASK                                           \
    (PTL_LE_APPEND_OPTIONS_MASK | PTL_ME_MANAGE_LOCAL | PTL_ME_NO_TRUNCATE | \
     PTL_ME_MAY_ALIGN | PTL_ME_LOCAL_INC_UH_RLENGTH)
/**@}*/

/** A list entry of a non-matching NI: every message matches the first. */
typedef struct {
    void *start; /**< region, or ptl_iovec_t array */
    ptl_size_t length;
    ptl_handle_ct_t ct_handle; /**< or PTL_CT_NONE */
    ptl_uid_t uid;             /**< allowed initiator user, or PTL_UID_ANY */
    unsigned int options;      /**< PTL_LE_* */
    ptl_jid_t jid;             /**< with PTL_LE_AUTH_USE_JID (4.0) */
} ptl_le_t;

/**
 * A match list entry.  An incoming message matches when
 * ((incoming ^ match_bits) & ~ignore_bits) == 0 and its initiator equals
 * @c match_id (wildcards allowed).
 */
typedef struct {
    void *start; /**< region, or ptl_iovec_t array */
    ptl_size_t length;
    ptl_handle_ct_t ct_handle; /**< or PTL_CT_NONE */
    ptl_uid_t uid;             /**< allowed initiator user, PTL_UID_ANY */
    unsigned int options;      /**< PTL_ME_* */
    ptl_process_t match_id;    /**< allowed initiator (wildcards) */
    ptl_match_bits_t match_bits;
    ptl_match_bits_t ignore_bits;
    ptl_size_t min_free; /**< MANAGE_LOCAL: unlink below this */
    ptl_jid_t jid;       /**< with PTL_ME_AUTH_USE_JID (4.0) */
} ptl_me_t;

/**
 * Appends a list entry.  On the priority list the unexpected headers are
 * searched first: a match produces an overflow event (and consumes a
 * use-once entry); otherwise PTL_EVENT_LINK follows once linked.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE,
 *         PTL_LIST_TOO_LONG.
 */
int PtlLEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_le_t *le, ptl_list_t ptl_list, void *user_ptr,
                ptl_handle_le_t *le_handle);

/** Unlinks and frees a list entry.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_IN_USE. */
int PtlLEUnlink(ptl_handle_le_t le_handle);

/**
 * Searches the unexpected headers as PtlLEAppend would, never linking.
 * Counting search (Portals 4.3): when the entry has a counting event and
 * PTL_LE_EVENT_CT_OVERFLOW, each header found adds 1 (or its mlength with
 * PTL_LE_EVENT_CT_BYTES) to the success count, and the end of the search
 * adds 1 to the failure count -- except for a PTL_LE_USE_ONCE entry that
 * found a header.  A counter that reaches success + failure thus tells
 * that the search is over.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlLESearch(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_le_t *le, ptl_search_op_t ptl_search_op,
                void *user_ptr);

/** As PtlLEAppend, for match list entries. */
int PtlMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_me_t *me, ptl_list_t ptl_list, void *user_ptr,
                ptl_handle_me_t *me_handle);

/** As PtlLEUnlink, for match list entries. */
int PtlMEUnlink(ptl_handle_me_t me_handle);

/** As PtlLESearch, for match list entries. */
int PtlMESearch(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                const ptl_me_t *me, ptl_search_op_t ptl_search_op,
                void *user_ptr);

/* ------------------------------------------------------------------------
 * Counting events
 * --------------------------------------------------------------------- */

/** The value of a counting event. */
typedef struct {
    ptl_size_t success; /**< successful events (or bytes) */
    ptl_size_t failure; /**< failed events */
} ptl_ct_event_t;

/** Allocates a counter, initially zero.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE. */
int PtlCTAlloc(ptl_handle_ni_t ni_handle, ptl_handle_ct_t *ct_handle);

/** Frees a counter (its pending triggered operations are cancelled).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlCTFree(ptl_handle_ct_t ct_handle);

/** Destroys the triggered operations waiting on a counter, unfired.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlCTCancelTriggered(ptl_handle_ct_t ct_handle);

/** Reads a counter.  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlCTGet(ptl_handle_ct_t ct_handle, ptl_ct_event_t *event);

/** Waits until success + failure >= @p test.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_INTERRUPTED. */
int PtlCTWait(ptl_handle_ct_t ct_handle, ptl_size_t test,
              ptl_ct_event_t *event);

/** Waits up to @p timeout ms for any counter i to reach tests[i].
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_CT_NONE_REACHED,
 *          PTL_INTERRUPTED. */
int PtlCTPoll(const ptl_handle_ct_t *ct_handles, const ptl_size_t *tests,
              unsigned int size, ptl_time_t timeout, ptl_ct_event_t *event,
              unsigned int *which);

/** Sets a counter (may fire triggered operations).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct);

/** Adds to a counter (may fire triggered operations).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment);

/* ------------------------------------------------------------------------
 * Data movement
 * --------------------------------------------------------------------- */

/** Acknowledgement requested by a put or atomic. */
typedef unsigned char ptl_ack_req_t;
#define PTL_NO_ACK_REQ ((ptl_ack_req_t)0) /**< none (failures still reported) */
#define PTL_ACK_REQ    ((ptl_ack_req_t)1) /**< full PTL_EVENT_ACK */
#define PTL_CT_ACK_REQ ((ptl_ack_req_t)2) /**< counting acknowledgement */
#define PTL_OC_ACK_REQ \
    ((ptl_ack_req_t)3) /**< operation completed (counts
                                               even dropped messages) */

/**
 * Sends @p length bytes of the MD from @p local_offset to @p target_id.
 * PTL_EVENT_SEND (MD reusable) and, if requested, PTL_EVENT_ACK follow.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID.
 */
int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset,
           ptl_size_t length, ptl_ack_req_t ack_req, ptl_process_t target_id,
           ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
           ptl_size_t remote_offset, void *user_ptr, ptl_hdr_data_t hdr_data);

/** Reads @p length bytes from the target into the MD (PTL_EVENT_REPLY).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset,
           ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
           ptl_match_bits_t match_bits, ptl_size_t remote_offset,
           void *user_ptr);

/** Atomic operations. */
typedef unsigned char ptl_op_t;
#define PTL_MIN      ((ptl_op_t)0)
#define PTL_MAX      ((ptl_op_t)1)
#define PTL_SUM      ((ptl_op_t)2)
#define PTL_PROD     ((ptl_op_t)3)
#define PTL_LOR      ((ptl_op_t)4)
#define PTL_LAND     ((ptl_op_t)5)
#define PTL_BOR      ((ptl_op_t)6)
#define PTL_BAND     ((ptl_op_t)7)
#define PTL_LXOR     ((ptl_op_t)8)
#define PTL_BXOR     ((ptl_op_t)9)
#define PTL_SWAP     ((ptl_op_t)10) /**< PtlSwap: target := initiator */
#define PTL_CSWAP    ((ptl_op_t)11) /**< if operand == target */
#define PTL_CSWAP_NE ((ptl_op_t)12) /**< if operand != target */
#define PTL_CSWAP_LE ((ptl_op_t)13) /**< if operand <= target */
#define PTL_CSWAP_LT ((ptl_op_t)14) /**< if operand <  target */
#define PTL_CSWAP_GE ((ptl_op_t)15) /**< if operand >= target */
#define PTL_CSWAP_GT ((ptl_op_t)16) /**< if operand >  target */
#define PTL_MSWAP    ((ptl_op_t)17) /**< bits set in operand from initiator */
#define PTL_OP_LAST  ((ptl_op_t)18)

/** Element types of atomic operations. */
typedef unsigned char ptl_datatype_t;
#define PTL_INT8_T              ((ptl_datatype_t)0)
#define PTL_UINT8_T             ((ptl_datatype_t)1)
#define PTL_INT16_T             ((ptl_datatype_t)2)
#define PTL_UINT16_T            ((ptl_datatype_t)3)
#define PTL_INT32_T             ((ptl_datatype_t)4)
#define PTL_UINT32_T            ((ptl_datatype_t)5)
#define PTL_FLOAT               ((ptl_datatype_t)6)
#define PTL_INT64_T             ((ptl_datatype_t)7)
#define PTL_UINT64_T            ((ptl_datatype_t)8)
#define PTL_DOUBLE              ((ptl_datatype_t)9)
#define PTL_FLOAT_COMPLEX       ((ptl_datatype_t)10)
#define PTL_DOUBLE_COMPLEX      ((ptl_datatype_t)11)
#define PTL_LONG_DOUBLE         ((ptl_datatype_t)12)
#define PTL_LONG_DOUBLE_COMPLEX ((ptl_datatype_t)13)
#define PTL_DATATYPE_LAST       ((ptl_datatype_t)14)

/**
 * Applies @p operation elementwise to the target with the MD's data
 * (PTL_EVENT_ATOMIC at the target).  @p length <= max_atomic_size and a
 * multiple of the datatype's size.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID.
 */
int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset,
              ptl_size_t length, ptl_ack_req_t ack_req, ptl_process_t target_id,
              ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
              ptl_size_t remote_offset, void *user_ptr, ptl_hdr_data_t hdr_data,
              ptl_op_t operation, ptl_datatype_t datatype);

/** As PtlAtomic, returning the target's prior values into @p get_md_handle
 *  (PTL_EVENT_REPLY).  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlFetchAtomic(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
                   ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
                   ptl_size_t length, ptl_process_t target_id,
                   ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                   ptl_size_t remote_offset, void *user_ptr,
                   ptl_hdr_data_t hdr_data, ptl_op_t operation,
                   ptl_datatype_t datatype);

/** PTL_SWAP, PTL_CSWAP* and PTL_MSWAP with @p operand (one element for
 *  the conditional and masked forms).
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
            ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
            ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
            ptl_match_bits_t match_bits, ptl_size_t remote_offset,
            void *user_ptr, ptl_hdr_data_t hdr_data, const void *operand,
            ptl_op_t operation, ptl_datatype_t datatype);

/** Returns once the host may modify data touched by atomic operations that
 *  have completed here.  @return PTL_OK, PTL_NO_INIT. */
int PtlAtomicSync(void);

/* ------------------------------------------------------------------------
 * Event queues
 * --------------------------------------------------------------------- */

/** Kinds of full events. */
typedef enum {
    PTL_EVENT_GET = 0,
    PTL_EVENT_GET_OVERFLOW,
    PTL_EVENT_PUT,
    PTL_EVENT_PUT_OVERFLOW,
    PTL_EVENT_ATOMIC,
    PTL_EVENT_ATOMIC_OVERFLOW,
    PTL_EVENT_FETCH_ATOMIC,
    PTL_EVENT_FETCH_ATOMIC_OVERFLOW,
    PTL_EVENT_REPLY,
    PTL_EVENT_SEND,
    PTL_EVENT_ACK,
    PTL_EVENT_PT_DISABLED,
    PTL_EVENT_LINK,
    PTL_EVENT_AUTO_UNLINK,
    PTL_EVENT_AUTO_FREE,
    PTL_EVENT_SEARCH
} ptl_event_kind_t;

/** A full event (docs/portals.md lists which fields each kind fills). */
typedef struct {
    void *start;    /**< where the data is (target) */
    void *user_ptr; /**< of the entry (target) or call */
    ptl_hdr_data_t hdr_data;
    ptl_match_bits_t match_bits;
    ptl_size_t rlength;       /**< length requested */
    ptl_size_t mlength;       /**< length manipulated */
    ptl_size_t remote_offset; /**< offset requested (target) or used
                                        at the target (initiator) */
    ptl_uid_t uid;            /**< initiator's user */
    ptl_jid_t jid;            /**< initiator's job (4.0 extension) */
    ptl_process_t initiator;  /**< the other process */
    ptl_event_kind_t type;
    ptl_list_t ptl_list; /**< list the entry was on */
    ptl_pt_index_t pt_index;
    ptl_ni_fail_t ni_fail_type;
    ptl_op_t atomic_operation;
    ptl_datatype_t atomic_type;
} ptl_event_t;

/** Allocates an event queue of at least @p count events.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE. */
int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count,
               ptl_handle_eq_t *eq_handle);

/** Frees an event queue.  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlEQFree(ptl_handle_eq_t eq_handle);

/** Takes the oldest event.  @return PTL_OK, PTL_EQ_DROPPED (an event was
 *  taken, earlier ones overwritten), PTL_EQ_EMPTY, PTL_NO_INIT,
 *  PTL_ARG_INVALID. */
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event);

/** Waits for and takes the oldest event.  @return PTL_OK, PTL_EQ_DROPPED,
 *  PTL_NO_INIT, PTL_ARG_INVALID, PTL_INTERRUPTED. */
int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event);

/** Waits up to @p timeout ms for an event on any of @p size queues.
 *  @return PTL_OK, PTL_EQ_DROPPED, PTL_EQ_EMPTY (timeout), PTL_NO_INIT,
 *          PTL_ARG_INVALID, PTL_INTERRUPTED. */
int PtlEQPoll(const ptl_handle_eq_t *eq_handles, unsigned int size,
              ptl_time_t timeout, ptl_event_t *event, unsigned int *which);

/* ------------------------------------------------------------------------
 * Triggered operations: issued when trig_ct_handle's success + failure
 * reaches threshold (at once if it already has), in threshold order, and
 * in issue order for equal thresholds.
 * --------------------------------------------------------------------- */

int PtlTriggeredPut(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                    ptl_size_t length, ptl_ack_req_t ack_req,
                    ptl_process_t target_id, ptl_pt_index_t pt_index,
                    ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                    void *user_ptr, ptl_hdr_data_t hdr_data,
                    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

int PtlTriggeredGet(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                    ptl_size_t length, ptl_process_t target_id,
                    ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                    ptl_size_t remote_offset, void *user_ptr,
                    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

int PtlTriggeredAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                       ptl_size_t length, ptl_ack_req_t ack_req,
                       ptl_process_t target_id, ptl_pt_index_t pt_index,
                       ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                       void *user_ptr, ptl_hdr_data_t hdr_data,
                       ptl_op_t operation, ptl_datatype_t datatype,
                       ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

int PtlTriggeredFetchAtomic(
    ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
    ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
    ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
    ptl_match_bits_t match_bits, ptl_size_t remote_offset, void *user_ptr,
    ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype,
    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

int PtlTriggeredSwap(ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
                     ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
                     ptl_size_t length, ptl_process_t target_id,
                     ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                     ptl_size_t remote_offset, void *user_ptr,
                     ptl_hdr_data_t hdr_data, const void *operand,
                     ptl_op_t operation, ptl_datatype_t datatype,
                     ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

/** Adds @p increment to @p ct_handle when the trigger fires (chains). */
int PtlTriggeredCTInc(ptl_handle_ct_t ct_handle, ptl_ct_event_t increment,
                      ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

/** Sets @p ct_handle to @p new_ct when the trigger fires. */
int PtlTriggeredCTSet(ptl_handle_ct_t ct_handle, ptl_ct_event_t new_ct,
                      ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

/**
 * Extension (not in the 4.1 or 4.3 text; the reference implementation's
 * tests use it): creates a match list entry now -- @p me_handle is valid on
 * return -- and appends it to @p ptl_list, as PtlMEAppend would, when
 * @p trig_ct_handle reaches @p threshold.  Until then no message matches
 * it; PtlMEUnlink may remove it before it is appended.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE,
 *         PTL_LIST_TOO_LONG.
 */
int PtlTriggeredMEAppend(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index,
                         const ptl_me_t *me, ptl_list_t ptl_list,
                         void *user_ptr, ptl_handle_me_t *me_handle,
                         ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

/**
 * Extension (as PtlTriggeredMEAppend): unlinks @p me_handle as PtlMEUnlink
 * would when @p trig_ct_handle reaches @p threshold; an entry that is in
 * use then, or already gone, is left as it is.
 * @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID, PTL_NO_SPACE.
 */
int PtlTriggeredMEUnlink(ptl_handle_me_t me_handle,
                         ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold);

/* ------------------------------------------------------------------------
 * Bundles and handles
 * --------------------------------------------------------------------- */

/** Starts (nests) a bundle: operations may be held back until the matching
 *  PtlEndBundle.  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlStartBundle(ptl_handle_ni_t ni_handle);

/** Ends one level of bundling; everything held back is issued.
 *  @return PTL_OK, PTL_NO_INIT, PTL_ARG_INVALID. */
int PtlEndBundle(ptl_handle_ni_t ni_handle);

/** @return non-zero when both handles name the same object. */
int PtlHandleIsEqual(ptl_handle_any_t handle1, ptl_handle_any_t handle2);

#ifdef __cplusplus
}
#endif

#endif
