package nic400g

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/pipeline"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func newTestHost(t testing.TB, mod func(*HostConfig)) *Host {
	hc := DefaultHostConfig()
	if mod != nil {
		mod(&hc)
	}
	h, err := NewHost(hc, newTestPCIeLink(t, nil))
	require.NoError(t, err)
	return h
}

// pcieWire returns the idle-link wire time of wireBytes, rounded down.
func pcieWire(wireBytes uint64) rtlmodel.Time {
	c := DefaultPCIeConfig()
	return ratFloorPS(c.WireTime(wireBytes))
}

// TestHostDoorbellInline: a 64-byte WQE written with its doorbell is one
// 88-byte MMIO TLP: 40 ns + 1,396 ps + 125 ns = 166.396 ns, inside FACTS
// 6.2's 150–250 ns; a 128-byte WQE (a 64-byte inline RDMA WRITE is two
// WQEBBs) is two TLPs.
func TestHostDoorbellInline(t *testing.T) {
	h := newTestHost(t, nil)
	db, wqe := h.Doorbell(0, 64)
	assert.Equal(t, rtlmodel.Time(166396), db)
	assert.Equal(t, 40*pcieNS+pcieWire(88)+125*pcieNS, db)
	assert.Equal(t, db, wqe)
	assert.True(t, db >= 150*pcieNS && db <= 250*pcieNS, "FACTS 6.2: 150–250 ns")
	assert.Equal(t, pipeline.TimeStage(HostStageDoorbellInline, db, srcDoorbell), h.Last(OpDoorbell))
	tlps, _ := h.Link().Counts(Downstream)
	assert.Equal(t, uint64(1), tlps)

	h = newTestHost(t, nil)
	_, wqe = h.Doorbell(0, 100)
	assert.Equal(t, 40*pcieNS+pcieWire(2*88)+125*pcieNS, wqe, "100 bytes: two WQEBBs, two write-combined TLPs")
	assert.True(t, h.Inline(256))
	assert.False(t, h.Inline(257))
	assert.False(t, h.Inline(0))
}

// TestHostDoorbellInlineVsFetch: without inline the doorbell is an 8-byte
// write and the WQE a 64-byte read when it arrives; the difference from
// the inline doorbell is exactly one read round trip plus the difference
// of the two MMIO wire times, inside FACTS 6.2's +500–900 ns.
func TestHostDoorbellInlineVsFetch(t *testing.T) {
	inline := newTestHost(t, nil)
	_, in := inline.Doorbell(0, 64)

	fetch := newTestHost(t, func(c *HostConfig) { c.InlineMax = 0 })
	db, wqe := fetch.Doorbell(0, 64)
	assert.Equal(t, 40*pcieNS+pcieWire(8+24)+125*pcieNS, db)

	c := DefaultPCIeConfig()
	rtt, err := c.IdleReadTime(64)
	require.NoError(t, err)
	assert.Equal(t, rtt, wqe-db, "the WQE read is one idle read round trip")
	assert.Equal(t, rtt+pcieWire(32)-pcieWire(88), wqe-in)
	assert.True(t, wqe-in >= 500*pcieNS && wqe-in <= 900*pcieNS, "FACTS 6.2: +500–900 ns, got %v", wqe-in)
	assert.Equal(t, HostStageDoorbell, fetch.Last(OpDoorbell).Name)
	assert.Equal(t, rtt, fetch.Last(OpWQEFetch).Time())

	// A WQE larger than InlineMax is fetched too, in whole WQEBBs.
	big := newTestHost(t, nil)
	db, wqe = big.Doorbell(0, 300)
	c2 := DefaultPCIeConfig()
	assert.Equal(t, ratFloorPS(c2.WireTime(24).Add(c2.WireTime(320+2*20)))+2*c2.OneWay+c2.CompleterLatency, wqe-db)
	assert.Equal(t, rtt, newTestHost(t, nil).FetchWQE(0, 1), "a fetch of one WQEBB")
}

