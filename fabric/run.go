package fabric

import (
	"context"
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// Run is one simulation of a scenario: the built cluster, its flows and
// the component that posts them.
type Run struct {
	Scenario *Scenario
	Cluster  *Cluster
	Flows    []Flow
	sched    *flowTable
	samples  queueSamples // the egress queues step by step (hottest)
}

// NewRun builds the scenario's fabric and workload.
func NewRun(s *Scenario) (*Run, error) { return NewRunMode(s, EngineMode{}) }

// EngineMode selects the kernel's checking modes for a run. Neither may
// change a result: a run in either mode gives the same JSON as a plain
// run, which is how idle skipping is shown exact on a whole fabric.
type EngineMode struct {
	// AlwaysTick evaluates every component at every edge of its clock.
	AlwaysTick bool
	// ShuffleSeed, when not 0, evaluates the components due at an edge in
	// an order drawn from it instead of registration order.
	ShuffleSeed uint64
	// Lockstep runs every device edge by edge in one partition instead of
	// each in its own, up to the lookahead past its neighbours.
	Lockstep bool
}

// NewRunMode is NewRun with the kernel in the given mode.
func NewRunMode(s *Scenario, mode EngineMode) (*Run, error) {
	r, err := newRun(s, mode)
	return r, s.locate(err)
}

func newRun(s *Scenario, mode EngineMode) (*Run, error) {
	swCfg, err := s.switchConfig()
	if err != nil {
		return nil, err
	}
	endpoints := s.Topology.Endpoints()
	nicCfg := func(i int) nic400g.Config { return s.nicConfig(i, endpoints) }
	opts := rtlmodel.Options{Seed: s.Seed, WatchdogCycles: 50_000_000, AlwaysTick: mode.AlwaysTick,
		ShuffleEval: mode.ShuffleSeed != 0, ShuffleSeed: mode.ShuffleSeed, OnePartition: mode.Lockstep}
	topo := s.Topology.TopologyConfig
	topo.Switch = swCfg
	c, err := Build(topo, nicCfg, opts)
	if err != nil {
		return nil, err
	}
	flows, err := s.flows(topo)
	if err != nil {
		return nil, err
	}
	r := &Run{Scenario: s, Cluster: c, Flows: flows}
	if err := r.wire(); err != nil {
		return nil, err
	}
	if err := s.degrade(c); err != nil {
		return nil, err
	}
	return r, nil
}

// switchConfig is the default switch with the scenario's changes.
func (s *Scenario) switchConfig() (switchasic.Config, error) {
	c := switchasic.DefaultConfig()
	c.Seed = s.Seed
	w := s.Switch
	if w.BufferBytes > 0 {
		c.TM.BufferBytes = w.BufferBytes
	}
	shift, err := w.alphaShift()
	if err != nil {
		return c, err
	}
	c.TM.AlphaShift = shift
	c.TM.QueueReserveBytes = w.QueueReserveBytes
	if w.LB != "" {
		m := map[string]switchasic.LBMode{"perflow": switchasic.PerFlow, "spray": switchasic.PerPacketEntropy,
			"roundrobin": switchasic.RoundRobin, "random": switchasic.Random, "dlb": switchasic.DLB}
		lb, ok := m[w.LB]
		if !ok {
			return c, keyed("switch.lb", fmt.Errorf("switch.lb %q: one of perflow, spray, roundrobin, random, dlb", w.LB))
		}
		c.LB = lb
	}
	for _, cl := range w.PFCClasses {
		if cl < 0 || cl > 7 {
			return c, keyed("switch.pfc_classes", fmt.Errorf("switch.pfc_classes: class %d outside 0..7", cl))
		}
		c.TM.PFC.Enabled[cl] = true
	}
	if e := w.ECN; e != nil {
		for i := range c.TM.WRED {
			if e.Off {
				c.TM.WRED[i].Enabled = false
				continue
			}
			c.TM.WRED[i] = e.curve()
		}
	}
	c.TM.Trim.Enabled = w.Trimming
	c.TM.Trim.TrimBytes = s.trimBytes()
	if w.CutThroughBytes != nil {
		c.CutThroughBytes = *w.CutThroughBytes
	}
	return c, nil
}

// curve is the marking curve the spec sets on every class (Pmax in
// [0, 1], as Validate requires, becomes the 16-bit PmaxQ).
func (e ECNSpec) curve() switchasic.WREDConfig {
	return switchasic.WREDConfig{Enabled: true, KminBytes: e.KminBytes, KmaxBytes: e.KmaxBytes,
		PmaxQ: uint16(min(e.Pmax, 1) * 65535)}
}

// nicConfig is endpoint i's NIC, in a fabric of the given endpoints, with
// the scenario's changes. The hosts' schedulers number a connection's QP
// by its peer's endpoint (hostScheduler.Eval), so a NIC has at least a QP
// per endpoint; the numbers, and so the headers and ECMP hashes, stay as
// they are.
func (s *Scenario) nicConfig(i, endpoints int) nic400g.Config {
	c := nic400g.DefaultConfig(uint32(i))
	c.QPs = max(c.QPs, endpoints)
	c.Seed = s.Seed*1_000_003 + uint64(i)
	n := s.NIC
	if n.CC != "" {
		c.CC = n.CC
	}
	if n.Paths != "" {
		c.Paths = n.Paths
	}
	if n.MTU > 0 {
		c.MTU = n.MTU
	}
	switch n.Stack {
	case "roce-ipv6":
		c.Stack = nic400g.RoCEv2IPv6
	case "ib":
		c.Stack = nic400g.LeanNative
	case "uet":
		c.Stack = nic400g.UET
	}
	if n.Recovery == "gbn" {
		c.Recovery = nic400g.GoBackN
	}
	if n.ReorderPackets > 0 {
		c.ReorderPackets = n.ReorderPackets
	}
	if n.ReorderTol > 0 {
		c.ReorderTolerance = n.ReorderTol
	}
	c.OOOReads = n.OOOReads
	if n.RTOUS > 0 {
		c.RTO = rtlmodel.Time(n.RTOUS * float64(rtlmodel.Microsecond))
	}
	if n.RetryCount != nil {
		c.RetryCount = *n.RetryCount
	}
	c.HPCCBaseRTT = n.hpccBaseRTT() // 0: Build gives the fabric's
	return c
}

// wire adds each host's flow scheduler, in its NIC's partition, with its
// links to the NIC, and sets the lookahead between partitions.
func (r *Run) wire() error {
	e := r.Cluster.Engine
	if err := e.SetLookahead(r.Cluster.lookahead()); err != nil {
		return err
	}
	n := len(r.Cluster.NICs)
	t := &flowTable{flows: r.Flows, st: make([]flowState, len(r.Flows)), after: make([][]int, len(r.Flows))}
	for i, nc := range r.Cluster.NICs {
		if err := e.Partition(fmt.Sprintf("nic%d", i)); err != nil {
			return err
		}
		dom, err := e.AddDomain(fmt.Sprintf("host%d", i), 1000, 0)
		if err != nil {
			return err
		}
		s := &hostScheduler{id: i, t: t, nic: nc, inflight: map[uint32][]int{}}
		if s.h, err = e.Add(dom, fmt.Sprintf("host%d/scheduler", i), s); err != nil {
			return err
		}
		if s.out, err = rtlmodel.NewLink[nic400g.WorkRequest](fmt.Sprintf("host%d>nic%d", i, i), s.h, nc.Handle(),
			rtlmodel.LinkConfig{Latency: 1, Width: 64}); err != nil {
			return err
		}
		in, err := rtlmodel.NewLink[nic400g.Completion](fmt.Sprintf("nic%d>host%d", i, i), nc.Handle(), s.h,
			rtlmodel.LinkConfig{Latency: 1, Width: 64})
		if err != nil {
			return err
		}
		in.TakeOnSend(rtlmodel.TakerFunc[nic400g.Completion](s.taken))
		nc.ConnectDoorbells(s.out)
		nc.ConnectCompletions(in)
		t.hosts = append(t.hosts, s)
	}
	for i, f := range r.Flows {
		if f.Src < 0 || f.Src >= n || f.Dst < 0 || f.Dst >= n || f.Src == f.Dst {
			return fmt.Errorf("flow %d: %d -> %d on %d endpoints", f.ID, f.Src, f.Dst, n)
		}
		t.st[i].ready = f.Start
		t.st[i].pending = len(f.After)
		for _, a := range f.After {
			if a < 0 || a >= len(r.Flows) {
				return fmt.Errorf("flow %d waits for unknown flow %d", f.ID, a)
			}
			t.after[a] = append(t.after[a], i)
			// the host of flow a tells the host of flow i when a ends,
			// by a wake, not a link, at the time its CQE becomes
			// visible: at least a CQE's least latency after the edge of
			// its NIC that writes it
			from := t.hosts[r.Flows[a].Poster()]
			if err := e.CoupleWithin(from.h, t.hosts[f.Poster()].h, from.nic.MinCompletionLatency()); err != nil {
				return err
			}
		}
		if t.st[i].pending == 0 {
			h := t.hosts[f.Poster()]
			h.queue = append(h.queue, i)
		}
	}
	r.sched = t
	return nil
}

// Step runs to until, or less far when the engine is interrupted
// (rtlmodel.Engine.Interrupt); it reports whether every flow has ended:
// completed, or failed (Failures).
func (r *Run) Step(until rtlmodel.Time) (bool, error) {
	err := r.Cluster.Engine.Run(until)
	r.settleCounters()
	r.sample()
	return r.sched.done()+r.sched.failed() == len(r.Flows), err
}

// Complete steps the run by step until every flow ends or the simulated
// time reaches limit (0: the scenario's max_time_us, or no limit), calling
// progress after each step. The end of ctx ends the run with ctx's
// error, between steps or within one, which then ends early at a time
// every device has reached (rtlmodel.Engine.Interrupt): the results are
// those of a run to that time. An interrupt no step took when it returns
// is withdrawn, so that it does not end a later Step or Complete. Flows
// that failed make it return a *FlowsFailedError, once the others have
// completed or the fabric has nothing left to do; the run's results are
// those of the flows that completed.
func (r *Run) Complete(ctx context.Context, step, limit rtlmodel.Time, progress func(done int)) error {
	if step == 0 {
		return fmt.Errorf("step must be positive")
	}
	if limit == 0 {
		limit = rtlmodel.Forever
		if r.Scenario.MaxTimeUS > 0 {
			limit = rtlmodel.Time(r.Scenario.MaxTimeUS) * rtlmodel.Microsecond
		}
	}
	interrupted := make(chan struct{})
	stopInterrupting := context.AfterFunc(ctx, func() {
		defer close(interrupted)
		r.Cluster.Engine.Interrupt()
	})
	defer func() {
		// the interrupt is this run's: once it has been made, if at all,
		// withdraw it if no step took it (it came as the last ended), so
		// that it does not end a later Step or Complete at once
		if !stopInterrupting() {
			<-interrupted
		}
		r.Cluster.Engine.WithdrawInterrupt()
	}()
	for until := step; ; until += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		done, err := r.Step(min(until, limit))
		if progress != nil {
			progress(r.Done())
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil && !done {
			// the step may have ended early, short of until
			return err
		}
		if done || until >= limit {
			return r.failures(false)
		}
		if r.Cluster.Engine.Idle() {
			if err := r.failures(true); err != nil {
				return err
			}
			return &QuietError{At: r.Cluster.Engine.Now(), Done: r.Done(), Flows: len(r.Flows)}
		}
	}
}

// QuietError ends a run whose fabric has nothing scheduled any more while
// flows are neither complete nor failed: a stall of the model, since a
// flow always has a timer or a packet on its way. The run's results up to
// then stand.
type QuietError struct {
	At          rtlmodel.Time
	Done, Flows int
}

func (e *QuietError) Error() string {
	return fmt.Sprintf("the fabric went quiet at %v with %d of %d flows complete: nothing is scheduled any more", e.At, e.Done, e.Flows)
}

// Done returns how many flows have completed.
func (r *Run) Done() int { return r.sched.done() }
