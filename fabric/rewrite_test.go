package fabric

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Every frame a NIC receives in a routed fabric comes as the switches'
// rewrite leaves it: to the NIC's own MAC, from the MAC of the one leaf
// port it hangs on, with the TTL (IPv6 hop limit) down by the switches it
// crossed (1 under one leaf, 3 over a spine, 5 over a fat tree's core)
// and, over IPv4, a valid header checksum; and the NICs' ICRC checks pass
// every frame, the TTL being outside the ICRC.
func TestFramesReachTheNICsRewrittenHopByHop(t *testing.T) {
	for _, c := range []struct {
		name, topo, stack string
		hops              func(src, dst uint32) int
	}{
		{"leafspine", "{kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}", "roce-ipv4",
			func(s, d uint32) int { return map[bool]int{true: 1, false: 3}[s/4 == d/4] }},
		{"leafspine-ipv6", "{kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}", "roce-ipv6",
			func(s, d uint32) int { return map[bool]int{true: 1, false: 3}[s/4 == d/4] }},
		{"fattree-uet", "{kind: fattree, k: 4}", "uet", func(s, d uint32) int {
			switch {
			case s/2 == d/2: // one edge switch
				return 1
			case s/4 == d/4: // one pod
				return 3
			}
			return 5
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseScenario(c.name+".yaml", []byte(fmt.Sprintf(`
topology: %s
nic: {stack: %s}
workload: {kind: alltoall, bytes: 8192}
`, c.topo, c.stack)))
			require.NoError(t, err)
			r, err := NewRun(s)
			require.NoError(t, err)
			var mu sync.Mutex
			from := map[string][6]byte{}
			frames := 0
			r.Cluster.Engine.Hooks().OnTransfer(func(ev *rtlmodel.TransferEvent) {
				d := traceDesc(ev)
				var n int
				if d == nil || d.Kind != packet.KindData {
					return
				}
				if _, err := fmt.Sscanf(ev.To, "nic%d", &n); err != nil || ev.To != fmt.Sprintf("nic%d", n) {
					return
				}
				h := d.Header()
				mu.Lock()
				defer mu.Unlock()
				frames++
				require.Equal(t, r.Cluster.NICs[n].MAC(), [6]byte(h[0:6]), "%s: %v to its NIC's MAC", ev.To, d)
				src := [6]byte(h[6:12])
				require.Equal(t, []byte{0x02, 0xFF}, src[:2], "%s: %v from a switch port", ev.To, d)
				if seen, ok := from[ev.To]; ok {
					require.Equal(t, seen, src, "%s: every frame from its leaf port", ev.To)
				}
				from[ev.To] = src
				want := 64 - c.hops(d.Src, d.Dst)
				if c.stack == "roce-ipv6" {
					require.Equal(t, want, int(h[14+7]), "%s: %v hop limit", ev.To, d)
					return
				}
				require.Equal(t, want, int(h[14+8]), "%s: %v TTL", ev.To, d)
				require.NoError(t, packet.CheckIPv4HeaderChecksum(h[14:14+packet.IPv4MinLen]), "%s: %v", ev.To, d)
			})
			require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
			res := r.Results()
			require.Equal(t, res.Flows, res.Completed)
			require.Zero(t, res.NICDrops, "no frame failed a NIC's checks (ICRC among them)")
			require.Positive(t, frames)
			t.Logf("%s: %d frames checked at %d NICs", c.name, frames, len(from))
		})
	}
}
