package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// send is an item a testSource sends at a cycle.
type send struct {
	cycle uint64
	id    int
}

// testSource sends its schedule, as many per cycle as its link takes.
type testSource struct {
	out   *rtlmodel.Link[int]
	sched []send
	next  int
}

func (s *testSource) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for s.next < len(s.sched) && s.sched[s.next].cycle <= edge.Cycle && s.out.CanSend() {
		s.out.Send(s.sched[s.next].id)
		s.next++
	}
	switch {
	case s.next == len(s.sched):
		return rtlmodel.Never
	case s.sched[s.next].cycle > edge.Cycle:
		return rtlmodel.Wake(s.sched[s.next].cycle)
	case s.out.Credits() > 0:
		return edge.Next()
	}
	return rtlmodel.Never
}

// arrival is an item a testSink took and the cycle it took it.
type arrival struct {
	id    int
	cycle uint64
}

// testSink takes one item every `every` cycles (every 0: all at once).
type testSink struct {
	in       *rtlmodel.Link[int]
	every    uint64
	nextTake uint64
	got      []arrival
}

func (s *testSink) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for edge.Cycle >= s.nextTake {
		v, ok := s.in.Recv()
		if !ok {
			break
		}
		s.got = append(s.got, arrival{v, edge.Cycle})
		if s.every > 0 {
			s.nextTake = edge.Cycle + s.every
		}
	}
	if _, ok := s.in.Peek(); ok {
		return rtlmodel.Wake(max(s.nextTake, edge.Cycle+1))
	}
	return rtlmodel.Never
}

// stageRig is source -> stage -> sink in one 1.25 GHz domain.
type stageRig struct {
	e         *rtlmodel.Engine
	stage     *FixedStage[int]
	src       *testSource
	sink      *testSink
	in        *rtlmodel.Link[int]
	out       *rtlmodel.Link[int]
	trace     *bytes.Buffer
	traceSink *rtlmodel.TraceSink
}

type rigConfig struct {
	stage       FixedStageConfig
	inLat       uint64
	inWidth     int
	outLat      uint64
	outCredits  int
	sinkEvery   uint64
	sched       []send
	engine      rtlmodel.Options
	dontConnect bool
}

func buildRig(t testing.TB, rc rigConfig) *stageRig {
	e := rtlmodel.NewEngine(rc.engine)
	d, err := e.AddDomain("core", 800, 0)
	require.NoError(t, err)
	r := &stageRig{e: e, src: &testSource{sched: rc.sched}, sink: &testSink{every: rc.sinkEvery}}
	hs, err := e.Add(d, "src", r.src)
	require.NoError(t, err)
	r.stage, err = AddFixedStage[int](e, d, "stage", rc.stage)
	require.NoError(t, err)
	hk, err := e.Add(d, "sink", r.sink)
	require.NoError(t, err)
	r.in, err = rtlmodel.NewLink[int]("src>stage", hs, r.stage.Handle(), rtlmodel.LinkConfig{Latency: rc.inLat, Width: rc.inWidth})
	require.NoError(t, err)
	oc := rtlmodel.LinkConfig{Latency: rc.outLat, Width: rc.stage.Width}
	if rc.outCredits > 0 {
		oc.Credits, oc.CreditLatency = rc.outCredits, 1
	}
	r.out, err = rtlmodel.NewLink[int]("stage>sink", r.stage.Handle(), hk, oc)
	require.NoError(t, err)
	r.src.out, r.sink.in = r.in, r.out
	if !rc.dontConnect {
		require.NoError(t, r.stage.Connect(r.in, r.out))
	}
	r.trace = &bytes.Buffer{}
	r.traceSink = rtlmodel.NewTraceSink(r.trace)
	r.traceSink.Attach(e)
	return r
}

func (r *stageRig) run(t testing.TB) {
	require.NoError(t, r.e.Run(rtlmodel.Forever))
	require.NoError(t, r.traceSink.Flush())
}

