package switchasic

import (
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// HeaderCap is the header bytes a packet descriptor carries: enough for
// Ethernet + 802.1Q + IPv6 + UDP + BTH + RETH + an HPCC INT stack.
const HeaderCap = 128

// Kind tells data frames from MAC control frames.
type Kind uint8

const (
	// KindData is an ordinary frame whose headers the parser reads.
	KindData Kind = iota
	// KindPFC is an 802.1Qbb priority flow control frame.
	KindPFC
)

// Packet is the descriptor that moves through the models: real header
// bytes where the hardware reads bytes, the payload as a length only
// (ARCHITECTURE "Fidelity"). Packets come from a Pool and go back to it,
// so the steady state allocates nothing.
type Packet struct {
	ID   uint64
	Kind Kind
	// Hdr holds the frame's first HdrLen bytes (Ethernet onwards).
	Hdr    [HeaderCap]byte
	HdrLen uint16
	// FrameBytes is the frame on the wire, destination address to FCS.
	FrameBytes uint32
	// PFC frames: the classes paused (bit c) and their pause quanta.
	PFCClasses uint8
	PFCQuanta  [8]uint16

	// HasINT marks a packet that collects HPCC in-band telemetry; every
	// switch egress pushes a hop record onto INT (FACTS 2.2 [R15]). The
	// sender counts the stack's bytes in FrameBytes.
	HasINT bool
	INT    packet.INT

	// Set by the switch.
	Class   uint8
	Ingress int32
	Egress  int32
	Trimmed bool
	Marked  bool

	// Measurement: set by the sender and by each switch.
	Src, Dst    uint32
	Born        rtlmodel.Time
	FirstBitIn  rtlmodel.Time // at the last switch's ingress SerDes
	FirstBitOut rtlmodel.Time // at the last switch's egress SerDes

	// cut-through: when the ingress decoded the tail, and its lane count
	tail    rtlmodel.Time
	inLanes uint8
}

// Header returns the header bytes.
func (p *Packet) Header() []byte { return p.Hdr[:p.HdrLen] }

// Pool recycles packet descriptors.
type Pool struct {
	free []*Packet
	next uint64
	live int
}

// Get returns a zeroed packet with a fresh ID.
func (pl *Pool) Get() *Packet {
	var p *Packet
	if n := len(pl.free); n > 0 {
		p = pl.free[n-1]
		pl.free = pl.free[:n-1]
		*p = Packet{}
	} else {
		p = &Packet{}
	}
	pl.next++
	p.ID = pl.next
	pl.live++
	return p
}

// Put returns a packet to the pool.
func (pl *Pool) Put(p *Packet) {
	pl.live--
	pl.free = append(pl.free, p)
}

// Live returns the packets taken and not returned.
func (pl *Pool) Live() int { return pl.live }
