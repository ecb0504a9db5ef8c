package serdes

import (
	"fmt"
	"math/bits"
)

// DecodeStatus says what a Decoder made of a received word.
type DecodeStatus uint8

const (
	// DecodeClean means every syndrome was zero: the word is a codeword and
	// was left as it was.
	DecodeClean DecodeStatus = iota
	// DecodeCorrected means at most t symbols were in error and were
	// corrected in place.
	DecodeCorrected
	// DecodeUncorrectable means the word is further than t symbols from any
	// codeword; it was left as received. Hardware marks such codewords so
	// the frames they carry fail their FCS.
	DecodeUncorrectable
)

// String names the status.
func (s DecodeStatus) String() string {
	switch s {
	case DecodeClean:
		return "clean"
	case DecodeCorrected:
		return "corrected"
	case DecodeUncorrectable:
		return "uncorrectable"
	}
	return fmt.Sprintf("DecodeStatus(%d)", uint8(s))
}

// DecodeResult reports one decode.
type DecodeResult struct {
	// Status is clean, corrected or uncorrectable.
	Status DecodeStatus
	// Symbols is the number of symbols corrected (0 unless corrected).
	Symbols int
	// Bits is the number of bits flipped by the correction.
	Bits int
}

// Decoder corrects received words of one Code in place. It keeps all its
// scratch space, so Decode does not allocate. A Decoder is not safe for
// concurrent use; give each goroutine its own.
//
// The algorithm is the textbook hardware pipeline (FACTS 3, "FEC latency:
// total RX decode"): syndromes S_i = r(alpha^i), Berlekamp-Massey for the
// error locator Lambda(x), Chien search for its roots, Forney for the error
// values. A word is flagged uncorrectable when Lambda has degree above t,
// when its degree differs from the register length, when it does not have
// exactly that many distinct roots among the n positions, or when the
// computed error pattern does not reproduce the syndromes.
type Decoder struct {
	c      *Code
	work   []uint16 // n: the received word under division by g(x)
	synd   []uint16 // 2t syndromes
	lambda []uint16 // error locator, ascending powers, 2t+1
	prev   []uint16 // Berlekamp-Massey's B(x)
	tmp    []uint16
	omega  []uint16 // error evaluator, t
	term   []uint16 // Chien: lambda_k*alpha^(-k*p)
	check  []uint16 // syndromes of the computed error pattern
	pos    []int    // error positions (codeword indices)
	val    []uint16 // error values
}

// NewDecoder returns a decoder for c.
func NewDecoder(c *Code) *Decoder {
	p := c.n - c.k
	return &Decoder{
		c:      c,
		work:   make([]uint16, c.n),
		synd:   make([]uint16, p),
		lambda: make([]uint16, p+1),
		prev:   make([]uint16, p+1),
		tmp:    make([]uint16, p+1),
		omega:  make([]uint16, c.t),
		term:   make([]uint16, c.t+1),
		check:  make([]uint16, p),
		pos:    make([]int, 0, c.t),
		val:    make([]uint16, 0, c.t),
	}
}

// Code returns the code the decoder decodes.
func (d *Decoder) Code() *Code { return d.c }

// Syndromes computes S_i = r(alpha^i), i = 0..n-k-1, of the received word
// into the decoder's buffer and reports whether any is non-zero. The returned
// slice is valid until the next call.
//
// It first divides r(x) by g(x), re-encoding the message part and adding the
// received parity, which costs the same as encoding; a zero remainder means
// a codeword and all syndromes zero. Otherwise, since every
// alpha^i is a root of g, S_i is the remainder evaluated at alpha^i, a
// polynomial of degree below n-k.
func (d *Decoder) Syndromes(r []uint16) ([]uint16, bool) {
	c := d.c
	if len(r) != c.n {
		panic(fmt.Sprintf("serdes: Decode needs %d symbols, got %d", c.n, len(r)))
	}
	var acc uint16
	for _, x := range r {
		acc |= x
	}
	if acc >= GFSize {
		panic("serdes: Decode given a symbol wider than 10 bits")
	}
	// r(x) mod g(x) = (message part x^(n-k) mod g(x)) + parity part.
	rem := d.work[c.k:]
	c.parity(r[:c.k], rem)
	for i, v := range r[c.k:] {
		rem[i] ^= v
	}
	s := d.synd
	clear(s)
	var any uint16
	for _, v := range rem {
		any |= v
	}
	if any == 0 {
		return s, false
	}
	// Horner for all syndromes side by side: independent chains.
	tabs := c.synTab
	s = s[:len(tabs)]
	for _, x := range rem {
		for i, t := range tabs {
			s[i] = t[s[i]&gfOrder] ^ x
		}
	}
	return s, true
}

// ErrorPositions returns the codeword indices corrected by the last Decode
// (empty unless it returned DecodeCorrected). The slice is valid until the
// next call.
func (d *Decoder) ErrorPositions() []int { return d.pos }

