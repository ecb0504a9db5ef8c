package packet

// RouteFields are what a switch's forwarding reads from a RoCEv2 frame:
// the IPv4 addresses and TOS, the UDP ports and the BTH destination QP.
type RouteFields struct {
	Src, Dst         [4]byte
	TOS              uint8
	SrcPort, DstPort uint16
	DestQP           uint32
}

// Offsets of the common RoCEv2 frame: untagged Ethernet, then IPv4
// without options, UDP and the BTH.
const (
	routeIPOff  = EthernetLen
	routeUDPOff = routeIPOff + IPv4MinLen
	routeBTHOff = routeUDPOff + UDPLen
)

// ParseRoCEv2IPv4Route reads the forwarding fields of the common RoCEv2
// frame of frameLen bytes from b, which holds at least its headers (as
// DecodeHeaders takes them), without decoding every header into a RoCEv2.
// It runs the same checks DecodeHeaders runs on such a frame, and reports
// true only when DecodeHeaders(b, frameLen) would succeed with the same
// field values. It reports false for a frame of another shape (a VLAN tag,
// IPv6, IPv4 options) as for a malformed one; DecodeHeaders then tells
// which, and why.
func ParseRoCEv2IPv4Route(b []byte, frameLen int) (RouteFields, bool) {
	var f RouteFields
	if len(b) < routeBTHOff+BTHLen || be.Uint16(b[12:]) != EtherTypeIPv4 || b[routeIPOff] != 0x45 {
		return f, false
	}
	ip := b[routeIPOff : routeIPOff+IPv4MinLen]
	tl := int(be.Uint16(ip[2:]))
	if tl < IPv4MinLen || tl > frameLen-routeIPOff || ip[9] != IPProtoUDP || rfc1071Sum(ip, 0) != 0xFFFF {
		return f, false
	}
	// the UDP datagram runs to the IP end, the ICRC its last four bytes
	end := routeIPOff + tl
	if end-routeUDPOff < UDPLen || min(end, len(b))-routeUDPOff < UDPLen {
		return f, false
	}
	udp := b[routeUDPOff:routeBTHOff]
	if int(be.Uint16(udp[4:])) != end-routeUDPOff || be.Uint16(udp[2:]) != RoCEv2Port {
		return f, false
	}
	if n := end - routeBTHOff; n < BTHLen+wireICRC || n%4 != 0 {
		return f, false
	}
	icrc := end - wireICRC
	w0 := be.Uint32(b[routeBTHOff:])
	op := OpCode(w0 >> 24)
	if !op.Known() || w0>>16&0xF != 0 {
		return f, false
	}
	// every extension header the opcode calls for is within the
	// transport's bytes, an AETH has a syndrome Decode takes, and the
	// payload left after the pad is not negative
	ext := op.ExtLen()
	if min(icrc, len(b))-routeBTHOff < BTHLen+ext {
		return f, false
	}
	if op.HasAETH() && !aethSyndromeOK(b[routeBTHOff+BTHLen+aethOffset(op)]) {
		return f, false
	}
	if icrc-routeBTHOff-BTHLen-ext-int(w0>>20&3) < 0 {
		return f, false
	}
	f.Src, f.Dst = [4]byte(ip[12:16]), [4]byte(ip[16:20])
	f.TOS = ip[1]
	f.SrcPort, f.DstPort = be.Uint16(udp[0:]), RoCEv2Port
	f.DestQP = be.Uint32(b[routeBTHOff+4:]) & QPNMask
	return f, true
}

// aethOffset is where the AETH starts after the BTH: past the extension
// headers Transport.Decode reads before it.
func aethOffset(op OpCode) int {
	n := 0
	if op.HasDETH() {
		n += DETHLen
	}
	if op.HasRETH() {
		n += RETHLen
	}
	if op.HasAtomicETH() {
		n += AtomicETHLen
	}
	return n
}

// aethSyndromeOK reports whether AETH.Decode takes syndrome s: an ACK, an
// RNR NAK, or a NAK with a defined code.
func aethSyndromeOK(s uint8) bool {
	switch AETHKind(s >> 5) {
	case AETHAck, AETHRNRNak:
		return true
	case AETHNak:
		return s&0x1F <= NAKInvalidRD&0x1F
	}
	return false
}
