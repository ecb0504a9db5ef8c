package switchasic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The first states of the default register from seed 1, worked by hand
// from the Galois step (shift right; XOR 0x80200003 when the low bit was 1).
func TestLFSRKnownStart(t *testing.T) {
	l, err := NewLFSR(32, LFSR32Mask, 1)
	require.NoError(t, err)
	want := []struct {
		out   uint32
		state uint32
	}{
		{1, 0x80200003},
		{1, 0xC0300002},
		{0, 0x60180001},
		{1, 0xB02C0003},
		{1, 0xD8360002},
	}
	for i, w := range want {
		require.Equal(t, w.out, l.Step(), "output bit %d", i)
		require.Equal(t, w.state, l.State(), "state after step %d", i+1)
	}
}

// Step8 and Draw16 must equal 8 and 16 single steps.
func TestLFSRTableStepMatchesSingleSteps(t *testing.T) {
	for _, tc := range []struct {
		width int
		mask  uint32
	}{{32, LFSR32Mask}, {16, 0xB400}, {8, 0xB8}} {
		a, err := NewLFSR(tc.width, tc.mask, 0x5A)
		require.NoError(t, err)
		b, _ := NewLFSR(tc.width, tc.mask, 0x5A)
		for i := range 10000 {
			a.Step8()
			for range 8 {
				b.Step()
			}
			require.Equal(t, b.State(), a.State(), "width %d after %d bytes", tc.width, i+1)
		}
	}
	a := NewLFSR32(12345)
	b := NewLFSR32(12345)
	for range 1000 {
		d := a.Draw16()
		for range 16 {
			b.Step()
		}
		require.Equal(t, uint16(b.State()), d)
	}
}

// Small registers: brute-force period of maximal-length masks.
func TestLFSRPeriodSmallWidths(t *testing.T) {
	for _, tc := range []struct {
		width int
		mask  uint32 // x^8+x^6+x^5+x^4+1; x^16+x^14+x^13+x^11+1
	}{{8, 0xB8}, {16, 0xB400}} {
		l, err := NewLFSR(tc.width, tc.mask, 1)
		require.NoError(t, err)
		period := 0
		for {
			l.Step()
			period++
			if l.State() == 1 {
				break
			}
			require.NotZero(t, l.State())
			require.Less(t, period, 1<<tc.width)
		}
		require.Equal(t, 1<<tc.width-1, period, "width %d", tc.width)
	}
}

// gf2Mat is a 32×32 matrix over GF(2); column j is the image of bit j.
type gf2Mat [32]uint32

func (m *gf2Mat) apply(v uint32) uint32 {
	var r uint32
	for j := 0; v != 0; j, v = j+1, v>>1 {
		if v&1 != 0 {
			r ^= m[j]
		}
	}
	return r
}

func (m *gf2Mat) mul(n *gf2Mat) gf2Mat { // m·n: apply n first
	var r gf2Mat
	for j := range r {
		r[j] = m.apply(n[j])
	}
	return r
}

func (m *gf2Mat) pow(e uint64) gf2Mat {
	var r gf2Mat
	for j := range r {
		r[j] = 1 << j
	}
	b := *m
	for ; e != 0; e >>= 1 {
		if e&1 != 0 {
			r = r.mul(&b)
		}
		b = b.mul(&b)
	}
	return r
}

// The default register has period exactly 2^32 − 1: its transition matrix
// M satisfies M^(2^32−1) = I and M^((2^32−1)/q) ≠ I for each prime factor q
// of 2^32 − 1 = 3·5·17·257·65537. Since 65537 divides 2^d − 1 only when
// 32 | d, that order forces a primitive degree-32 minimal polynomial, so
// every non-zero state lies on the one cycle.
func TestLFSR32MaximalLength(t *testing.T) {
	var m gf2Mat
	for j := range m {
		l := &LFSR{state: 1 << j, mask: LFSR32Mask, width: 32}
		l.Step()
		m[j] = l.State()
	}
	const n = 1<<32 - 1
	id := m.pow(0)
	require.Equal(t, id, m.pow(n))
	for _, q := range []uint64{3, 5, 17, 257, 65537} {
		require.NotEqual(t, id, m.pow(n/q), "order divides (2^32-1)/%d", q)
	}
}

// Draws are close to uniform: a chi-square over 16 bins of the top 4 bits.
func TestLFSRDraw16Uniform(t *testing.T) {
	l := NewLFSR32(7)
	const draws = 1 << 16
	var bins [16]int
	for range draws {
		bins[l.Draw16()>>12]++
	}
	exp := float64(draws) / 16
	chi := 0.0
	for _, c := range bins {
		d := float64(c) - exp
		chi += d * d / exp
	}
	require.Less(t, chi, 37.7, "chi-square with 15 d.o.f. beyond its 0.999 quantile") // χ²(15) at p=0.001
}

func TestNewLFSRErrors(t *testing.T) {
	for _, tc := range []struct {
		name        string
		width       int
		mask, seed  uint32
		errContains string
	}{
		{"narrow", 7, 0x60, 1, "width"},
		{"wide", 33, 1, 1, "width"},
		{"no top tap", 16, 0x3400, 1, "mask"},
		{"mask above width", 8, 0x1B8, 1, "mask"},
		{"zero seed", 32, LFSR32Mask, 0, "seed"},
		{"seed above width", 8, 0xB8, 0x100, "seed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewLFSR(tc.width, tc.mask, tc.seed)
			require.ErrorContains(t, err, tc.errContains)
		})
	}
	require.Equal(t, uint32(1), NewLFSR32(0).State())
}
