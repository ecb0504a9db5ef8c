package nic400g

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Op is the RC operation of a work request (FACTS 1.2 opcodes).
type Op uint8

const (
	// OpWrite is an RDMA WRITE: RDMA_WRITE_FIRST/MIDDLE/LAST/ONLY, the
	// address (RETH) in the FIRST and ONLY packets. The zero value.
	OpWrite Op = iota
	// OpSend is a SEND: SEND_FIRST/MIDDLE/LAST/ONLY with no RETH; the
	// responder places it in its posted receive buffer and writes a
	// receive CQE.
	OpSend
	// OpRead is an RDMA READ: one RDMA_READ_REQUEST with a RETH naming the
	// length; the responder returns the data in READ_RESPONSE_FIRST/
	// MIDDLE/LAST/ONLY packets whose PSNs the request reserved.
	OpRead
)

// Ops lists the operations by the names String gives them.
var Ops = []Op{OpWrite, OpSend, OpRead}

// ParseOp returns the operation String names name: write, send or read.
func ParseOp(name string) (Op, error) {
	for _, o := range Ops {
		if o.String() == name {
			return o, nil
		}
	}
	return 0, fmt.Errorf("operation %q: one of write, send, read", name)
}

// String names the operation.
func (o Op) String() string {
	switch o {
	case OpWrite:
		return "write"
	case OpSend:
		return "send"
	case OpRead:
		return "read"
	}
	return "op?"
}

// WorkRequest is one RDMA WRITE, SEND or READ a driver posts to a QP.
type WorkRequest struct {
	QP     uint32 // local QP
	Dst    uint32 // peer endpoint
	DestQP uint32 // peer QP
	// Op is the operation; the zero value is an RDMA WRITE.
	Op Op
	// Bytes is the message length: written or sent, or read back. A
	// message longer than MaxMessageBytes completes with
	// StatusLocalLength and fails its QP.
	Bytes uint64
	// Inline carries the payload in the doorbell (BlueFlame-style) instead
	// of a WQE the NIC must fetch.
	Inline bool
	// Posted is when the CPU wrote the doorbell.
	Posted rtlmodel.Time
}

// MaxMessageBytes is the longest message a work request can carry,
// 4 GiB − 1: its length is 32 bits in the verbs (ibv_sge.length,
// ibv_wc.byte_len) and on the wire, in the RETH's DMA length of a WRITE
// or READ (FACTS 1.2, RETH row, [R5]).
const MaxMessageBytes = 1<<32 - 1

// message is a work request being sent.
type message struct {
	wr       WorkRequest
	id       uint32
	firstPSN uint32
	packets  uint32
	ready    rtlmodel.Time // WQE available (doorbell + fetch)
	sentTo   uint64        // bytes segmented so far
	acked    uint32        // packets acknowledged
	// a read: all its response data placed, and the last packet's payload
	readDone    bool
	lastPayload uint32
}

// sentPkt is a packet awaiting acknowledgement.
type sentPkt struct {
	psn     uint32
	msg     uint32 // index into the QP's message ring
	offset  uint64
	payload uint32
	sentAt  rtlmodel.Time
	sacked  bool
	retx    uint16
	entropy uint16
	pending bool   // queued for retransmission
	lost    bool   // taken as no longer in the network, out of inflight until resent (markLost)
	trimmed bool   // pending because a switch trimmed it (EQDS: resent against credit)
	ask     uint32 // EQDS credit request the packet carries (Meta.Credit)
}

// recvMsg is a message the responder has seen a packet of, kept in PSN
// order until the in-order point passes its last PSN.
type recvMsg struct {
	lastPSN PSN
	length  uint64
	id      uint32
	posted  rtlmodel.Time
	op      Op
}

