package switchasic

import "fmt"

// HeadroomFormula chooses how PFCConfig computes the headroom when
// HeadroomBytes is 0 (FACTS 2.7).
type HeadroomFormula uint8

const (
	// HeadroomMLX5 is the NVIDIA mlx5 driver formula (HeadroomMLX5Bytes,
	// FACTS 2.7 [R49]), the larger and the default.
	HeadroomMLX5 HeadroomFormula = iota
	// HeadroomCisco is the simplified Cisco-derived component formula
	// (HeadroomBytes, FACTS 2.7 [R51]); it knows 100G and 400G only.
	HeadroomCisco
)

// String names the formula.
func (f HeadroomFormula) String() string {
	switch f {
	case HeadroomMLX5:
		return "mlx5"
	case HeadroomCisco:
		return "cisco"
	}
	return fmt.Sprintf("HeadroomFormula(%d)", uint8(f))
}

// PFCConfig is priority flow control (802.1Qbb) on the ingress side of the
// traffic manager (FACTS 2.7). Each (ingress port, class) counts the bytes
// it holds in the buffer. For a lossless class (Enabled), XOFF is raised
// when that count exceeds XoffBytes, or when the shared pool has no room
// and the packet goes to headroom; XON is sent when the count falls below
// XonBytes with no headroom in use. After XOFF, arrivals are charged to a
// headroom reserve of HeadroomBytes per (ingress port, lossless class);
// beyond it they are dropped (DropHeadroomOverflow), which a correctly
// sized configuration never does. Lossless classes are never dropped by
// the dynamic threshold.
type PFCConfig struct {
	// Enabled marks the lossless classes. Default: none.
	Enabled [8]bool
	// XoffBytes is the XOFF threshold per (ingress port, class) in bytes.
	// Default 250,000 B, about one bandwidth-delay product at 400G with a
	// 5 µs RTT (FACTS 7, E).
	XoffBytes uint64
	// XonBytes is the XON threshold in bytes; it must not exceed XoffBytes.
	// 0 means XoffBytes − MTUBytes, the mlx5 hysteresis of one MTU
	// (FACTS 2.7 [R49]).
	XonBytes uint64
	// HeadroomBytes is the headroom per (ingress port, lossless class) in
	// bytes. 0 means computed by Formula from SpeedGbps, CableMetres and
	// MTUBytes. It is reserved out of the buffer in cells, rounded up; a
	// packet takes whole cells, so headroom for very small packets should
	// be sized with the cell overhead in mind.
	HeadroomBytes uint64
	// Formula computes HeadroomBytes when it is 0. Default HeadroomMLX5.
	Formula HeadroomFormula
	// SpeedGbps is the port speed the headroom is computed for. Default 400.
	SpeedGbps int
	// PortSpeedsGbps, when not empty, gives each port's speed for the
	// headroom computation (one entry per port, for port-mode mixes); a
	// fixed HeadroomBytes still applies to every port.
	PortSpeedsGbps []int
	// CableMetres is the cable length the headroom is computed for.
	// Default 100 m, the Juniper default cable length for headroom
	// (FACTS 2.7 [R53]).
	CableMetres int
	// MTUBytes is the largest lossless frame in bytes. Default 4200, the
	// MTU of the FACTS 2.7 headroom figures.
	MTUBytes int
}

// DefaultPFCConfig returns PFC with no lossless class and the thresholds
// above filled in, so enabling a class is one flag.
func DefaultPFCConfig() PFCConfig {
	return PFCConfig{
		XoffBytes:   250000,
		Formula:     HeadroomMLX5,
		SpeedGbps:   400,
		CableMetres: 100,
		MTUBytes:    4200,
	}
}

// AnyEnabled reports whether some class is lossless.
func (p PFCConfig) AnyEnabled() bool {
	for _, e := range p.Enabled {
		if e {
			return true
		}
	}
	return false
}

// Thresholds returns the XOFF, XON and headroom bytes the configuration
// resolves to (FACTS 2.7), or an error naming the field at fault.
func (p PFCConfig) Thresholds() (xoff, xon, headroom uint64, err error) {
	if p.XoffBytes == 0 {
		return 0, 0, 0, fmt.Errorf("PFC.XoffBytes is 0; it must be positive")
	}
	xoff, xon = p.XoffBytes, p.XonBytes
	if xon == 0 {
		if p.MTUBytes <= 0 || uint64(p.MTUBytes) >= xoff {
			return 0, 0, 0, fmt.Errorf("PFC.MTUBytes %d: XonBytes 0 means XoffBytes − MTUBytes, which needs 0 < MTUBytes < XoffBytes (%d)", p.MTUBytes, xoff)
		}
		xon = xoff - uint64(p.MTUBytes)
	}
	if xon > xoff {
		return 0, 0, 0, fmt.Errorf("PFC.XonBytes %d exceeds PFC.XoffBytes %d", xon, xoff)
	}
	headroom, err = p.HeadroomAt(p.SpeedGbps)
	if err != nil {
		return 0, 0, 0, err
	}
	return xoff, xon, headroom, nil
}

// HeadroomAt returns the headroom per (port, lossless class) in bytes for
// a port of speedGbps: HeadroomBytes when set, else Formula at that speed
// with CableMetres and MTUBytes (FACTS 2.7 [R49][R51]). The error names
// the field at fault.
func (p PFCConfig) HeadroomAt(speedGbps int) (uint64, error) {
	if p.HeadroomBytes != 0 {
		return p.HeadroomBytes, nil
	}
	var h uint64
	var err error
	switch p.Formula {
	case HeadroomMLX5:
		h, err = HeadroomMLX5Bytes(speedGbps, p.CableMetres, p.MTUBytes)
	case HeadroomCisco:
		h, err = HeadroomBytes(speedGbps, p.CableMetres, p.MTUBytes)
	default:
		err = fmt.Errorf("unknown formula %d", uint8(p.Formula))
	}
	if err != nil {
		return 0, fmt.Errorf("PFC.Formula %s: %w", p.Formula, err)
	}
	return h, nil
}
