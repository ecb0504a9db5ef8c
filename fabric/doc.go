// Package fabric builds clusters from the NIC and switch models: the
// topologies, their routing tables and address plans, the workloads of
// AI training, and the scenarios and metrics of a run.
//
// A Run puts each switch and each NIC, with the flow scheduler of its host,
// in a kernel partition of its own (rtlmodel.Engine.Partition): each device
// runs alone up to the lookahead past its neighbours (the devices cabled
// to it, and the hosts whose flows wait for its own, coupled), and the
// results are those of a run edge by edge (EngineMode.Lockstep). The
// lookahead between two devices cabled together is the least time a frame
// takes from the edge its sender's MAC sends it to its receiver's seeing
// it (the transmit pipeline, the wire and the receive pipeline: 246.4 to
// 282.4 ns with the default devices, serdes.PhyLink.Connect); between
// coupled hosts it is the least time from the edge at which a NIC
// completes a work request to its CQE being visible (a PCIe posted
// write's one-way latency and the CPU's poll, 155 ns by default,
// nic400g.NIC.MinCompletionLatency). A host's scheduler learns of a completion when
// its NIC writes the CQE and acts on it when the CQE becomes visible, as
// do the schedulers of hosts whose flows wait for it.
//
// Star is the smallest cluster: NICs on the ports of one switch, with a
// route per endpoint. Endpoint i has address 10.i (IPv4, 24 bits of i) and
// hangs off switch port i.
package fabric
