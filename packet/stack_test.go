package packet

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStackFacts14 reproduces the FACTS 1.4 table: overhead per wire slot,
// efficiency and goodput at 400 Gb/s with a 4096-byte payload.
func TestStackFacts14(t *testing.T) {
	tests := []struct {
		s          Stack
		overhead   int
		efficiency string // percent, 2 decimals
		goodput    string // Gb/s, 1 decimal
	}{
		{StackRoCEv2IPv4, 82, "98.04", "392.1"},
		{StackRoCEv2IPv4VLAN, 86, "97.94", "391.8"},
		{StackRoCEv2IPv6, 102, "97.57", "390.3"},
		{StackRoCEv2IPv4First, 98, "97.66", "390.7"},
		{StackNativeIB, 26, "99.37", "397.5"},
		{StackNativeIBGRH, 66, "98.41", "393.7"},
		{StackUETSmall, 98, "97.66", "390.7"},
		{StackUETStandard, 122, "97.11", "388.4"},
	}
	for _, tc := range tests {
		t.Run(tc.s.Name, func(t *testing.T) {
			assert.Equal(t, tc.overhead, tc.s.Overhead())
			assert.Equal(t, 4096+tc.overhead, tc.s.WireBytes(4096))
			eff := new(big.Rat).Mul(tc.s.Efficiency(4096), big.NewRat(100, 1))
			assert.Equal(t, tc.efficiency, eff.FloatString(2))
			r, f := tc.s.Goodput(400e9, 4096)
			want := new(big.Rat).SetFrac64(400e9*4096, int64(4096+tc.overhead))
			assert.Zero(t, want.Cmp(r), "exact goodput %s", r)
			assert.Equal(t, tc.goodput, new(big.Rat).Quo(r, big.NewRat(1e9, 1)).FloatString(1))
			assert.Equal(t, tc.goodput, fmt.Sprintf("%.1f", f/1e9))
		})
	}
}

// TestStackMessageGoodput checks the FACTS 1.4 note that a 1 MiB RDMA
// WRITE (one FIRST packet with a RETH, then MIDDLE and LAST packets)
// averages 392.1 Gb/s at 400 Gb/s over RoCEv2/IPv4.
func TestStackMessageGoodput(t *testing.T) {
	r, f := StackRoCEv2IPv4.MessageGoodput(400e9, 1<<20, 4096, RETHLen)
	want := new(big.Rat).SetFrac64(400e9*(1<<20), 256*(4096+82)+RETHLen)
	assert.Zero(t, want.Cmp(r))
	assert.Equal(t, "392.1", fmt.Sprintf("%.1f", f/1e9))
	r, f = StackRoCEv2IPv4.MessageGoodput(400e9, 0, 4096, 0)
	assert.Zero(t, r.Sign())
	assert.Zero(t, f)
}

// TestStackSmallPayloads checks pad to 4 bytes and the 64-byte minimum frame.
func TestStackSmallPayloads(t *testing.T) {
	// Eth 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 = 62 < 64: padded to 64, slot 84.
	assert.Equal(t, 64, StackRoCEv2IPv4.FrameBytes(0))
	assert.Equal(t, 84, StackRoCEv2IPv4.WireBytes(0))
	assert.Equal(t, 54+3+1+8+20, StackRoCEv2IPv4.WireBytes(3)) // 3 B payload + 1 pad: 66 B frame
	assert.Equal(t, LRHLen+BTHLen+4+6, StackNativeIB.WireBytes(1))
	assert.Equal(t, StackUETSmall.Header+1+4+20, StackUETSmall.WireBytes(1)) // no pad, above minimum
	_, f := StackNativeIB.Goodput(400e9, 64)
	assert.InDelta(t, 400e9*64/90.0, f, 1)
}

// TestStackMatchesBuiltFrames checks that the stack sizes agree with the
// frames the builders produce.
func TestStackMatchesBuiltFrames(t *testing.T) {
	payload := make([]byte, 4096)
	buf := make([]byte, 9000)
	f := hdrRoCEv2(false, false, RCWriteMiddle)
	n, err := f.Build(buf, payload)
	require.NoError(t, err)
	assert.Equal(t, StackRoCEv2IPv4.FrameBytes(4096), n)
	f = hdrRoCEv2(false, true, RCWriteMiddle)
	n, err = f.Build(buf, payload)
	require.NoError(t, err)
	assert.Equal(t, StackRoCEv2IPv4VLAN.FrameBytes(4096), n)
	f = hdrRoCEv2(true, false, RCWriteMiddle)
	n, err = f.Build(buf, payload)
	require.NoError(t, err)
	assert.Equal(t, StackRoCEv2IPv6.FrameBytes(4096), n)
	f = hdrRoCEv2(false, false, RCWriteFirst)
	n, err = f.Build(buf, payload)
	require.NoError(t, err)
	assert.Equal(t, StackRoCEv2IPv4First.FrameBytes(4096), n)
	p := IBPacket{LRH: LRH{LNH: LNHBTH}, Transport: Transport{BTH: BTH{OpCode: RCWriteMiddle}}}
	n, err = p.Build(buf, payload)
	require.NoError(t, err)
	assert.Equal(t, StackNativeIB.FrameBytes(4096), n)
	p.LRH.LNH = LNHGRH
	n, err = p.Build(buf, payload)
	require.NoError(t, err)
	assert.Equal(t, StackNativeIBGRH.FrameBytes(4096), n)
}
