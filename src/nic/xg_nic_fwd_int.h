/*
 * Forward declarations of the software NIC's objects, so that each
 * per-object header includes only the headers of what it embeds.
 */
#ifndef XG_NIC_FWD_INT_H
#define XG_NIC_FWD_INT_H

typedef struct xg_nic xg_nic_t;
typedef struct xg_nic_ni xg_nic_ni_t;
typedef struct xg_nic_pt xg_nic_pt_t;
typedef struct xg_nic_me xg_nic_me_t;
typedef struct xg_nic_uh xg_nic_uh_t;
typedef struct xg_nic_list xg_nic_list_t;
typedef struct xg_nic_eq xg_nic_eq_t;
typedef struct xg_nic_ct xg_nic_ct_t;
typedef struct xg_nic_md xg_nic_md_t;
typedef struct xg_nic_tgt xg_nic_tgt_t;
typedef struct xg_nic_trig xg_nic_trig_t;
typedef struct xg_nic_peer xg_nic_peer_t;
typedef struct xg_nic_rx xg_nic_rx_t;
typedef struct xg_nic_txq xg_nic_txq_t;
typedef struct xg_nic_txmsg xg_nic_txmsg_t;
typedef struct xg_nic_txdone xg_nic_txdone_t;
typedef struct xg_nic_region xg_nic_region_t;

#endif