// TestHostReceiveCompletion: a 64-byte RDMA WRITE's data and CQE, posted
// back to back, are visible after pcieWire(88+88) + 125 ns + 30 ns, inside
// FACTS 6.2's 150–300 ns; the two stage rows add up to it.
func TestHostReceiveCompletion(t *testing.T) {
	h := newTestHost(t, nil)
	data, visible := h.Complete(0, 64)
	assert.Equal(t, pcieWire(88)+125*pcieNS, data)
	assert.Equal(t, pcieWire(176)+155*pcieNS, visible)
	assert.True(t, visible >= 150*pcieNS && visible <= 300*pcieNS, "FACTS 6.2: 150–300 ns, got %v", visible)
	assert.Equal(t, data, h.Last(OpPayloadWrite).Time())
	assert.Equal(t, visible-data, h.Last(OpCQE).Time())

	// A CQE alone, and ordering behind a large write.
	h = newTestHost(t, nil)
	w := h.WritePayload(0, 4096)
	cqe := h.WriteCQE(0)
	assert.Equal(t, pcieWire(4480+88)+155*pcieNS, cqe)
	assert.Greater(t, cqe, w)
	assert.Equal(t, cqe, h.Last(OpCQE).Time())

	// The CQE stays behind its data when a WQE read request reserved for
	// later leaves a gap upstream that the CQE alone would fit.
	h = newTestHost(t, func(c *HostConfig) { c.InlineMax = 0 })
	h.Doorbell(0, 64) // WQE read request at 165.5 ns
	data, visible = h.Complete(100*pcieNS, 4096)
	assert.Greater(t, visible, data+h.Config().PollLatency)
}

// TestHostMinCQELatency: no CQE becomes visible sooner after its write
// than the link's one-way latency and the poll (125 + 30 ns), however busy
// the link: 2,000 random writes of data, CQEs and reads, each CQE checked.
// The fixed host's least latency is its CQE latency.
func TestHostMinCQELatency(t *testing.T) {
	h := newTestHost(t, nil)
	require.Equal(t, 155*pcieNS, h.MinCQELatency())
	rng := rtlmodel.NewRNG(7, "cqe")
	now := rtlmodel.Time(0)
	for i := 0; i < 2000; i++ {
		now += rtlmodel.Time(rng.Uint64n(400)) * pcieNS / 4
		switch rng.Uint64n(4) {
		case 0:
			h.WritePayload(now, 1+rng.Uint64n(8192))
		case 1:
			h.Link().Read(now, 1+rng.Uint64n(8192))
		case 2:
			require.GreaterOrEqual(t, h.WriteCQE(now)-now, h.MinCQELatency())
		case 3:
			_, visible := h.Complete(now, rng.Uint64n(8192))
			require.GreaterOrEqual(t, visible-now, h.MinCQELatency())
		}
	}
	f := DefaultFixedHostSide()
	require.Equal(t, f.CQEVisible, f.MinCQELatency())
	_, visible := f.Complete(0, 64)
	require.GreaterOrEqual(t, visible, f.MinCQELatency())
}

// TestHostQPCFetch: the QP context miss is one read round trip of 256
// bytes (FACTS 5.1: 600–900 ns in the model), and the budget helper gives
// the same figure.
func TestHostQPCFetch(t *testing.T) {
	h := newTestHost(t, nil)
	got := h.FetchQPC(0)
	c := DefaultPCIeConfig()
	assert.Equal(t, ratFloorPS(c.WireTime(24).Add(c.WireTime(256+20)))+2*c.OneWay+c.CompleterLatency, got)
	assert.Equal(t, rtlmodel.Time(654760), got)
	assert.True(t, got >= 600*pcieNS && got <= 900*pcieNS)
	miss, err := HostQPCMissLatency(c, DefaultHostConfig())
	require.NoError(t, err)
	assert.Equal(t, got, miss)
	assert.Equal(t, HostStageQPCFetch, h.Last(OpQPCFetch).Name)

	// Transmit data: a 4 KB read.
	p := h.ReadPayload(10*pcieNS, 4096)
	assert.Equal(t, p-10*pcieNS, h.Last(OpPayloadRead).Time())
}

