package switchasic

import "fmt"

// PFC headroom: the buffer a lossless (port, priority) needs beyond its
// XOFF threshold for what still arrives after XOFF is sent (FACTS 2.7).
// Two formulas are given: the Cisco-derived component sum [R51] and the
// NVIDIA mlx5 driver formula [R49]. All arithmetic is integer.

// Bit-time constants of the component formula (FACTS 2.7 [R51]).
const (
	// PFCFrameBitTimes is the PFC frame itself: 672 bit times.
	PFCFrameBitTimes = 672
	// SenderFrameExtraBitTimes is added to MTU·8 for the largest frame in
	// flight at the sender: 160 bit times (preamble and gap).
	SenderFrameExtraBitTimes = 160
	// Interface100GBitTimes is the interface delay quoted at 100GbE:
	// 122,880 bit times. No 400GbE figure is sourced.
	Interface100GBitTimes = 122880
	// CableBitTimesPerMetreGbps is the cable term per metre and Gb/s:
	// 5 ns/m each way, 2·5 ns = 10 bit times per metre per Gb/s.
	CableBitTimesPerMetreGbps = 10
)

// ReceiverResponseBitTimes returns the receiver response time in bit
// times for the speeds FACTS 2.7 [R51] gives: 201,728 at 100GbE and
// 463,360 (57.9 KB) at 400GbE. Other speeds report false.
func ReceiverResponseBitTimes(speedGbps int) (uint64, bool) {
	switch speedGbps {
	case 100:
		return 201728, true
	case 400:
		return 463360, true
	}
	return 0, false
}

// HeadroomTerms are the components of PFC headroom in bit times, the
// Cisco-derived breakdown of FACTS 2.7 [R51].
type HeadroomTerms struct {
	// SenderFrame is the largest frame in flight at the sender: MTU·8 + 160.
	SenderFrame uint64
	// PFCFrame is the PFC frame: 672.
	PFCFrame uint64
	// Interface is the interface delay (122,880 at 100GbE); supplied by the
	// caller, 0 when unknown.
	Interface uint64
	// Cable is the round trip on the cable: 2 · L · 5 ns/m · rate.
	Cable uint64
	// Response is the receiver response time (ReceiverResponseBitTimes).
	Response uint64
	// ReceiverFrame is the largest lossless-class frame: MTU·8.
	ReceiverFrame uint64
}

// HeadroomComponents returns the component breakdown at speedGbps with a
// cable of cableMetres and frames of mtu bytes. interfaceBT is the
// interface delay in bit times (0 when unknown); responseBT, when 0, is
// taken from ReceiverResponseBitTimes, which errors for speeds without a
// sourced value (FACTS 2.7 [R51]).
func HeadroomComponents(speedGbps, cableMetres, mtu int, interfaceBT, responseBT uint64) (HeadroomTerms, error) {
	if err := checkHeadroomArgs(speedGbps, cableMetres, mtu); err != nil {
		return HeadroomTerms{}, err
	}
	if responseBT == 0 {
		r, ok := ReceiverResponseBitTimes(speedGbps)
		if !ok {
			return HeadroomTerms{}, fmt.Errorf("headroom: no sourced receiver response time at %d Gb/s (FACTS 2.7 has 100 and 400); supply it", speedGbps)
		}
		responseBT = r
	}
	return HeadroomTerms{
		SenderFrame:   uint64(mtu)*8 + SenderFrameExtraBitTimes,
		PFCFrame:      PFCFrameBitTimes,
		Interface:     interfaceBT,
		Cable:         CableBitTimesPerMetreGbps * uint64(cableMetres) * uint64(speedGbps),
		Response:      responseBT,
		ReceiverFrame: uint64(mtu) * 8,
	}, nil
}

// BitTimes returns the sum of the terms.
func (h HeadroomTerms) BitTimes() uint64 {
	return h.SenderFrame + h.PFCFrame + h.Interface + h.Cable + h.Response + h.ReceiverFrame
}

// Bytes returns the sum in bytes, rounded up.
func (h HeadroomTerms) Bytes() uint64 { return (h.BitTimes() + 7) / 8 }

// HeadroomBytes is the simplified component formula of FACTS 2.7 [R51]:
//
//	headroom = (2·L·5 ns/m·R + D_resp·R) / 8 + MTU_sender + MTU_receiver
//
// with both MTUs equal to mtu and the interface terms ignored, in bytes
// rounded up. At 400G with MTU 4200 it gives 67,820 B at 3 m, 71,320 B at
// 10 m and 116,320 B at 100 m: the 68 / 71 / 116 KB of FACTS 2.7 (E).
func HeadroomBytes(speedGbps, cableMetres, mtu int) (uint64, error) {
	h, err := HeadroomComponents(speedGbps, cableMetres, mtu, 0, 0)
	if err != nil {
		return 0, err
	}
	return (h.Cable+h.Response+7)/8 + 2*uint64(mtu), nil
}

// HeadroomMLX5Bytes is the NVIDIA mlx5 driver's xoff (FACTS 2.7 [R49],
// Linux commit 0696d60853d5, calculate_xoff):
//
//	xoff = (301 + 2.16·L[m])·speed[Gb/s] + 2.72·MTU[B]
//
// evaluated exactly as the driver does, in integers with the speed in Mb/s
// and at least 40 Gb/s:
//
//	(301 + 216·L/100) · speedMbps / 1000 + 272·MTU/100
//
// (each division truncating, left to right). At 400G with MTU 4200 it is
// 134,224 B at 3 m (the real-valued formula gives 134,416) and 218,224 B
// at 100 m: the 134 KB and 218 KB of FACTS 2.7 (E). The driver computes
// in 32 bits; this uses 64, so they agree wherever the driver does not
// overflow (cables under about 2.3 km at 800G, 4.8 km at 400G).
func HeadroomMLX5Bytes(speedGbps, cableMetres, mtu int) (uint64, error) {
	if err := checkHeadroomArgs(speedGbps, cableMetres, mtu); err != nil {
		return 0, err
	}
	speedMbps := uint64(max(speedGbps, 40)) * 1000
	l, m := uint64(cableMetres), uint64(mtu)
	return (301+216*l/100)*speedMbps/1000 + 272*m/100, nil
}

// MLX5XonBytes is the driver's XON threshold for a buffer of bufferBytes
// holding xoffBytes of headroom (FACTS 2.7 [R49], with the xon fix
// e28408e98bce): xoff_threshold = buffer − xoff; xon = xoff_threshold −
// max_MTU. It errors when the buffer cannot hold xoff plus one MTU.
func MLX5XonBytes(bufferBytes, xoffBytes uint64, maxMTU int) (xoffThreshold, xon uint64, err error) {
	if maxMTU <= 0 || bufferBytes < xoffBytes+uint64(maxMTU) {
		return 0, 0, fmt.Errorf("headroom: buffer %d B cannot hold xoff %d B plus an MTU of %d B", bufferBytes, xoffBytes, maxMTU)
	}
	xoffThreshold = bufferBytes - xoffBytes
	return xoffThreshold, xoffThreshold - uint64(maxMTU), nil
}

func checkHeadroomArgs(speedGbps, cableMetres, mtu int) error {
	switch {
	case speedGbps <= 0:
		return fmt.Errorf("headroom: speed %d Gb/s; it must be positive", speedGbps)
	case cableMetres < 0:
		return fmt.Errorf("headroom: cable %d m; it must not be negative", cableMetres)
	case mtu <= 0:
		return fmt.Errorf("headroom: MTU %d B; it must be positive", mtu)
	}
	return nil
}
