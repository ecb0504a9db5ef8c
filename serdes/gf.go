package serdes

// GF(2^10) arithmetic for the RS-FEC codes of IEEE 802.3 clause 91/119.

// GFBits is the symbol width of the RS-FEC codes: 10-bit symbols over
// GF(2^10). FACTS 3 [R23].
const GFBits = 10

// GFSize is the number of elements of GF(2^10).
const GFSize = 1 << GFBits

// gfOrder is the order of the multiplicative group, 2^10 - 1.
const gfOrder = GFSize - 1

// GFPoly is the field polynomial x^10 + x^3 + 1 (0x409) of the clause 91
// RS-FEC, bit i holding the coefficient of x^i. Tag U: recalled from
// IEEE 802.3 clause 91 (91.5.2.7) and confirmed against two independent
// public RS(528/544,514) implementations found in the stored code index (a
// clause 91 SystemVerilog model calibrated on captured PHY streams, and a
// TypeScript RS544 encoder), not against the IEEE text itself.
const GFPoly = 0x409

// gfExp holds alpha^i for i in [0, 2*gfOrder), twice over so that sums of
// two logarithms need no reduction. gfLog holds log_alpha(x) for x != 0.
var gfExp, gfLog = buildGFTables()

func buildGFTables() (exp [2 * gfOrder]uint16, log [GFSize]uint16) {
	x := uint16(1)
	for i := 0; i < gfOrder; i++ {
		exp[i] = x
		exp[i+gfOrder] = x
		log[x] = uint16(i)
		x <<= 1
		if x&GFSize != 0 {
			x ^= GFPoly
		}
	}
	return exp, log
}

// GFMul multiplies two elements of GF(2^10) (values below 1024).
func GFMul(a, b uint16) uint16 {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a&gfOrder])+int(gfLog[b&gfOrder])]
}

// GFInv returns the multiplicative inverse of a non-zero element; it panics
// on zero, which has none.
func GFInv(a uint16) uint16 {
	if a == 0 {
		panic("serdes: inverse of zero in GF(2^10)")
	}
	return gfExp[gfOrder-int(gfLog[a&gfOrder])]
}

// GFExp returns alpha^e for any integer e (negative exponents included).
func GFExp(e int) uint16 {
	e %= gfOrder
	if e < 0 {
		e += gfOrder
	}
	return gfExp[e]
}

// gfMulTable returns the table x -> c*x for a constant c.
func gfMulTable(c uint16) *[GFSize]uint16 {
	var t [GFSize]uint16
	for x := range t {
		t[x] = GFMul(c, uint16(x))
	}
	return &t
}
