package pipeline

import (
	"math/big"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func mustShaper(t testing.TB, num, den, depth uint64) *Shaper {
	s, err := NewShaper(num, den, depth)
	require.NoError(t, err)
	return s
}

// ceilRat returns the ceiling of a non-negative rational.
func ceilRat(r *big.Rat) uint64 {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Uint64()
}

// TestShaperLongRunExact sends 10^6 back-to-back packets, each at the time
// NextConformTime gives, and checks that packet k leaves at exactly the
// expected picosecond, with nothing lost to rounding along the way. The
// bucket holds one packet and one byte: packet k conforms once the bucket
// has refilled, at k·T(size) - T(1) rounded up to a whole ps (the spare
// byte keeps the bucket from capping, so the fraction of a ps between the
// exact conform time and the whole ps is not thrown away).
func TestShaperLongRunExact(t *testing.T) {
	tests := []struct {
		name     string
		num, den uint64
		size     uint64
	}{
		{"400G 1500B", 400_000_000_000, 1, 1500},
		{"400G 4096B", 400_000_000_000, 1, 4096},
		// a 100G MAC rate after 64b/66b: 82.5 ps per byte
		{"100G 64/66 97B", 6_400_000_000_000, 66, 97},
		// a rate with a large, prime-ish denominator in its byte time
		{"odd rate", 397_123_456_789, 7, 1499},
	}
	const packets = 1_000_000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustShaper(t, tc.num, tc.den, tc.size+1)
			byteTime := new(big.Rat).SetFrac(new(big.Int).SetUint64(8*tc.den), new(big.Int).SetUint64(tc.num))
			byteTime.Mul(byteTime, big.NewRat(1_000_000_000_000, 1))
			perPkt := new(big.Rat).Mul(byteTime, new(big.Rat).SetInt64(int64(tc.size)))
			now := rtlmodel.Time(0)
			for k := range uint64(packets) {
				now = s.NextConformTime(now, tc.size)
				if k > 0 && (k%99_991 == 0 || k == packets-1) {
					want := ceilRat(new(big.Rat).Sub(new(big.Rat).Mul(perPkt, new(big.Rat).SetInt64(int64(k))), byteTime))
					require.Equal(t, want, uint64(now), "packet %d", k)
				}
				require.True(t, s.Conform(now, tc.size))
				s.Consume(now, tc.size)
			}
			t.Logf("%s: packet %d leaves at %d ps", tc.name, packets-1, now)
		})
	}
	s := mustShaper(t, 400_000_000_000, 1, 1500)
	now := rtlmodel.Time(0)
	for range packets {
		now = s.NextConformTime(now, 1500)
		s.Consume(now, 1500)
	}
	require.Equal(t, rtlmodel.Time((packets-1)*30_000), now, "1500 B at 400 Gb/s is exactly 30 ns")
}

// TestShaperNextConformTimeMatchesStepSearch compares NextConformTime with
// a search that tries every picosecond, over random histories.
func TestShaperNextConformTimeMatchesStepSearch(t *testing.T) {
	tests := []struct {
		name            string
		num, den, depth uint64
	}{
		{"100G", 100_000_000_000, 1, 300},
		{"odd", 123_456_789_011, 13, 257},
		{"fractional 64/66", 6_400_000_000_000, 66, 128},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustShaper(t, tc.num, tc.den, tc.depth)
			rng := rtlmodel.NewRNG(9, tc.name)
			now := rtlmodel.Time(rng.Intn(1000))
			for trial := range 300 {
				size := uint64(1 + rng.Intn(int(tc.depth)))
				next := s.NextConformTime(now, size)
				step := now
				for !s.Conform(step, size) {
					step++
				}
				require.Equal(t, step, next, "trial %d size %d at %d", trial, size, now)
				// move on: send it (or something else, even non-conforming)
				switch rng.Intn(3) {
				case 0:
					s.Consume(next, size)
					now = next + rtlmodel.Time(rng.Intn(50))
				case 1:
					s.Consume(now, uint64(1+rng.Intn(int(tc.depth))))
				default:
					now += rtlmodel.Time(rng.Intn(40_000))
				}
			}
		})
	}
}

