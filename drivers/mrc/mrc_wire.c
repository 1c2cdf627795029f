// SPDX-License-Identifier: GPL-2.0
/*
 * MRC wire format helpers.
 */
#include <kunit/visibility.h>
#include <linux/export.h>

#include "mrc_wire.h"

/**
 * mrc_wire_path_mtu() - largest IB MTU whose packets fit a netdev MTU
 * @netdev_mtu: the L3 MTU of the plane netdev
 *
 * Every MRC data packet must fit the plane's MTU with the worst-case header
 * stack, so no packet ever needs IP fragmentation on any path.
 *
 * Return: IB_MTU_256 .. IB_MTU_4096, or 0 when not even 256 bytes fit.
 */
enum ib_mtu mrc_wire_path_mtu(unsigned int netdev_mtu)
{
	enum ib_mtu mtu;

	if (netdev_mtu < MRC_MAX_HDR_OVERHEAD)
		return 0;
	for (mtu = IB_MTU_4096; mtu >= IB_MTU_256; mtu--)
		if (ib_mtu_enum_to_int(mtu) <= netdev_mtu - MRC_MAX_HDR_OVERHEAD)
			return mtu;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_path_mtu);
