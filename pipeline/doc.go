// Package pipeline holds the hardware building blocks that the switch and
// the NIC share: arbiters, packet schedulers, token-bucket shapers,
// credit-managed queues, a fixed-latency pipeline stage component and the
// stage budget records that latency reports are built from.
//
// Arbiters (RoundRobin, WeightedRoundRobin, Matrix) and schedulers
// (StrictPriority, DWRR, SPDWRR) are plain deterministic state machines:
// they know nothing of the kernel, allocate nothing per decision and can be
// used inside any component's Eval. Arbiters take a request vector (Bits)
// and return a grant; schedulers keep a mirror of the queue state the
// caller supplies (the head packet's size, zero for an empty queue) and
// choose which queue sends next, so the switch and the NIC can drive them
// from their own queues. SPDWRR8 is SPDWRR for up to eight queues (a
// switch port's classes) with all its state in three cache lines and no
// pointer, for a model that keeps one per port by value; it makes
// SPDWRR's decisions, which a test checks on random operations.
//
// Shaper is a token bucket in exact integer arithmetic: the rate is an
// exact rational number of bits per second, time is rtlmodel.Time
// picoseconds, and fractional picoseconds are carried as a remainder, so
// any number of packets is shaped without drift. NextConformTime gives the
// exact edge time at which a packet conforms, so a component can sleep
// until then instead of polling.
//
// CreditQueue is a byte- or cell-counted queue with a credit counter
// toward a downstream buffer, for use inside one component.
//
// FixedStage is an rtlmodel component that delays items by a fixed number
// of cycles of its domain with a per-cycle throughput limit, and sleeps
// while empty. StageBudget and Budget record the latency of every stage in
// cycles and picoseconds, taken from the model's own parameters, and render
// the rows of a budget report.
//
// All blocks are component-internal state: they must be touched only from
// the Eval of the component that owns them, which keeps the two-phase rule
// of the kernel (they are never shared between components).
package pipeline
