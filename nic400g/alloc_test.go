package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TestHotPathsAllocateNothing checks in the ordinary test run what the
// benchmarks report: no per-event allocation on any hot path.
func TestHotPathsAllocateNothing(t *testing.T) {
	p := PaperParams(400e9)
	rp := NewReactionPoint(&p)
	now := rtlmodel.Time(0)
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		now += 7 * us
		rp.OnCNP(now)
		rp.OnBytesSent(now, 4096)
		rp.Advance(now + 3*us)
	}), "reaction point")

	np, err := NewNotificationPoint(NPIntervalPaper, 64)
	require.NoError(t, err)
	var qp uint32
	for q := uint32(0); q < 64; q++ {
		np.OnCE(q, now) // the table grows to hold 64 flows: the steady state
	}
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		now += us
		qp = (qp + 13) % 200 // more flows than slots: exercises the stale sweep
		np.OnCE(qp, now)
	}), "notification point")

	w, err := NewRecvWindow(256, PSNSpace-100)
	require.NoError(t, err)
	var psn PSN = PSNSpace - 100
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		w.Receive(psn.Add(1))
		w.Receive(psn)
		w.Receive(psn)
		_ = w.SACK(psn.Sub(10))
		psn = psn.Add(2)
	}), "receive window")

	c, err := NewQPCache(DefaultQPCacheConfig(), nil, "qpc")
	require.NoError(t, err)
	for q := uint32(0); q < uint32(c.Config().Sets); q++ {
		c.Prefetch(q, now) // every set gets its lines: the steady state
	}
	rng := rtlmodel.NewRNG(5, "alloc")
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		now += 10 * ns
		q := uint32(rng.Uint64n(DefaultQPCount))
		c.Prefetch(q, now)
		c.Lookup(q, now)
	}), "qp cache")

	// an idle reaction point advanced to its NextEvent (Forever) returns
	idle := NewReactionPoint(&p)
	idle.Advance(idle.NextEvent())
	assert.Equal(t, rtlmodel.Forever, idle.NextEvent())
}
