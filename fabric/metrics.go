package fabric

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// sample records the egress queues (between Steps, never inside an Eval).
func (r *Run) sample() {
	var b []uint64
	for _, sw := range r.Cluster.Switches() {
		for p := range sw.Ports() {
			b = append(b, sw.TM().PortBytes(p))
		}
	}
	r.samples.add(r.Cluster.Engine.Now(), b)
}

// settleCounters brings the devices' time counters (PFC pause times) up
// to the time the run has reached.
func (r *Run) settleCounters() {
	now := r.Cluster.Engine.Now()
	for _, sw := range r.Cluster.Switches() {
		sw.SettleCounters(now)
	}
	for _, n := range r.Cluster.NICs {
		n.SettleCounters(now)
	}
}

// pausedTime sums the time PFC paused the fabric's transmitters, each
// switch egress (port, class) and each NIC, and finds the longest of one.
func (r *Run) pausedTime() (total, longest rtlmodel.Time) {
	for _, sw := range r.Cluster.Switches() {
		t, l := sw.PausedTime()
		total += t
		longest = max(longest, l)
	}
	for _, n := range r.Cluster.NICs {
		t := n.PausedTime()
		total += t
		longest = max(longest, t)
	}
	return total, longest
}

// FlowRun is a flow and when it was posted, what the results say of every
// flow that ended, completed (FlowResult) or failed (FailedFlow).
type FlowRun struct {
	ID      int     `json:"id"`
	Src     int     `json:"src"`
	Dst     int     `json:"dst"`
	Bytes   uint64  `json:"bytes"`
	Job     int     `json:"job"`
	StartNS float64 `json:"start_ns"`
	// Op is send or read for a flow that is not an RDMA WRITE, empty for
	// a write.
	Op string `json:"op,omitempty"`
}

// flowRun is flow i as its result names it.
func (r *Run) flowRun(i int) FlowRun {
	f := r.Flows[i]
	fr := FlowRun{ID: f.ID, Src: f.Src, Dst: f.Dst, Bytes: f.Bytes, Job: f.Job, StartNS: r.sched.st[i].posted.Nanoseconds()}
	if f.Op != nic400g.OpWrite {
		fr.Op = f.Op.String()
	}
	return fr
}

// FlowResult is one completed flow's outcome.
type FlowResult struct {
	FlowRun
	FCTNS float64 `json:"fct_ns"`
}

// QueueSeries is one egress queue's depth over time.
type QueueSeries struct {
	Name  string    `json:"name"`
	AtUS  []float64 `json:"at_us"`
	Bytes []uint64  `json:"bytes"`
}

// Results are a run's metrics, all computed from the model's state; they
// hold no wall-clock figure, so the same scenario and seed give the same
// results byte for byte.
type Results struct {
	Scenario string `json:"scenario"`
	// Settings are the KEY=VALUE settings written over the scenario
	// file's keys (Scenario.Settings); absent when there were none.
	Settings    []string  `json:"settings,omitempty"`
	Seed        uint64    `json:"seed"`
	Endpoints   int       `json:"endpoints"`
	Flows       int       `json:"flows"`
	Completed   int       `json:"completed"`
	SimTimeNS   float64   `json:"sim_time_ns"`
	FCTP50NS    float64   `json:"fct_p50_ns"`
	FCTP99NS    float64   `json:"fct_p99_ns"`
	FCTMaxNS    float64   `json:"fct_max_ns"`
	JobTimesNS  []float64 `json:"job_completion_ns"`
	GoodputGbps float64   `json:"goodput_gbps"`
	// LinkUtilMean and LinkUtilMax are over LinkUtilization: each switch
	// egress link that sent a frame, its bytes on the wire over the run
	// against the rate of the lanes it has (a degraded uplink's without
	// its failed lanes).
	LinkUtilMean  float64 `json:"link_util_mean"`
	LinkUtilMax   float64 `json:"link_util_max"`
	MaxQueueBytes uint64  `json:"max_queue_bytes"`
	PFCFrames     uint64  `json:"pfc_frames"`
	// PFCPausedNS is the time PFC frames paused transmitters, summed over
	// every switch egress (port, class) and every NIC; PFCPausedMaxNS is
	// the longest of one of them.
	PFCPausedNS    float64 `json:"pfc_paused_ns"`
	PFCPausedMaxNS float64 `json:"pfc_paused_max_ns"`
	ECNMarks       uint64  `json:"ecn_marks"`
	Trims          uint64  `json:"trims"`
	// Drops counts every frame discarded before it delivered its data,
	// SwitchDrops + NICDrops. SwitchDrops are the switches' (full
	// buffer, queue limit, headroom overflow, no route, bad FCS, parse
	// error); NICDrops the receiving NICs' (bad FCS or ICRC, beyond the
	// PSN window, out of order under go-back-N, beyond the reorder buffer,
	// trimmed headers cut before their PSN).
	// A lossless fabric drops nothing at its switches, but a go-back-N
	// receiver still discards what arrives out of order.
	Drops       uint64 `json:"drops"`
	SwitchDrops uint64 `json:"switch_drops"`
	NICDrops    uint64 `json:"nic_drops"`
	// Retransmits counts the data packets the NICs sent again: a writer's
	// resends, and the READ responses a requester asked for again by
	// range (trimmed, or dropped beyond its window). The responses a read
	// issued again for the rest has sent again are not among them.
	Retransmits uint64 `json:"retransmits"`
	// DuplicatesReceived counts the data packets a receiving NIC got
	// again after it had them: retransmissions whose originals were late
	// (reordered by sprayed paths, say) rather than lost, or that a
	// go-back-N rewind sent again.
	DuplicatesReceived uint64 `json:"duplicates_received"`
	// DataPackets counts the NICs' rx_placed: the data packets of WRITEs
	// and SENDs and the READ responses placed in memory, each once (no
	// trimmed header, duplicate or packet dropped on arrival). A run whose
	// flows all completed has placed every packet of every message. The
	// speed line divides it by the wall time.
	DataPackets     uint64        `json:"data_packets_delivered"`
	PerFlow         []FlowResult  `json:"per_flow"`
	Failed          []FailedFlow  `json:"failed_flows,omitempty"`
	HottestQueues   []QueueSeries `json:"hottest_queues"`
	LinkUtilization []float64     `json:"link_utilization"`
}

