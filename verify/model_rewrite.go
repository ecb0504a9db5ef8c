package verify

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

func init() {
	register(&Block{
		Name: "rewrite",
		Summary: "a switch port's rewrite of a frame it routes: the port's MAC as the source, the next hop's as the " +
			"destination, TTL (hop limit) less one, IPv4 checksum updated; no hop left: dropped: switchasic.RewriteHeaders",
		Params: []ParamSpec{
			{"src_mac", 0x02FF00000003, "the egress port's MAC, the 48-bit value as it reads left to right", 0, 1<<48 - 1},
			{"dst_mac", 0x020000000005, "the next hop's MAC", 0, 1<<48 - 1},
			{"dst_known", 1, "1: the next hop's MAC is known and written; 0: the destination is left as it came", 0, 1},
		},
		Input: PortSpec{Kind: Frame, Doc: "a frame's first bytes, from the destination MAC through a whole IPv4 or IPv6 header " +
			"(at most one 802.1Q tag before it) and any bytes after it"},
		Output: PortSpec{Kind: Frame, Doc: "the same bytes rewritten; none for a frame that came with a TTL (hop limit) of 1 or 0"},
		New: func(p Params) (Model, error) {
			m := &rewriteModel{dstKnown: p["dst_known"] == 1}
			putMAC(m.src[:], p["src_mac"])
			putMAC(m.dst[:], p["dst_mac"])
			return m, nil
		},
		Stimulus: rewriteStimulus,
	})
}

// putMAC writes the 48-bit value v into m, its most significant byte
// first.
func putMAC(m []byte, v uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	copy(m, b[2:])
}

type rewriteModel struct {
	src, dst [6]byte
	dstKnown bool
}

// Reset implements Model: the rewrite keeps no state.
func (*rewriteModel) Reset() {}

// Apply implements Model: the rewritten frame, or nothing when its TTL
// ran out.
func (m *rewriteModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	b := append([]byte(nil), in.Data...)
	ok, err := switchasic.RewriteHeaders(b, m.src, m.dst, m.dstKnown)
	if err != nil || !ok {
		return out, err
	}
	return append(out, Txn{Data: b}), nil
}

// rewriteStimulus draws n frames: random MACs, untagged or with an 802.1Q
// tag, an IPv4 header (with its checksum) or an IPv6 one, whose TTL is 0
// or 1 one time in eight and otherwise 2 to 255, and up to 40 random bytes
// after it.
func rewriteStimulus(r *rand.Rand, _ Params, n int) []Txn {
	out := make([]Txn, n)
	for i := range out {
		eth := packet.Ethernet{EtherType: packet.EtherTypeIPv4, Tagged: r.IntN(4) == 0,
			VLAN: packet.VLANTag{PCP: uint8(r.IntN(8)), VID: uint16(r.IntN(4096))}}
		fill(r, eth.Dst[:])
		fill(r, eth.Src[:])
		ttl := uint8(2 + r.IntN(254))
		if r.IntN(8) == 0 {
			ttl = uint8(r.IntN(2))
		}
		tail := r.IntN(41)
		b := make([]byte, eth.Len()+packet.IPv6Len+tail)
		if r.IntN(3) == 0 {
			eth.EtherType = packet.EtherTypeIPv6
			ip := packet.IPv6{TrafficClass: uint8(r.Uint32()), FlowLabel: r.Uint32() & 0xFFFFF,
				PayloadLength: uint16(tail), NextHeader: packet.IPProtoUDP, HopLimit: ttl}
			fill(r, ip.Src[:])
			fill(r, ip.Dst[:])
			off := mustEncode(eth.Encode(b))
			mustEncode(ip.Encode(b[off:]))
		} else {
			b = b[:eth.Len()+packet.IPv4MinLen+tail]
			ip := packet.IPv4{IHL: 5, TOS: uint8(r.Uint32()), TotalLength: uint16(packet.IPv4MinLen + tail),
				ID: uint16(r.Uint32()), TTL: ttl, Protocol: packet.IPProtoUDP}
			fill(r, ip.Src[:])
			fill(r, ip.Dst[:])
			off := mustEncode(eth.Encode(b))
			mustEncode(ip.EncodeChecksummed(b[off:]))
		}
		fill(r, b[len(b)-tail:])
		out[i] = Txn{Data: b}
	}
	return out
}

// fill fills b with random bytes.
func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// mustEncode unwraps an encoder's result for headers the stimulus builds
// within their fields' widths.
func mustEncode(n int, err error) int {
	if err != nil {
		panic("verify: rewrite stimulus: " + err.Error())
	}
	return n
}
