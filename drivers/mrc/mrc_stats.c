// SPDX-License-Identifier: GPL-2.0
/*
 * Port counters for `rdma statistic show link DEV/1`, summed over CPUs:
 * the device's, then each plane's (pN_*; zero for absent planes).
 */
#include "mrc.h"

static const struct rdma_stat_desc mrc_counter_names[] = {
	[MRC_CNT_TX_PKTS]	= { .name = "tx_packets" },
	[MRC_CNT_TX_BYTES]	= { .name = "tx_bytes" },
	[MRC_CNT_RX_PKTS]	= { .name = "rx_packets" },
	[MRC_CNT_RX_BYTES]	= { .name = "rx_bytes" },
	[MRC_CNT_RETRANS]	= { .name = "retransmits" },
	[MRC_CNT_TIMEOUTS]	= { .name = "timeouts" },
	[MRC_CNT_ACK_TX]	= { .name = "acks_sent" },
	[MRC_CNT_ACK_RX]	= { .name = "acks_received" },
	[MRC_CNT_SACK_TX]	= { .name = "sacks_sent" },
	[MRC_CNT_SACK_RX]	= { .name = "sacks_received" },
	[MRC_CNT_NACK_TX]	= { .name = "naks_sent" },
	[MRC_CNT_NACK_RX]	= { .name = "naks_received" },
	[MRC_CNT_RNR_TX]	= { .name = "rnr_naks_sent" },
	[MRC_CNT_RNR_RX]	= { .name = "rnr_naks_received" },
	[MRC_CNT_DUP]		= { .name = "duplicates" },
	[MRC_CNT_OOO]		= { .name = "out_of_order" },
	[MRC_CNT_ICRC_ERR]	= { .name = "icrc_errors" },
	[MRC_CNT_MALFORMED]	= { .name = "malformed" },
	[MRC_CNT_NO_QP]		= { .name = "unknown_qp" },
	[MRC_CNT_RKEY_ERR]	= { .name = "rkey_violations" },
	[MRC_CNT_BOUNDS_ERR]	= { .name = "bounds_violations" },
	[MRC_CNT_RETRY_EXC]	= { .name = "retry_exceeded" },
	[MRC_CNT_RX_DROP]	= { .name = "rx_dropped" },
	[MRC_CNT_TX_ERR]	= { .name = "tx_errors" },
	[MRC_CNT_EV_BAD]	= { .name = "ev_assumed_bad" },
	[MRC_CNT_EV_RECOVERED]	= { .name = "ev_recovered" },
	[MRC_CNT_EV_BACKUP]	= { .name = "ev_backups_used" },
	[MRC_CNT_EV_FLOOR]	= { .name = "ev_floor_kept" },
	[MRC_CNT_EV_SKIP]	= { .name = "ev_skips" },
	[MRC_CNT_PROBE_TX]	= { .name = "probes_sent" },
	[MRC_CNT_PROBE_RX]	= { .name = "probes_received" },
	[MRC_CNT_PEER_PLANES]	= { .name = "peer_port_status" },
	[MRC_CNT_RTO_PROBE]	= { .name = "rto_probes" },
	[MRC_CNT_ACK_BAD_PSN]	= { .name = "acks_bad_psn" },
	[MRC_CNT_WRONG_SRC]	= { .name = "rx_wrong_source" },
	[MRC_CNT_BAD_PKEY]	= { .name = "rx_bad_pkey" },
	[MRC_CNT_BAD_QKEY]	= { .name = "rx_bad_qkey" },
	[MRC_CNT_RD_EXCESS]	= { .name = "rx_rd_atomic_excess" },
	[MRC_CNT_SRC_DENIED]	= { .name = "rx_src_denied" },
	[MRC_CNT_TRIMMED_RX]	= { .name = "trimmed_received" },
	[MRC_CNT_TRIM_NACK_TX]	= { .name = "trim_nacks_sent" },
	[MRC_CNT_TRIM_NACK_RX]	= { .name = "trim_nacks_received" },
};

/*
 * Then, per plane, packets and bytes each way: "pN_tx_packets" ... Short
 * names and only these four: the IB core answers `rdma statistic` in one
 * default-size netlink message, which more would overflow: with 4 KiB
 * pages it has room for a device name of at most 55 characters. Further
 * counters go to mrc's netlink (per plane: mrc_nl_plane.c).
 */
#define PLANE_NSTATS	4
#define MRC_NUM_STATS	(MRC_NUM_COUNTERS + MRC_MAX_PLANES * PLANE_NSTATS)

static const char * const plane_stat_fmt[PLANE_NSTATS] = {
	"p%u_tx_packets", "p%u_tx_bytes", "p%u_rx_packets", "p%u_rx_bytes",
};

static char plane_stat_names[MRC_MAX_PLANES * PLANE_NSTATS][16];
static struct rdma_stat_desc mrc_stat_names[MRC_NUM_STATS];

/* module init: the descriptor table, device counters then plane ones */
void mrc_stats_init(void)
{
	u32 i;

	BUILD_BUG_ON(ARRAY_SIZE(mrc_counter_names) != MRC_NUM_COUNTERS);
	BUILD_BUG_ON(MRC_PCNT_RX_BYTES + 1 != PLANE_NSTATS);
	for (i = 0; i < MRC_NUM_COUNTERS; i++)
		mrc_stat_names[i] = mrc_counter_names[i];
	for (i = 0; i < MRC_MAX_PLANES * PLANE_NSTATS; i++) {
		snprintf(plane_stat_names[i], sizeof(plane_stat_names[i]),
			 plane_stat_fmt[i % PLANE_NSTATS], i / PLANE_NSTATS);
		mrc_stat_names[MRC_NUM_COUNTERS + i].name = plane_stat_names[i];
	}
}

struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num)
{
	return rdma_alloc_hw_stats_struct(mrc_stat_names, MRC_NUM_STATS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	struct mrc_plane_stats ps;
	struct mrc_plane *plane;
	int cpu, i;

	for (i = 0; i < MRC_NUM_COUNTERS; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu_ptr(mdev->stats, cpu)->c[i];
		stats->value[i] = sum;
	}
	rcu_read_lock();
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		u64 *v = &stats->value[MRC_NUM_COUNTERS + i * PLANE_NSTATS];

		plane = rcu_dereference(mdev->planes[i]);
		if (plane)
			mrc_plane_stats(plane, &ps);
		else
			memset(&ps, 0, sizeof(ps));
		memcpy(v, ps.c, PLANE_NSTATS * sizeof(*v));
	}
	rcu_read_unlock();
	return MRC_NUM_STATS;
}
