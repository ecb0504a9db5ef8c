// Package rtlmodel is the clocked simulation kernel of fabricmodel.
//
// Time is a uint64 count of picoseconds. Hardware blocks are Components,
// each bound to one clock Domain (integer period and phase in ps). At every
// edge of a domain the Engine runs two phases: every component due at that
// edge Evals, reading only committed state (Reg.Q, FIFO heads, what Links
// have delivered by now) and writing only next state (Reg.Set, FIFO.Enq,
// Link.Send); then every state element written in that edge Commits. (A
// link queues what is sent with the time it becomes visible, always after
// the edge, so it needs no commit unless transfers are traced.)
// Components talk to each other only through Links whose latency is at
// least one cycle, so the order of Eval calls cannot change the result; the
// ShuffleEval mode shuffles that order to prove it. Domains with the same
// period and phase share one edge schedule: at their common edge the due
// components of all of them evaluate, then all commit, so no domain sees
// what another wrote at that edge, and a thousand devices clocked alike
// cost one edge instead of a thousand.
//
// Idle skipping: Eval returns the cycle at which the component next has
// work (Wake). A component that returns Never sleeps until a Link delivers
// to it or returns credits it waits for: a credit return wakes a sender
// only once it has found too few credits (CanSend, CanSendBytes, Fits,
// HasCredits, or Credits while some are out), since one that holds enough
// has no use for the edge. When it is evaluated again it is told how
// many cycles it slept (Edge.Slept), so counters stay exact. The AlwaysTick
// mode evaluates every component at every edge of its domain; a model is
// correct when both modes give byte-identical traces.
//
// Partitions: a model of devices that talk only over links slower than some
// lookahead (switches and NICs joined by wires) can put each device in a
// partition of its own (Engine.Partition) and set the lookahead
// (SetLookahead). The engine then runs the partitions in sweeps, in the
// order they were made or the one SetSweepOrder gives (no result depends on
// it), each alone as far as its neighbours allow: up to a lookahead past
// the time every partition linked to it (either way, or coupled with
// Couple) has run to, since nothing they send can reach it sooner. A link
// whose items cross a pipeline before they are sent can declare a longer
// lookahead of its own (Link.SetLookahead: a PHY's wire, whose frames leave
// a transmit pipeline after the MAC's edge), and the two partitions it
// joins may then run that far apart; so can coupled components
// (CoupleWithin: a host told of a completion a PCIe write and a poll after
// its NIC's edge). A partition whose neighbours ran before it in the sweep
// finds them ahead and runs two lookaheads at once; time no partition has
// work in is skipped. Every component sees what it would see run edge by
// edge, while a device's state stays in the caches for its whole run. An
// item sent to another partition is told to its receiver (a wake, or an
// event of its Watch) when a run of the receiving partition that holds its
// arrival begins, by that partition, which reads the item ahead then. Every
// link between partitions must deliver at least its lookahead (and return
// credits at least the engine's) after the edge that sends; one that does
// not stops the run with an error naming it. Hooks and traces see each
// partition's edges in time order, the partitions one after the other. The
// OnePartition option ignores partitions, to prove the windows exact.
//
// Prefetching: while one partition runs, the kernel prefetches (Prefetch,
// a hint that reads nothing) what the next partitions with work in the
// sweep will read, one level of each chain per partition run: a
// partition's fields, its list of links delivered to, those links, their
// queued items and what PrefetchWith names of each, and the levels of its
// components that are Prefetchers. A fabric of a thousand devices touches
// each device's state once a sweep, after the rest of the fabric has
// evicted it; the prefetches overlap those misses with the work of the
// partitions before. They change nothing a model computes.
//
// Determinism: events at one time are ordered by (time, clock of the
// domain, registration order), clocks in the order their first domain was
// registered; every component draws random numbers from its own
// RNG stream derived from (seed, component path); nothing depends on map
// iteration or goroutine scheduling.
//
// Observability: Stats (counters, gauges, histograms with units, dumped as
// JSON or CSV), Hooks with a nil-check fast path, a JSON Lines transaction
// sink (TraceSink), a recorder of chosen transactions that writes them in
// time order whatever the partitions' order (TraceRecorder) and a watchdog
// that names every blocked component when nothing moves.
package rtlmodel
