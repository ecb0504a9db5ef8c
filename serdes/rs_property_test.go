package serdes

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func randomMessage(rng *rand.Rand, msg []uint16) {
	for i := range msg {
		msg[i] = uint16(rng.IntN(GFSize))
	}
}

// injectSymbolErrors puts nerr errors at distinct random positions with
// random non-zero values.
func injectSymbolErrors(rng *rand.Rand, rx []uint16, nerr int, perm []int) {
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < nerr; i++ {
		j := i + rng.IntN(len(perm)-i)
		perm[i], perm[j] = perm[j], perm[i]
		rx[perm[i]] ^= uint16(1 + rng.IntN(GFSize-1))
	}
}

func TestGFField(t *testing.T) {
	// alpha has order 1023: the polynomial is primitive.
	seen := make(map[uint16]bool)
	for i := 0; i < gfOrder; i++ {
		x := GFExp(i)
		require.False(t, seen[x], "alpha^%d repeats", i)
		seen[x] = true
	}
	require.Equal(t, uint16(1), GFExp(gfOrder))
	require.Equal(t, uint16(0x009), GFExp(10), "alpha^10 = alpha^3 + 1")
	for a := uint16(1); a < GFSize; a++ {
		require.Equal(t, uint16(1), GFMul(a, GFInv(a)))
	}
	require.Panics(t, func() { GFInv(0) })
}

func TestRSCodeShape(t *testing.T) {
	c := RS544()
	require.Equal(t, 544, c.N())
	require.Equal(t, 514, c.K())
	require.Equal(t, 15, c.T())
	require.Equal(t, 5440, RS544CodewordBits)
	require.Equal(t, 5140, RS544MessageBits)
	require.Equal(t, 20*257, RS544MessageBits, "twenty 257b blocks per codeword")
	g := c.Generator()
	require.Len(t, g, 31)
	for i := 0; i < 30; i++ {
		var v uint16
		for k := len(g) - 1; k >= 0; k-- {
			v = GFMul(v, GFExp(i)) ^ g[k]
		}
		require.Zero(t, v, "alpha^%d is a root of g", i)
	}
	_, err := NewCode(544, 545)
	require.Error(t, err)
	_, err = NewCode(1024, 514)
	require.Error(t, err)
	kr4, err := NewCode(528, 514)
	require.NoError(t, err)
	require.Equal(t, 7, kr4.T())
}

// directSyndromes evaluates r at alpha^0..alpha^(p-1) by Horner, without
// the division the codec uses.
func directSyndromes(r []uint16, p int) []uint16 {
	s := make([]uint16, p)
	for i := range s {
		x := GFExp(i)
		var v uint16
		for _, c := range r {
			v = GFMul(v, x) ^ c
		}
		s[i] = v
	}
	return s
}

// Encoded words are codewords by direct evaluation, for the word-wide
// register (n-k <= 32) and for the plain division used beyond it.
func TestEncodeGivesCodewords(t *testing.T) {
	rng := NewRNG(3)
	for _, code := range []struct{ n, k int }{{544, 514}, {528, 514}, {100, 60}, {1023, 923}} {
		c, err := NewCode(code.n, code.k)
		require.NoError(t, err)
		msg := make([]uint16, c.K())
		cw := make([]uint16, c.N())
		for range 3 {
			randomMessage(rng, msg)
			c.Encode(msg, cw)
			require.Equal(t, msg, cw[:c.K()])
			require.Equal(t, make([]uint16, c.N()-c.K()), directSyndromes(cw, c.N()-c.K()), "RS(%d,%d)", c.N(), c.K())
		}
	}
}

// Any pattern of up to t symbol errors is corrected.
func TestRSCorrectsUpToT(t *testing.T) {
	for _, code := range []struct{ n, k int }{{544, 514}, {528, 514}, {100, 60}} {
		c, err := NewCode(code.n, code.k)
		require.NoError(t, err)
		d := NewDecoder(c)
		rng := NewRNG(0x5eed)
		msg := make([]uint16, c.K())
		cw := make([]uint16, c.N())
		rx := make([]uint16, c.N())
		perm := make([]int, c.N())
		trials := 0
		for nerr := 0; nerr <= c.T(); nerr++ {
			for trial := 0; trial < 200; trial++ {
				randomMessage(rng, msg)
				c.Encode(msg, cw)
				copy(rx, cw)
				injectSymbolErrors(rng, rx, nerr, perm)
				res := d.Decode(rx)
				if nerr == 0 {
					require.Equal(t, DecodeClean, res.Status)
				} else {
					require.Equal(t, DecodeCorrected, res.Status, "n=%d errors=%d trial=%d", c.N(), nerr, trial)
					require.Equal(t, nerr, res.Symbols)
				}
				require.Equal(t, cw, rx)
				trials++
			}
		}
		t.Logf("RS(%d,%d): %d trials with 0..%d symbol errors all corrected", c.N(), c.K(), trials, c.T())
	}
}

