package serdes

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAMPlans(t *testing.T) {
	require.Equal(t, 20, BlocksPerCodeword)

	// Clause 91: 20 markers every 16,384 blocks per lane = 1/16384 of the
	// 66b stream, which is the same fraction of the FEC message space.
	a := AM100GCL91
	require.True(t, a.Overhead().Equal(NewRat(1, 16384)))
	require.True(t, a.Overhead().Equal(NewRat(20, 16384*20)), "20 AM blocks per 327,680 66b blocks")
	require.True(t, a.IdleBytesRemoved().Equal(IntRat(160)), "twenty 8-byte blocks")
	period := a.PeriodTime(Port100G.LineRate())
	require.True(t, period.Equal(IntRat(4096*51200)), "4096 codewords of 51.2 ns")

	// 400G: once per 8192 codewords = 163,840 257b blocks.
	b := AM400G
	require.Equal(t, uint64(163840), b.CodewordsPerPeriod*BlocksPerCodeword)
	require.True(t, b.PeriodTime(Port400G.LineRate()).Equal(IntRat(8192*12800)))

	for _, p := range []AMPlan{AM100GCL91, AM400G} {
		// The MAC rate stays exact: a period carries MACBytesPerPeriod of
		// MAC time at the MAC rate, of which IdleBytesRemoved idles make room
		// for the markers, and even the worst case for idles (back-to-back
		// jumbo frames) supplies more than enough.
		for _, frame := range []uint64{64, 1518, 4096 + 58, 9216} {
			require.GreaterOrEqual(t, p.IdleSupply(frame), p.IdleBytesRemoved().Num()/p.IdleBytesRemoved().Den(), "%s frame %d", p.Name, frame)
		}
		t.Logf("%s: AM %d bits per %d codewords, overhead %v (%.3g), %v idle bytes removed per period, supply with 9216 B frames %d",
			p.Name, p.AMBits, p.CodewordsPerPeriod, p.Overhead(), p.Overhead().Float64(), p.IdleBytesRemoved(), p.IdleSupply(9216))
	}
	// The period time at the line rate equals the period's MAC bytes at the
	// MAC rate: the markers add no time.
	mac := AM100GCL91.MACBytesPerPeriod().Mul(IntRat(8))
	require.True(t, Port100G.MACRate().SerialTime(mac.Num()).Equal(AM100GCL91.PeriodTime(Port100G.LineRate())))
}

func TestInterleaveLatencyAndBursts(t *testing.T) {
	// FACTS 3 "FEC latency: codeword fill"
	require.True(t, InterleaveNone.FillTime(Port100G.LineRate()).Equal(IntRat(51200)), "51.2 ns")
	require.True(t, InterleaveNone.FillTime(Port400G.LineRate()).Equal(IntRat(12800)), "12.8 ns")
	require.True(t, InterleaveTwo.FillTime(Port400G.LineRate()).Equal(IntRat(25600)), "25.6 ns")
	require.Equal(t, 141, InterleaveNone.BurstBits())
	require.Equal(t, 291, InterleaveTwo.BurstBits())
	require.Equal(t, 30, InterleaveTwo.BurstSymbols())
	_, err := NewInterleave(3)
	require.Error(t, err)
	i, err := NewInterleave(2)
	require.NoError(t, err)
	require.Equal(t, 2, i.Depth())
}
