package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// rxeCompare is Linux rxe's psn_compare, transcribed (S [R82]).
func rxeCompare(a, b uint32) int32 { return int32((a - b) << 8) }

func TestPSNArithmetic(t *testing.T) {
	top := PSN(PSNSpace - 1)
	assert.Equal(t, PSN(0), top.Next())
	assert.Equal(t, PSN(4), top.Add(5))
	assert.Equal(t, top, PSN(0).Sub(1))
	assert.Equal(t, PSN(0x123456), NewPSN(0xAB123456))
	assert.Equal(t, int32(1), PSNDiff(0, top))
	assert.Equal(t, int32(-1), PSNDiff(top, 0))
	assert.True(t, top.Before(0))
	assert.True(t, PSN(0).After(top))
	assert.Equal(t, int32(PSNHalf-1), PSNDiff(PSNHalf-1, 0))
	assert.Equal(t, int32(-PSNHalf), PSNDiff(PSNHalf, 0), "2^23 apart: before, as in rxe")
	assert.Equal(t, int32(-PSNHalf), PSNDiff(0, PSNHalf))
	assert.Equal(t, 0, PSNCompare(5, 5))
	assert.Equal(t, -1, PSNCompare(top, 3))
	assert.Equal(t, 1, PSNCompare(3, top))

	rng := rtlmodel.NewRNG(7, "psn")
	for i := 0; i < 100_000; i++ {
		a, b := uint32(rng.Uint64n(PSNSpace)), uint32(rng.Uint64n(PSNSpace))
		if i%4 == 0 {
			b = (a + uint32(rng.Uint64n(64)) - 32) & uint32(PSNMask)
		}
		want := rxeCompare(a, b)
		got := PSNDiff(PSN(a), PSN(b))
		require.Equal(t, want, got<<8, "a=%#x b=%#x", a, b)
		require.Equal(t, want < 0, PSN(a).Before(PSN(b)))
	}
}

func TestRecvWindowBasics(t *testing.T) {
	_, err := NewRecvWindow(100, 0)
	assert.Error(t, err)
	_, err = NewRecvWindow(32, 0)
	assert.Error(t, err)

	start := PSN(PSNSpace - 3) // wraps after three PSNs
	w, err := NewRecvWindow(256, start)
	require.NoError(t, err)
	r, n := w.Receive(start.Add(2))
	assert.Equal(t, RecvOutOfOrder, r)
	assert.Zero(t, n)
	r, _ = w.Receive(start.Add(4)) // PSN 1, across the wrap
	assert.Equal(t, RecvOutOfOrder, r)
	r, _ = w.Receive(start.Add(2))
	assert.Equal(t, RecvDuplicate, r)
	assert.Equal(t, uint64(0b10100), w.SACK(start))
	r, n = w.Receive(start)
	assert.Equal(t, RecvInOrder, r)
	assert.Equal(t, uint32(1), n)
	r, n = w.Receive(start.Add(1))
	assert.Equal(t, RecvInOrder, r)
	assert.Equal(t, uint32(2), n, "PSN start+2 was held")
	assert.Equal(t, PSN(0), w.Expected(), "wrapped to 0")
	assert.Equal(t, 1, w.Held())
	r, _ = w.Receive(start)
	assert.Equal(t, RecvDuplicate, r, "before the expected PSN across the wrap")
	r, _ = w.Receive(PSN(256))
	assert.Equal(t, RecvOutOfWindow, r)
	r, _ = w.Receive(PSN(255))
	assert.Equal(t, RecvOutOfOrder, r)
	assert.Equal(t, uint64(0b10111), w.SACK(start), "bits 0..2 before the expected PSN 0, bit 3 PSN 0 missing, bit 4 PSN 1 held")
	assert.Equal(t, uint64(1)<<63, w.SACK(PSN(192)), "PSN 255 in the last bit")
	assert.Equal(t, uint64(0), w.SACK(PSN(256)))
	assert.Equal(t, uint64(1), w.SACK(PSN(255)), "PSN 256.. beyond the window read 0")
	assert.Equal(t, ^uint64(0), w.SACK(PSN(PSNSpace-200)))
	in, ooo, dup, oow := w.Counts()
	assert.Equal(t, [4]uint64{2, 3, 2, 1}, [4]uint64{in, ooo, dup, oow})

	// a long run of held PSNs drains across words in one arrival
	w.Reset(100)
	for p := PSN(101); p < 100+200; p++ {
		w.Receive(p)
	}
	r, n = w.Receive(100)
	assert.Equal(t, RecvInOrder, r)
	assert.Equal(t, uint32(200), n)
	assert.Equal(t, PSN(300), w.Expected())
	assert.Zero(t, w.Held())
}
