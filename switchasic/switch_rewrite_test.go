package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// A frame the switch forwards leaves it rewritten for the next hop: from
// the egress port's MAC to the MAC of the device on it, its TTL one less
// and its IPv4 header checksum still valid (the host checks each).
func TestForwardedFramesAreRewrittenForTheNextHop(t *testing.T) {
	r := newRig(t, DefaultConfig(), 4, rtlmodel.Options{Seed: 1})
	for i := 0; i < 3; i++ {
		hs := r.hosts[i]
		hs.total = 100
		hs.dst = func(*host, int) uint32 { return 3 }
	}
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	sink := r.hosts[3]
	require.Equal(t, 300, sink.received)
	var macs [12]byte
	d, s := hostMAC(3), r.sw.PortMAC(3)
	copy(macs[:6], d[:])
	copy(macs[6:], s[:])
	require.Equal(t, map[[12]byte]int{macs: 300}, sink.macsIn, "to host 3's MAC from port 3's")
	require.Equal(t, [6]byte{0x02, 0xFF, 0, 0, 0, 3}, s, "port 3's MAC: the default base plus 3")
	require.Equal(t, map[uint8]int{63: 300}, sink.ttlIn, "one hop off the senders' 64")
	require.Zero(t, sink.badChecksums)
}

// A frame that comes with a TTL of 1 has no hop left: the switch drops it
// and counts it (drop_ttl_expired), and its conservation holds.
func TestFramesWithoutAHopLeftAreDropped(t *testing.T) {
	r := newRig(t, DefaultConfig(), 2, rtlmodel.Options{Seed: 1})
	r.e.Hooks().OnEdge(r.conservation(t))
	hs := r.hosts[0]
	hs.total, hs.ttl = 10, 1
	hs.dst = func(*host, int) uint32 { return 1 }
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	require.Zero(t, r.hosts[1].received)
	var expired uint64
	for _, ip := range r.sw.pipes {
		expired += ip.ttlExpired.Value()
	}
	require.Equal(t, uint64(10), expired)
}

// hopIPv4's checksum is RFC 1624's equation 3 for the TTL's word, for
// every checksum, TTL and protocol byte.
func TestHopIPv4IsRFC1624Equation3(t *testing.T) {
	for _, proto := range []uint8{0, 17, 0xFF} {
		for ttl := 2; ttl < 256; ttl++ {
			for hc := 0; hc < 1<<16; hc++ {
				var ip [packet.IPv4MinLen]byte
				ip[8], ip[9], ip[10], ip[11] = uint8(ttl), proto, uint8(hc>>8), uint8(hc)
				ok := hopIPv4(&ip)
				m := uint16(ttl)<<8 | uint16(proto)
				want := packet.UpdateChecksum16(uint16(hc), m, m-0x100)
				if got := uint16(ip[10])<<8 | uint16(ip[11]); !ok || got != want || ip[8] != uint8(ttl-1) {
					t.Fatalf("TTL %d, protocol %d, checksum %#04x: got %#04x TTL %d, want %#04x", ttl, proto, hc, got, ip[8], want)
				}
			}
		}
	}
	var ip [packet.IPv4MinLen]byte
	for _, ttl := range []uint8{0, 1} {
		ip[8] = ttl
		require.False(t, hopIPv4(&ip), "TTL %d", ttl)
		require.Equal(t, ttl, ip[8], "left as it was")
	}
}
