package nic400g

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
)

const pcieNS = rtlmodel.Nanosecond

func newTestPCIeLink(t testing.TB, mod func(*PCIeConfig)) *PCIeLink {
	c := DefaultPCIeConfig()
	if mod != nil {
		mod(&c)
	}
	l, err := NewPCIeLink(c)
	require.NoError(t, err)
	return l
}

// ratFloorPS rounds an exact rational time down to whole ps.
func ratFloorPS(r serdes.Rat) rtlmodel.Time { return rtlmodel.Time(r.Num() / r.Den()) }

// TestPCIeLinkPostedWrite: the known answer of a 4096-byte write on an
// idle link, and a second one serialised behind it with the quarter
// picosecond carried.
func TestPCIeLinkPostedWrite(t *testing.T) {
	l := newTestPCIeLink(t, nil)
	assert.Equal(t, rtlmodel.Time(71093)+125*pcieNS, l.PostedWrite(0, 4096))
	assert.Equal(t, rtlmodel.Time(142187)+125*pcieNS, l.PostedWrite(0, 4096), "71,093.75 × 2 = 142,187.5")
	ps, num, den := l.Carried(Upstream)
	assert.Equal(t, []uint64{142187, 256, 512}, []uint64{uint64(ps), num, den})
	assert.Equal(t, rtlmodel.Time(142187), l.BusyUntil(Upstream))
	tlps, bytes := l.Counts(Upstream)
	assert.Equal(t, []uint64{32, 8960}, []uint64{tlps, bytes})
	assert.Equal(t, rtlmodel.Time(0), l.BusyUntil(Downstream))

	// After the link has gone idle the next write starts at its call time
	// and the carried fraction is dropped.
	assert.Equal(t, 300*pcieNS+71093+125*pcieNS, l.PostedWrite(300*pcieNS, 4096))
	assert.Equal(t, 300*pcieNS, l.PostedWrite(300*pcieNS, 0), "zero bytes: nothing sent")
	def := DefaultPCIeConfig()
	idle, err := def.IdlePostedWriteTime(64)
	require.NoError(t, err)
	assert.Equal(t, ratFloorPS(def.WireTime(88))+125*pcieNS, idle)

	l.Reset()
	assert.Equal(t, rtlmodel.Time(71093)+125*pcieNS, l.PostedWrite(0, 4096))
	assert.Panics(t, func() { l.PostedWrite(0, 0); l.PostedWrite(10, 1); l.PostedWrite(5, 1) }, "time must not go back")
}

// TestPCIeLinkNoDrift: 10^6 back-to-back DMAs end exactly where the exact
// rational sum puts them, for a dyadic byte time (Gen5) and for byte
// times whose fraction does not divide out (Gen6 flits, DLLP overhead).
func TestPCIeLinkNoDrift(t *testing.T) {
	const ops = 1_000_000
	for _, tc := range []struct {
		name string
		mod  func(*PCIeConfig)
	}{
		{"gen5", nil},
		{"gen6", func(c *PCIeConfig) { c.Gen = Gen6 }},
		{"gen5-dllp-1/63", func(c *PCIeConfig) { c.DLLPOverhead = serdes.NewRat(1, 63) }},
		{"gen3-x8-dllp-3/97", func(c *PCIeConfig) { c.Gen, c.Lanes, c.DLLPOverhead = Gen3, 8, serdes.NewRat(3, 97) }},
	} {
		l := newTestPCIeLink(t, tc.mod)
		c := l.Config()
		sizes := []uint64{4096, 64, 1500, 257}
		var wire uint64
		var now, got rtlmodel.Time
		for i := 0; i < ops; i++ {
			n := sizes[i%len(sizes)]
			wire += c.WriteWireBytes(n)
			got = l.PostedWrite(now, n)
			if i%1000 == 0 {
				now += 10 * pcieNS // calls advance but stay behind the busy link
			}
		}
		bt := c.ByteTime()
		exact := new(big.Int).Mul(new(big.Int).SetUint64(wire), new(big.Int).SetUint64(bt.Num()))
		exact.Quo(exact, new(big.Int).SetUint64(bt.Den()))
		require.Less(t, uint64(now), exact.Uint64(), tc.name+": the link stayed busy")
		assert.Equal(t, exact.Uint64()+uint64(c.OneWay), uint64(got), tc.name)
		_, bytes := l.Counts(Upstream)
		assert.Equal(t, wire, bytes, tc.name)
	}
}

