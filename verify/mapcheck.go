package verify

import (
	"sort"
	"strings"
)

// Compare modes of CompareSpec.Mode.
const (
	ModeExact  = "exact"
	ModeWindow = "window"
	ModeKey    = "key"
)

// defaultContext is the number of cycles shown on each side of a divergence.
const defaultContext = 5

// maxContext bounds CompareSpec.Context.
const maxContext = 1000

// check validates a decoded map against its block.
func (m *Map) check() error {
	if m.Block == "" {
		return m.errAt(1, "block: missing; name a golden model (%s)", blockNames())
	}
	b, err := LookupBlock(m.Block)
	if err != nil {
		return m.errAt(m.lines["block"], "%v", err)
	}
	if _, err := b.Resolve(m.Params); err != nil {
		return m.errAt(m.lines["params"], "%v", err)
	}
	if _, err := b.New(mustResolve(b, m.Params)); err != nil {
		return m.errAt(m.lines["params"], "%v", err)
	}
	if !m.Clock.Signal.IsSet() {
		return m.errAt(max(m.lines["clock"], 1), "clock: signal is missing")
	}
	switch m.Clock.Edge {
	case "", "rising", "falling":
	default:
		return m.errAt(m.lines["clock"], "clock: edge %q; use rising or falling", m.Clock.Edge)
	}
	if m.Reset != nil {
		if !m.Reset.Signal.IsSet() {
			return m.errAt(m.lines["reset"], "reset: signal is missing")
		}
		switch m.Reset.Active {
		case "", "high", "low":
		default:
			return m.errAt(m.lines["reset"], "reset: active %q; use high or low", m.Reset.Active)
		}
	}
	if err := m.checkCompare(b); err != nil {
		return err
	}
	if err := m.checkPort("input", &m.Input, &b.Input, false); err != nil {
		return err
	}
	return m.checkPort("output", &m.Output, &b.Output, true)
}

func mustResolve(b *Block, given map[string]uint64) Params {
	p, _ := b.Resolve(given)
	return p
}

func (m *Map) checkCompare(b *Block) error {
	c := &m.Compare
	line := m.lines["compare"]
	switch c.Mode {
	case "", ModeExact:
		if c.MaxLatency != 0 {
			return m.errAt(line, "compare: max_latency is for the window and key modes")
		}
	case ModeWindow:
		if c.MaxLatency < c.Latency {
			return m.errAt(line, "compare: max_latency %d below latency %d", c.MaxLatency, c.Latency)
		}
	case ModeKey:
		if c.Key == "" {
			return m.errAt(line, "compare: mode key needs key: the output field that matches")
		}
		if b.Output.field(c.Key) < 0 {
			return m.errAt(line, "compare: key %q is not a field of block %s's output (%s)", c.Key, b.Name, fieldNames(&b.Output))
		}
		if c.MaxLatency != 0 && c.MaxLatency < c.Latency {
			return m.errAt(line, "compare: max_latency %d below latency %d", c.MaxLatency, c.Latency)
		}
	default:
		return m.errAt(line, "compare: mode %q; use exact, window or key", c.Mode)
	}
	if c.Key != "" && c.Mode != ModeKey {
		return m.errAt(line, "compare: key is only for mode key")
	}
	if c.Latency > 1<<32 || c.MaxLatency > 1<<32 {
		return m.errAt(line, "compare: latency above 2^32 cycles")
	}
	if c.Context != nil && (*c.Context < 0 || *c.Context > maxContext) {
		return m.errAt(line, "compare: context %d; use 0 to %d", *c.Context, maxContext)
	}
	return nil
}

func (m *Map) checkPort(side string, p *PortMap, spec *PortSpec, output bool) error {
	line := m.lines[side]
	if line == 0 {
		return m.errAt(1, "%s: missing; block %s's %s is a %s port (%s)", side, m.Block, side, spec.Kind, portHint(spec))
	}
	if !p.Valid.IsSet() {
		return m.errAt(line, "%s: valid is missing (use \"1\" when every cycle carries a transaction)", side)
	}
	if spec.Kind == Beat {
		if p.TData.IsSet() || p.TKeep.IsSet() || p.TLast.IsSet() || p.TUser.IsSet() {
			return m.errAt(line, "%s: block %s's %s is a beat port: map fields (%s), not tdata/tkeep/tlast/tuser", side, m.Block, side, fieldNames(spec))
		}
		for _, name := range sortedKeys(p.Fields) {
			if spec.field(name) < 0 {
				return m.errAt(p.Fields[name].Line, "%s: block %s has no %s field %q (it has: %s)", side, m.Block, side, name, fieldNames(spec))
			}
		}
		for _, f := range spec.Fields {
			if _, ok := p.Fields[f.Name]; !ok {
				return m.errAt(line, "%s: field %s of block %s is not mapped (fields: %s)", side, f.Name, m.Block, fieldNames(spec))
			}
		}
	} else {
		if len(p.Fields) > 0 {
			return m.errAt(line, "%s: block %s's %s is a frame port: map tdata, tkeep, tlast (and tuser), not fields", side, m.Block, side)
		}
		if !p.TData.IsSet() || !p.TLast.IsSet() {
			return m.errAt(line, "%s: a frame port needs tdata and tlast", side)
		}
		if output && p.TUser.IsSet() {
			return m.errAt(p.TUser.Line, "%s: tuser is only read on input frames", side)
		}
	}
	if len(p.Mask) > 0 {
		if !output || spec.Kind != Beat {
			return m.errAt(line, "%s: mask applies to the fields of a beat output", side)
		}
		for _, name := range sortedKeys(p.Mask) {
			if spec.field(name) < 0 {
				return m.errAt(line, "%s: mask names %q, not a field of block %s (%s)", side, name, m.Block, fieldNames(spec))
			}
		}
	}
	return nil
}

func portHint(spec *PortSpec) string {
	if spec.Kind == Frame {
		return "tdata, tkeep, tlast"
	}
	return "fields: " + fieldNames(spec)
}

func fieldNames(spec *PortSpec) string {
	s := make([]string, len(spec.Fields))
	for i, f := range spec.Fields {
		s[i] = f.Name
	}
	return strings.Join(s, ", ")
}

func blockNames() string {
	var s []string
	for _, b := range Blocks() {
		s = append(s, b.Name)
	}
	return strings.Join(s, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}
