package serdes

import (
	"fmt"
	"sync"
)

// RS544N is the codeword length of RS(544,514) "KP4" in 10-bit symbols.
// FACTS 3 [R23].
const RS544N = 544

// RS544K is the message length of RS(544,514) in 10-bit symbols. FACTS 3 [R23].
const RS544K = 514

// RS544T is the number of symbol errors RS(544,514) corrects: (544-514)/2 = 15.
// FACTS 3 [R23].
const RS544T = 15

// RS544CodewordBits is the size of one RS(544,514) codeword on the line,
// 544 x 10 = 5440 bits. FACTS 3 [R23].
const RS544CodewordBits = RS544N * GFBits

// RS544MessageBits is the payload of one RS(544,514) codeword, 514 x 10 =
// 5140 bits, which is twenty 257-bit transcoded blocks. FACTS 3 [R23][R25].
const RS544MessageBits = RS544K * GFBits

// Code is a systematic Reed-Solomon code RS(n,k) over GF(2^10) with the
// clause 91 field polynomial (GFPoly) and generator polynomial
// g(x) = (x - alpha^0)(x - alpha^1)...(x - alpha^(n-k-1)). Tag U for the
// choice of roots: clause 91 as recalled, confirmed against the same two
// public implementations as GFPoly. FACTS 3 [R23] for n, k and t.
//
// A codeword is a slice of n symbols; index 0 is the first symbol on the
// line and the coefficient of x^(n-1). The k message symbols come first and
// the n-k parity symbols last. A Code is immutable and safe for concurrent
// use; decoding state lives in a Decoder.
type Code struct {
	n, k, t int
	// gen holds g(x) in ascending powers; gen[n-k] = 1.
	gen []uint16
	// divRow holds, for each feedback symbol f, the row
	// f*gen[p-1], f*gen[p-2], ..., f*gen[0] (p = n-k) at divRow[f*p:]: one
	// step of the long division by g(x) XORs a whole row into the window
	// that follows the eliminated symbol.
	divRow []uint16
	// wordRow holds, when n-k <= 32, row f of divRow packed four symbols
	// to a uint64 at wordRow[f*8:], symbol q in bits 16(q%4) of word q/4,
	// for the word-wide encoder register.
	wordRow []uint64
	// synTab[i][x] = alpha^i*x, the Horner step of syndrome i.
	synTab []*[GFSize]uint16
	// chienQuad[k][x] packs x*alpha^(-k*j) for j = 1..4 into the four
	// 16-bit lanes of a uint64, k = 0..t: four Chien search steps at once.
	chienQuad []*[GFSize]uint64
}

// NewCode builds RS(n,k) over GF(2^10). n must not exceed 1023, and n-k
// must be even and positive. Use RS544 for the KP4 code.
func NewCode(n, k int) (*Code, error) {
	if n <= k || k <= 0 || n > gfOrder || (n-k)%2 != 0 {
		return nil, fmt.Errorf("serdes: RS(%d,%d) is not a valid Reed-Solomon code over GF(2^10)", n, k)
	}
	p := n - k
	c := &Code{n: n, k: k, t: p / 2}
	c.gen = make([]uint16, p+1)
	c.gen[0] = 1
	for i := 0; i < p; i++ {
		// multiply by (x + alpha^i)
		root := GFExp(i)
		for j := i + 1; j >= 0; j-- {
			var v uint16
			if j > 0 {
				v = c.gen[j-1]
			}
			c.gen[j] = v ^ GFMul(c.gen[j], root)
		}
	}
	c.divRow = make([]uint16, GFSize*p)
	for f := 0; f < GFSize; f++ {
		for j := 0; j < p; j++ {
			c.divRow[f*p+j] = GFMul(uint16(f), c.gen[p-1-j])
		}
	}
	if p <= 4*regWords {
		c.wordRow = make([]uint64, GFSize*regWords)
		for f := 0; f < GFSize; f++ {
			for q := 0; q < p; q++ {
				c.wordRow[f*regWords+q/4] |= uint64(c.divRow[f*p+q]) << (16 * (q % 4))
			}
		}
	}
	c.synTab = make([]*[GFSize]uint16, p)
	for j := 0; j < p; j++ {
		c.synTab[j] = gfMulTable(GFExp(j))
	}
	c.chienQuad = make([]*[GFSize]uint64, c.t+1)
	for k := range c.chienQuad {
		q := new([GFSize]uint64)
		for x := range q {
			for j := 1; j <= 4; j++ {
				q[x] |= uint64(GFMul(uint16(x), GFExp(-k*j))) << (16 * (j - 1))
			}
		}
		c.chienQuad[k] = q
	}
	return c, nil
}

