package switchasic

import "fmt"

// MaxClasses is the number of traffic classes per port the traffic
// manager supports: the eight 802.1p priorities that PFC pauses one by one
// (FACTS 2.7 [R52]).
const MaxClasses = 8

// TMConfig configures the traffic manager: the shared buffer in cells with
// a dynamic per-queue threshold, WRED/ECN marking per class, PFC per class
// and trimming. Every field has a unit and a default (DefaultTMConfig).
type TMConfig struct {
	// Ports is the number of ports, ingress and egress alike.
	Ports int
	// Classes is the number of traffic classes per port, 1 to 8; default 8.
	Classes int
	// BufferBytes is the buffer in bytes; whole cells of it are used.
	// Default TH5BufferBytes = 2 × 341,080 × 254 B (FACTS 4 [R71]).
	BufferBytes uint64
	// CellBytes is the buffer cell in bytes; default 254 (FACTS 4 [R71]).
	CellBytes int
	// AlphaShift sets the dynamic threshold: a lossy queue may hold up to
	// alpha × (free shared cells) with alpha = 2^-AlphaShift, a 4-bit
	// two's-complement shift (MinAlphaShift to MaxAlphaShift: alpha 256 to
	// 1/128). Default 0, alpha = 1, so a lone queue takes half the shared
	// pool (E).
	AlphaShift int
	// QueueReserveBytes is what every egress queue of a lossy class is
	// guaranteed whatever the shared pool holds: a packet that fits in
	// what is left of its queue's reserve is queued out of the reserve,
	// with no dynamic threshold; beyond it the queue takes shared cells
	// under the threshold. It is set aside from the buffer, whole cells
	// for each (port, lossy class). Default 0: no reserve (E; FACTS has
	// no switch's queue minimum).
	QueueReserveBytes uint64
	// WRED is the ECN marking curve of each class (FACTS 2.1). Entries at
	// or beyond Classes are ignored.
	WRED [MaxClasses]WREDConfig
	// PFC is priority flow control and its headroom (FACTS 2.7).
	PFC PFCConfig
	// Trim is packet trimming (FACTS 2.5).
	Trim TrimConfig
}

// DefaultWREDConfig returns the default marking curve: enabled, Kmin
// 1.6 MB, Kmax 6.4 MB, Pmax 0.2, the HPCC artifact's ECN map at 400G
// (FACTS 2.1 [R13]; KB = 1000 B).
func DefaultWREDConfig() WREDConfig {
	return WREDConfig{Enabled: true, KminBytes: 1600000, KmaxBytes: 6400000, PmaxQ: 13107}
}

// DefaultTMConfig returns the traffic manager of a Tomahawk-5-sized switch
// with ports ports: 8 classes, the FACTS 4 [R71] buffer of 682,160 cells of
// 254 B, alpha 1, the DefaultWREDConfig curve on every class, PFC defaults
// with no lossless class (DefaultPFCConfig) and trimming off
// (DefaultTrimConfig).
func DefaultTMConfig(ports int) TMConfig {
	c := TMConfig{
		Ports:       ports,
		Classes:     MaxClasses,
		BufferBytes: TH5BufferBytes,
		CellBytes:   TH5CellBytes,
		PFC:         DefaultPFCConfig(),
		Trim:        DefaultTrimConfig(),
	}
	for i := range c.WRED {
		c.WRED[i] = DefaultWREDConfig()
	}
	return c
}

// tmLimits is what a TMConfig resolves to after validation.
type tmLimits struct {
	lossless      [MaxClasses]bool
	xoff, xon     uint64   // bytes per (ingress port, class)
	headroomBytes []uint64 // per (ingress port, lossless class), by port
	headroomCells []uint64 // the same in cells
	reserveCells  uint64   // headroom over every port and lossless class
	queueResv     uint64   // reserved cells of each lossy egress queue
	queueResvAll  uint64   // the same over every port and lossy class
}