// Decode corrects r (n symbols, each below 1024) in place.
func (d *Decoder) Decode(r []uint16) DecodeResult {
	d.pos = d.pos[:0]
	d.val = d.val[:0]
	s, dirty := d.Syndromes(r)
	if !dirty {
		return DecodeResult{Status: DecodeClean}
	}
	L := d.berlekampMassey(s)
	t := d.c.t
	lam := d.lambda
	if L > t || lam[L] == 0 {
		return DecodeResult{Status: DecodeUncorrectable}
	}
	for i := L + 1; i < len(lam); i++ {
		if lam[i] != 0 {
			return DecodeResult{Status: DecodeUncorrectable}
		}
	}
	if !d.chien(L) {
		return DecodeResult{Status: DecodeUncorrectable}
	}
	if !d.forney(L) {
		return DecodeResult{Status: DecodeUncorrectable}
	}
	if !d.checkPattern() {
		return DecodeResult{Status: DecodeUncorrectable}
	}
	nbits := 0
	for i, j := range d.pos {
		r[j] ^= d.val[i]
		nbits += bits.OnesCount16(d.val[i])
	}
	return DecodeResult{Status: DecodeCorrected, Symbols: len(d.pos), Bits: nbits}
}

// berlekampMassey finds the shortest LFSR Lambda(x) generating the
// syndromes and returns its length L.
func (d *Decoder) berlekampMassey(s []uint16) int {
	lam, b, tmp := d.lambda, d.prev, d.tmp
	clear(lam)
	clear(b)
	lam[0], b[0] = 1, 1
	L, m := 0, 1
	bd := uint16(1) // last non-zero discrepancy
	for r := range s {
		delta := s[r]
		for i := 1; i <= L; i++ {
			delta ^= GFMul(lam[i], s[r-i])
		}
		if delta == 0 {
			m++
			continue
		}
		coef := GFMul(delta, GFInv(bd))
		lc := int(gfLog[coef])
		if 2*L <= r {
			copy(tmp, lam)
			for i := 0; i+m < len(lam); i++ {
				if b[i] != 0 {
					lam[i+m] ^= gfExp[lc+int(gfLog[b[i]])]
				}
			}
			L = r + 1 - L
			copy(b, tmp)
			bd = delta
			m = 1
		} else {
			for i := 0; i+m < len(lam); i++ {
				if b[i] != 0 {
					lam[i+m] ^= gfExp[lc+int(gfLog[b[i]])]
				}
			}
			m++
		}
	}
	return L
}

// chien finds the roots alpha^(-p) of Lambda for exponents p = 0..n-1, the
// position of exponent p being index n-1-p, and reports whether exactly L
// were found. Term k of Lambda(alpha^(-p)) is lambda_k*alpha^(-kp). One
// look-up in the code's chienQuad table gives a term at the next four
// positions packed into a uint64, so XORing the L+1 packed terms evaluates
// Lambda at four positions at once, and the last lane carries the term on.
func (d *Decoder) chien(L int) bool {
	n := d.c.n
	term := d.term[:L+1]
	quads := d.c.chienQuad[:L+1]
	var sum uint16
	for k := range term {
		term[k] = d.lambda[k]
		sum ^= term[k]
	}
	if sum == 0 && d.found(0, L) {
		return true
	}
	for p := 1; p < n; p += 4 {
		var acc uint64
		for k, q := range quads {
			w := q[term[k]&gfOrder]
			acc ^= w
			term[k] = uint16(w >> 48)
		}
		for j := 0; j < 4 && p+j < n; j++ {
			if uint16(acc>>(16*j)) == 0 && d.found(p+j, L) {
				return true
			}
		}
	}
	return false
}

// found records a root at exponent p and reports whether all L are found
// (a degree-L polynomial has no further roots).
func (d *Decoder) found(p, L int) bool {
	d.pos = append(d.pos, d.c.n-1-p)
	return len(d.pos) == L
}

// forney computes the error values e = X * Omega(X^-1) / Lambda'(X^-1) for
// each located error X = alpha^p (first generator root alpha^0).
func (d *Decoder) forney(L int) bool {
	s, lam, om := d.synd, d.lambda, d.omega[:L]
	// Omega(x) = S(x) Lambda(x) mod x^L (its degree is below L).
	for i := 0; i < L; i++ {
		var v uint16
		for j := 0; j <= i; j++ {
			v ^= GFMul(s[i-j], lam[j])
		}
		om[i] = v
	}
	n := d.c.n
	for _, j := range d.pos {
		p := n - 1 - j
		xinv := GFExp(-p)
		// Horner for Omega(X^-1) and for Lambda'(X^-1), whose terms are the
		// odd coefficients of Lambda: sum over odd k of lambda_k x^(k-1).
		var num uint16
		for i := L - 1; i >= 0; i-- {
			num = GFMul(num, xinv) ^ om[i]
		}
		var den uint16
		x2 := GFMul(xinv, xinv)
		top := L
		if top%2 == 0 {
			top--
		}
		for k := top; k >= 1; k -= 2 {
			den = GFMul(den, x2) ^ lam[k]
		}
		if den == 0 {
			return false
		}
		e := GFMul(GFExp(p), GFMul(num, GFInv(den)))
		if e == 0 {
			return false
		}
		d.val = append(d.val, e)
	}
	return true
}

// checkPattern confirms that the error pattern reproduces every syndrome,
// so the corrected word is a codeword: S_i = sum_k e_k X_k^i.
func (d *Decoder) checkPattern() bool {
	n := d.c.n
	chk := d.check
	clear(chk)
	for k, j := range d.pos {
		p := (n - 1 - j) % gfOrder
		le := int(gfLog[d.val[k]])
		for i := range chk {
			chk[i] ^= gfExp[le]
			le += p
			if le >= gfOrder {
				le -= gfOrder
			}
		}
	}
	for i, v := range chk {
		if v != d.synd[i] {
			return false
		}
	}
	return true
}
