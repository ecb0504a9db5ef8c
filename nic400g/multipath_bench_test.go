package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func benchSelector(b *testing.B, s PathSelector) {
	b.ReportAllocs()
	now := rtlmodel.Time(0)
	for b.Loop() {
		now += 82 * rtlmodel.Nanosecond
		e := s.Next(now)
		ev := PathOK
		if pathOf(e) == 3 {
			ev = PathECN
		}
		s.OnFeedback(now, e, ev)
	}
}

// BenchmarkPathFixedNext: ECMP, one entropy per flow.
func BenchmarkPathFixedNext(b *testing.B) { benchSelector(b, NewRoCEv2FixedPath(17, 33)) }

// BenchmarkPathObliviousNext: cycling a 256-value set.
func BenchmarkPathObliviousNext(b *testing.B) {
	s, err := NewObliviousSpray(DefaultSprayParams(EntropyRoCEv2), "bench")
	if err != nil {
		b.Fatal(err)
	}
	benchSelector(b, s)
}

// BenchmarkPathAwareNext: Next plus OnFeedback with one path of eight
// marking every packet.
func BenchmarkPathAwareNext(b *testing.B) {
	s, err := NewPathAwareSpray(DefaultPathAwareParams(EntropyUET), "bench")
	if err != nil {
		b.Fatal(err)
	}
	benchSelector(b, s)
}

// BenchmarkPathAwareRecycleNext: as above with a 64-deep REPS-like ring.
func BenchmarkPathAwareRecycleNext(b *testing.B) {
	p := DefaultPathAwareParams(EntropyUET)
	p.Recycle = 64
	s, err := NewPathAwareSpray(p, "bench")
	if err != nil {
		b.Fatal(err)
	}
	benchSelector(b, s)
}

func TestPathSelectorsAllocateNothing(t *testing.T) {
	o, err := NewObliviousSpray(DefaultSprayParams(EntropyRoCEv2), "a")
	require.NoError(t, err)
	p := DefaultPathAwareParams(EntropyUET)
	p.Recycle = 16
	a, err := NewPathAwareSpray(p, "a")
	require.NoError(t, err)
	for _, s := range []PathSelector{NewRoCEv2FixedPath(1, 2), o, a} {
		now := rtlmodel.Time(0)
		assert.Zero(t, testing.AllocsPerRun(1000, func() {
			now += 82 * rtlmodel.Nanosecond
			e := s.Next(now)
			ev := PathOK
			if pathOf(e) == 3 {
				ev = PathTrim
			}
			s.OnFeedback(now, e, ev)
		}))
	}
}