// TestPCIeLinkReadKnownAnswer: a 64-byte read on an idle link is one
// 24-byte request (380.86 ps), OneWay, CompleterLatency, one 84-byte
// completion (1,333.01 ps) and OneWay: 651,713 ps.
func TestPCIeLinkReadKnownAnswer(t *testing.T) {
	l := newTestPCIeLink(t, nil)
	c := l.Config()
	req, cpl := c.ReadWireTimes(64)
	want := ratFloorPS(req.Add(cpl)) + 2*c.OneWay + c.CompleterLatency
	assert.Equal(t, rtlmodel.Time(651713), want)
	assert.Equal(t, want, l.Read(0, 64))
	idle, err := c.IdleReadTime(64)
	require.NoError(t, err)
	assert.Equal(t, want, idle)
	assert.Equal(t, rtlmodel.Time(5), l.Read(5, 0))

	// A 256-byte QP context (FACTS 5.1): one request, one completion at
	// MPS, four at RCB.
	qpc, err := c.IdleReadTime(256)
	require.NoError(t, err)
	assert.Equal(t, ratFloorPS(c.WireTime(24).Add(c.WireTime(276)))+2*c.OneWay+c.CompleterLatency, qpc)
	assert.True(t, qpc >= 600*pcieNS && qpc <= 900*pcieNS, "FACTS 5.1: 600–900 ns, got %v", qpc)
	c.Completions = CplAtRCB
	rcb, err := c.IdleReadTime(256)
	require.NoError(t, err)
	assert.Equal(t, ratFloorPS(c.WireTime(24).Add(c.WireTime(4*84)))+2*c.OneWay+c.CompleterLatency, rcb)
	assert.Greater(t, rcb, qpc, "RCB completions cost more link time")
}

// TestPCIeLinkReadPipelined: the requests of a large read go back to back
// and their completions stream on the downstream direction, which is the
// bottleneck; a second read queues behind the first.
func TestPCIeLinkReadPipelined(t *testing.T) {
	l := newTestPCIeLink(t, nil)
	c := l.Config()
	const n = 64 << 10
	got := l.Read(0, n)
	first := c.WireTime(24) // completions of the first request wait for it
	want := ratFloorPS(first.Add(c.WireTime(c.CompletionWireBytes(n)))) + 2*c.OneWay + c.CompleterLatency
	assert.Equal(t, want, got)
	tlps, bytes := l.Counts(Downstream)
	assert.Equal(t, c.CompletionTLPs(n), tlps)
	assert.Equal(t, c.CompletionWireBytes(n), bytes)
	tlps, _ = l.Counts(Upstream)
	assert.Equal(t, uint64(128), tlps)

	second := l.Read(0, n)
	assert.Equal(t, ratFloorPS(first.Add(c.WireTime(2*c.CompletionWireBytes(n))))+2*c.OneWay+c.CompleterLatency, second)

	// Streaming reads at 400 Gb/s of payload keep up on the default link.
	rate := float64(2*n) / (float64(second-2*c.OneWay-c.CompleterLatency) / 1e12) / 1e9
	assert.Greater(t, rate, 50.0, "GB/s of read data")
}