// Results computes the metrics of the run so far.
func (r *Run) Results() *Results {
	e := r.Cluster.Engine
	res := &Results{Scenario: r.Scenario.Name, Settings: r.Scenario.Settings(), Seed: r.Scenario.Seed, Endpoints: len(r.Cluster.NICs),
		Flows: len(r.Flows), Completed: r.sched.done(), SimTimeNS: e.Now().Nanoseconds(), Failed: r.Failures()}
	fct := rtlmodel.NewRegistry().Histogram("fct", "ps", "")
	first, last := rtlmodel.Forever, rtlmodel.Time(0)
	jobs := map[int][2]rtlmodel.Time{}
	var bytes uint64
	for i, f := range r.Flows {
		st := r.sched.st[i]
		if st.done == 0 {
			continue
		}
		d := st.done - st.posted
		fct.Record(uint64(d))
		first, last = min(first, st.posted), max(last, st.done)
		bytes += f.Bytes
		j, ok := jobs[f.Job]
		if !ok {
			j = [2]rtlmodel.Time{st.posted, st.done}
		}
		jobs[f.Job] = [2]rtlmodel.Time{min(j[0], st.posted), max(j[1], st.done)}
		res.PerFlow = append(res.PerFlow, FlowResult{FlowRun: r.flowRun(i), FCTNS: d.Nanoseconds()})
	}
	if fct.Count() > 0 {
		res.FCTP50NS = float64(fct.Percentile(0.5)) / 1e3
		res.FCTP99NS = float64(fct.Percentile(0.99)) / 1e3
		res.FCTMaxNS = float64(fct.Max()) / 1e3
		res.GoodputGbps = float64(bytes) * 8 / float64(last-first) * 1e3
	}
	ids := make([]int, 0, len(jobs))
	for id := range jobs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		res.JobTimesNS = append(res.JobTimesNS, (jobs[id][1] - jobs[id][0]).Nanoseconds())
	}
	r.linkStats(res)
	sum := sumCounters(e, "/mmu/pfc_sent", "/mmu/ecn_marked", "/mmu/trimmed", "/mmu/dropped",
		"/drop_bad_fcs", "/drop_malformed", "/drop_no_route", "/drop_ttl_expired", "/retransmits", "/rx_placed",
		"/rx_fcs_drops", "/rx_icrc_drops", "/rx_not_mine", "/rx_out_of_window", "/rx_ooo_dropped", "/reorder_full_drops", "/rx_trim_unreadable", "/rx_duplicate")
	res.PFCFrames = sum["/mmu/pfc_sent"]
	paused, longest := r.pausedTime()
	res.PFCPausedNS, res.PFCPausedMaxNS = paused.Nanoseconds(), longest.Nanoseconds()
	res.ECNMarks = sum["/mmu/ecn_marked"]
	res.Trims = sum["/mmu/trimmed"]
	res.SwitchDrops = sum["/mmu/dropped"] + sum["/drop_bad_fcs"] + sum["/drop_malformed"] + sum["/drop_no_route"] + sum["/drop_ttl_expired"]
	res.NICDrops = sum["/rx_fcs_drops"] + sum["/rx_icrc_drops"] + sum["/rx_not_mine"] + sum["/rx_out_of_window"] + sum["/rx_ooo_dropped"] + sum["/reorder_full_drops"] +
		sum["/rx_trim_unreadable"]
	res.Drops = res.SwitchDrops + res.NICDrops
	res.Retransmits = sum["/retransmits"]
	res.DuplicatesReceived = sum["/rx_duplicate"]
	res.DataPackets = sum["/rx_placed"]
	r.hottest(res, 4)
	return res
}

