package nic400g

import (
	"math"
	"math/bits"

	"github.com/fabricmodel/fabricmodel/packet"
)

// INT field widths (FACTS 2.2 [R15]): the timestamp and the byte counter
// wrap, so deltas are taken modulo their width as the artifact does
// (GetTimeDelta, GetBytesDelta, S [R15]).
const (
	intTimeMask  = 1<<24 - 1
	intBytesMask = 1<<20 - 1
)

// ccMulDiv returns ⌊a·b/c⌋ from the exact 128-bit product, saturating at
// 2^64−1 when the quotient does not fit (or c is 0). It is the
// multiply-then-divide of the fixed-point congestion-control datapaths
// (HPCC, TIMELY, Swift): one wide multiplier and one divider, truncating.
func ccMulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if c == 0 || hi >= c {
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// hpccSat32 clamps v to the 32-bit U register.
func hpccSat32(v uint64) uint32 {
	return uint32(min(v, math.MaxUint32))
}

// HPCCHopU is the utilisation one INT hop reports between two records of
// the same hop (FACTS 2.2, "Per-hop utilization", S [R14][R83]):
//
//	u = txRate/B + min(qLen_new, qLen_old)/(B·T)
//
// with τ = (cur.Time − prev.Time) mod 2^24 ns, txRate = 8·((cur.Bytes −
// prev.Bytes) mod 2^20)·128 B / τ, B the hop's line rate from its 3-bit
// code and T the base RTT; bdp is B·T in bytes for that hop (HPCC keeps
// one per line-rate code). Both terms are Q8.24 (HPCCUBits), each
// rounded down from the exact quotient, and their sum saturates at
// 2^32−1. It returns u and τ in ns; ok is false when the record carries no
// new information (τ = 0) or an unassigned line-rate code (5..7), and the
// hop is then left out of the update.
func HPCCHopU(cur, prev *packet.INTHop, bdp uint64) (u uint32, tauNs uint64, ok bool) {
	tau := uint64((cur.Time - prev.Time) & intTimeMask)
	line := cur.LineRateBps()
	if tau == 0 || line == 0 || bdp == 0 {
		return 0, tau, false
	}
	tx := uint64((cur.Bytes-prev.Bytes)&intBytesMask) * packet.INTByteUnit
	rateTerm := ccMulDiv(tx*8e9, HPCCUOne, tau*line)
	q := uint64(min(cur.QLen, prev.QLen)) * packet.INTQLenUnit
	qTerm := ccMulDiv(q, HPCCUOne, bdp)
	return hpccSat32(min(rateTerm, math.MaxUint32) + min(qTerm, math.MaxUint32)), tau, true
}
