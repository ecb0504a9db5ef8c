package packet

import (
	"strconv"
	"unsafe"
)

// HeaderCap is the header bytes a descriptor carries: enough for Ethernet
// + 802.1Q + IPv6 + UDP + BTH + RETH and more.
const HeaderCap = 128

// Kind tells data frames from MAC control frames.
type Kind uint8

const (
	// KindData is an ordinary frame whose headers a parser reads.
	KindData Kind = iota
	// KindPFC is an 802.1Qbb priority flow control frame.
	KindPFC
)

// Desc is the frame descriptor the NIC and switch models move over their
// links: real header bytes where the hardware reads bytes, the payload as
// a length only (ARCHITECTURE "Fidelity"). Times are picoseconds of model
// time. Descriptors come from a DescPool and go back to it, so a model's
// steady state allocates nothing.
type Desc struct {
	// The fields every hop reads come first, in one cache line with the
	// ID: a switch touches a descriptor once per hop, long after the last
	// hop, so each line it needs is a miss. ID names the packet in
	// traces: the pool's count, or its maker's (DescIDs).
	ID      uint64
	Kind    Kind
	Class   uint8 // set by a switch
	Trimmed bool  // set by a switch
	Marked  bool  // set by a switch
	// HasINT marks a packet that collects HPCC in-band telemetry; every
	// switch egress pushes a hop record onto its tail's INT (FACTS 2.2
	// [R15]). The sender counts the stack's bytes in FrameBytes.
	HasINT bool
	// InLanes is the lane count of the ingress port where a cut-through
	// switch decoded the frame's tail, at TailReady.
	InLanes uint8
	// HdrLen is how many of Hdr's bytes the frame's headers fill; the
	// bytes after them are zero.
	HdrLen uint8
	// tailUsed: the tail was handed out for writing (EditTail) since the
	// descriptor left the pool, so the pool clears it when it returns
	tailUsed bool
	// FrameBytes is the frame on the wire: link header to FCS (or VCRC).
	FrameBytes uint32
	Ingress    int16 // set by a switch
	Egress     int16 // set by a switch
	// Measurement, set by senders and switches (ps).
	Src, Dst    uint32
	TailReady   uint64
	FirstBitIn  uint64 // at the last switch's ingress SerDes
	FirstBitOut uint64 // at the last switch's egress SerDes
	Born        uint64

	// Hdr holds the frame's first HdrLen bytes (from the first link-layer
	// byte on).
	Hdr [HeaderCap]byte

	// Meta carries a model's own per-packet fields (for example the NIC's
	// QP, PSN and payload offset) so it need not re-parse them.
	Meta DescMeta

	// tail holds what few packets carry (Tail, EditTail).
	tail DescTail

	_ [descPad]byte // to a whole number of cache lines
}

// DescMeta is per-packet state a transport model attaches to a
// descriptor, so the receiving model need not re-parse what it wrote.
// Fields a real header would not carry (a SACK bitmap in a RoCE ACK) are
// the model's own extension and say so where they are set. It is one
// cache line.
type DescMeta struct {
	QP      uint32 // sender's QP
	DestQP  uint32 // receiver's QP
	PSN     uint32
	Payload uint32 // payload bytes
	Msg     uint32 // message (work request) number within the QP
	Credit  uint32 // receiver credit in bytes (ACKs)
	// ICRC is the packet's 4-byte invariant CRC trailer (FACTS 1.3) as the
	// sender computed it. The trailer follows the payload, which a
	// descriptor does not carry, so it travels here; the receiver
	// recomputes it over the header bytes it got and checks.
	ICRC    uint32
	Entropy uint16
	Flags   uint16
	Offset  uint64 // payload offset within the message
	Length  uint64 // message length
	Sent    uint64 // when the sender sent this packet (ps), echoed by ACKs
	Posted  uint64 // when the message's doorbell was written (ps), for latency
}

// DescTail holds the fields few packets carry, apart from the lines every
// packet touches: the pool clears a reused descriptor's tail only when it
// was handed out for writing (EditTail), so most packets never bring its
// lines into the caches.
type DescTail struct {
	// SACK is the selective ACK bitmap above Meta.PSN an ACK carries (the
	// model's extension).
	SACK uint64
	// PFC frames: the classes paused (bit c) and their pause quanta.
	PFCClasses uint8
	PFCQuanta  [8]uint16
	// INT is the HPCC telemetry stack of a packet with HasINT.
	INT INT
}

// Tail returns the descriptor's tail for reading: all zero unless it was
// written through EditTail since the descriptor left its pool.
func (d *Desc) Tail() *DescTail { return &d.tail }