// Bursts of up to t consecutive symbols, and all-bits-flipped symbols.
func TestRSCorrectsBursts(t *testing.T) {
	c := RS544()
	d := NewDecoder(c)
	rng := NewRNG(11)
	msg := make([]uint16, RS544K)
	cw := make([]uint16, RS544N)
	rx := make([]uint16, RS544N)
	for start := 0; start+RS544T <= RS544N; start += 17 {
		randomMessage(rng, msg)
		c.Encode(msg, cw)
		copy(rx, cw)
		for j := start; j < start+RS544T; j++ {
			rx[j] ^= gfOrder
		}
		res := d.Decode(rx)
		require.Equal(t, DecodeCorrected, res.Status)
		require.Equal(t, RS544T*GFBits, res.Bits)
		require.Equal(t, cw, rx)
		require.Len(t, d.ErrorPositions(), RS544T)
	}
}

// miscorrectionBound is the bound asserted on the measured miscorrection
// rate of words with more than t errors. A bounded-distance decoder
// miscorrects only when the received word lands within t symbols of another
// codeword. For a word far from every codeword that probability is about the
// fraction of the space covered by decoding spheres,
// sum_{i<=t} C(n,i)(q-1)^i / q^(n-k): 4.7e-17 for RS(544,514) and 1.8e-6 for
// RS(528,514) (computed with exact integers). Any miscorrection at all in a
// few thousand RS(544,514) trials would point at a decoder bug; the bound is
// 1e-3 so that the test states a rate rather than a count while leaving
// room for rare events if the trials are ever made to include words close to
// other codewords.
const miscorrectionBound = 1e-3

func TestRSBeyondTFlaggedOrMiscorrected(t *testing.T) {
	c := RS544()
	d := NewDecoder(c)
	rng := NewRNG(0xbad)
	msg := make([]uint16, RS544K)
	cw := make([]uint16, RS544N)
	rx := make([]uint16, RS544N)
	perm := make([]int, RS544N)
	var flagged, miscorrected, total int
	for _, nerr := range []int{16, 17, 18, 20, 25, 30, 40, 100, 544} {
		for trial := 0; trial < 400; trial++ {
			randomMessage(rng, msg)
			c.Encode(msg, cw)
			copy(rx, cw)
			injectSymbolErrors(rng, rx, nerr, perm)
			before := append([]uint16(nil), rx...)
			res := d.Decode(rx)
			total++
			switch res.Status {
			case DecodeUncorrectable:
				flagged++
				require.Equal(t, before, rx, "a flagged word is left as received")
			case DecodeCorrected:
				miscorrected++
				require.NotEqual(t, cw, rx)
				require.LessOrEqual(t, res.Symbols, RS544T)
			default:
				t.Fatalf("%d errors gave a clean word", nerr)
			}
		}
	}
	rate := float64(miscorrected) / float64(total)
	t.Logf("more than t=15 symbol errors: %d trials, %d flagged, %d miscorrected, miscorrection rate %.3g (bound %.g)",
		total, flagged, miscorrected, rate, miscorrectionBound)
	require.Less(t, rate, miscorrectionBound)
}

func TestDecodeChecksInput(t *testing.T) {
	c := RS544()
	d := NewDecoder(c)
	require.Panics(t, func() { d.Decode(make([]uint16, 10)) })
	bad := make([]uint16, RS544N)
	bad[3] = 0x400
	require.Panics(t, func() { d.Decode(bad) })
	require.Panics(t, func() { c.Encode(make([]uint16, 3), make([]uint16, RS544N)) })
	require.Equal(t, "uncorrectable", DecodeUncorrectable.String())
}