// qpState is the NIC's state of one active QP: a slab entry that exists
// only while the QP has work (ARCHITECTURE "Fidelity": state only for
// active QPs).
type qpState struct {
	id     uint32
	peer   uint32
	peerQP uint32

	// requester side
	msgs       []*message // FIFO of messages not yet fully acknowledged
	nextMsgID  uint32
	seg        int // index in msgs of the message being segmented
	nextPSN    uint32
	unacked    []sentPkt // in PSN order; a view of unackedBuf (pushUnacked)
	unackedBuf []sentPkt // unacked's backing array, from its start
	inflight   uint64
	retxQ      int // packets marked pending
	nextSend   rtlmodel.Time
	rtoAt      rtlmodel.Time
	ctxReady   rtlmodel.Time
	ctxValid   bool
	ctxWaiting bool
	dataReady  []rtlmodel.Time // host-read completion per packet ahead, ring
	dataHead   int
	cc         CongestionControl
	eq         *EQDSSender      // cc when it is EQDS, else nil
	paySeq     payloadSequencer // cc when it numbers its sends in payload bytes (HPCC, TIMELY), else nil
	subPacket  subPacketPacer   // cc when it paces only with its window under one packet (Swift), else nil
	paths      PathSelector
	inRing     bool
	timerAt    rtlmodel.Time
	lastNAK    uint32
	cumAck     PSN // the last cumulative ACK: every PSN before it acknowledged
	// retries counts the transport timeouts since the last acknowledgement
	// that moved the QP on; failed: it ran out of them (Config.RetryCount)
	retries int
	failed  bool
	// rtoRecover, while not 0, is the time of the last timeout under
	// selective repeat: packets sent before it and not yet acknowledged
	// are taken as lost and resent as ACKs return (NIC.resendLost)
	rtoRecover rtlmodel.Time

	// RDMA READ, requester: reads waiting for responses (each with the
	// feedback it is coalescing), how many wait to be issued again, their
	// timeout, and the feedback's delay timer, as ackAt is the data ACK's
	reads        []readOut
	readsPending int
	readRTO      rtlmodel.Time
	readAckAt    rtlmodel.Time
	readGapAt    rtlmodel.Time // the earliest gap deadline of its reads (nic_read_gap.go)
	// RDMA READ, responder: read requests being served, in order; how far
	// each read message's responses were sent and placed, and the timer
	// that gives up those in flight (nic_read_flight.go)
	rsps   []readJob
	rspOut []rspFlight
	rspRTO rtlmodel.Time
	// under EQDS, the credit each read message's responses have asked for
	// so far (nic_read_eqds.go)
	rspAsks []rspAsked
	// read requests that came ahead of the expected PSN, held until it
	// reaches them (selective repeat; nic_read_early.go)
	early []earlyRead

	// responder side
	rw       *RecvWindow
	recvMsgs []recvMsg
	sinceAck int
	ackAt    rtlmodel.Time
	ce       bool
	nakSent  bool
	// nackQueued is the NIC's count of control frames queued (ctrlPushed)
	// once the last NACK or NAK this QP sent, for nackPSN, was queued: it
	// waits in the queue while fewer frames than that have left (0: none).
	nackQueued  uint64
	nackPSN     uint32
	lastINT     bool
	intv        packet.INT
	lastSent    uint64
	lastEntropy uint16 // entropy of the last data packet received
	ceEntropy   uint16 // entropy of the last CE-marked one
	// lastPSN is the PSN of the last data packet received and lastRetx
	// whether it was sent again: a UET ACK names the packet that asked
	// for it (ack_psn_offset, retrans)
	lastPSN  uint32
	lastRetx bool
	// msn is the responder's message sequence number, the request
	// messages it has executed in PSN order, which its ACKs carry in the
	// AETH (ackMSN)
	msn uint32
}

// ackMSN is the MSN the responder's AETH carries: the request messages
// it has executed, modulo 2^24. A WRITE or SEND counts when its last
// packet is placed in PSN order, a READ when its request is accepted in
// order (IBTA C9-148), as Linux rxe counts resp.msn
// (torvalds/linux:drivers/infiniband/sw/rxe/rxe_resp.c).
func (q *qpState) ackMSN() uint32 { return q.msn & uint32(PSNMask) }

// pushUnacked appends a sent packet to unacked. An ACK drops the packets
// it acknowledges from the front of the slice, which then starts further
// into its array; when the end of the array is reached the packets still
// unacknowledged move back to its start, once per array's length of sends,
// where moving them at every ACK would move the whole window each time.
func (q *qpState) pushUnacked(p sentPkt) {
	if len(q.unacked) == cap(q.unacked) && len(q.unacked) < cap(q.unackedBuf) {
		q.unacked = q.unackedBuf[:copy(q.unackedBuf[:cap(q.unackedBuf)], q.unacked)]
	}
	q.unacked = append(q.unacked, p)
	if cap(q.unacked) > cap(q.unackedBuf) {
		q.unackedBuf = q.unacked[:0] // append moved it to a larger array
	}
}

// dropAcked drops the first k packets of unacked.
func (q *qpState) dropAcked(k int) { q.unacked = q.unacked[k:] }
