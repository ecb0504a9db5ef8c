// Package switchasic models a 51.2 Tb/s switch ASIC on 512 lanes of 112G
// PAM4 SerDes (FACTS 4): port modes and pipes, forwarding tables, ECMP
// hashing, packet spraying and dynamic load balancing, the traffic manager
// and egress scheduling, with every stage's latency in cycles.
//
// # The switch
//
// New builds a Switch on an rtlmodel engine from a Config. Its components
// are one ingress pipe per pipe (packets-per-cycle limit at the pipe clock;
// FCS check, parser on the real header bytes with the payload elided,
// forwarding lookup, load balancing, the router's rewrite of MACs, TTL and
// IPv4 checksum: switch_rewrite.go), one traffic manager (shared buffer
// admission, WRED/ECN marks written into the header, PFC frames sent,
// refreshed at half their pause while the ingress stays above XON, and
// obeyed, trimming into a strict high class, HPCC INT hop records, SP over
// DWRR per egress port with optional shapers, DLB port quality feed) and a
// serdes.PhyLink per egress port, which cuts through when the egress is not
// faster than the ingress. In every load-balancing mode but DLB the
// traffic manager hosts the ingress pipes (pipes_hosted.go): it runs each
// one at its own edges, its inputs delivering each frame the ingress
// pipeline's latency later, which gives the same packets at the same
// edges for one evaluation fewer per frame. Neighbours attach with
// AttachRx and AttachTx; SetNeighbourMAC names a host's MAC, as LinkTo
// does a neighbouring switch's.
// Each stage's latency is a Config field; PortToPortBudget lists them for
// one frame, and the tests send a frame through the cycle model and find
// it leaves at exactly that total. Conservation gives the packet books
// (in = out + dropped + inside), which tests check at every edge.
//
// # The pieces
//
// PortPlan and PipeConfig partition the lanes into ports and pipes;
// ForwardingTable maps destinations to ECMP groups; Balancer picks a member
// per flow, per packet (entropy, round robin, random) or by DLB flowlets
// with fixed-point port quality; TrafficManager decides admission (dynamic
// thresholds over a cell-based shared buffer, WRED with an LFSR, PFC with
// headroom, trimming) in plain Go the datapath calls.
//
// Numbers come from FACTS sections 1.5, 2.1, 2.5, 2.7, 4 and 7; each
// exported name says which row it rests on, with the FACTS tag (S sourced,
// E derived or estimated, U recalled but not re-checked).
package switchasic
