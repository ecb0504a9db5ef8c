package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// EQDS back to back: the sender sends its speculative window, then only
// against the receiver's pulls; the write completes near line rate and
// every byte not sent in the speculative window was pulled for; pulls
// pace the data at 99 % of the receiver's link (EQDSParams.PacerPermille).
func TestEQDSBackToBack(t *testing.T) {
	const bytes = 64 << 20
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "eqds", "eqds"
	e, a, b := backToBack(t, ca, cb)
	var done Completion
	b.OnComplete = func(c Completion) { done = c }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: bytes, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Equal(t, uint64(bytes), done.Bytes)
	gbps := float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9
	req, granted, pulls := b.EQDSPacer().Totals()
	t.Logf("EQDS 64 MiB back to back: %.2f Gb/s; %d pulls granting %d of %d bytes asked; speculative %d B, %d B charged",
		gbps, pulls, granted, req, a.eqp.SpeculativeBytes, b.EQDSPacer().Charged())
	_, want := packet.StackRoCEv2IPv4.Goodput(400_000_000_000, 4096)
	require.Greater(t, gbps, 0.97*want/1e9)
	require.Equal(t, req, granted, "every request granted")
	// the first pull ends speculation: the allowance not used is asked for
	// again, so the sender asks for exactly what it did not send unsolicited
	require.Equal(t, uint64(bytes)-b.EQDSPacer().Charged(), req)
	require.Equal(t, pulls, a.st.pullRecv.Value())
}
