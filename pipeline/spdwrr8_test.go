package pipeline

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestSPDWRR8Layout pins the three cache lines the type is for.
func TestSPDWRR8Layout(t *testing.T) {
	var s SPDWRR8
	require.Equal(t, uintptr(192), unsafe.Sizeof(s))
	require.Equal(t, uintptr(64), unsafe.Offsetof(s.head))
	require.Equal(t, uintptr(128), unsafe.Offsetof(s.deficit))
}

// TestSPDWRR8MatchesSPDWRR drives SPDWRR8 and SPDWRR with the same random
// configurations and operations (head changes, pauses, picks, services of
// the picked queue and of others, resets) and requires the same picks and
// deficits throughout.
func TestSPDWRR8MatchesSPDWRR(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sizes := []uint32{0, 64, 300, 1500, 4096, 9000}
	for trial := 0; trial < 400; trial++ {
		n := 1 + rng.IntN(8)
		classes := make([]QueueClass, n)
		for q := range classes {
			classes[q] = QueueClass{Level: uint8(rng.IntN(4)), Quantum: uint32(rng.IntN(3)) * 1500}
		}
		ref, errRef := NewSPDWRR(classes)
		got, err := NewSPDWRR8(classes)
		if errRef != nil {
			require.Error(t, err, "classes %v", classes)
			continue
		}
		require.NoError(t, err, "classes %v", classes)
		require.Equal(t, ref.Size(), got.Size())
		require.Equal(t, ref.Levels(), got.Levels())
		for op := 0; op < 300; op++ {
			q := rng.IntN(n)
			switch k := rng.IntN(20); {
			case k < 6:
				b := sizes[rng.IntN(len(sizes))]
				ref.SetHead(q, b)
				got.SetHead(q, b)
			case k < 8:
				p := rng.IntN(2) == 0
				ref.SetPaused(q, p)
				got.SetPaused(q, p)
			case k < 18:
				pr, pg := ref.Pick(), got.Pick()
				require.Equal(t, pr, pg, "trial %d op %d classes %v", trial, op, classes)
				if pr >= 0 && rng.IntN(4) != 0 {
					q = pr
				}
				b, next := sizes[1+rng.IntN(len(sizes)-1)], sizes[rng.IntN(len(sizes))]
				ref.Served(q, b, next)
				got.Served(q, b, next)
			case k < 19:
				ref.Reset()
				got.Reset()
			}
			for i := 0; i < n; i++ {
				require.Equal(t, ref.Deficit(i), got.Deficit(i), "trial %d op %d queue %d", trial, op, i)
			}
		}
	}
}

// TestSPDWRR8Rejects checks the configurations it refuses.
func TestSPDWRR8Rejects(t *testing.T) {
	_, err := NewSPDWRR8(nil)
	require.ErrorContains(t, err, "0 queues")
	_, err = NewSPDWRR8(make([]QueueClass, 9))
	require.ErrorContains(t, err, "9 queues")
	_, err = NewSPDWRR8([]QueueClass{{Level: 1, Quantum: 10}, {Level: 1}})
	require.ErrorContains(t, err, "quantum of 0 bytes")
}
