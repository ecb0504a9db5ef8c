package rtlmodel

import (
	"fmt"
	"sort"
)

// Metric is a named statistic with a unit.
type Metric interface {
	Name() string
	Unit() string
	Doc() string
	Kind() string
}

type metricBase struct{ name, unit, doc string }

func (m *metricBase) Name() string { return m.name }
func (m *metricBase) Unit() string { return m.unit }
func (m *metricBase) Doc() string  { return m.doc }

// Counter counts events; it only goes up. It is two words, the count and
// a pointer to its name, unit and doc: an owner that keeps a Counter
// inline reads only the count, and the counters a component registers
// one after the other lie four to a cache line, not one (a NIC counts a
// packet in several).
type Counter struct {
	v uint64
	*metricBase
}

// Kind returns "counter".
func (*Counter) Kind() string { return "counter" }

// Inc adds one.
func (c *Counter) Inc() { c.v++ }

// Add adds n.
func (c *Counter) Add(n uint64) { c.v += n }

// Value returns the count.
func (c *Counter) Value() uint64 { return c.v }

// Gauge is a level that goes up and down; it remembers its maximum.
type Gauge struct {
	// the level and its maximum first, then the name, as in Counter: an
	// owner that keeps a Gauge inline (OwnGauge) reads two words of it
	v, max int64
	*metricBase
}

// Kind returns "gauge".
func (*Gauge) Kind() string { return "gauge" }

// Set sets the level.
func (g *Gauge) Set(v int64) {
	g.v = v
	if v > g.max {
		g.max = v
	}
}

// Add moves the level by d.
func (g *Gauge) Add(d int64) { g.Set(g.v + d) }

// Value returns the level.
func (g *Gauge) Value() int64 { return g.v }

// Max returns the highest level set.
func (g *Gauge) Max() int64 { return g.max }

// Registry holds metrics by hierarchical name ("mesh/r0_0/in_n/occupancy").
type Registry struct {
	byName map[string]Metric
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]Metric{}} }

func register[M Metric](r *Registry, name string, m M) M {
	if old, ok := r.byName[name]; ok {
		if same, ok := old.(M); ok {
			return same
		}
		panic(fmt.Sprintf("rtlmodel: metric %q registered as %s and %s", name, old.Kind(), m.Kind()))
	}
	r.byName[name] = m
	return m
}

// Counter returns the counter of that name, creating it.
func (r *Registry) Counter(name, unit, doc string) *Counter {
	return register(r, name, &Counter{metricBase: &metricBase{name, unit, doc}})
}

// Gauge returns the gauge of that name, creating it.
func (r *Registry) Gauge(name, unit, doc string) *Gauge {
	return register(r, name, &Gauge{metricBase: &metricBase{name, unit, doc}})
}

// Histogram returns the histogram of that name, creating it.
func (r *Registry) Histogram(name, unit, doc string) *Histogram {
	return register(r, name, &Histogram{metricBase: metricBase{name, unit, doc}})
}

// Own registers c, a counter its owner keeps inline next to the state it
// counts, under name: counting then reads no line of its own. The count c
// holds so far is kept.
func (r *Registry) Own(c *Counter, name, unit, doc string) {
	c.metricBase = &metricBase{name, unit, doc}
	r.add(c)
}

// OwnGauge registers g, a gauge its owner keeps inline, under name, as
// Own does a counter. The level and maximum g holds so far are kept.
func (r *Registry) OwnGauge(g *Gauge, name, unit, doc string) {
	g.metricBase = &metricBase{name, unit, doc}
	r.add(g)
}

// add registers a metric that lives inside its owner (for example a
// link's counters), so the hot path updates it without a pointer chase.
func (r *Registry) add(m Metric) {
	if _, ok := r.byName[m.Name()]; ok {
		panic(fmt.Sprintf("rtlmodel: metric %q registered twice", m.Name()))
	}
	r.byName[m.Name()] = m
}

// Lookup returns the metric of that name.
func (r *Registry) Lookup(name string) (Metric, bool) {
	m, ok := r.byName[name]
	return m, ok
}

// Each calls fn for every metric, in no particular order: for a sum or
// another reduction whose result does not depend on the order, where All
// would sort every name first (a 1024-endpoint fabric has some 80,000).
func (r *Registry) Each(fn func(Metric)) {
	for _, m := range r.byName {
		fn(m)
	}
}

// All returns every metric sorted by name.
func (r *Registry) All() []Metric {
	out := make([]Metric, 0, len(r.byName))
	for _, m := range r.byName {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}