// resolve validates c and computes its derived limits; the error names
// the field at fault.
func (c TMConfig) resolve() (tmLimits, error) {
	var l tmLimits
	switch {
	case c.Ports <= 0:
		return l, fmt.Errorf("Ports %d; it must be positive", c.Ports)
	case c.Classes <= 0 || c.Classes > MaxClasses:
		return l, fmt.Errorf("Classes %d; it must be 1 to %d", c.Classes, MaxClasses)
	case c.CellBytes <= 0:
		return l, fmt.Errorf("CellBytes %d; it must be positive", c.CellBytes)
	case c.BufferBytes < uint64(c.CellBytes):
		return l, fmt.Errorf("BufferBytes %d holds no cell of %d B", c.BufferBytes, c.CellBytes)
	case c.AlphaShift < MinAlphaShift || c.AlphaShift > MaxAlphaShift:
		return l, fmt.Errorf("AlphaShift %d; it must be %d to %d", c.AlphaShift, MinAlphaShift, MaxAlphaShift)
	}
	for i := 0; i < c.Classes; i++ {
		if err := c.WRED[i].Validate(); err != nil {
			return l, fmt.Errorf("WRED[%d]: %w", i, err)
		}
	}
	nLossless := uint64(0)
	for i, on := range c.PFC.Enabled {
		if !on {
			continue
		}
		if i >= c.Classes {
			return l, fmt.Errorf("PFC.Enabled[%d]: class %d is beyond Classes (%d)", i, i, c.Classes)
		}
		l.lossless[i] = true
		nLossless++
	}
	l.headroomBytes = make([]uint64, c.Ports)
	l.headroomCells = make([]uint64, c.Ports)
	if nLossless > 0 {
		var err error
		var hr uint64
		l.xoff, l.xon, hr, err = c.PFC.Thresholds()
		if err != nil {
			return l, err
		}
		if n := len(c.PFC.PortSpeedsGbps); n != 0 && n != c.Ports {
			return l, fmt.Errorf("PFC.PortSpeedsGbps has %d entries for %d ports", n, c.Ports)
		}
		cell := uint64(c.CellBytes)
		for p := range l.headroomBytes {
			if len(c.PFC.PortSpeedsGbps) != 0 {
				if hr, err = c.PFC.HeadroomAt(c.PFC.PortSpeedsGbps[p]); err != nil {
					return l, fmt.Errorf("%w (PFC.PortSpeedsGbps[%d])", err, p)
				}
			}
			l.headroomBytes[p] = hr
			l.headroomCells[p] = (hr + cell - 1) / cell
			l.reserveCells += l.headroomCells[p] * nLossless
		}
		if total := c.BufferBytes / cell; l.reserveCells >= total {
			return l, fmt.Errorf("PFC.HeadroomBytes: headroom of %d cells (%d B on port 0) for each of %d ports × %d lossless classes needs %d cells in all, but the buffer has %d",
				l.headroomCells[0], l.headroomBytes[0], c.Ports, nLossless, l.reserveCells, total)
		}
	}
	if err := c.Trim.validate(c.Classes, l.lossless); err != nil {
		return l, err
	}
	if c.QueueReserveBytes > 0 {
		cell := uint64(c.CellBytes)
		l.queueResv = (c.QueueReserveBytes + cell - 1) / cell
		lossy := uint64(c.Classes) - nLossless
		l.queueResvAll = l.queueResv * uint64(c.Ports) * lossy
		if shared := c.BufferBytes/cell - l.reserveCells; l.queueResvAll >= shared {
			return l, fmt.Errorf("QueueReserveBytes %d: %d cells for each of %d ports × %d lossy classes need %d cells in all, but the shared pool has %d",
				c.QueueReserveBytes, l.queueResv, c.Ports, lossy, l.queueResvAll, shared)
		}
	}
	return l, nil
}

// Validate checks the configuration; the error names the field at fault.
func (c TMConfig) Validate() error {
	if _, err := c.resolve(); err != nil {
		return fmt.Errorf("TMConfig.%w", err)
	}
	return nil
}
