package mesh

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// ringNode forwards flits around a one-way ring and injects its own flits
// (destined three hops ahead) whenever it holds a credit, before transit
// traffic: with small buffers the credit loop fills and deadlocks.
type ringNode struct {
	id, n   int
	inject  int
	in, out *rtlmodel.Link[Flit]
}

func (r *ringNode) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	if f, ok := r.in.Peek(); ok && f.Dst == r.id {
		r.in.Recv()
	}
	if r.inject > 0 && r.out.CanSend() {
		r.out.Send(Flit{Src: r.id, Dst: (r.id + 3) % r.n, Born: edge.Time})
		r.inject--
	}
	if f, ok := r.in.Peek(); ok && f.Dst != r.id && r.out.CanSend() {
		r.in.Recv()
		r.out.Send(f)
	}
	if _, ok := r.in.Peek(); ok || r.inject > 0 {
		if r.out.Credits() > 0 {
			return edge.Next()
		}
	}
	return rtlmodel.Never
}

func (r *ringNode) BlockedOn() string {
	if f, ok := r.in.Peek(); ok && f.Dst != r.id && r.out.Credits() == 0 {
		return fmt.Sprintf("credits on %s to forward %v", r.out.Name(), f)
	}
	return ""
}

func buildRing(t *testing.T, opts rtlmodel.Options) *rtlmodel.Engine {
	e := rtlmodel.NewEngine(opts)
	d, err := e.AddDomain("clk", 1000, 0)
	require.NoError(t, err)
	const n = 4
	nodes := make([]*ringNode, n)
	hs := make([]*rtlmodel.Handle, n)
	for i := range nodes {
		nodes[i] = &ringNode{id: i, n: n, inject: 50}
		hs[i], err = e.Add(d, fmt.Sprintf("ring/node%d", i), nodes[i])
		require.NoError(t, err)
	}
	for i := range nodes {
		j := (i + 1) % n
		l, err := rtlmodel.NewLink[Flit](fmt.Sprintf("ring/node%d>node%d", i, j), hs[i], hs[j],
			rtlmodel.LinkConfig{Latency: 1, Width: 1, Credits: 2, CreditLatency: 1})
		require.NoError(t, err)
		nodes[i].out, nodes[j].in = l, l
	}
	return e
}

func TestCreditLoopDeadlockIsNamed(t *testing.T) {
	for _, opts := range []rtlmodel.Options{
		{Seed: 1},
		{Seed: 1, AlwaysTick: true, WatchdogCycles: 1000},
	} {
		err := buildRing(t, opts).Run(rtlmodel.Forever)
		var dl *rtlmodel.DeadlockError
		require.True(t, errors.As(err, &dl), "want a deadlock, got %v", err)
		require.Len(t, dl.Blocked, 4)
		for i, b := range dl.Blocked {
			require.Equal(t, fmt.Sprintf("ring/node%d", i), b.Path)
			require.Contains(t, b.Reason, "credits on ring/node")
		}
		require.Contains(t, err.Error(), "ring/node3: waits on credits on ring/node3>node0")
		t.Log(err)
	}
}

// orderDependent breaks the kernel contract: producer writes a Go variable
// in Eval that consumer reads in the same edge, so what consumer sends
// depends on which of the two is evaluated first.
type orderDependent struct {
	shared *int
	write  bool
	out    *rtlmodel.Link[Flit]
	in     *rtlmodel.Link[Flit]
}

func (o *orderDependent) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	if o.in != nil {
		o.in.Recv()
	}
	if edge.Cycle >= 200 {
		return rtlmodel.Never
	}
	if o.write {
		*o.shared = int(edge.Cycle)
	} else if o.out.CanSend() {
		o.out.Send(Flit{Seq: uint32(*o.shared), Born: edge.Time})
	}
	return edge.Next()
}

func orderHash(t *testing.T, opts rtlmodel.Options) string {
	e := rtlmodel.NewEngine(opts)
	d, err := e.AddDomain("clk", 1000, 0)
	require.NoError(t, err)
	shared := 0
	var comps []*orderDependent
	var hs []*rtlmodel.Handle
	for i := 0; i < 8; i++ {
		c := &orderDependent{shared: &shared, write: i%2 == 0}
		h, err := e.Add(d, fmt.Sprintf("bad/c%d", i), c)
		require.NoError(t, err)
		comps, hs = append(comps, c), append(hs, h)
	}
	for i := 1; i < 8; i += 2 {
		l, err := rtlmodel.NewLink[Flit](fmt.Sprintf("bad/l%d", i), hs[i], hs[i-1], rtlmodel.LinkConfig{Latency: 1, Width: 1})
		require.NoError(t, err)
		comps[i].out, comps[i-1].in = l, l
	}
	h := sha256.New()
	sink := rtlmodel.NewTraceSink(h)
	sink.Attach(e)
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.NoError(t, sink.Flush())
	return hex.EncodeToString(h.Sum(nil))
}

func TestShuffledOrderCatchesOrderDependentComponent(t *testing.T) {
	fixed := orderHash(t, rtlmodel.Options{})
	require.Equal(t, fixed, orderHash(t, rtlmodel.Options{}), "the broken model is still deterministic in fixed order")
	caught := 0
	for s := uint64(1); s <= 4; s++ {
		if orderHash(t, rtlmodel.Options{ShuffleEval: true, ShuffleSeed: s}) != fixed {
			caught++
		}
	}
	require.Equal(t, 4, caught, "every shuffled run exposes the order dependence")
}
