package explore

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricmodel/fabricmodel/fabric"
	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// IncastConfig is an N:1 incast through one switch: Senders NICs each
// write Bytes to one receiver, all posted at the same time.
type IncastConfig struct {
	Senders int    // sending NICs
	Bytes   uint64 // RDMA WRITE message per sender, bytes
	CC      string // congestion control (nic400g.CCNames)
	// PFC makes traffic class 0 lossless.
	PFC bool
	// BufferBytes is the switch's shared buffer (switchasic.TMConfig).
	BufferBytes uint64
	// KminBytes, KmaxBytes and Pmax are class 0's ECN marking curve.
	KminBytes, KmaxBytes uint64
	Pmax                 float64
	// RTOUS is the senders' retransmission timeout in microseconds.
	RTOUS uint64
	// LimitUS bounds the simulated time, in microseconds.
	LimitUS uint64
}

// DefaultIncastConfig is 8 senders of 256 KiB with DCQCN into the default
// switch and its default ECN curve, lossy, with the NIC's default RTO and
// a one-second limit.
func DefaultIncastConfig() IncastConfig {
	tm := switchasic.DefaultTMConfig(128)
	w := switchasic.DefaultWREDConfig()
	return IncastConfig{Senders: 8, Bytes: 256 << 10, CC: "dcqcn", BufferBytes: tm.BufferBytes,
		KminBytes: w.KminBytes, KmaxBytes: w.KmaxBytes, Pmax: float64(w.PmaxQ) / 65536, RTOUS: 200, LimitUS: 1_000_000}
}

// maxIncastSenders is the most senders the incast's one switch takes:
// every port of the default switch but the receiver's.
var maxIncastSenders = switchasic.DefaultConfig().Plan.NumPorts() - 1

// incastParams are the names Set accepts, with unit and meaning.
var incastParams = [][3]string{
	{"senders", "", fmt.Sprintf("sending NICs (1 to %d)", maxIncastSenders)},
	{"bytes", "B", "RDMA WRITE message per sender"},
	{"cc", "", "congestion control: " + strings.Join(nic400g.CCNames, ", ")},
	{"pfc", "", "PFC on traffic class 0 (true/false)"},
	{"switch.buffer_bytes", "B", fmt.Sprintf("switch shared buffer, at most %d B", uint64(fabric.MaxSwitchBufferBytes))},
	{"ecn.kmin_bytes", "B", "queue depth at and below which nothing is marked"},
	{"ecn.kmax_bytes", "B", "queue depth at and above which everything is marked"},
	{"ecn.pmax", "", "mark probability just below Kmax (0 to 1)"},
	{"rto_us", "us", "senders' retransmission timeout"},
	{"limit_us", "us", "simulated time limit"},
}

// IncastParams lists the parameters IncastConfig.Set accepts.
func IncastParams() [][3]string { return slices.Clone(incastParams) }

// Set changes one parameter by name; an unknown name is an error listing
// the known ones.
func (c *IncastConfig) Set(name, value string) error {
	value = strings.TrimSpace(value)
	var err error
	switch name {
	case "senders":
		c.Senders, err = strconv.Atoi(value)
		if err == nil && (c.Senders < 1 || c.Senders > maxIncastSenders) {
			err = fmt.Errorf("want 1 to %d (a port of the switch each, and one for the receiver)", maxIncastSenders)
		}
	case "bytes":
		c.Bytes, err = parseUint(value)
	case "cc":
		if !slices.Contains(nic400g.CCNames, value) {
			err = fmt.Errorf("one of %s", strings.Join(nic400g.CCNames, ", "))
		}
		c.CC = value
	case "pfc":
		c.PFC, err = strconv.ParseBool(value)
	case "switch.buffer_bytes":
		c.BufferBytes, err = parseUint(value)
		if err == nil && c.BufferBytes > fabric.MaxSwitchBufferBytes {
			err = fmt.Errorf("at most %d, as a scenario's switch.buffer_bytes (fabric.MaxSwitchBufferBytes)", uint64(fabric.MaxSwitchBufferBytes))
		}
	case "ecn.kmin_bytes":
		c.KminBytes, err = parseUint(value)
	case "ecn.kmax_bytes":
		c.KmaxBytes, err = parseUint(value)
	case "ecn.pmax":
		c.Pmax, err = strconv.ParseFloat(value, 64)
		if err == nil && (c.Pmax < 0 || c.Pmax >= 1) {
			err = fmt.Errorf("want 0 <= pmax < 1")
		}
	case "rto_us":
		c.RTOUS, err = parseUint(value)
	case "limit_us":
		c.LimitUS, err = parseUint(value)
	default:
		names := make([]string, len(incastParams))
		for i, p := range incastParams {
			names[i] = p[0]
		}
		return fmt.Errorf("unknown incast parameter %q (known: %s)", name, strings.Join(names, ", "))
	}
	if err != nil {
		return fmt.Errorf("%s=%q: %v", name, value, err)
	}
	return nil
}