// TestHostBudgets: the budget rows are the stages of a real run and add
// up to its end times.
func TestHostBudgets(t *testing.T) {
	pc, hc := DefaultPCIeConfig(), DefaultHostConfig()
	tx, err := HostTxBudget(pc, hc, 128, 0)
	require.NoError(t, err)
	require.Len(t, tx, 1)
	assert.Equal(t, HostStageDoorbellInline, tx[0].Name)
	assert.Equal(t, 40*pcieNS+pcieWire(176)+125*pcieNS, tx.Total())

	hc.InlineMax = 0
	tx, err = HostTxBudget(pc, hc, 64, 4096)
	require.NoError(t, err)
	require.Len(t, tx, 3)
	assert.Equal(t, []string{HostStageDoorbell, HostStageWQEFetch, HostStagePayloadRead},
		[]string{tx[0].Name, tx[1].Name, tx[2].Name})
	h := newTestHost(t, func(c *HostConfig) { c.InlineMax = 0 })
	_, wqe := h.Doorbell(0, 64)
	assert.Equal(t, h.ReadPayload(wqe, 4096), tx.Total())

	rx, err := HostRxBudget(pc, DefaultHostConfig(), 64)
	require.NoError(t, err)
	require.Len(t, rx, 2)
	assert.Equal(t, pcieWire(176)+155*pcieNS, rx.Total())
	var sb strings.Builder
	require.NoError(t, rx.WriteText(&sb))
	assert.Contains(t, sb.String(), HostStageCQE)
	assert.Contains(t, sb.String(), "FACTS 6.2")

	// Changing a parameter moves the budget the same way.
	slow := DefaultPCIeConfig()
	slow.OneWay += 50 * pcieNS
	rx2, err := HostRxBudget(slow, DefaultHostConfig(), 64)
	require.NoError(t, err)
	assert.Equal(t, rx.Total()+50*pcieNS, rx2.Total())

	_, err = HostTxBudget(pc, HostConfig{}, 64, 0)
	assert.Error(t, err)
	bad := pc
	bad.MPS = 3
	_, err = HostRxBudget(bad, DefaultHostConfig(), 64)
	assert.Error(t, err)
	_, err = HostQPCMissLatency(bad, DefaultHostConfig())
	assert.Error(t, err)
}

// TestHostTrace: with a trace set, every stage is appended in call order.
func TestHostTrace(t *testing.T) {
	h := newTestHost(t, func(c *HostConfig) { c.InlineMax = 0 })
	b := make(pipeline.Budget, 0, 8)
	h.SetTrace(&b)
	db, wqe := h.Doorbell(0, 64)
	h.FetchQPC(db)
	p := h.ReadPayload(wqe, 64)
	h.Complete(p, 64)
	names := make([]string, len(b))
	for i, s := range b {
		names[i] = s.Name
	}
	assert.Equal(t, []string{HostStageDoorbell, HostStageWQEFetch, HostStageQPCFetch,
		HostStagePayloadRead, HostStagePayloadWrite, HostStageCQE}, names)
	h.SetTrace(nil)
	h.WriteCQE(p)
	assert.Len(t, b, 6)
}

// TestHostValidate names the field at fault.
func TestHostValidate(t *testing.T) {
	for _, tc := range []struct {
		mod  func(*HostConfig)
		want string
	}{
		{func(c *HostConfig) { c.WCBytes = 48 }, "WCBytes"},
		{func(c *HostConfig) { c.InlineMax = 8192 }, "InlineMax"},
		{func(c *HostConfig) { c.DoorbellBytes = 6 }, "DoorbellBytes"},
		{func(c *HostConfig) { c.WQEBB = 8 }, "WQEBB"},
		{func(c *HostConfig) { c.CQEBytes = 0 }, "CQEBytes"},
		{func(c *HostConfig) { c.QPCBytes = 0 }, "QPCBytes"},
	} {
		c := DefaultHostConfig()
		tc.mod(&c)
		err := c.Validate()
		require.Error(t, err, tc.want)
		assert.Contains(t, err.Error(), tc.want)
	}
	_, err := NewHost(DefaultHostConfig(), nil)
	assert.Error(t, err)
}

// TestHostAllocations: the host operations allocate nothing.
func TestHostAllocations(t *testing.T) {
	h := newTestHost(t, nil)
	var now rtlmodel.Time
	assert.Zero(t, testing.AllocsPerRun(10000, func() {
		now += 100 * pcieNS
		h.Doorbell(now, 128)
		h.Doorbell(now, 512)
		h.FetchQPC(now)
		h.ReadPayload(now, 4096)
		h.Complete(now, 4096)
	}))
}

// BenchmarkHostWrite64 measures the host side of one 64-byte RDMA WRITE:
// an inline doorbell, the receive data write and its CQE (0 allocs/op).
func BenchmarkHostWrite64(b *testing.B) {
	h := newTestHost(b, nil)
	var now rtlmodel.Time
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now += 20 * pcieNS
		h.Doorbell(now, 128)
		h.Complete(now, 64)
	}
}
