// Package nic400g is the model of the 400G RDMA NIC: host interface, QP
// context cache, transmit scheduling and packetizing, the congestion
// control engine, receive-side PSN tracking, reorder and acknowledgement,
// and loss recovery. Numbers and their sources are in FACTS.md; each
// parameter's doc comment names its FACTS section and tags (S sourced, E
// estimated by us, U recalled but not re-checked) with reference keys such
// as [R14].
//
// NIC (nic*.go) is the kernel component: one per NIC, with doorbells in
// from a driver, frames in from the wire and out through its own
// serdes.PhyLink. Its transmit side schedules active QPs round robin (one
// packet per turn, O(1)), gates each by its CongestionControl (rate
// pacing, window), segments messages at the MTU into real headers of the
// configured stack (RoCEv2 over IPv4 or IPv6, lean native IB framing, UET
// with a buffer offset in every packet), reads payload ahead through the
// HostSide, and keeps every packet until acknowledged for go-back-N or
// selective repeat with an RTO and fast retransmission on trim NACKs. Its
// receive side tracks PSNs in a RecvWindow, places packets that carry
// their address directly and holds the others in a reorder buffer whose
// slots are the PSNs right after the expected one (Config.ReorderPackets),
// completes messages in order, coalesces ACKs with a SACK bitmap,
// NAKs sequence errors (under selective repeat, a packet dropped beyond
// the reorder buffer, on which the sender resends what no SACK has
// reported) and sends CNPs through the DCQCN notification point. QP
// contexts come through the QPCache with a bounded number of reads in
// flight.
//
// Operations (WorkRequest.Op; FACTS 1.2 opcodes). An RDMA WRITE (the
// default) is RDMA_WRITE_FIRST/MIDDLE/LAST/ONLY with the address (RETH)
// in its FIRST or ONLY packet. A SEND is SEND_FIRST/MIDDLE/LAST/ONLY with
// no RETH: its packets carry no address, so out of order they go through
// the reorder buffer, and the responder completes it like a write, with a
// receive CQE. An RDMA READ (nic_read*.go) is one RDMA_READ_REQUEST whose
// RETH names the length and which reserves one PSN per response packet;
// the responder answers with READ_RESPONSE_FIRST/MIDDLE/LAST/ONLY (AETH
// on FIRST, LAST and ONLY), reading the payload from host memory and
// pacing and window-gating the responses with its QP's congestion control
// as it does data it writes. The requester takes responses in PSN order
// (so responses sprayed over paths of different lengths cost re-issues);
// a gap, a trimmed response or an RTO without progress issues the read
// again from the first missing PSN, which the responder serves as a
// duplicate request; the read completes when its last byte is placed
// (data write, then CQE), and completions stay in posting order. With
// Config.OOOReads the requester places responses where their PSNs say
// and asks for each trimmed response alone, with a request for its range
// that the responder serves beside the read it is serving
// (nic_read_range.go); a trimmed request is NACKed and sent again
// (nic_read_req_trim.go). The requester returns coalesced feedback on
// responses (echoed send time, ECN and INT, what is placed in order and
// past it), a model extension that closes the loop of window and delay
// based algorithms at the responder.
//
// ICRC (nic_icrc.go; FACTS 1.3). RoCEv2 and native IB packets end with
// the ICRC: the sender computes it over the real header bytes and a
// payload of zeros of the packet's length, fed through the CRC from a
// small static zero array (payload bytes are elided from descriptors and
// modelled as zeros, so nothing is allocated), and carries it in
// packet.DescMeta.ICRC, since the trailer follows the elided payload. The
// receiver recomputes it from the headers it got; a mismatch (a header
// byte changed on the way, outside the fields the ICRC masks) drops the
// packet and counts it (rx_icrc_drops). Trimmed packets lost their
// trailer and are not checked. UET carries no ICRC. Config.NoICRC turns
// the computation off for large runs.
//
// EQDS in the datapath (nic_eqds.go; FACTS 2.5). With Config.CC "eqds"
// each QP's sender is an EQDSSender: it sends its speculative first
// window (one BDP at Config.EQDSBaseRTT) unsolicited, then only against
// credit. The first packet of a message asks for the bytes the
// speculative allowance will not cover (what of it earlier messages left
// unclaimed), and the next new packet asks
// again for allowance given up when speculation ended (borrowing the
// credit it lacks when none is owed); the request travels in
// packet.DescMeta.Credit (a model extension, as the SACK bitmap is), is
// fixed at the packet's first transmission and rides again on its
// retransmissions, and the receiver takes it from the copy it accepts,
// never from a duplicate. The
// receiver's RecvCreditPacer grants the requests round robin in PULL
// frames (ACK-form control frames carrying the credit) paced at 99 % of
// its link rate, counting the header overhead of the NIC's stack, and
// charges unsolicited payload to the pace. A trimmed packet is NACKed at
// once, the receiver pulls for its payload, and the sender resends it
// against that credit. A go-back-N receiver does the same for each
// packet it drops for arriving out of order (a NACK by PSN, UET's
// ROD_OOO, and a pull), and the sender resends that packet alone against
// the pull rather than rewinding. Packets lost outright (SACK holes,
// timeouts, the hole a sequence NAK names when it was lost whole) are
// resent without credit, since the receiver never saw them. READ
// responses go the same way from the responder (nic_read_eqds.go): its
// jobs ask for credit on their responses, the requester's pacer pulls for
// it, and every response carries the credit its read has asked for so
// far, so a request lost with a response rides on the next.
//
// The other pieces are plain state machines the component calls from its
// Eval with the current rtlmodel.Time; none of their per-event paths
// allocates.
//
// Congestion control (cc*.go) sits behind one interface,
// CongestionControl: DCQCN (below), HPCC with INT (FACTS 2.2), TIMELY
// (2.3), Swift (2.4), an NSCC-like window (2.6) and an EQDS-style
// receiver-credit scheme with its receiver pacer (2.5). Multipath entropy
// (multipath*.go) is a PathSelector: a fixed entropy per flow (classic
// ECMP), oblivious spraying over an entropy set, or path-aware spraying
// that penalises entropies seen with ECN, trims, NACKs or timeouts.
//
// Host interface (pcie*.go, host*.go; FACTS 5.2, 6.2). PCIeLink is a PCIe
// link per direction with exact TLP overheads and serialisation; Host
// puts doorbells, WQE fetches, payload DMA, CQE writes and context reads
// on it, and HostSide is what the NIC needs of a host (PCIeHostSide over
// that model, FixedHostSide with fixed latencies).
//
// DCQCN (FACTS 2.1). ReactionPoint is the sender-side rate controller of
// one QP and NotificationPoint the receiver-side CNP generator. Datapath
// arithmetic is fixed point as the hardware does it: α is an unsigned
// fraction whose width is a parameter (Q1.16 for the paper's g = 1/256,
// the firmware's 10-bit α with 1023 ≈ 1.0), rates are integer kb/s (Kbps)
// and every timer is an exact picosecond time. The three RP timers (α
// update, rate-decrease check, rate-increase T) and the byte counter B are
// processed in time order by Advance, and NextEvent tells the owning
// component when to wake. DCQCNParams carries both the paper's set
// (PaperParams) and the NVIDIA firmware defaults (FirmwareParams), and both
// increase-stage variants: the timer-only stage of the HPCC artifact
// [R14] and the two-counter (T, BC) stage of htsim [R66].
//
// PSN tracking (FACTS 1.2, 7). PSN is the 24-bit packet sequence number
// with the Linux rxe half-space comparison [R82]. RecvWindow is a receive
// bitmap of configurable size that classifies each arrival (in order, out
// of order, duplicate, out of window), advances the cumulative expected
// PSN and produces 64-bit SACK bitmaps in the UET style [R21].
//
// QP contexts (FACTS 5.1). QPStore is the backing store of the contexts of
// every QP (850,000 by default) as kept in host memory, held by the model
// as compact arrays so that an idle QP costs a few tens of bytes of model
// memory; congestion and retransmission state lives only for active QPs in
// an ActiveSlab. QPCache is the on-chip context cache in front of it: sets
// by ways, LRU or random replacement, a miss costing one PCIe read round
// trip, and prefetch on doorbell.
package nic400g
