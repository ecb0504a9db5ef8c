package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
)

var allLBModes = []LBMode{PerFlow, PerPacketEntropy, RoundRobin, Random, DLB}

// pickWorkload returns a 64-uplink balancer in mode and 1024 flows whose
// entropy changes per packet, with port qualities fed for DLB.
func pickWorkload(t testing.TB, mode LBMode) (*Balancer, int, []packet.FlowKey) {
	b, g := uplinkBalancer(t, mode, DefaultECMPConfig(), 1)
	for p := range lbUplinks {
		b.UpdatePort(p, uint64(p*700), uint64(p*300))
	}
	return b, g, roceFlows(rtlmodel.NewRNG(1, "bench"), 1024)
}

func TestPickAllocatesNothing(t *testing.T) {
	for _, mode := range allLBModes {
		b, g, keys := pickWorkload(t, mode)
		i := 0
		allocs := testing.AllocsPerRun(10000, func() {
			k := &keys[i&1023]
			k.SrcPort++
			b.Pick(g, k, rtlmodel.Time(i)*100)
			i++
		})
		assert.Zero(t, allocs, mode.String())
	}
	ft := NewForwardingTable(DefaultMaxEndpoints)
	g, _ := ft.AddGroup([]int{1})
	_ = ft.SetRoute(7, g)
	assert.Zero(t, testing.AllocsPerRun(1000, func() { ft.Lookup(7) }))
	b, _, _ := pickWorkload(t, DLB)
	assert.Zero(t, testing.AllocsPerRun(1000, func() { b.UpdatePort(5, 1000, 2000) }))
}

func BenchmarkPick(b *testing.B) {
	for _, mode := range allLBModes {
		b.Run(mode.String(), func(b *testing.B) {
			bal, g, keys := pickWorkload(b, mode)
			b.ReportAllocs()
			now := rtlmodel.Time(0)
			for i := 0; b.Loop(); i++ {
				k := &keys[i&1023]
				k.SrcPort++
				now += 100
				bal.Pick(g, k, now)
			}
		})
	}
}

func BenchmarkUpdatePort(b *testing.B) {
	bal, _, _ := pickWorkload(b, DLB)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		bal.UpdatePort(i&63, uint64(i&0xFFFF), uint64(i&0x3FFFF))
	}
}

// BenchmarkPickDLBLiveFlowlet is DLB when packets continue live flowlets
// (the common case), against BenchmarkPick/dlb where every packet starts a
// new flowlet and scans the 64 members.
func BenchmarkPickDLBLiveFlowlet(b *testing.B) {
	bal, g, keys := pickWorkload(b, DLB)
	b.ReportAllocs()
	now := rtlmodel.Time(0)
	for i := 0; b.Loop(); i++ {
		now += 100
		bal.Pick(g, &keys[i&1023], now)
	}
}
