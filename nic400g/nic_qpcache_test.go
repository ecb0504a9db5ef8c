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
	last                   rtlmodel.Time
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
		d.latency.Record(uint64(edge.Time - c.Posted))
	}
	for d.posted < d.total && d.inflight < d.window && d.out.CanSend() {
		q := uint32(d.posted % d.qps)
		wr := WorkRequest{QP: q, Dst: 2, DestQP: q, Bytes: 64, Inline: true, Posted: edge.Time}
		d.out.SendAt(wr, d.host.Doorbell(edge.Time, true))
		d.posted++
		d.inflight++
	}
	if d.posted < d.total && d.inflight < d.window {
		return edge.Next()
	}
	return rtlmodel.Never
}

// qpSweep posts rounds × qps 64 B inline writes, QPs in turn, keeping
// window outstanding, and reports the requester's QP cache hit rate, the
// message rate over the whole run and the mean time from doorbell to
// completion.
func qpSweep(t testing.TB, qps, rounds, sets, ways int, policy Replacement, prefetch bool) (hitRate, mps, meanLat float64) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	for _, c := range []*Config{&ca, &cb} {
		c.QPs, c.CC = qps, "none"
	}
	ca.QPCache.Sets, ca.QPCache.Ways, ca.QPCache.Policy, ca.Prefetch = sets, ways, policy, prefetch
	cb.QPCache.Sets, cb.QPCache.Ways = 1<<17, 8 // the responder is not under test
	e, a, _ := backToBack(t, ca, cb)
	dom, err := e.AddDomain("cpu", 1000, 0)
	require.NoError(t, err)
	d := &closedLoop{host: a.host, qps: qps, total: qps * rounds, window: 4096,
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
	return st.HitRate(), float64(d.total) / (float64(d.last) / 1e12), d.latency.Mean() / 1e6
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
	t.Logf("%-10s %-7s %-9s %8s %12s %12s", "entries", "policy", "prefetch", "hit rate", "Mmsg/s", "mean us")
	rows := []struct {
		sets, ways int
		policy     Replacement
		prefetch   bool
	}{
		{8192, 8, LRU, false},
		{8192, 8, LRU, true},
		{65536, 8, Random, false},
		{131072, 8, LRU, false},
		{131072, 8, LRU, true},
	}
	var rates []float64
	for _, r := range rows {
		hit, mps, lat := qpSweep(t, qps, 2, r.sets, r.ways, r.policy, r.prefetch)
		pol := "LRU"
		if r.policy == Random {
			pol = "random"
		}
		t.Logf("%-10d %-7s %-9v %8.3f %12.1f %12.2f", r.sets*r.ways, pol, r.prefetch, hit, mps/1e6, lat)
		rates = append(rates, mps)
	}
	require.Greater(t, rates[3], 2*rates[0], "a cache holding every QP serves the second round from the cache")
}
