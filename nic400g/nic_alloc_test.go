package nic400g

import (
	"runtime"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// In steady state the NIC datapath allocates nothing per packet: a long
// write, a long send and a long read back to back (ICRC sealed and checked
// on every frame), under DCQCN and under EQDS with its pulls.
func TestNICSteadyStateAllocatesNothing(t *testing.T) {
	for _, cc := range []string{"dcqcn", "eqds"} {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.CC, cb.CC = cc, cc
		e, a, b := backToBack(t, ca, cb)
		attachDriver(t, e, a, []WorkRequest{
			{QP: 3, Dst: 2, DestQP: 5, Bytes: 1 << 30, Posted: 1000},
			{QP: 4, Dst: 2, DestQP: 6, Op: OpSend, Bytes: 1 << 30, Posted: 1000},
			{QP: 7, Dst: 2, DestQP: 8, Op: OpRead, Bytes: 1 << 30, Posted: 1000},
		})
		require.NoError(t, e.Run(200*rtlmodel.Microsecond)) // warm: rings, pools and heaps at size
		before := a.st.txData.Value() + b.st.txData.Value()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		require.NoError(t, e.Run(400*rtlmodel.Microsecond))
		runtime.ReadMemStats(&m1)
		pkts := a.st.txData.Value() + b.st.txData.Value() - before
		perPkt := float64(m1.Mallocs-m0.Mallocs) / float64(pkts)
		t.Logf("%-6s %d data packets in 200 us: %d allocations (%.4f per packet)", cc, pkts, m1.Mallocs-m0.Mallocs, perPkt)
		require.Greater(t, pkts, uint64(2000))
		require.Less(t, perPkt, 0.001, cc)
	}
}
