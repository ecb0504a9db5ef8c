package nic400g

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TestSwiftFluid: 4 to 512 Swift flows (one switch hop) joining one 400G
// bottleneck, all within 10 ms, share it fairly with the RTT held near
// the target, so the queue stays near (target − base RTT)·capacity; as
// the flows multiply their windows shrink (under 2 packets at 512) and
// flow scaling raises the target and with it the queue.
func TestSwiftFluid(t *testing.T) {
	p := DefaultSwiftParams(400e9)
	mk := func() CongestionControl {
		s, err := NewSwift(&p)
		require.NoError(t, err)
		s.SetHops(1)
		return s
	}
	for _, n := range []int{4, 8, 16, 64, 512} {
		stagger := min(200*us, 10*rtlmodel.Millisecond/rtlmodel.Time(n)) // all joined by 10 ms
		r := runDelayFluid(t, mk, n, stagger, 40*rtlmodel.Millisecond, 10*rtlmodel.Millisecond)
		lo, hi := slices.Min(r.avg), slices.Max(r.avg)
		t.Logf("swift/%d: Jain %.4f, utilisation %.3f, queue mean %.0f B max %.0f B (peak over the joins %.0f B), rates %.2f..%.2f Gb/s",
			n, r.jain, r.util, r.meanQ, r.maxQueue, r.peakQ, lo, hi)
		assert.GreaterOrEqual(t, r.jain, 0.9, "n=%d", n)
		assert.GreaterOrEqual(t, r.util, 0.9, "n=%d", n)
		// the largest target is base + h + FSRange = 123 µs
		assert.Less(t, r.maxQueue, 123e-6*50e9, "n=%d: queue below the largest target", n)
	}
}
