package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// berForFrameLoss finds the pre-FEC BER at which a frame spanning
// codewords RS(544,514) codewords is lost with probability loss, by
// bisection on the binomial tail the FEC model uses (serdes).
func berForFrameLoss(loss, codewords float64) float64 {
	lo, hi := 1e-6, 1e-2
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		p := serdes.CodewordFailureProb(mid)
		if 1-pow1m(p, codewords) < loss {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// pow1m is (1-p)^n for small p.
func pow1m(p, n float64) float64 {
	r := 1.0
	for i := 0; i < int(n); i++ {
		r *= 1 - p
	}
	return r * (1 - p*(n-float64(int(n))))
}

// Random frame loss of 1e-4 on the wire (uncorrectable FEC codewords, both
// directions): selective repeat against go-back-N on a 1 GiB write.
func TestGoodputUnderRandomLossSelectiveRepeatVersusGoBackN(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: two 1 GiB transfers")
	}
	// a 4158 B frame plus preamble and gap spans 6.5 codewords of 5140
	// message bits on average (256b/257b transcoding)
	ber := berForFrameLoss(1e-4, 4178*8*257/256/5140.0)
	const bytes = 1 << 30
	run := func(rec Recovery) (gbps float64, lost, retx, timeouts uint64) {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		for _, c := range []*Config{&ca, &cb} {
			c.CC, c.Recovery = "none", rec
			c.Wire.PreFECBER = ber
		}
		ca.Wire.Seed, cb.Wire.Seed = 11, 12
		e, a, b := backToBack(t, ca, cb)
		var done Completion
		b.OnComplete = func(c Completion) { done = c }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: bytes, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Forever))
		require.Equal(t, uint64(bytes), done.Bytes)
		_, bad := a.Phy().Wire().Frames()
		return float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9,
			bad, a.st.retransmits.Value(), a.st.timeouts.Value()
	}
	sr, srLost, srRetx, srTO := run(SelectiveRepeat)
	gbn, gbnLost, gbnRetx, gbnTO := run(GoBackN)
	t.Logf("pre-FEC BER %.3e: frame loss about 1e-4", ber)
	t.Logf("selective repeat: %.2f Gb/s; %d data frames lost, %d retransmitted, %d timeouts", sr, srLost, srRetx, srTO)
	t.Logf("go-back-N:        %.2f Gb/s; %d data frames lost, %d retransmitted, %d timeouts", gbn, gbnLost, gbnRetx, gbnTO)
	require.Greater(t, srLost, uint64(5))
	require.Greater(t, gbnRetx, srRetx, "go-back-N resends what followed each loss")
	require.Greater(t, sr, gbn)
}
