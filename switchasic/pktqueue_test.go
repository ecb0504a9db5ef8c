package switchasic

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
)

// TestPktQueueKeepsEachPacketsSize pushes and pops 20,000 packets of
// random sizes in random runs, across the ring's growth and wrap, and
// checks against a plain list that the queue gives them back in order and
// that its byte count and the head size it keeps for the scheduler are
// those of the packets queued.
func TestPktQueueKeepsEachPacketsSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var q pktQueue
	var want []*packet.Desc
	var bytes uint64
	pushed := 0
	for pushed < 20_000 || len(want) > 0 {
		// push two times in three below 64 queued, one in three above
		pushBias := 2
		if len(want) >= 64 {
			pushBias = 1
		}
		if pushed < 20_000 && (len(want) == 0 || rng.IntN(3) < pushBias) {
			p := &packet.Desc{ID: uint64(pushed), FrameBytes: uint32(64 + rng.IntN(9537))}
			q.push(p)
			want = append(want, p)
			bytes += uint64(p.FrameBytes)
			pushed++
		} else {
			got, size := q.pop()
			require.Equal(t, got.FrameBytes, size)
			require.Same(t, want[0], got)
			bytes -= uint64(got.FrameBytes)
			want = want[1:]
			// what the receiver does with a descriptor it took must not
			// reach the queue's count
			got.FrameBytes = 0
		}
		require.Equal(t, len(want), q.n)
		require.Equal(t, bytes, q.bytes)
		if len(want) > 0 {
			require.Equal(t, want[0].FrameBytes, q.headBytes)
		} else {
			require.Zero(t, q.headBytes)
		}
	}
}
