// Package fabric builds clusters from the NIC and switch models: the
// topologies, their routing tables and address plans, the workloads of
// AI training, and the scenarios and metrics of a run.
//
// A Run puts each switch and each NIC, with the flow scheduler of its host,
// in a kernel partition of its own, with the least wire latency between
// devices as the lookahead (rtlmodel.Engine.Partition): each device runs
// alone up to the lookahead past its neighbours (the devices cabled to it,
// and the hosts whose flows wait for its own, coupled), and the results
// are those of a run edge by edge (EngineMode.Lockstep). A host's scheduler learns of a completion when
// its NIC writes the CQE and acts on it when the CQE becomes visible, as
// do the schedulers of hosts whose flows wait for it.
//
// Star is the smallest cluster: NICs on the ports of one switch, with a
// route per endpoint. Endpoint i has address 10.i (IPv4, 24 bits of i) and
// hangs off switch port i.
package fabric
