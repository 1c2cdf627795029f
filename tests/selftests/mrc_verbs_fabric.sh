#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every rdma-core and perftest case of mrc_verbs.sh (block 1: pingpongs,
# perftest, rping -V, ucmatose, the data pattern, loopback) between two
# hosts of the 4-plane SRv6 lab fabric, each RC connection sprayed over
# all 8 paths (MRC_TOPO=fabric, see topo.sh). MRC_QUICK=1 and
# MRC_TIMEOUT_SCALE pass through: mrc_verbs.sh's quick mode (every case, a
# few iterations each).
MRC_TOPO=fabric MRC_VERBS_NETEM=0 exec "$(dirname "$0")/mrc_verbs.sh" "$@"
