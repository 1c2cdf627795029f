// SPDX-License-Identifier: GPL-2.0
/*
 * Port counters for `rdma statistic show link DEV/1`, summed over CPUs.
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
};

struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num)
{
	BUILD_BUG_ON(ARRAY_SIZE(mrc_counter_names) != MRC_NUM_COUNTERS);
	return rdma_alloc_hw_stats_struct(mrc_counter_names, MRC_NUM_COUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	int cpu, i;

	for (i = 0; i < MRC_NUM_COUNTERS; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu_ptr(mdev->stats, cpu)->c[i];
		stats->value[i] = sum;
	}
	return MRC_NUM_COUNTERS;
}
