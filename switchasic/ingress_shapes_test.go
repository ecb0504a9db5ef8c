package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Frames the ingress parser's fast path reads (untagged IPv4) and frames
// it leaves to the full decode (a VLAN tag, IPv6) are forwarded alike: to
// the host their destination names, in the class their TOS or traffic
// class names, none of them malformed.
func TestEveryFrameShapeIsForwardedByItsDestination(t *testing.T) {
	const class, frames = 3, 10
	for _, shape := range []struct {
		name      string
		fast      bool
		tagged    bool
		etherType uint16
	}{
		{"IPv4", true, false, packet.EtherTypeIPv4},
		{"VLAN-tagged IPv4", false, true, packet.EtherTypeIPv4},
		{"IPv6", false, false, packet.EtherTypeIPv6},
	} {
		r := newRig(t, DefaultConfig(), 3, rtlmodel.Options{Seed: 1})
		src, dst := r.hosts[0], r.hosts[2]
		src.total = frames
		src.dst = func(*host, int) uint32 { return 2 }
		dst.keep = true

		var f packet.RoCEv2
		f.Eth.Tagged, f.Eth.EtherType = shape.tagged, shape.etherType
		if shape.etherType == packet.EtherTypeIPv6 {
			var s, d [16]byte
			a, b := ipOf(0), ipOf(2)
			copy(s[12:], a[:])
			copy(d[12:], b[:])
			f.IP6 = packet.IPv6{TrafficClass: class << 5, NextHeader: packet.IPProtoUDP, HopLimit: 64, Src: s, Dst: d}
		} else {
			f.IP4 = packet.IPv4{IHL: 5, TTL: 64, TOS: class << 5, Src: ipOf(0), Dst: ipOf(2)}
		}
		f.UDP.SrcPort = 0xC000
		f.BTH.OpCode = 0x07 // RDMA WRITE MIDDLE
		f.BTH.DestQP = 3
		buf := make([]byte, 8192)
		n, err := f.Build(buf, make([]byte, 4096))
		require.NoError(t, err, shape.name)
		hdr := append([]byte(nil), buf[:min(n, packet.HeaderCap)]...)
		src.tmpl[2], src.bytes = hdr, n
		_, fast := packet.ParseRoCEv2IPv4Route(hdr, n)
		require.Equal(t, shape.fast, fast, "%s: the fast path's verdict", shape.name)

		require.NoError(t, r.e.Run(rtlmodel.Forever), shape.name)
		require.Equal(t, frames, dst.received, "%s: frames at their destination", shape.name)
		require.Zero(t, r.hosts[1].received, shape.name)
		for _, p := range dst.kept {
			require.Equal(t, uint8(class), p.Class, "%s: class", shape.name)
		}
		for _, name := range []string{"sw/pipe0/drop_malformed", "sw/pipe0/drop_no_route"} {
			m, ok := r.e.Stats().Lookup(name)
			require.True(t, ok, name)
			require.Zero(t, m.(*rtlmodel.Counter).Value(), "%s: %s", shape.name, name)
		}
	}
}
