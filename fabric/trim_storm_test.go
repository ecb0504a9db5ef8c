package fabric

import (
	"context"
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"

	"github.com/stretchr/testify/require"
)

// trimStorm is a 64 KB all-to-all over a trimming leaf-spine of two
// leaves of 16 hosts and two spines, 8:1 oversubscribed: three quarters
// of what crosses to the other leaf is trimmed at its uplinks.
func trimStorm(cc string, mtu int, bufferBytes int) string {
	return fmt.Sprintf(`name: trim-storm
seed: 1
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 16}
switch: {trimming: true, buffer_bytes: %d}
nic: {cc: %s, mtu: %d}
workload: {kind: alltoall, bytes: 65536}
`, bufferBytes, cc, mtu)
}

// Window-limited senders resend what the switches trimmed within their
// windows, which the trims cut, so the storm settles. NSCC with 1 KB
// packets in 4 MB buffers resent every trimmed packet on its NACK whatever
// its window: 1.91 million trims for 63,488 data packets and 511 of the
// 992 flows failed; now 63,906 trims and every flow completes.
//
// Swift with its window under one packet paces for hundreds of
// microseconds; its retransmission timer counted that pacing as timeouts
// and 56 flows failed with their retries run out (4 KB packets, 200 KB
// buffers).
func TestWindowLimitedSendersRideOutATrimStorm(t *testing.T) {
	for _, c := range []struct {
		cc       string
		mtu, buf int
		trims    uint64 // most trims per data packet, times the packets
	}{
		{"nscc", 1024, 4000000, 2},
		{"swift", 4096, 200000, 2},
	} {
		r := completeScenario(t, "storm.yaml", trimStorm(c.cc, c.mtu, c.buf)).Results()
		require.Equal(t, r.Flows, r.Completed, "%s: flows failed", c.cc)
		require.Zero(t, r.SwitchDrops, "%s: control frames dropped", c.cc)
		require.Less(t, r.Trims, c.trims*r.DataPackets, "%s: trimmed again and again", c.cc)
	}
}

// A go-back-N receiver in a trim storm coalesces its NACKs: in
// nackBacklog (BenchmarkNACKBacklog) its link fills with trimmed headers
// and a NACK for each does not fit on its way back (a NACK is larger).
// A backlog of NACKs grew without end, 17,423 frames in the 300 us run
// here, each sending its sender back to a PSN it had long passed. A
// trimmed header behind a NACK still waiting gets none of its own: every
// header is NACKed or coalesced, and the backlog stays within a few
// frames a QP.
func TestGoBackNCoalescesNACKsInATrimStorm(t *testing.T) {
	s, err := ParseScenario("nack_backlog.yaml", []byte(nackBacklog))
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 300*rtlmodel.Microsecond, nil))
	st := r.Cluster.Engine.Stats()
	c := func(name string) uint64 {
		m, ok := st.Lookup("nic0/" + name)
		require.True(t, ok, name)
		return m.(*rtlmodel.Counter).Value()
	}
	trimmed, naks, coalesced := c("rx_trimmed"), c("naks_sent"), c("nacks_coalesced")
	m, ok := st.Lookup("nic0/ctrl_waiting")
	require.True(t, ok)
	deepest := m.(*rtlmodel.Gauge).Max()
	t.Logf("trimmed headers %d, NACKs %d, coalesced %d, deepest backlog %d frames", trimmed, naks, coalesced, deepest)
	require.Greater(t, trimmed, uint64(10000), "no storm; pick a scenario that has one")
	require.Equal(t, trimmed, naks+coalesced, "every trimmed header NACKed or coalesced")
	require.NotZero(t, coalesced)
	require.LessOrEqual(t, deepest, int64(4*s.Workload.Senders), "the backlog stays within a few frames a QP")
}