// sumCounters adds, for each suffix, every counter whose name ends in it,
// in one pass over the registry in no particular order (a 1024-endpoint
// fabric has some 80,000 metrics, and a sum needs them unsorted). A name
// is matched by its last element first, so that most names are passed
// over after one map lookup instead of a comparison with every suffix.
func sumCounters(e *rtlmodel.Engine, suffixes ...string) map[string]uint64 {
	sums := make(map[string]uint64, len(suffixes))
	byLast := make(map[string][]string, len(suffixes))
	for _, s := range suffixes {
		last := s[strings.LastIndexByte(s, '/')+1:]
		byLast[last] = append(byLast[last], s)
	}
	e.Stats().Each(func(m rtlmodel.Metric) {
		c, ok := m.(*rtlmodel.Counter)
		if !ok {
			return
		}
		name := c.Name()
		for _, s := range byLast[name[strings.LastIndexByte(name, '/')+1:]] {
			if strings.HasSuffix(name, s) {
				sums[s] += c.Value()
			}
		}
	})
	return sums
}

// linkStats computes each switch egress link's utilisation over the run:
// bytes on the wire (frames plus preamble and gap) against its rate, the
// rate of the lanes its wire has at the end of the run: a degraded
// uplink's (topology.degraded_uplink, from the start) without its failed
// lanes, so that it reads as busy as it is. A wire degraded part way
// through (serdes.Wire.DegradeAt) counts at its last rate throughout.
func (r *Run) linkStats(res *Results) {
	e := r.Cluster.Engine
	span := float64(e.Now()) / 1e12
	if span == 0 {
		return
	}
	var sum float64
	n := 0
	// a fabric has a rate or two among all its ports: each is converted
	// from its exact fraction once
	bps := map[serdes.Rate]float64{}
	for _, sw := range r.Cluster.Switches() {
		for p := range sw.Ports() {
			phy := sw.TxPhy(p) // its counters are <switch>/port<p>/tx/frames and bytes
			frames, _ := phy.Wire().Frames()
			if frames == 0 {
				continue
			}
			rate := phy.Wire().Lanes().MACRate()
			if _, ok := bps[rate]; !ok {
				bps[rate] = rate.BitsPerSecond().Float64()
			}
			wire := float64(phy.Bytes()+phy.Wire().FramingBytes()*frames) * 8
			u := wire / span / bps[rate]
			res.LinkUtilization = append(res.LinkUtilization, u)
			sum += u
			n++
			res.LinkUtilMax = max(res.LinkUtilMax, u)
		}
		res.MaxQueueBytes = max(res.MaxQueueBytes, sw.TM().Buffer().MaxUsedCells()*uint64(sw.Config().TM.CellBytes))
	}
	if n > 0 {
		res.LinkUtilMean = sum / float64(n)
	}
}

// swName is a switch's path (the prefix of its counters).
func swName(sw *switchasic.Switch) string { return strings.TrimSuffix(sw.Domain().Name(), "/core") }

// hottest keeps the n egress queues with the deepest samples.
func (r *Run) hottest(res *Results, n int) {
	samples := r.samples.kept
	if len(samples) == 0 {
		return
	}
	type q struct {
		idx  int
		peak uint64
	}
	width := len(samples[0].bytes)
	peaks := make([]q, width)
	for i := range peaks {
		peaks[i].idx = i
		for _, s := range samples {
			peaks[i].peak = max(peaks[i].peak, s.bytes[i])
		}
	}
	sort.SliceStable(peaks, func(a, b int) bool { return peaks[a].peak > peaks[b].peak })
	var names []string
	for _, sw := range r.Cluster.Switches() {
		for p := range sw.Ports() {
			names = append(names, fmt.Sprintf("%s/port%d", swName(sw), p))
		}
	}
	for _, pk := range peaks[:min(n, len(peaks))] {
		if pk.peak == 0 {
			break
		}
		qs := QueueSeries{Name: names[pk.idx]}
		for _, s := range samples {
			qs.AtUS = append(qs.AtUS, s.at.Nanoseconds()/1e3)
			qs.Bytes = append(qs.Bytes, s.bytes[pk.idx])
		}
		res.HottestQueues = append(res.HottestQueues, qs)
	}
}
