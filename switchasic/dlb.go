package switchasic

import (
	"fmt"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// DLBConfig holds the dynamic load balancing parameters: the flowlet
// table and the fixed-point port quality arithmetic of PortQuality.Update.
// FACTS 7: no TH5 or Spectrum-4 flowlet timers or quality settings are
// published, so every field is a parameter and every default is E.
type DLBConfig struct {
	// FlowletGap is the inactivity after which a flow's next packet starts
	// a new flowlet and may change member. Default 4 us: it must exceed the
	// largest delay difference between paths or a move reorders packets,
	// and 4 us drains 200 KB at 400 Gb/s (E).
	FlowletGap rtlmodel.Time
	// FlowletEntries is the size of the flowlet table, a power of two from
	// 1 to 2^20, shared by all groups and indexed by flow hash and group.
	// Default 32,768: 128 DLB groups (TH5, FACTS 4 [R71], S) x 256 (E). A
	// switch splits it evenly among its pipes, each holding the flowlets
	// of the packets it receives (E).
	FlowletEntries int
	// SampleWindow is how often the datapath feeds each port's transmitted
	// bytes and queue depth to UpdatePort. Default 1 us (E).
	SampleWindow rtlmodel.Time
	// LoadShift sets the load EWMA weight to 2^-LoadShift (0 to 16);
	// default 2, a weight of 1/4 (E).
	LoadShift uint8
	// LoadWeight weighs the load EWMA in the quality metric, unsigned
	// fixed point UQ8.8 (256 = 1.0); default 128 = 0.5 (E).
	LoadWeight uint16
	// QueueWeight weighs the queue depth in the quality metric, UQ8.8;
	// default 128 = 0.5 (E).
	QueueWeight uint16
	// BandShift sets the width of one quality band to 2^BandShift bytes of
	// metric (0 to 40); default 16, 64 KiB (E): a 400G port fully loaded
	// over a 1 us window sends 50,000 B, metric 25,000 B, band 0, and bands
	// climb with the queue (a 1 MB queue is band 7), so a busy healthy port
	// stays apart from a congested one instead of both saturating.
	BandShift uint8
	// Bands is the number of quality bands, 1 to 256; band 0 is the least
	// loaded and best. Default 8 (E).
	Bands int
}

// DefaultDLBConfig returns the defaults documented on each field (all E,
// FACTS 7).
func DefaultDLBConfig() DLBConfig {
	return DLBConfig{
		FlowletGap:     4 * rtlmodel.Microsecond,
		FlowletEntries: 32768,
		SampleWindow:   rtlmodel.Microsecond,
		LoadShift:      2,
		LoadWeight:     128,
		QueueWeight:    128,
		BandShift:      16,
		Bands:          8,
	}
}

// Validate checks the ranges documented on the fields.
func (c DLBConfig) Validate() error {
	switch {
	case c.FlowletGap == 0:
		return fmt.Errorf("switchasic: DLB flowlet gap must be positive")
	case c.FlowletEntries < 1 || c.FlowletEntries > 1<<20 || c.FlowletEntries&(c.FlowletEntries-1) != 0:
		return fmt.Errorf("switchasic: DLB flowlet table of %d entries is not a power of two from 1 to %d", c.FlowletEntries, 1<<20)
	case c.SampleWindow == 0:
		return fmt.Errorf("switchasic: DLB sample window must be positive")
	case c.LoadShift > 16:
		return fmt.Errorf("switchasic: DLB load shift %d is over 16", c.LoadShift)
	case c.BandShift > 40:
		return fmt.Errorf("switchasic: DLB band shift %d is over 40", c.BandShift)
	case c.Bands < 1 || c.Bands > 256:
		return fmt.Errorf("switchasic: DLB needs 1 to 256 quality bands, not %d", c.Bands)
	}
	return nil
}