var rs544 = sync.OnceValue(func() *Code {
	c, err := NewCode(RS544N, RS544K)
	if err != nil {
		panic(err)
	}
	return c
})

// RS544 returns the shared RS(544,514) "KP4" code of 400GBASE-R (IEEE 802.3
// clause 119) and 100GBASE-KP4 (clause 91). FACTS 3 [R23][R74].
func RS544() *Code { return rs544() }

// N returns the codeword length in symbols.
func (c *Code) N() int { return c.n }

// K returns the message length in symbols.
func (c *Code) K() int { return c.k }

// T returns the number of symbol errors the code corrects, (n-k)/2.
func (c *Code) T() int { return c.t }

// Generator returns a copy of g(x) in ascending powers (index i holds the
// coefficient of x^i; the last element is 1).
func (c *Code) Generator() []uint16 { return append([]uint16(nil), c.gen...) }

// maxN is the longest codeword over GF(2^10); Encode divides in a stack
// buffer of this size.
const maxN = gfOrder

// divide replaces buf (n symbols, the coefficients of a polynomial of degree
// below n, highest first) by its long division by g(x): buf[:k] is left
// holding the quotient and buf[k:] the remainder. It does not allocate.
func (c *Code) divide(buf []uint16) {
	p := c.n - c.k
	div := c.divRow
	for i := 0; i < c.k; i++ {
		f := int(buf[i] & gfOrder)
		if f == 0 {
			continue
		}
		row := div[f*p : f*p+p]
		win := buf[i+1 : i+1+p]
		win = win[:len(row)]
		for j, v := range row {
			win[j] ^= v
		}
	}
}

// regWords is the width in uint64 words of the word-wide parity register:
// up to 32 parity symbols, four to a word.
const regWords = 8

// parity writes to par (n-k symbols) the remainder of msg(x)*x^(n-k) divided
// by g(x), msg holding k symbols (highest degree first) and par[0] being
// the coefficient of x^(n-k-1). The shift register is held four symbols to a
// uint64, so each message symbol costs one shift of the register and eight
// word XORs rather than n-k symbol updates.
func (c *Code) parity(msg, par []uint16) {
	if c.wordRow == nil {
		var scratch [maxN]uint16
		buf := scratch[:c.n]
		copy(buf, msg)
		clear(buf[c.k:])
		c.divide(buf)
		copy(par, buf[c.k:])
		return
	}
	var reg [regWords]uint64
	rows := c.wordRow
	for _, m := range msg {
		f := int((m ^ uint16(reg[0])) & gfOrder)
		row := (*[regWords]uint64)(rows[f*regWords : f*regWords+regWords])
		reg[0] = (reg[0]>>16 | reg[1]<<48) ^ row[0]
		reg[1] = (reg[1]>>16 | reg[2]<<48) ^ row[1]
		reg[2] = (reg[2]>>16 | reg[3]<<48) ^ row[2]
		reg[3] = (reg[3]>>16 | reg[4]<<48) ^ row[3]
		reg[4] = (reg[4]>>16 | reg[5]<<48) ^ row[4]
		reg[5] = (reg[5]>>16 | reg[6]<<48) ^ row[5]
		reg[6] = (reg[6]>>16 | reg[7]<<48) ^ row[6]
		reg[7] = reg[7]>>16 ^ row[7]
	}
	for q := range par {
		par[q] = uint16(reg[q/4]>>(16*(q%4))) & gfOrder
	}
}

// Encode writes the codeword of msg into cw: cw[:k] = msg and cw[k:] the
// parity, the remainder of msg(x)*x^(n-k) divided by g(x). msg must hold k
// symbols and cw n symbols, each below 1024; msg and cw[:k] may be the same
// memory. Encode does not allocate.
func (c *Code) Encode(msg, cw []uint16) {
	if len(msg) != c.k || len(cw) != c.n {
		panic(fmt.Sprintf("serdes: Encode needs %d message and %d codeword symbols, got %d and %d", c.k, c.n, len(msg), len(cw)))
	}
	var bad uint16
	for _, m := range msg {
		bad |= m
	}
	if bad >= GFSize {
		panic("serdes: Encode given a symbol wider than 10 bits")
	}
	c.parity(msg, cw[c.k:])
	copy(cw[:c.k], msg)
}
