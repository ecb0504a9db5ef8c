package rtlmodel

import "fmt"

// Domain is a clock domain: rising edges at Phase + k*Period for k = 0, 1, ...
// Cycle k of a domain is the edge at that time.
type Domain struct {
	name   string
	period Time
	phase  Time
	index  int

	clk       *clock       // shared with the domains of the same period and phase
	comps     []*compState // registration order
	lastEdge  Time         // time of the last edge that evaluated a component
	lastCycle uint64       // its cycle number
	ticked    bool         // whether any edge was processed
	edgeCount uint64       // edges that evaluated a component (for stats)
}

// Name returns the domain's name.
func (d *Domain) Name() string { return d.name }

// Period returns the clock period in ps.
func (d *Domain) Period() Time { return d.period }

// Phase returns the time of cycle 0 in ps.
func (d *Domain) Phase() Time { return d.phase }

// Index returns the domain's registration index. Domains with the same
// period and phase share one edge schedule (their components are evaluated
// together, in registration order, and commit together); at equal times,
// such groups run in the order their first domain was registered.
func (d *Domain) Index() int { return d.index }

// Components returns the number of components in this domain.
func (d *Domain) Components() int { return len(d.comps) }

// Edges returns the number of edges of this domain at which one of its
// components was evaluated.
func (d *Domain) Edges() uint64 { return d.edgeCount }

// Cycles returns the number of cycles from cycle 0 to the last processed
// edge, inclusive: the simulated length of the run in this clock.
func (d *Domain) Cycles() uint64 {
	if !d.ticked {
		return 0
	}
	return d.lastCycle + 1
}

// FrequencyHz returns the clock frequency, for reports.
func (d *Domain) FrequencyHz() float64 { return 1e12 / float64(d.period) }

// EdgeTime returns the time of cycle c.
func (d *Domain) EdgeTime(c uint64) Time { return d.phase + Time(c)*d.period }

// CycleAt returns the cycle whose edge is at t; t must be an edge time.
func (d *Domain) CycleAt(t Time) uint64 { return uint64((t - d.phase) / d.period) }

// FirstEdgeAfter returns the earliest edge strictly later than t.
func (d *Domain) FirstEdgeAfter(t Time) Time { return firstEdgeAfter(t, d.phase, d.period) }

// FirstEdgeAtOrAfter returns the earliest edge at or later than t.
func (d *Domain) FirstEdgeAtOrAfter(t Time) Time { return firstEdgeAtOrAfter(t, d.phase, d.period) }

// firstEdgeAfter is FirstEdgeAfter of the edges phase + k*period, for
// those who keep a domain's period and phase beside their own state.
func firstEdgeAfter(t, phase, period Time) Time {
	if t < phase {
		return phase
	}
	return phase + ((t-phase)/period+1)*period
}

// firstEdgeAtOrAfter is FirstEdgeAtOrAfter of the edges phase + k*period.
func firstEdgeAtOrAfter(t, phase, period Time) Time {
	if t <= phase {
		return phase
	}
	k := (t - phase + period - 1) / period
	return phase + k*period
}

// String describes the domain.
func (d *Domain) String() string {
	return fmt.Sprintf("%s(%dps, phase %dps)", d.name, uint64(d.period), uint64(d.phase))
}
