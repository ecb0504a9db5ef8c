package packet

import "math/big"

// Stack is a header stack as a value: the bytes it adds around a payload on
// the wire. It answers how many bytes a packet occupies in a wire slot and
// what goodput a link delivers (FACTS 1.4; a wire slot is the frame plus
// preamble+SFD 8 and minimum IPG 12, FACTS 1.1 [R51]).
type Stack struct {
	Name     string
	Header   int  // header bytes before the payload
	Trailer  int  // bytes after the payload: ICRC, FCS, VCRC
	Framing  int  // link bytes around the frame: preamble+SFD and IPG; 0 for native IB
	MinFrame int  // shortest frame (header to trailer), 64 for Ethernet, 0 if none
	Pad4     bool // the payload is padded to a multiple of 4 bytes (BTH PadCnt)
}

// The stacks of FACTS 1.4 (header sizes FACTS 1.1, 1.2, 2.6).
var (
	// StackRoCEv2IPv4 is Eth/IPv4/UDP/BTH + ICRC + FCS: 82 B per wire slot.
	StackRoCEv2IPv4 = ethStack("RoCEv2/IPv4", EthernetLen+IPv4MinLen+UDPLen+BTHLen, wireICRC, true)
	// StackRoCEv2IPv4VLAN adds one 802.1Q tag: 86 B.
	StackRoCEv2IPv4VLAN = ethStack("RoCEv2/IPv4+VLAN", EthernetVLANLen+IPv4MinLen+UDPLen+BTHLen, wireICRC, true)
	// StackRoCEv2IPv6 is Eth/IPv6/UDP/BTH + ICRC + FCS: 102 B.
	StackRoCEv2IPv6 = ethStack("RoCEv2/IPv6", EthernetLen+IPv6Len+UDPLen+BTHLen, wireICRC, true)
	// StackRoCEv2IPv4First is the first packet of an RDMA WRITE, with a RETH: 98 B.
	StackRoCEv2IPv4First = ethStack("RoCEv2/IPv4 first (RETH)", EthernetLen+IPv4MinLen+UDPLen+BTHLen+RETHLen, wireICRC, true)
	// StackNativeIB is lean native framing, LRH+BTH+ICRC+VCRC, link framing
	// ignored: 26 B.
	StackNativeIB = Stack{Name: "native IB", Header: LRHLen + BTHLen, Trailer: wireICRC + wireVCRC, Pad4: true}
	// StackNativeIBGRH adds a GRH: 66 B.
	StackNativeIBGRH = Stack{Name: "native IB+GRH", Header: LRHLen + GRHLen + BTHLen, Trailer: wireICRC + wireVCRC, Pad4: true}
	// StackUETSmall is Eth/IPv4/UDP + PDS RUD 12 + SES small 20, no ICRC: 98 B.
	StackUETSmall = ethStack("UET/IPv4 SES small", EthernetLen+IPv4MinLen+UDPLen+PDSRequestLen+SESSmallLen, 0, false)
	// StackUETStandard is Eth/IPv4/UDP + PDS RUD 12 + SES standard 44: 122 B.
	StackUETStandard = ethStack("UET/IPv4 SES standard", EthernetLen+IPv4MinLen+UDPLen+PDSRequestLen+SESStandardLen, 0, false)
)

func ethStack(name string, header, extraTrailer int, pad4 bool) Stack {
	return Stack{Name: name, Header: header, Trailer: extraTrailer + wireFCS,
		Framing: wirePreamble + wireIPG, MinFrame: EthernetMinFrame + wireFCS, Pad4: pad4}
}

// Overhead is the bytes per wire slot besides the payload, for a payload
// that needs neither pad nor minimum-frame fill (FACTS 1.4 column 2).
func (s Stack) Overhead() int { return s.Header + s.Trailer + s.Framing }

// FrameBytes is the frame for payload bytes: headers, payload, pad,
// trailers, filled up to MinFrame.
func (s Stack) FrameBytes(payload int) int {
	n := s.Header + payload + s.Trailer
	if s.Pad4 {
		n += -payload & 3
	}
	return max(n, s.MinFrame)
}

// WireBytes is the wire slot for payload bytes: the frame plus link framing.
func (s Stack) WireBytes(payload int) int { return s.FrameBytes(payload) + s.Framing }

// Efficiency is payload / wire slot, exactly.
func (s Stack) Efficiency(payload int) *big.Rat {
	return big.NewRat(int64(payload), int64(s.WireBytes(payload)))
}

// Goodput is the payload bit rate a link of lineRate bits per second
// delivers with back-to-back packets of payload bytes: exactly
// lineRate*payload/WireBytes(payload) as a rational, and the same as a
// float64 for reports.
func (s Stack) Goodput(lineRate uint64, payload int) (*big.Rat, float64) {
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(lineRate), big.NewInt(1))
	r.Mul(r, s.Efficiency(payload))
	f, _ := r.Float64()
	return r, f
}

// MessageGoodput is the goodput of one message of msg bytes cut into
// packets of at most mtu payload bytes, where the first packet carries
// firstExtra more header bytes (16 for the RETH of an RDMA WRITE FIRST).
func (s Stack) MessageGoodput(lineRate uint64, msg, mtu, firstExtra int) (*big.Rat, float64) {
	if msg <= 0 || mtu <= 0 {
		return new(big.Rat), 0
	}
	wire := firstExtra
	full, rest := msg/mtu, msg%mtu
	wire += full * s.WireBytes(mtu)
	if rest > 0 {
		wire += s.WireBytes(rest)
	}
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(lineRate), big.NewInt(1))
	r.Mul(r, big.NewRat(int64(msg), int64(wire)))
	f, _ := r.Float64()
	return r, f
}
