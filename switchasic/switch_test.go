package switchasic

import (
	"bytes"
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// One 64-byte frame through the unloaded default switch leaves at exactly
// the cycle its port-to-port budget sums to, within the 260 ns target.
func TestPortToPortLatencyEqualsTheBudget(t *testing.T) {
	for _, ct := range []int{128, 0} {
		cfg := DefaultConfig()
		cfg.CutThroughBytes = ct
		r := newRig(t, cfg, 2, rtlmodel.Options{})
		src := r.hosts[0]
		src.payload, src.total, src.startCycle = 0, 1, 5
		src.dst = func(*host, int) uint32 { return 1 }
		require.NoError(t, r.e.Run(rtlmodel.Forever))
		dst := r.hosts[1]
		require.Equal(t, 1, dst.received)
		// the frame's first bit reached the switch at FirstBitIn; rebuild
		// the budget for that time and compare with what the model did
		got := dst.firstBitOut[0]
		b := r.sw.PortToPortBudget(0, 64, dst.firstIn[0])
		var buf bytes.Buffer
		require.NoError(t, b.WriteText(&buf))
		t.Logf("cut-through after %d B:\n%s", ct, buf.String())
		require.Equal(t, b.Total(), got, "measured first bit in to first bit out")
		require.LessOrEqual(t, got, 260*rtlmodel.Nanosecond)
	}
}

// ECN marks are written into the real header bytes with a valid checksum.
func TestMarkCEKeepsTheIPv4ChecksumValid(t *testing.T) {
	cfg := DefaultConfig()
	r := newRig(t, cfg, 1, rtlmodel.Options{})
	hs := r.hosts[0]
	hs.ect = true
	p := &packet.Desc{}
	p.HdrLen = uint8(copy(p.Hdr[:], hs.header(0, 1)))
	require.True(t, r.sw.ect(p))
	r.sw.markCE(p)
	require.NoError(t, packet.CheckIPv4HeaderChecksum(p.Hdr[packet.EthernetLen:]))
	require.Equal(t, byte(0x03), p.Hdr[packet.EthernetLen+1]&0x03)
}
