// Package fabric builds clusters from the NIC and switch models: the
// topologies, their routing tables and address plans, the workloads of
// AI training, and the scenarios and metrics of a run.
//
// Star is the smallest cluster: NICs on the ports of one switch, with a
// route per endpoint. Endpoint i has address 10.i (IPv4, 24 bits of i) and
// hangs off switch port i.
package fabric