// TestShaperBucket checks burst, refill, negative tokens and sizes above
// the depth against exact rational arithmetic.
func TestShaperBucket(t *testing.T) {
	s := mustShaper(t, 8_000_000_000, 1, 1000) // 1 byte per ns
	p, n := s.ByteTime()
	require.Equal(t, [2]uint64{1000, 1}, [2]uint64{p, n})
	require.EqualValues(t, 1000, s.Tokens(0))
	require.True(t, s.TryConsume(0, 600))
	require.True(t, s.TryConsume(0, 400), "a full bucket passes a burst of its depth")
	require.False(t, s.TryConsume(0, 1))
	require.EqualValues(t, 0, s.Tokens(0))
	require.EqualValues(t, 10, s.Tokens(10_500), "10.5 ns later: 10 whole bytes")
	require.Equal(t, rtlmodel.Time(100_000), s.NextConformTime(0, 100))
	require.Equal(t, rtlmodel.Time(1_000_000), s.Full())
	s.Consume(5_000, 200) // not conforming: the bucket goes negative
	require.EqualValues(t, -195, s.Tokens(5_000))
	require.Equal(t, rtlmodel.Time(201_000), s.NextConformTime(5_000, 1), "196 bytes of refill")
	require.Equal(t, rtlmodel.Forever, s.NextConformTime(0, 1001), "larger than the bucket")
	require.False(t, s.Conform(rtlmodel.Time(1e12), 1001))
	s.Reset()
	require.EqualValues(t, 1000, s.Tokens(0))

	// Tokens against big.Rat on an odd rate.
	o := mustShaper(t, 123_456_789_011, 13, 5000)
	rng := rtlmodel.NewRNG(3, "tokens")
	now := rtlmodel.Time(0)
	rate := new(big.Rat).SetFrac64(123_456_789_011, 13)
	level := new(big.Rat).SetInt64(5000) // exact tokens in bytes
	last := rtlmodel.Time(0)
	for range 2000 {
		now += rtlmodel.Time(rng.Intn(30_000))
		// refill: rate × dt / 8e12 bytes, capped at the depth
		add := new(big.Rat).Mul(rate, new(big.Rat).SetFrac64(int64(now-last), 8e12))
		level.Add(level, add)
		if level.Cmp(big.NewRat(5000, 1)) > 0 {
			level.SetInt64(5000)
		}
		last = now
		floor := new(big.Int).Div(level.Num(), level.Denom()) // Euclidean: the floor
		require.Equal(t, floor.Int64(), o.Tokens(now))
		sz := uint64(1 + rng.Intn(3000))
		require.Equal(t, level.Cmp(new(big.Rat).SetInt64(int64(sz))) >= 0, o.Conform(now, sz))
		if rng.Intn(2) == 0 {
			o.Consume(now, sz)
			level.Sub(level, new(big.Rat).SetInt64(int64(sz)))
		}
	}
}

func TestShaperConfigErrors(t *testing.T) {
	_, err := NewShaper(0, 1, 100)
	require.ErrorContains(t, err, "positive")
	_, err = NewShaper(1, 0, 100)
	require.Error(t, err)
	_, err = NewShaper(1e9, 1, 0)
	require.ErrorContains(t, err, "depth")
	_, err = NewShaperRat(big.NewRat(-1, 1), 10)
	require.Error(t, err)
	_, err = NewShaper(1, 1<<62, 10) // one byte would last 2^62·8e12 ps
	require.ErrorContains(t, err, "64-bit")
	s, err := NewShaperRat(big.NewRat(800, 3), 10)
	require.NoError(t, err)
	require.Equal(t, "800/3", s.Rate().RatString())
	require.EqualValues(t, 10, s.Depth())
}

func TestShaperSetRate(t *testing.T) {
	s := mustShaper(t, 8_000_000_000, 1, 1000) // 1 byte per ns
	s.Consume(0, 1000)
	require.NoError(t, s.SetRate(500_000, big.NewRat(4_000_000_000, 1))) // 500 bytes in, 2 ns a byte now
	require.EqualValues(t, 500, s.Tokens(500_000))
	require.EqualValues(t, 750, s.Tokens(1_000_000))
	require.Equal(t, rtlmodel.Time(1_500_000), s.Full())
	require.Equal(t, "4000000000", s.Rate().RatString())
	require.Error(t, s.SetRate(0, big.NewRat(0, 1)))
	require.Equal(t, "4000000000", s.Rate().RatString(), "unchanged after an error")
	require.NoError(t, s.SetRate(2_000_000, big.NewRat(8_000_000_000, 1)))
	require.EqualValues(t, 1000, s.Tokens(2_000_000), "a full bucket stays full")

	// Random changes between odd rates: never more tokens than before, less
	// by under a byte, and NextConformTime still agrees with a step search.
	o := mustShaper(t, 123_456_789_011, 13, 300)
	rng := rtlmodel.NewRNG(4, "setrate")
	now := rtlmodel.Time(0)
	for trial := range 300 {
		now += rtlmodel.Time(rng.Intn(20_000))
		o.Consume(now, uint64(1+rng.Intn(300)))
		before := o.Tokens(now)
		den := int64(1 + rng.Intn(97)) // 50 to 450 Gb/s with a denominator
		rate := new(big.Rat).SetFrac64(den*50_000_000_000+int64(rng.Intn(int(den)*400_000_000_000)), den)
		require.NoError(t, o.SetRate(now, rate))
		after := o.Tokens(now)
		require.LessOrEqual(t, after, before, "trial %d", trial)
		require.GreaterOrEqual(t, after, before-1, "trial %d", trial)
		size := uint64(1 + rng.Intn(300))
		step := now
		for !o.Conform(step, size) {
			step++
		}
		require.Equal(t, step, o.NextConformTime(now, size), "trial %d", trial)
	}
}
