package nic400g

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// refWindow is the obvious model: unwrapped sequence numbers in a map.
type refWindow struct {
	size int64
	exp  int64
	held map[int64]bool
}

func (r *refWindow) receive(s int64) (RecvResult, uint32) {
	switch {
	case s < r.exp:
		return RecvDuplicate, 0
	case s >= r.exp+r.size:
		return RecvOutOfWindow, 0
	case r.held[s]:
		return RecvDuplicate, 0
	case s > r.exp:
		r.held[s] = true
		return RecvOutOfOrder, 0
	}
	n := uint32(0)
	r.held[s] = true
	for r.held[r.exp] {
		delete(r.held, r.exp)
		r.exp++
		n++
	}
	return RecvInOrder, n
}

func (r *refWindow) sack(base int64) uint64 {
	var out uint64
	for k := int64(0); k < 64; k++ {
		s := base + k
		if s < r.exp || (s < r.exp+r.size && r.held[s]) {
			out |= 1 << k
		}
	}
	return out
}

// TestRecvWindowAgainstMap sends a stream through a channel that delays
// packets by a random amount (reordering), drops 1 %, duplicates 2 %,
// from a sender that keeps at most the window in flight, retransmits the
// expected PSN when it has stalled for a while and replays random old and
// in-window PSNs. The stream starts 5000 below
// 2^24, so it wraps. Every result, advance, expected PSN, held count and
// a SACK at a random base must match the map model.
func TestRecvWindowAgainstMap(t *testing.T) {
	for _, size := range []int{64, 256, 1024} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			const startSeq = int64(PSNSpace - 5000)
			rng := rtlmodel.NewRNG(uint64(size), "psn/property")
			w, err := NewRecvWindow(size, PSN(startSeq))
			require.NoError(t, err)
			ref := &refWindow{size: int64(size), exp: startSeq, held: map[int64]bool{}}
			// in flight: a ring of slots, one per future step
			const horizon = 2048
			var slots [horizon][]int64
			next := startSeq
			lastRetx := 0
			kinds := map[RecvResult]int{}
			for step := 0; step < 200_000; step++ {
				// the sender: new PSNs while the window has room, a
				// retransmission of the hole when it has stalled for a
				// while, and random replays of old and in-window PSNs
				var s int64
				switch x := rng.Float64(); {
				case x < 0.02:
					s = ref.exp - 1 - int64(rng.Uint64n(3000)) // late replay
				case x < 0.04:
					s = ref.exp + int64(rng.Uint64n(uint64(size)+64)) // selective replay, some beyond the window
				case next-ref.exp < int64(size):
					s = next
					next++
				case step-lastRetx > size/2+8:
					s, lastRetx = ref.exp, step // timeout: resend the hole
				default:
					s = -1 // window full: nothing to send
				}
				if s >= 0 {
					copies := 1
					if rng.Float64() < 0.02 {
						copies = 2
					}
					for c := 0; c < copies; c++ {
						if rng.Float64() < 0.01 {
							continue // lost
						}
						d := int(rng.Uint64n(uint64(size) / 2))
						if rng.Float64() < 0.01 {
							d = int(rng.Uint64n(horizon - 1)) // rare long detour
						}
						k := (step + 1 + d) % horizon
						slots[k] = append(slots[k], s)
					}
				}
				// deliver what is due now
				k := step % horizon
				for _, s := range slots[k] {
					wantR, wantN := ref.receive(s)
					gotR, gotN := w.Receive(PSN(uint32(s)))
					kinds[gotR]++
					require.Equal(t, wantR, gotR, "step %d seq %d (exp %d)", step, s, ref.exp)
					require.Equal(t, wantN, gotN, "step %d seq %d", step, s)
					require.Equal(t, PSN(uint32(ref.exp))&PSNMask, w.Expected())
					require.Equal(t, len(ref.held), w.Held())
				}
				slots[k] = slots[k][:0]
				base := ref.exp - 80 + int64(rng.Uint64n(uint64(size)+160))
				require.Equal(t, ref.sack(base), w.SACK(PSN(uint32(base))&PSNMask), "step %d base %d exp %d", step, base, ref.exp)
			}
			require.Greater(t, ref.exp, int64(PSNSpace), "the stream wrapped")
			for _, r := range []RecvResult{RecvInOrder, RecvOutOfOrder, RecvDuplicate, RecvOutOfWindow} {
				require.Positive(t, kinds[r], "%v never happened", r)
			}
			t.Logf("size %d: delivered up to %d (%d past the wrap); %v", size, ref.exp, ref.exp-PSNSpace, kinds)
		})
	}
}

// BenchmarkRecvWindowReceive: 4-way reordered arrivals into a 256-PSN
// window with a SACK per 16 packets.
func BenchmarkRecvWindowReceive(b *testing.B) {
	w, err := NewRecvWindow(256, 0)
	if err != nil {
		b.Fatal(err)
	}
	order := [4]uint32{2, 0, 3, 1}
	b.ReportAllocs()
	var i uint32
	var sink uint64
	for b.Loop() {
		w.Receive(NewPSN(i&^3 | order[i&3]))
		if i&15 == 15 {
			sink += w.SACK(w.Expected())
		}
		i++
	}
	_ = sink
}
