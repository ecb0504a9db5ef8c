package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// closedLoop is a driver that keeps at most window work requests
// outstanding: it posts the next as soon as a completion returns, QPs in
// round-robin order.
type closedLoop struct {
	h                      *rtlmodel.Handle
	out                    *rtlmodel.Link[WorkRequest]
	in                     *rtlmodel.Link[Completion]
	host                   HostSide
	qps, total, window     int
	posted, done, inflight int
	inline                 bool
	last, roundEnd         rtlmodel.Time
	latency                *rtlmodel.Histogram
}

func (d *closedLoop) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		c, ok := d.in.Recv()
		if !ok {
			break
		}
		d.done++
		d.inflight--
		d.last = edge.Time
		if d.done == d.qps {
			d.roundEnd = edge.Time
		}
		d.latency.Record(uint64(edge.Time - c.Posted))
	}
	for d.posted < d.total && d.inflight < d.window && d.out.CanSend() {
		q := uint32(d.posted % d.qps)
		wr := WorkRequest{QP: q, Dst: 2, DestQP: q, Bytes: 64, Inline: d.inline, Posted: edge.Time}
		d.out.SendAt(wr, d.host.Doorbell(edge.Time, d.inline))
		d.posted++
		d.inflight++
	}
	if d.posted < d.total && d.inflight < d.window {
		return edge.Next()
	}
	return rtlmodel.Never
}

// sweepResult is one row of the QP cache table.
type sweepResult struct {
	hitRate        float64
	first, second  float64 // message rates of the two rounds
	meanLatency    float64 // us, doorbell to completion
	prefetchUseful uint64
}

// qpSweep posts two rounds of qps 64 B writes, QPs in turn, keeping window
// outstanding, and reports the requester's QP cache hit rate, the message
// rate of each round and the mean time from doorbell to completion.
func qpSweep(t testing.TB, qps, window, sets, ways int, policy Replacement, prefetch, inline bool) sweepResult {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	for _, c := range []*Config{&ca, &cb} {
		c.QPs, c.CC = qps, "none"
	}
	ca.QPCache.Sets, ca.QPCache.Ways, ca.QPCache.Policy, ca.Prefetch = sets, ways, policy, prefetch
	cb.QPCache.Sets, cb.QPCache.Ways = 1<<17, 8 // the responder is not under test
	e, a, _ := backToBack(t, ca, cb)
	dom, err := e.AddDomain("cpu", 1000, 0)
	require.NoError(t, err)
	d := &closedLoop{host: a.host, qps: qps, total: 2 * qps, window: window, inline: inline,
		latency: e.Stats().Histogram("driver/latency", "ps", "")}
	d.h, err = e.Add(dom, "cpu/driver", d)
	require.NoError(t, err)
	d.out, err = rtlmodel.NewLink[WorkRequest]("cpu>nic", d.h, a.Handle(), rtlmodel.LinkConfig{Latency: 1, Width: 64})
	require.NoError(t, err)
	d.in, err = rtlmodel.NewLink[Completion]("nic>cpu", a.Handle(), d.h, rtlmodel.LinkConfig{Latency: 1, Width: 64})
	require.NoError(t, err)
	a.ConnectDoorbells(d.out)
	a.ConnectCompletions(d.in)
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Equal(t, d.total, d.done)
	st := a.Cache().Stats()
	return sweepResult{hitRate: st.HitRate(), first: float64(qps) / (float64(d.roundEnd) / 1e12),
		second: float64(qps) / (float64(d.last-d.roundEnd) / 1e12), meanLatency: d.latency.Mean() / 1e6,
		prefetchUseful: st.PrefetchUsed}
}

// 850,000 QPs post 64 B writes round robin: the QP context cache's hit
// rate and the message rate against its size, with and without prefetch
// on the doorbell, and the model's memory for the QPs.
func TestQPCacheHitRateAndThroughputAgainstSize(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 850k-QP sweep")
	}
	const qps = 850_000
	store, err := NewQPStore(qps, DefaultHostContextBytes)
	require.NoError(t, err)
	t.Logf("850k QPs: %d B of model memory per idle QP, %.1f MB in all; %.1f MB of modelled host memory",
		store.ModelBytesPerQP(), float64(store.ModelBytes())/1e6, float64(store.HostBytes())/1e6)
	t.Logf("%-8s %-6s %-9s %-6s %-6s %8s %11s %11s %9s", "entries", "policy", "prefetch", "inline", "window",
		"hit rate", "round 1", "round 2", "mean us")
	rows := []struct {
		sets, ways int
		policy     Replacement
		prefetch   bool
		inline     bool
		window     int
	}{
		{8192, 8, LRU, false, true, 4096},
		{131072, 8, LRU, false, true, 4096},
		{65536, 8, Random, false, true, 4096},
		{8192, 8, LRU, false, false, 16},
		{8192, 8, LRU, true, false, 16},
	}
	var res []sweepResult
	for _, r := range rows {
		x := qpSweep(t, qps, r.window, r.sets, r.ways, r.policy, r.prefetch, r.inline)
		pol := "LRU"
		if r.policy == Random {
			pol = "random"
		}
		t.Logf("%-8d %-6s %-9v %-6v %-6d %8.3f %7.1f M/s %7.1f M/s %9.3f", r.sets*r.ways, pol, r.prefetch, r.inline,
			r.window, x.hitRate, x.first/1e6, x.second/1e6, x.meanLatency)
		res = append(res, x)
	}
	require.Greater(t, res[1].second, 4*res[0].second, "a cache holding every QP serves the second round from the cache")
	require.InDelta(t, 0.5, res[1].hitRate, 0.01)
	require.Less(t, res[4].meanLatency, 0.8*res[3].meanLatency,
		"prefetch on the doorbell overlaps the context read with the WQE fetch")
}
