package mesh

import "github.com/fabricmodel/fabricmodel/rtlmodel"

// Report summarises a mesh run from the model's own counters.
type Report struct {
	Routers, Endpoints int
	// SimTime is the time of the last processed edge.
	SimTime rtlmodel.Time
	// RouterCycles is the number of router-clock cycles simulated.
	RouterCycles uint64
	// Sent and Received count flits injected and delivered.
	Sent, Received uint64
	// Latency is injection-to-delivery time in ps over all flits.
	Latency *rtlmodel.Histogram
	// MeanRouterLoad and MaxRouterLoad are forwarded flits per router cycle.
	MeanRouterLoad, MaxRouterLoad float64
	// BurstsDone and BurstsTotal measure traffic progress.
	BurstsDone, BurstsTotal int
}

// Report computes the summary; call it after Engine.Finish for exact
// per-router cycle counts.
func (m *Mesh) Report() Report {
	r := Report{Routers: len(m.Routers), Endpoints: len(m.Endpoints), SimTime: m.Engine.Now(),
		Latency: rtlmodel.NewRegistry().Histogram("latency", "ps", "all endpoints")}
	r.RouterCycles = m.Engine.Domains()[0].Cycles()
	r.Sent, r.Received = m.Totals()
	for _, p := range m.Endpoints {
		r.Latency.Merge(p.latency)
		r.BurstsDone += p.bursts
		r.BurstsTotal += p.traffic.Bursts
	}
	var sum float64
	for _, rt := range m.Routers {
		if r.RouterCycles == 0 {
			break
		}
		load := float64(rt.moved.Value()) / float64(r.RouterCycles)
		sum += load
		r.MaxRouterLoad = max(r.MaxRouterLoad, load)
	}
	if len(m.Routers) > 0 {
		r.MeanRouterLoad = sum / float64(len(m.Routers))
	}
	return r
}

// Progress returns the fraction of all bursts started, for progress bars.
func (m *Mesh) Progress() float64 {
	done, total := 0, 0
	for _, p := range m.Endpoints {
		done += p.bursts
		total += p.traffic.Bursts
	}
	if total == 0 {
		return 1
	}
	return float64(done) / float64(total)
}
