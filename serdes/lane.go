package serdes

import "fmt"

// LaneBaud is the symbol rate of one 100G-class ("112G") electrical lane,
// 53.125 GBd. FACTS 3 [R23][R34].
var LaneBaud = NewRat(53_125_000_000, 1)

// PAM4BitsPerSymbol is the number of bits a PAM4 symbol carries. FACTS 3 [R23].
const PAM4BitsPerSymbol = 2

// LaneRate is the line rate of one lane: 53.125 GBd x 2 bits (PAM4) =
// 106.25 Gb/s. FACTS 3 [R23]; TH5 SerDes run at this rate [R34].
var LaneRate = Rate{LaneBaud.Mul(IntRat(PAM4BitsPerSymbol))}

// LaneMACRate is the MAC data rate one lane carries, 100 Gb/s. FACTS 3 [R23].
var LaneMACRate = RateBPS(100 * Gbps)

// LaneGroup is a port built from 1, 2, 4 or 8 lanes: 100G, 200G, 400G or
// 800G Ethernet (100GBASE-KR1/CR1 through 800GBASE-CR8/KR8). FACTS 3 [R72]
// [R74]. The zero value is not a valid group; use NewLaneGroup or the
// constants.
type LaneGroup uint8

// The lane groups of FACTS 3 [R72].
const (
	Port100G LaneGroup = 1
	Port200G LaneGroup = 2
	Port400G LaneGroup = 4
	Port800G LaneGroup = 8
)

// NewLaneGroup returns the group of n lanes; n must be 1, 2, 4 or 8.
func NewLaneGroup(n int) (LaneGroup, error) {
	switch n {
	case 1, 2, 4, 8:
		return LaneGroup(n), nil
	}
	return 0, fmt.Errorf("serdes: a port has 1, 2, 4 or 8 lanes, not %d", n)
}

// Lanes returns the number of lanes.
func (g LaneGroup) Lanes() int { return int(g) }

// LineRate returns the total line rate on the wire, lanes x 106.25 Gb/s
// (425 Gb/s for 400G). FACTS 3 [R23].
func (g LaneGroup) LineRate() Rate { return LaneRate.Scale(IntRat(uint64(g))) }

// MACRate returns the MAC data rate, lanes x 100 Gb/s. FACTS 3 [R23].
func (g LaneGroup) MACRate() Rate { return LaneMACRate.Scale(IntRat(uint64(g))) }

// String names the port speed, e.g. "400G".
func (g LaneGroup) String() string { return fmt.Sprintf("%dG", 100*int(g)) }

// Degraded returns the group left when failed lanes are taken out of
// service: the largest valid group that the remaining lanes can carry
// (a 400G port losing one lane runs as 200G). ok is false when no lane is
// left.
func (g LaneGroup) Degraded(failed int) (LaneGroup, bool) {
	left := int(g) - failed
	for _, n := range []int{8, 4, 2, 1} {
		if n <= left {
			return LaneGroup(n), true
		}
	}
	return 0, false
}
