#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_uc.sh between two hosts of the 4-plane SRv6 lab fabric
# (MRC_TOPO=fabric, see topo.sh): UC QPs sprayed over the peer's paths,
# packets on every plane, the same checks as on the veth pair.
MRC_TOPO=fabric exec "$(dirname "$0")/mrc_uc.sh" "$@"
