package fabric

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// flows generates the scenario's workload. A rails fabric runs it in each
// plane separately (planes do not reach each other), as one job per plane.
func (s *Scenario) flows(topo TopologyConfig) ([]Flow, error) {
	w := s.Workload
	start := rtlmodel.Time(w.StartUS) * rtlmodel.Microsecond
	if w.Kind == "csv" {
		f, err := os.Open(s.TraceFile())
		if err != nil {
			return nil, keyed("workload.file", fmt.Errorf("workload.file: %w", err))
		}
		defer f.Close()
		flows, lines, err := readTraceCSV(f)
		if err == nil {
			err = topo.CheckFlows(flows)
			var fe *FlowError
			if errors.As(err, &fe) {
				err = traceLine(lines[fe.Flow], "%s", strings.TrimPrefix(err.Error(), "fabric: "))
			}
		}
		var le *TraceLineError
		if errors.As(err, &le) {
			return nil, &traceFileError{path: s.TraceFile(), line: le.Line, err: le.Err}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", w.File, err)
		}
		return flows, nil
	}
	var jobs [][]Flow
	for plane, hosts := range topo.Planes() {
		f, err := s.planeFlows(hosts, topo.planeSpan(len(hosts)), start, uint64(plane))
		if err != nil {
			return nil, keyedUnder("workload", fmt.Errorf("workload: %w", err))
		}
		jobs = append(jobs, f)
	}
	flows := Combine(jobs...)
	op, err := w.op()
	if err != nil {
		return nil, keyed("workload.op", fmt.Errorf("workload.op: %w", err))
	}
	for i := range flows {
		flows[i].Op = op
	}
	return flows, topo.CheckFlows(flows)
}

// planeFlows is the workload over one set of mutually reachable hosts;
// span names them in errors (TopologyConfig.planeSpan). Senders, Receiver
// and Ranks count within the set: a rails fabric bounds them by one
// plane's endpoints, not the fabric's.
func (s *Scenario) planeFlows(hosts []int, span string, start rtlmodel.Time, plane uint64) ([]Flow, error) {
	w := s.Workload
	ranks := hosts
	if w.Ranks > 0 {
		if w.Ranks > len(hosts) {
			return nil, keyed("ranks", fmt.Errorf("ranks %d: only %s", w.Ranks, span))
		}
		ranks = hosts[:w.Ranks]
	}
	switch w.Kind {
	case "incast":
		if w.Senders < 1 || w.Senders >= len(hosts) || w.Receiver < 0 || w.Receiver >= len(hosts) {
			key := "senders"
			if w.Receiver < 0 || w.Receiver >= len(hosts) {
				key = "receiver"
			}
			return nil, keyed(key, fmt.Errorf("incast of %d senders into endpoint %d on %s", w.Senders, w.Receiver, span))
		}
		var senders []int
		for _, h := range hosts {
			if h != hosts[w.Receiver] && len(senders) < w.Senders {
				senders = append(senders, h)
			}
		}
		return Incast(senders, hosts[w.Receiver], w.Bytes, start)
	case "permutation":
		return Permutation(ranks, w.Bytes, start, s.Seed+plane)
	case "alltoall":
		return AllToAll(ranks, w.Bytes, start)
	case "ring_allreduce":
		return RingAllReduce(ranks, w.Bytes, start)
	case "hd_allreduce":
		return HalvingDoublingAllReduce(ranks, w.Bytes, start)
	case "background":
		return Background(BackgroundConfig{Hosts: ranks, SizeCDF: w.SizeCDF, Load: w.Load, LinkBitsPerSecond: 400e9,
			Start: start, Duration: rtlmodel.Time(w.DurationUS) * rtlmodel.Microsecond, Seed: s.Seed + plane})
	}
	return nil, fmt.Errorf("kind %q", w.Kind)
}

// planeSpan names, for messages, the endpoints a workload of one plane
// spans, given the plane's count: "32 endpoints" when the fabric is one
// plane, and on a rails fabric the plane's count with the fabric's, so
// that it reads with Results.Endpoints (every NIC of the fabric).
func (c TopologyConfig) planeSpan(planeEndpoints int) string {
	if c.Kind != KindRails || c.Rails < 2 {
		return fmt.Sprintf("%d endpoints", planeEndpoints)
	}
	return fmt.Sprintf("%d endpoints of each of %d rail planes (%d endpoints in all; the workload runs within each plane)",
		planeEndpoints, c.Rails, c.Endpoints())
}
