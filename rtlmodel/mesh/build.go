package mesh

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Config describes a mesh and its traffic.
type Config struct {
	Width, Height int
	// BufferDepth is every input buffer's size in flits (the link credits).
	BufferDepth int
	// LinkLatency and CreditLatency are in cycles (receiver and sender).
	LinkLatency, CreditLatency uint64
	// RouterPeriod and HostPeriod are the two clock domains' periods in ps.
	RouterPeriod, HostPeriod rtlmodel.Time
	Traffic                  Traffic
	Engine                   rtlmodel.Options
}

// DefaultConfig is an 8x8 mesh (64 routers, 64 endpoints) with routers at
// 1.25 GHz and endpoints at 1.6 GHz, bursts of ~16 flits and idle gaps of
// ~2000 cycles.
func DefaultConfig() Config {
	return Config{
		Width: 8, Height: 8, BufferDepth: 4, LinkLatency: 1, CreditLatency: 1,
		RouterPeriod: 800, HostPeriod: 625,
		Traffic: Traffic{Bursts: 20, BurstMean: 16, GapMean: 2000},
		Engine:  rtlmodel.Options{Seed: 1, WatchdogCycles: 100000},
	}
}

// Mesh is a built mesh model.
type Mesh struct {
	Engine    *rtlmodel.Engine
	Routers   []*Router
	Endpoints []*Endpoint
}

// Build wires the mesh into a new engine.
func Build(cfg Config) (*Mesh, error) {
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width*cfg.Height < 2 {
		return nil, fmt.Errorf("mesh: %dx%d is too small", cfg.Width, cfg.Height)
	}
	if cfg.Traffic.BurstMean < 1 || cfg.Traffic.GapMean < 1 {
		return nil, fmt.Errorf("mesh: burst and gap means must be at least 1")
	}
	e := rtlmodel.NewEngine(cfg.Engine)
	noc, err := e.AddDomain("noc", cfg.RouterPeriod, 0)
	if err != nil {
		return nil, err
	}
	host, err := e.AddDomain("host", cfg.HostPeriod, 0)
	if err != nil {
		return nil, err
	}
	m := &Mesh{Engine: e}
	n := cfg.Width * cfg.Height
	st := e.Stats()
	for i := 0; i < n; i++ {
		r := &Router{x: i % cfg.Width, y: i / cfg.Width, width: cfg.Width}
		path := fmt.Sprintf("mesh/r%d_%d", r.x, r.y)
		if r.h, err = e.Add(noc, path, r); err != nil {
			return nil, err
		}
		r.moved = st.Counter(path+"/moved", "flits", "flits forwarded")
		r.idle = st.Counter(path+"/idle", "cycles", "cycles with no flit forwarded")
		r.cycles = st.Counter(path+"/cycles", "cycles", "cycles accounted")
		m.Routers = append(m.Routers, r)
	}
	for i := 0; i < n; i++ {
		p := &Endpoint{id: i, n: n, traffic: cfg.Traffic}
		path := fmt.Sprintf("host/ep%d", i)
		if p.h, err = e.Add(host, path, p); err != nil {
			return nil, err
		}
		p.rng = p.h.RNG()
		p.sent = st.Counter(path+"/sent", "flits", "flits injected")
		p.recv = st.Counter(path+"/received", "flits", "flits delivered")
		p.latency = st.Histogram(path+"/latency", "ps", "injection to delivery")
		m.Endpoints = append(m.Endpoints, p)
	}
	lc := rtlmodel.LinkConfig{Latency: cfg.LinkLatency, Width: 1, Credits: cfg.BufferDepth, CreditLatency: cfg.CreditLatency}
	connect := func(name string, from, to *rtlmodel.Handle) (*rtlmodel.Link[Flit], error) {
		l, err := rtlmodel.NewLink[Flit](name, from, to, lc)
		if l != nil {
			l.Format = formatFlit
		}
		return l, err
	}
	for i, r := range m.Routers {
		if r.x+1 < cfg.Width {
			if err := m.pair(connect, r, m.Routers[i+1], East, West); err != nil {
				return nil, err
			}
		}
		if r.y+1 < cfg.Height {
			if err := m.pair(connect, r, m.Routers[i+cfg.Width], South, North); err != nil {
				return nil, err
			}
		}
		p := m.Endpoints[i]
		if p.out, err = connect(p.h.Path()+">"+r.h.Path(), p.h, r.h); err != nil {
			return nil, err
		}
		if p.in, err = connect(r.h.Path()+">"+p.h.Path(), r.h, p.h); err != nil {
			return nil, err
		}
		r.in[Local], r.out[Local] = p.out, p.in
	}
	return m, nil
}

type connectFn func(name string, from, to *rtlmodel.Handle) (*rtlmodel.Link[Flit], error)

// pair connects a and b both ways through a's port pa and b's port pb.
func (m *Mesh) pair(connect connectFn, a, b *Router, pa, pb int) error {
	ab, err := connect(a.h.Path()+">"+b.h.Path(), a.h, b.h)
	if err != nil {
		return err
	}
	ba, err := connect(b.h.Path()+">"+a.h.Path(), b.h, a.h)
	if err != nil {
		return err
	}
	a.out[pa], b.in[pb] = ab, ab
	b.out[pb], a.in[pa] = ba, ba
	return nil
}

// Totals returns flits sent and received over all endpoints.
func (m *Mesh) Totals() (sent, received uint64) {
	for _, p := range m.Endpoints {
		sent += p.sent.Value()
		received += p.recv.Value()
	}
	return sent, received
}