// EditTail returns the descriptor's tail for writing and marks it used,
// so that the pool clears it when it hands the descriptor out again.
func (d *Desc) EditTail() *DescTail {
	d.tailUsed = true
	return &d.tail
}

// ReadAhead reads the descriptor's first line and the lines of its header
// bytes (the second only when the headers reach it: a RoCEv2 packet
// without RETH fits the first), the parts every hop reads first, and
// returns a value made of them: it brings them into the caches before they
// are needed.
func (d *Desc) ReadAhead() uint64 {
	s := uint64(d.Kind) + uint64(d.Hdr[0])
	if d.HdrLen > HeaderCap/2 {
		s += uint64(d.Hdr[HeaderCap/2])
	}
	return s
}

// ReadAheadMeta is ReadAhead and the lines of Meta, which the transport
// model at the end of the path reads (a NIC's receive path).
func (d *Desc) ReadAheadMeta() uint64 {
	return d.ReadAhead() + uint64(d.Meta.QP) + uint64(d.Meta.Flags) + uint64(d.Meta.ICRC)
}

// Header returns the header bytes.
func (d *Desc) Header() []byte { return d.Hdr[:d.HdrLen] }

// descPad pads a descriptor to 384 bytes, 6 cache lines, so that in a slab
// every descriptor starts a line (TestDescFillsWholeCacheLines).
const descPad = 16

// HdrLen counts HeaderCap bytes in a uint8.
const _ = uint8(HeaderCap)

// descSlab is how many descriptors an empty pool makes at once.
const descSlab = 256

// DescPool recycles descriptors.
type DescPool struct {
	free []*Desc
	next uint64
	live int
}

// headBytes is the descriptor's first line: the fields before Hdr.
const headBytes = unsafe.Offsetof(Desc{}.Hdr)

// clear zeroes a descriptor coming back out of the pool, writing only the
// lines that may hold something: the first, the header bytes in use
// (those after HdrLen are zero), Meta, and the tail when it was used. A
// packet touches three or four of a descriptor's six lines in its life;
// clearing all six would bring the others into the caches at every
// reuse. Desc holds no pointers, so its first line is cleared as bytes.
func (d *Desc) clear() {
	clear(d.Hdr[:d.HdrLen])
	if d.tailUsed {
		d.tail = DescTail{}
	}
	d.Meta = DescMeta{}
	*(*[headBytes]byte)(unsafe.Pointer(d)) = [headBytes]byte{}
}

// Get returns a zeroed descriptor with a fresh ID.
func (pl *DescPool) Get() *Desc {
	var d *Desc
	if n := len(pl.free); n > 0 {
		d = pl.free[n-1]
		pl.free = pl.free[:n-1]
		d.clear()
	} else {
		// an empty pool grows by a slab, not by one descriptor: a model
		// whose packets in flight reach a new high allocates once per
		// slab, not once per packet
		slab := make([]Desc, descSlab)
		for i := len(slab) - 1; i > 0; i-- {
			pl.free = append(pl.free, &slab[i])
		}
		d = &slab[0]
	}
	pl.next++
	d.ID = pl.next
	pl.live++
	return d
}

// Put returns a descriptor to the pool.
func (pl *DescPool) Put(d *Desc) {
	pl.live--
	pl.free = append(pl.free, d)
}

// Live returns the descriptors taken and not returned.
func (pl *DescPool) Live() int { return pl.live }

// String renders the descriptor for traces, deterministically (no
// addresses): id, endpoints, kind, length, PSN, flags and switch marks.
func (d *Desc) String() string {
	b := make([]byte, 0, 96)
	b = appendDescID(b, d.ID)
	b = append(b, ' ')
	b = strconv.AppendUint(b, uint64(d.Src), 10)
	b = append(b, '>')
	b = strconv.AppendUint(b, uint64(d.Dst), 10)
	if d.Kind == KindPFC {
		b = append(b, " pfc"...)
	}
	b = append(b, " len="...)
	b = strconv.AppendUint(b, uint64(d.FrameBytes), 10)
	b = append(b, " qp="...)
	b = strconv.AppendUint(b, uint64(d.Meta.DestQP), 10)
	b = append(b, " psn="...)
	b = strconv.AppendUint(b, uint64(d.Meta.PSN), 10)
	b = append(b, " flags="...)
	b = strconv.AppendUint(b, uint64(d.Meta.Flags), 16)
	if d.Trimmed {
		b = append(b, " trimmed"...)
	}
	if d.Marked {
		b = append(b, " ce"...)
	}
	return string(b)
}
