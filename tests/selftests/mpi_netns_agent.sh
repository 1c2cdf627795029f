#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mpirun's remote shell (--mca plm_rsh_agent) for hosts that are network
# namespaces of this machine: "mpi_netns_agent.sh HOST CMD..." runs CMD
# with sh in the namespace that MRC_MPI_NETNS ("HOST=NS HOST=NS ...") maps
# HOST to, as ssh would run it on HOST. Used by mrc_ucx.sh.
host=$1
shift
for m in ${MRC_MPI_NETNS:-}; do
	if [ "${m%%=*}" = "$host" ]; then
		exec ip netns exec "${m#*=}" sh -c "$*"
	fi
done
echo "mpi_netns_agent: no namespace for host '$host' in MRC_MPI_NETNS='${MRC_MPI_NETNS:-}'" >&2
exit 255