func TestFixedStageLatencyExact(t *testing.T) {
	tests := []struct {
		name          string
		cycles        uint64
		width         int
		inLat, outLat uint64
	}{
		{"5 cycles", 5, 1, 1, 1},
		{"long links", 12, 2, 3, 4},
		{"zero-cycle stage", 0, 1, 1, 1},
		{"one cycle wide", 1, 4, 2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// sparse items: each sees an empty stage
			var sched []send
			for i, c := range []uint64{0, 3, 40, 41, 200, 1000} {
				sched = append(sched, send{c, i})
			}
			r := buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: tc.cycles, Width: tc.width},
				inLat: tc.inLat, inWidth: tc.width, outLat: tc.outLat, sched: sched})
			r.run(t)
			require.Len(t, r.sink.got, len(sched))
			for i, a := range r.sink.got {
				require.Equal(t, sched[i].id, a.id)
				require.Equal(t, sched[i].cycle+tc.inLat+tc.cycles+tc.outLat, a.cycle, "item %d", i)
			}
			budget := Budget{LinkBudget(r.in, "test"), r.stage.Budget(), LinkBudget(r.out, "test")}
			require.Equal(t, rtlmodel.Time(tc.inLat+tc.cycles+tc.outLat)*800, budget.Total(),
				"the budget of the path is the latency the cycle model delivers")
		})
	}
}

// TestFixedStageThroughput: a full-rate stream passes at Width per cycle
// with the same latency; a wider input is held to Width.
func TestFixedStageThroughput(t *testing.T) {
	var sched []send
	for i := range 300 {
		sched = append(sched, send{uint64(i / 2), i}) // 2 per cycle
	}
	r := buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: 7, Width: 2}, inLat: 1, inWidth: 2, outLat: 1, sched: sched})
	r.run(t)
	for i, a := range r.sink.got {
		require.Equal(t, uint64(i/2)+1+7+1, a.cycle, "item %d at full rate", i)
	}
	evals := r.e.Evals()

	r = buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: 7, Width: 1}, inLat: 1, inWidth: 2, outLat: 1,
		sched: sched})
	// the output link is as wide as the stage (1)
	r.run(t)
	require.Len(t, r.sink.got, len(sched))
	for i, a := range r.sink.got {
		require.Equal(t, i, a.id)
		require.Equal(t, uint64(i)+1+7+1, a.cycle, "item %d limited to one per cycle", i)
	}
	t.Logf("%d evals at full rate for 300 items over ~160 cycles", evals)
}

// TestFixedStageBackpressure: a slow sink behind a credited output link;
// the stage fills to its capacity, stops taking input, loses nothing and
// keeps order.
func TestFixedStageBackpressure(t *testing.T) {
	var sched []send
	for i := range 100 {
		sched = append(sched, send{uint64(i), i})
	}
	r := buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: 4, Width: 1}, inLat: 1, inWidth: 1, outLat: 1,
		outCredits: 2, sinkEvery: 5, sched: sched})
	r.run(t)
	require.Len(t, r.sink.got, 100)
	for i, a := range r.sink.got {
		require.Equal(t, i, a.id)
		if i > 0 {
			require.Equal(t, r.sink.got[i-1].cycle+5, a.cycle, "the sink's pace")
		}
	}
	m, ok := r.e.Stats().Lookup("stage/occupancy")
	require.True(t, ok)
	require.EqualValues(t, 4, m.(*rtlmodel.Gauge).Max(), "never more than Cycles×Width inside")
	m, _ = r.e.Stats().Lookup("stage/items")
	require.EqualValues(t, 100, m.(*rtlmodel.Counter).Value())
}

// TestFixedStageModesIdentical: idle skipping, always-tick and shuffled
// Eval order give byte-identical transfer traces, and idle skipping does
// far fewer Evals.
func TestFixedStageModesIdentical(t *testing.T) {
	rng := rtlmodel.NewRNG(1, "sched")
	var sched []send
	c := uint64(0)
	for i := range 2000 {
		if rng.Intn(4) == 0 {
			c += uint64(rng.Intn(300))
		}
		sched = append(sched, send{c, i})
		c += uint64(rng.Intn(2))
	}
	hash := func(opts rtlmodel.Options) (string, uint64, []arrival) {
		r := buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: 9, Width: 2}, inLat: 2, inWidth: 3, outLat: 3,
			outCredits: 8, sinkEvery: 1, sched: sched, engine: opts})
		r.run(t)
		require.Len(t, r.sink.got, len(sched))
		h := sha256.Sum256(r.trace.Bytes())
		return hex.EncodeToString(h[:]), r.e.Evals(), r.sink.got
	}
	base, baseEvals, got := hash(rtlmodel.Options{Seed: 1})
	tick, tickEvals, tickGot := hash(rtlmodel.Options{Seed: 1, AlwaysTick: true})
	require.Equal(t, base, tick, "always-tick trace")
	require.Equal(t, got, tickGot)
	for s := range uint64(3) {
		sh, _, shGot := hash(rtlmodel.Options{Seed: 1, ShuffleEval: true, ShuffleSeed: s + 1})
		require.Equal(t, base, sh, "shuffled Eval order %d", s)
		require.Equal(t, got, shGot)
	}
	both, _, _ := hash(rtlmodel.Options{Seed: 1, ShuffleEval: true, ShuffleSeed: 7, AlwaysTick: true})
	require.Equal(t, base, both)
	require.Less(t, baseEvals*2, tickEvals, "idle skipping sleeps through the gaps")
	t.Logf("trace %s: %d evals with idle skipping, %d always ticking", base[:16], baseEvals, tickEvals)
}