// parseUint reads a whole number, also written as a float without a
// fraction (1e6), as designs over a range write them.
func parseUint(s string) (uint64, error) {
	if v, err := strconv.ParseUint(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt64 {
		return 0, fmt.Errorf("want a whole number of at least 0")
	}
	return uint64(f), nil
}

// IncastResult is what an incast run measured.
type IncastResult struct {
	// ThroughputGbps is the payload delivered to the receiver over the
	// time from the first doorbell to the last requester completion.
	ThroughputGbps float64
	// PeakBufferBytes is the most switch buffer held at once (whole cells).
	PeakBufferBytes uint64
	// FCTs are the senders' flow completion times (doorbell to CQE
	// visible at the requester), in microseconds, ascending.
	FCTs []float64
	// Marks, CNPs, Drops and Retransmits are counter totals of the run.
	Marks, CNPs, Drops, Retransmits uint64
}

// Percentile is the p-th percentile (0 to 100) of the FCTs, nearest rank.
func (r IncastResult) Percentile(p float64) float64 {
	if len(r.FCTs) == 0 {
		return 0
	}
	k := int(math.Ceil(p/100*float64(len(r.FCTs)))) - 1
	return r.FCTs[min(max(k, 0), len(r.FCTs)-1)]
}

// RunIncast simulates c on the cycle model with the given seed. It checks
// ctx between slices of simulated time.
func RunIncast(ctx context.Context, c IncastConfig, seed uint64) (IncastResult, error) {
	var res IncastResult
	if c.Senders < 1 || c.Bytes == 0 || c.RTOUS == 0 {
		return res, fmt.Errorf("incast: want at least one sender, one byte and an RTO")
	}
	sw := switchasic.DefaultConfig()
	sw.Seed = seed
	sw.TM.BufferBytes = c.BufferBytes
	sw.TM.PFC.Enabled[0] = c.PFC
	sw.TM.WRED[0] = switchasic.WREDConfig{Enabled: true, KminBytes: c.KminBytes, KmaxBytes: c.KmaxBytes,
		PmaxQ: uint16(min(c.Pmax*65536, 65535))}
	s, err := fabric.NewStar(c.Senders+1, sw, func(i int) nic400g.Config {
		nc := nic400g.DefaultConfig(uint32(i))
		nc.CC = c.CC
		nc.RTO = rtlmodel.Time(c.RTOUS) * rtlmodel.Microsecond
		nc.Seed = seed*1000003 + uint64(i)
		return nc
	}, rtlmodel.Options{Seed: seed})
	if err != nil {
		return res, fmt.Errorf("incast: %w", err)
	}
	const start = rtlmodel.Microsecond
	var last rtlmodel.Time
	for i := 0; i < c.Senders; i++ {
		s.NICs[i].OnComplete = func(cq nic400g.Completion) {
			if cq.Responder {
				return
			}
			res.FCTs = append(res.FCTs, float64(cq.Visible-cq.Posted)/1e6)
			last = max(last, cq.Visible)
		}
		wr := nic400g.WorkRequest{QP: 1, Dst: uint32(c.Senders), DestQP: uint32(1 + i), Bytes: c.Bytes, Posted: start}
		if err := fabric.AddPoster(s.Engine, s.NICs[i], s.NICs[i].Host(), []nic400g.WorkRequest{wr}); err != nil {
			return res, err
		}
	}
	limit := rtlmodel.Time(c.LimitUS) * rtlmodel.Microsecond
	const slice = 50 * rtlmodel.Microsecond
	for len(res.FCTs) < c.Senders {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		before := s.Engine.Now()
		if before >= limit {
			return res, fmt.Errorf("incast: %d of %d flows done at the %d us limit", len(res.FCTs), c.Senders, c.LimitUS)
		}
		if err := s.Engine.Run(min(before+slice, limit)); err != nil {
			return res, fmt.Errorf("incast: %w", err)
		}
		if s.Engine.Now() == before && len(res.FCTs) < c.Senders {
			return res, fmt.Errorf("incast: the run went quiet with %d of %d flows done", len(res.FCTs), c.Senders)
		}
	}
	slices.Sort(res.FCTs)
	res.ThroughputGbps = float64(c.Bytes) * float64(c.Senders) * 8 / float64(last-start) * 1e3
	res.PeakBufferBytes = s.Switch.TM().Buffer().MaxUsedCells() * uint64(sw.TM.CellBytes)
	res.Marks = counterSum(s.Engine, "mmu/ecn_marked")
	res.CNPs = counterSum(s.Engine, "cnp_sent")
	res.Drops = counterSum(s.Engine, "mmu/dropped")
	res.Retransmits = counterSum(s.Engine, "/retransmits")
	return res, nil
}

// counterSum adds every counter whose name ends in suffix.
func counterSum(e *rtlmodel.Engine, suffix string) uint64 {
	var n uint64
	for _, r := range e.Stats().Records() {
		if r.Kind == "counter" && strings.HasSuffix(r.Name, suffix) && r.Value != nil {
			n += uint64(*r.Value)
		}
	}
	return n
}
