package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

// twoLeaves is two leaves and eight spines, one NIC per leaf; spine s's
// cables are 2 + 30·s metres, so the eight paths differ by up to 2.1 us
// of round trip and sprayed packets arrive far out of order.
func twoLeaves(t *testing.T, nic func(i int) nic400g.Config) *Cluster {
	c, err := NewLeafSpine(LeafSpineConfig{Leaves: 2, Spines: 8, HostsPerLeaf: 1, Switch: switchasic.DefaultConfig(),
		NIC:                    nic,
		UplinkCableMillimetres: func(l, s, k int) uint64 { return uint64(2000 + 30000*s) }}, rtlmodel.Options{Seed: 1})
	require.NoError(t, err)
	return c
}

type transfer struct {
	goodput                       float64 // Gb/s from the first doorbell to the responder's completion
	delivered                     uint64
	reorderFull, retransmits, ooo uint64
}

func counter(c *Cluster, name string) uint64 {
	m, ok := c.Engine.Stats().Lookup(name)
	if !ok {
		return 0
	}
	return m.(*rtlmodel.Counter).Value()
}

// write sends bytes from NIC 0 to NIC 1 on one QP and measures it.
func write(t *testing.T, c *Cluster, bytes uint64) transfer {
	var done nic400g.Completion
	c.NICs[1].OnComplete = func(x nic400g.Completion) { done = x }
	addPoster(t, c.Engine, c.NICs[0], c.NICs[0].Host(), []nic400g.WorkRequest{
		{QP: 1, Dst: 1, DestQP: 1, Bytes: bytes, Posted: rtlmodel.Microsecond}})
	require.NoError(t, c.Engine.Run(rtlmodel.Forever))
	require.Equal(t, bytes, done.Bytes, "the message completes")
	return transfer{
		goodput:     float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9,
		delivered:   counter(c, "nic1/rx_payload"),
		reorderFull: counter(c, "nic1/reorder_full_drops"),
		retransmits: counter(c, "nic0/retransmits"),
		ooo:         counter(c, "nic1/rx_out_of_order"),
	}
}

// Spraying one QP over 8 paths of different lengths: the data arrives
// complete and in order at the goodput of a single path; a reorder buffer
// too small for the reordering stalls the transfer, and the stall is
// counted.
func TestSprayingOverEightPaths(t *testing.T) {
	const bytes = 64 << 20
	nic := func(paths string, reorder int) func(int) nic400g.Config {
		return func(i int) nic400g.Config {
			c := nic400g.DefaultConfig(uint32(i))
			c.CC, c.Paths, c.ReorderPackets = "none", paths, reorder
			c.ReorderTolerance = 64
			return c
		}
	}
	single := write(t, twoLeaves(t, nic("fixed", 256)), bytes)
	spray := write(t, twoLeaves(t, nic("spray", 256)), bytes)
	small := write(t, twoLeaves(t, nic("spray", 8)), bytes)
	t.Logf("single path: %.2f Gb/s", single.goodput)
	t.Logf("sprayed over 8 paths, 256-packet reorder buffer: %.2f Gb/s (%.2f%% of single path); %d packets out of order, %d retransmitted",
		spray.goodput, 100*spray.goodput/single.goodput, spray.ooo, spray.retransmits)
	t.Logf("sprayed, 8-packet reorder buffer: %.2f Gb/s; %d packets dropped for a full buffer (stalls), %d retransmitted",
		small.goodput, small.reorderFull, small.retransmits)
	for _, x := range []transfer{single, spray, small} {
		require.Equal(t, uint64(bytes), x.delivered, "every byte delivered in order")
	}
	require.Greater(t, spray.ooo, uint64(10000), "the paths reorder heavily")
	require.GreaterOrEqual(t, spray.goodput, 0.99*single.goodput)
	require.Greater(t, small.reorderFull, uint64(0))
	require.Less(t, small.goodput, 0.99*single.goodput)
}