func TestFixedStageConfigErrors(t *testing.T) {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	d, err := e.AddDomain("core", 800, 0)
	require.NoError(t, err)
	_, err = AddFixedStage[int](e, d, "s", FixedStageConfig{Cycles: 3})
	require.ErrorContains(t, err, "width 0")
	r := buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: 3, Width: 2}, inLat: 1, inWidth: 2, outLat: 1, dontConnect: true})
	require.ErrorContains(t, r.stage.Connect(r.out, r.in), "does not end at the stage")
	require.ErrorContains(t, r.stage.Connect(r.in, nil), "both links")
	require.Panics(t, func() { _ = r.e.Run(rtlmodel.Forever) }, "running an unconnected stage is a build bug")

	wide := buildRig(t, rigConfig{stage: FixedStageConfig{Cycles: 3, Width: 2}, inLat: 1, inWidth: 2, outLat: 1, dontConnect: true})
	require.ErrorContains(t, wide.stage.Connect(wide.in, mustLink(t, wide.stage.Handle(), 1)), "carries 1 items per cycle")
	require.Equal(t, fmt.Sprint(FixedStageConfig{Cycles: 3, Width: 2}), fmt.Sprint(wide.stage.Config()))
}

func mustLink(t testing.TB, from *rtlmodel.Handle, width int) *rtlmodel.Link[int] {
	l, err := rtlmodel.NewLink[int](fmt.Sprintf("loop%d", width), from, from, rtlmodel.LinkConfig{Latency: 1, Width: width})
	require.NoError(t, err)
	return l
}

// deafSink never takes what arrives.
type deafSink struct{}

func (deafSink) Eval(rtlmodel.Edge) rtlmodel.Wake { return rtlmodel.Never }

// TestFixedStageNamesWhatBlocksIt: behind a receiver that never takes, the
// run stops with a deadlock report naming the stage and its output link.
func TestFixedStageNamesWhatBlocksIt(t *testing.T) {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	d, err := e.AddDomain("core", 800, 0)
	require.NoError(t, err)
	src := &testSource{}
	for i := range 20 {
		src.sched = append(src.sched, send{uint64(i), i})
	}
	hs, err := e.Add(d, "src", src)
	require.NoError(t, err)
	st, err := AddFixedStage[int](e, d, "stage", FixedStageConfig{Cycles: 3, Width: 1})
	require.NoError(t, err)
	hk, err := e.Add(d, "sink", deafSink{})
	require.NoError(t, err)
	src.out, err = rtlmodel.NewLink[int]("src>stage", hs, st.Handle(), rtlmodel.LinkConfig{Latency: 1, Width: 1, Credits: 2, CreditLatency: 1})
	require.NoError(t, err)
	out, err := rtlmodel.NewLink[int]("stage>sink", st.Handle(), hk, rtlmodel.LinkConfig{Latency: 1, Width: 1, Credits: 2, CreditLatency: 1})
	require.NoError(t, err)
	require.NoError(t, st.Connect(src.out, out))
	err = e.Run(rtlmodel.Forever)
	var dl *rtlmodel.DeadlockError
	require.ErrorAs(t, err, &dl)
	require.Contains(t, dl.Blocked, rtlmodel.Blocked{Path: "stage", Reason: "credits on stage>sink (3 items inside)"})
	require.Equal(t, 3, st.Len(), "Cycles×Width inside, the rest held back by the input credits")
}
