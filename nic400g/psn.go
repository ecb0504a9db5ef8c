package nic400g

// PSN is a 24-bit packet sequence number (FACTS 1.2, BTH w2[23:0], S
// [R1][R2]). Arithmetic wraps at 2^24; ordering is taken over half the
// space, as Linux rxe's psn_compare does: the 24-bit difference is shifted
// into the top of a signed 32-bit value (S [R82]). Only the low 24 bits of
// a PSN value are meaningful; every method returns a value in range.
type PSN uint32

// PSN space constants (FACTS 1.2).
const (
	PSNBits       = 24
	PSNSpace      = 1 << PSNBits // 16,777,216 sequence numbers
	PSNMask  PSN  = PSNSpace - 1
	PSNHalf       = PSNSpace / 2 // the ordering horizon, 2^23
	psnShift uint = 32 - PSNBits
)

// NewPSN returns v modulo 2^24.
func NewPSN(v uint32) PSN { return PSN(v) & PSNMask }

// Add returns p + n modulo 2^24.
func (p PSN) Add(n uint32) PSN { return (p + PSN(n)) & PSNMask }

// Sub returns p − n modulo 2^24.
func (p PSN) Sub(n uint32) PSN { return (p - PSN(n)) & PSNMask }

// Next returns p + 1 modulo 2^24.
func (p PSN) Next() PSN { return (p + 1) & PSNMask }

// PSNDiff returns the signed distance a − b in [−2^23, 2^23): the value
// psn_compare of Linux rxe computes, scaled down by 2^8 (S [R82]). Two
// PSNs exactly 2^23 apart are each "before" the other, as in rxe.
func PSNDiff(a, b PSN) int32 {
	return int32(uint32(a-b)<<psnShift) >> psnShift
}

// Before reports whether p comes before q in half-space order.
func (p PSN) Before(q PSN) bool { return PSNDiff(p, q) < 0 }

// After reports whether p comes after q in half-space order.
func (p PSN) After(q PSN) bool { return PSNDiff(p, q) > 0 }

// PSNCompare returns −1, 0 or +1 as a is before, equal to or after b.
func PSNCompare(a, b PSN) int {
	switch d := PSNDiff(a, b); {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}
