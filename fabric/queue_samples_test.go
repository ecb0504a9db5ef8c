package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// The queue samples keep every step while they fit, and past that a
// bounded number in which each sample is the deepest of a power-of-two
// run of steps, at the run's first time: the same as merging the whole
// record afterwards, with every queue's peak kept.
func TestQueueSamplesStayBoundedAndKeepPeaks(t *testing.T) {
	depth := func(step, queue int) uint64 { return uint64((step*7919 + queue*104729) % 100_003) }
	for _, steps := range []int{1, maxQueueSamples, maxQueueSamples + 1, 3*maxQueueSamples + 5, 9 * maxQueueSamples} {
		var q queueSamples
		peak := []uint64{0, 0, 0}
		for s := range steps {
			b := []uint64{depth(s, 0), depth(s, 1), depth(s, 2)}
			for i, v := range b {
				peak[i] = max(peak[i], v)
			}
			q.add(rtlmodel.Time(s*10), b)
		}
		require.LessOrEqual(t, len(q.kept), maxQueueSamples, "%d steps", steps)
		stride := 1
		for (steps+stride-1)/stride > maxQueueSamples {
			stride *= 2
		}
		require.Equal(t, stride, q.stride, "%d steps", steps)
		require.Len(t, q.kept, (steps+stride-1)/stride, "%d steps", steps)
		got := []uint64{0, 0, 0}
		for k, smp := range q.kept {
			require.Equal(t, rtlmodel.Time(k*stride*10), smp.at, "%d steps, sample %d", steps, k)
			for i := range 3 {
				want := uint64(0)
				for s := k * stride; s < min((k+1)*stride, steps); s++ {
					want = max(want, depth(s, i))
				}
				require.Equal(t, want, smp.bytes[i], "%d steps, sample %d, queue %d", steps, k, i)
				got[i] = max(got[i], smp.bytes[i])
			}
		}
		require.Equal(t, peak, got, "%d steps", steps)
	}
}
