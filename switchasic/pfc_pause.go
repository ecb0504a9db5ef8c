package switchasic

import (
	"fmt"
	"math/big"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// PauseQuantumBitTimes is the PFC pause quantum: 512 bit times at the port
// speed (FACTS 2.7 [R52]); about 1.28 ns at 400G (E). A pause time of 0
// quanta resumes the priority (FACTS 2.7 [R52]).
const PauseQuantumBitTimes = 512

// MaxPauseQuanta is the largest pause time a PFC frame carries: its time
// field is 16 bits (802.1Qbb; FACTS 2.7 [R52]).
const MaxPauseQuanta = 0xFFFF

// PauseTime returns how long quanta pause quanta last at a MAC rate of
// rateNum/rateDen bits per second (FACTS 2.7 [R52]: one quantum is 512 bit
// times): exactly quanta·512·10^12·rateDen/rateNum ps, rounded up to whole
// picoseconds, and whether that was exact. The arithmetic is on exact
// rationals, so no rate loses precision.
func PauseTime(quanta uint16, rateNum, rateDen uint64) (t rtlmodel.Time, exact bool, err error) {
	if rateNum == 0 || rateDen == 0 {
		return 0, false, fmt.Errorf("pause: rate %d/%d b/s; it must be positive", rateNum, rateDen)
	}
	num := new(big.Int).SetUint64(uint64(quanta) * PauseQuantumBitTimes)
	num.Mul(num, big.NewInt(1e12))
	num.Mul(num, new(big.Int).SetUint64(rateDen))
	den := new(big.Int).SetUint64(rateNum)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	exact = r.Sign() == 0
	if !exact {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsUint64() {
		return 0, false, fmt.Errorf("pause: %d quanta at %d/%d b/s last beyond 2^64 ps", quanta, rateNum, rateDen)
	}
	return rtlmodel.Time(q.Uint64()), exact, nil
}

// PauseQuantum returns one pause quantum (512 bit times) at speedGbps Gb/s
// in picoseconds: 512000/speed ps, which is whole for every Ethernet speed
// (it divides 2^12·5^3): 1280 ps at 400G, 640 ps at 800G, 5120 ps at 100G
// (FACTS 2.7 [R52]). Speeds for which it is not a whole number of ps are
// an error.
func PauseQuantum(speedGbps int) (rtlmodel.Time, error) {
	if speedGbps <= 0 {
		return 0, fmt.Errorf("pause: speed %d Gb/s; it must be positive", speedGbps)
	}
	const bitPs = PauseQuantumBitTimes * 1000 // 512 bits at 1 Gb/s, in ps
	if bitPs%speedGbps != 0 {
		return 0, fmt.Errorf("pause: a quantum at %d Gb/s is %d/%d ps, not whole picoseconds", speedGbps, bitPs, speedGbps)
	}
	return rtlmodel.Time(bitPs / speedGbps), nil
}

// PauseQuantaFor returns the number of quanta whose pause lasts at least d
// at speedGbps, saturating at MaxPauseQuanta: the pause time a PFC frame
// must carry to hold the sender for d (FACTS 2.7 [R52]).
func PauseQuantaFor(d rtlmodel.Time, speedGbps int) (uint16, error) {
	q, err := PauseQuantum(speedGbps)
	if err != nil {
		return 0, err
	}
	n := uint64(d) / uint64(q)
	if uint64(d)%uint64(q) != 0 {
		n++
	}
	if n > MaxPauseQuanta {
		n = MaxPauseQuanta
	}
	return uint16(n), nil
}