// TestPCIeLinkGapFill: a doorbell reserved after a read's completions but
// starting before them goes first; one that does not fit in the gap waits.
func TestPCIeLinkGapFill(t *testing.T) {
	l := newTestPCIeLink(t, nil)
	c := l.Config()
	l.Read(0, 4096) // completions from ~525 ns on
	db := l.HostWrite(0, 40*pcieNS, 64, 64)
	assert.Equal(t, 40*pcieNS+ratFloorPS(c.WireTime(88))+c.OneWay, db, "not held behind the completions")
	cplStart := rtlmodel.Time(380) + c.OneWay + c.CompleterLatency
	// A write ending after the completions start cannot fit: it follows them.
	late := l.HostWrite(10*pcieNS, cplStart-100, 4096, 4096)
	assert.Greater(t, late, l.BusyUntil(Downstream))
	assert.Equal(t, l.BusyUntil(Downstream)+c.OneWay, late)
	// Requests go upstream behind a posted write issued first.
	l.Reset()
	w := l.PostedWrite(0, 4096)
	r := l.Read(0, 64)
	assert.Equal(t, ratFloorPS(c.WireTime(4480+24).Add(c.WireTime(84)))+2*c.OneWay+c.CompleterLatency, r)
	assert.Less(t, w, r)
	assert.Panics(t, func() { l.HostWrite(100, 50, 8, 64) })
	assert.Panics(t, func() { l.ReadAt(100, 50, 8) })
}

// TestPCIeLinkOrdering: posted writes keep their order and requests do
// not pass them, even where a gap before a later-starting reservation
// would fit the smaller transfer.
func TestPCIeLinkOrdering(t *testing.T) {
	l := newTestPCIeLink(t, nil)
	c := l.Config()
	// A read request reserved for 165 ns leaves a gap before it upstream.
	l.ReadAt(0, 165*pcieNS, 64)
	data := l.PostedWrite(100*pcieNS, 4096) // 71 ns: does not fit the gap
	assert.Equal(t, 165*pcieNS+ratFloorPS(c.WireTime(24).Add(c.WireTime(4480)))+c.OneWay, data)
	cqe := l.PostedWrite(100*pcieNS, 64) // would fit the gap, must not pass
	assert.Equal(t, 165*pcieNS+ratFloorPS(c.WireTime(24+4480+88))+c.OneWay, cqe)
	rd := l.Read(100*pcieNS, 64) // a read request pushes the writes
	assert.Greater(t, rd, cqe+c.CompleterLatency)

	// Downstream: a completion does not pass an MMIO write requested
	// before it.
	l.Reset()
	mmio := l.HostWrite(0, 500*pcieNS, 4096, 4096) // 16 TLPs until 571.1 ns
	got := l.Read(0, 64)                           // completion ready at 525.4 ns
	assert.Equal(t, 500*pcieNS+ratFloorPS(c.WireTime(4480))+c.OneWay, mmio)
	assert.Equal(t, 500*pcieNS+ratFloorPS(c.WireTime(4480+84))+c.OneWay, got)
}

// BenchmarkPCIePostedWrite measures one posted write of 4 KB on a busy
// link (0 allocs/op).
func BenchmarkPCIePostedWrite(b *testing.B) {
	l := newTestPCIeLink(b, nil)
	var now rtlmodel.Time
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now += 70 * pcieNS
		l.PostedWrite(now, 4096)
	}
}

// BenchmarkPCIeRead measures one 4 KB read (8 requests, 16 completions)
// with reads overlapping in flight (0 allocs/op).
func BenchmarkPCIeRead(b *testing.B) {
	l := newTestPCIeLink(b, nil)
	var now rtlmodel.Time
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now += 80 * pcieNS
		l.Read(now, 4096)
	}
}

// TestPCIeLinkAllocations checks in the ordinary test run that the link's
// hot paths allocate nothing.
func TestPCIeLinkAllocations(t *testing.T) {
	l := newTestPCIeLink(t, nil)
	var now rtlmodel.Time
	assert.Zero(t, testing.AllocsPerRun(10000, func() {
		now += 60 * pcieNS
		l.PostedWrite(now, 4096)
		l.Read(now, 4096)
		l.HostWrite(now, now+40*pcieNS, 64, 64)
	}))
}
