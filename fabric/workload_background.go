package fabric

import (
	"fmt"
	"math"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// CDFPoint is one point of a flow-size distribution: a fraction P of flows
// have at most Bytes bytes. Between points the CDF is linear (E).
type CDFPoint struct {
	Bytes uint64  `yaml:"bytes"`
	P     float64 `yaml:"p"`
}

// BackgroundConfig is a background traffic mix: Poisson arrivals of flows
// between uniformly chosen distinct hosts, sizes drawn from SizeCDF, at an
// offered load of Load times the hosts' combined link rate.
type BackgroundConfig struct {
	// Hosts are the endpoints that send and receive.
	Hosts []int
	// SizeCDF is the flow-size distribution: Bytes at least 1 and
	// non-decreasing, P non-decreasing in [0, 1], the last P exactly 1.
	SizeCDF []CDFPoint
	// Load is the offered load per host as a fraction of LinkBitsPerSecond,
	// in (0, 1].
	Load float64
	// LinkBitsPerSecond is each host's link rate (400e9 for the NIC,
	// FACTS 1.4).
	LinkBitsPerSecond float64
	// Start and Duration bound the arrival times: [Start, Start+Duration).
	Start, Duration rtlmodel.Time
	// Seed selects the RNG stream (seed, "fabric/background").
	Seed uint64
}

// MeanBytes is the mean flow size of a piecewise-linear CDF: the mass at
// the first point sits at its size, each segment's mass at its midpoint.
func MeanBytes(cdf []CDFPoint) float64 {
	if len(cdf) == 0 {
		return 0
	}
	m := cdf[0].P * float64(cdf[0].Bytes)
	for i := 1; i < len(cdf); i++ {
		m += (cdf[i].P - cdf[i-1].P) * (float64(cdf[i].Bytes) + float64(cdf[i-1].Bytes)) / 2
	}
	return m
}

// checkCDF validates a size distribution; the error names the point.
func checkCDF(cdf []CDFPoint) error {
	if len(cdf) == 0 {
		return keyed("size_cdf", fmt.Errorf("fabric: background size_cdf is empty: a background mix draws its flow sizes from "+
			"workload.size_cdf, points {bytes, p} rising to p 1 (as - {bytes: 4096, p: 0.5} then - {bytes: 1048576, p: 1})"))
	}
	for i, p := range cdf {
		switch {
		case p.Bytes < 1:
			return keyed(fmt.Sprintf("size_cdf.%d", i), fmt.Errorf("fabric: background size_cdf[%d]: bytes must be at least 1", i))
		case !(p.P >= 0 && p.P <= 1):
			return keyed(fmt.Sprintf("size_cdf.%d", i), fmt.Errorf("fabric: background size_cdf[%d]: p %v is not in [0, 1]", i, p.P))
		case i > 0 && (p.Bytes < cdf[i-1].Bytes || p.P < cdf[i-1].P):
			return keyed(fmt.Sprintf("size_cdf.%d", i), fmt.Errorf("fabric: background size_cdf[%d]: bytes and p must not decrease", i))
		}
	}
	if last := cdf[len(cdf)-1].P; last != 1 {
		return keyed(fmt.Sprintf("size_cdf.%d", len(cdf)-1), fmt.Errorf("fabric: background size_cdf ends at p %v; it must end at 1", last))
	}
	return nil
}

// drawSize inverts the CDF at u in [0, 1).
func drawSize(cdf []CDFPoint, u float64) uint64 {
	if u <= cdf[0].P {
		return cdf[0].Bytes
	}
	for i := 1; i < len(cdf); i++ {
		if u <= cdf[i].P {
			lo, hi := cdf[i-1], cdf[i]
			if hi.P == lo.P {
				return hi.Bytes
			}
			x := float64(lo.Bytes) + (u-lo.P)/(hi.P-lo.P)*float64(hi.Bytes-lo.Bytes)
			return max(uint64(math.Round(x)), 1)
		}
	}
	return cdf[len(cdf)-1].Bytes
}

// Background draws the mix: flows arrive as one Poisson process of rate
// Load·N·LinkBitsPerSecond / (8·MeanBytes) per second over the N hosts
// (exponential gaps, rounded to the picosecond), each from a uniform host
// to a uniform other host with a size drawn from SizeCDF. Over a long
// enough Duration the offered bytes approach Load of the hosts' capacity.
// A mix expected to hold more than two million flows is refused before
// any is drawn.
func Background(cfg BackgroundConfig) ([]Flow, error) {
	if err := checkHosts("background", cfg.Hosts, 2); err != nil {
		return nil, err
	}
	if err := checkCDF(cfg.SizeCDF); err != nil {
		return nil, err
	}
	switch {
	case !(cfg.Load > 0 && cfg.Load <= 1):
		return nil, keyed("load", fmt.Errorf("fabric: background load %v is not in (0, 1]", cfg.Load))
	case !(cfg.LinkBitsPerSecond > 0):
		return nil, fmt.Errorf("fabric: background link_bps %v must be positive", cfg.LinkBitsPerSecond)
	case cfg.Duration == 0:
		return nil, keyed("duration_us", fmt.Errorf("fabric: background duration must be positive"))
	}
	n := len(cfg.Hosts)
	perSecond := cfg.Load * float64(n) * cfg.LinkBitsPerSecond / (8 * MeanBytes(cfg.SizeCDF))
	if expected := perSecond * float64(cfg.Duration) / 1e12; expected > maxBackgroundFlows {
		return nil, keyed("duration_us", fmt.Errorf("fabric: background would draw about %.3g flows (load %v of %d hosts over %v, "+
			"flows of %.0f bytes on average); at most %d: shorten the duration, lower the load or make the flows larger",
			expected, cfg.Load, n, cfg.Duration, MeanBytes(cfg.SizeCDF), maxBackgroundFlows))
	}
	meanGap := 1e12 / perSecond // ps
	rng := rtlmodel.NewRNG(cfg.Seed, "fabric/background")
	var flows []Flow
	at := float64(cfg.Start)
	end := float64(cfg.Start + cfg.Duration)
	for {
		at += -math.Log(1-rng.Float64()) * meanGap
		if at >= end {
			return flows, nil
		}
		s := rng.Intn(n)
		d := rng.Intn(n - 1)
		if d >= s {
			d++
		}
		size := drawSize(cfg.SizeCDF, rng.Float64())
		flows = append(flows, Flow{ID: len(flows), Src: cfg.Hosts[s], Dst: cfg.Hosts[d], Bytes: size, Start: rtlmodel.Time(at)})
	}
}
