package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// bytesSentBy sums the bytes each source sends.
func bytesSentBy(flows []Flow) map[int]uint64 {
	m := map[int]uint64{}
	for _, f := range flows {
		m[f.Src] += f.Bytes
	}
	return m
}

func TestIncastAndAllToAll(t *testing.T) {
	in, err := Incast([]int{1, 2, 3, 4}, 0, 1000, rtlmodel.Microsecond)
	require.NoError(t, err)
	require.Len(t, in, 4)
	require.Equal(t, uint64(4000), TotalBytes(in))
	for _, f := range in {
		require.Equal(t, 0, f.Dst)
		require.Equal(t, rtlmodel.Microsecond, f.Start)
	}
	_, err = Incast([]int{1, 0}, 0, 1000, 0)
	require.ErrorContains(t, err, "host 0 is listed twice")

	a2a, err := AllToAll(Endpoints(8), 100, 0)
	require.NoError(t, err)
	require.Len(t, a2a, 56)
	require.Equal(t, uint64(5600), TotalBytes(a2a))
	pairs := map[[2]int]bool{}
	for _, f := range a2a {
		pairs[[2]int{f.Src, f.Dst}] = true
	}
	require.Len(t, pairs, 56, "every ordered pair once")
	require.NoError(t, ValidateFlows(a2a, 8))
}

// A permutation is a derangement: every host sends once and receives once,
// never to itself; the same seed gives the same permutation.
func TestPermutationIsADerangement(t *testing.T) {
	for _, n := range []int{2, 3, 16, 1000} {
		for seed := uint64(1); seed <= 20; seed++ {
			flows, err := Permutation(Endpoints(n), 1<<20, 0, seed)
			require.NoError(t, err)
			require.Len(t, flows, n)
			recv := map[int]int{}
			for i, f := range flows {
				require.Equal(t, i, f.Src)
				require.NotEqual(t, f.Src, f.Dst)
				recv[f.Dst]++
			}
			require.Len(t, recv, n)
		}
	}
	a, _ := Permutation(Endpoints(64), 1, 0, 7)
	b, _ := Permutation(Endpoints(64), 1, 0, 7)
	c, _ := Permutation(Endpoints(64), 1, 0, 8)
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
}

// checkCollectiveSteps checks that flow t·n+i of a stepped collective waits for
// exactly one flow of step t-1, which delivered to its source.
func checkCollectiveSteps(t *testing.T, flows []Flow, n int) {
	t.Helper()
	require.NoError(t, ValidateFlows(flows, 1<<20), "IDs in order, dependencies only on earlier flows: no cycles")
	for _, f := range flows {
		step := f.ID / n
		if step == 0 {
			require.Empty(t, f.After)
			continue
		}
		require.Len(t, f.After, 1)
		prev := flows[f.After[0]]
		require.Equal(t, step-1, prev.ID/n, "flow %d waits for the previous step", f.ID)
		require.Equal(t, f.Src, prev.Dst, "flow %d waits for data that arrived at its source", f.ID)
	}
}

// Ring all-reduce: 2(N-1) steps of N flows; every rank sends 2(N-1)/N of
// the data to its ring successor.
func TestRingAllReduce(t *testing.T) {
	const n, size = 8, 8 << 20
	ranks := []int{10, 11, 12, 13, 14, 15, 16, 17}
	flows, err := RingAllReduce(ranks, size, rtlmodel.Microsecond)
	require.NoError(t, err)
	require.Len(t, flows, 2*(n-1)*n)
	require.Equal(t, uint64(2*(n-1)*size), TotalBytes(flows))
	for r, b := range bytesSentBy(flows) {
		require.Equal(t, uint64(2*(n-1)*size/n), b, "rank %d", r)
	}
	for _, f := range flows {
		require.Equal(t, ranks[(f.ID%n+1)%n], f.Dst)
	}
	checkCollectiveSteps(t, flows, n)
	// A size that does not divide still moves every byte 2(N-1) times.
	odd, err := RingAllReduce(Endpoints(3), 1000, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(4000), TotalBytes(odd))
	_, err = RingAllReduce(Endpoints(4), 3, 0)
	require.Error(t, err)
}

// Halving-doubling: 2·log2 N steps, partners at distance N/2 ... 1 then
// 1 ... N/2, the same 2(N-1)/N of the data per rank as the ring.
func TestHalvingDoublingAllReduce(t *testing.T) {
	const n, size = 16, 1 << 20
	flows, err := HalvingDoublingAllReduce(Endpoints(n), size, 0)
	require.NoError(t, err)
	require.Len(t, flows, 2*4*n)
	require.Equal(t, uint64(2*(n-1)*size), TotalBytes(flows))
	for r, b := range bytesSentBy(flows) {
		require.Equal(t, uint64(2*(n-1)*size/n), b, "rank %d", r)
	}
	want := []int{8, 4, 2, 1, 1, 2, 4, 8}
	for _, f := range flows {
		d := want[f.ID/n]
		require.Equal(t, f.Src^d, f.Dst)
		require.Equal(t, uint64(d*size/n), f.Bytes, "step %d sends %d chunks", f.ID/n, d)
	}
	checkCollectiveSteps(t, flows, n)
	_, err = HalvingDoublingAllReduce(Endpoints(6), size, 0)
	require.ErrorContains(t, err, "power-of-two")
}

func TestCombineShiftsIDsAndDependencies(t *testing.T) {
	ring, _ := RingAllReduce(Endpoints(4), 4096, 0)
	perm, _ := Permutation(Endpoints(4), 10, 0, 1)
	before := ring[len(ring)-1].After[0]
	all := Combine(perm, ring)
	require.NoError(t, ValidateFlows(all, 4))
	require.Equal(t, 1, all[len(all)-1].Job)
	require.Equal(t, []int{4 + before}, all[len(all)-1].After)
	require.Equal(t, before, ring[len(ring)-1].After[0], "Combine does not modify its inputs")
}

func TestValidateFlowsNamesTheFlow(t *testing.T) {
	require.ErrorContains(t, ValidateFlows([]Flow{{ID: 0, Src: 0, Dst: 1, Bytes: 1, After: []int{0}}}, 2), "flow 0 waits for flow 0")
	require.ErrorContains(t, ValidateFlows([]Flow{{ID: 0, Src: 0, Dst: 5, Bytes: 1}}, 2), "flow 0 from 0 to 5")
	require.ErrorContains(t, ValidateFlows([]Flow{{ID: 0, Src: 1, Dst: 1, Bytes: 1}}, 2), "to itself")
	require.ErrorContains(t, ValidateFlows([]Flow{{ID: 0, Src: 0, Dst: 1, Bytes: 1 << 32}}, 2), "flow 0: 4294967296 bytes: at most 4294967295")
	require.NoError(t, ValidateFlows([]Flow{{ID: 0, Src: 0, Dst: 1, Bytes: 1<<32 - 1}}, 2))
}

// The background mix offers the load asked for, within 3% over about
// 20,000 flows, and its sizes follow the CDF.
func TestBackgroundLoad(t *testing.T) {
	cdf := []CDFPoint{{Bytes: 1000, P: 0.5}, {Bytes: 100_000, P: 0.9}, {Bytes: 1_000_000, P: 1}}
	require.InDelta(t, 0.5*1000+0.4*50500+0.1*550000, MeanBytes(cdf), 1e-6)
	cfg := BackgroundConfig{Hosts: Endpoints(16), SizeCDF: cdf, Load: 0.3, LinkBitsPerSecond: 400e9,
		Start: rtlmodel.Microsecond, Duration: 10 * rtlmodel.Millisecond, Seed: 3}
	flows, err := Background(cfg)
	require.NoError(t, err)
	require.Greater(t, len(flows), 15000)
	offered := float64(TotalBytes(flows)) * 8 / (16 * 400e9 * 0.01)
	require.InEpsilon(t, 0.3, offered, 0.03)
	small := 0
	for i, f := range flows {
		require.NotEqual(t, f.Src, f.Dst)
		require.GreaterOrEqual(t, f.Start, cfg.Start)
		require.Less(t, f.Start, cfg.Start+cfg.Duration)
		if i > 0 {
			require.GreaterOrEqual(t, f.Start, flows[i-1].Start)
		}
		if f.Bytes == 1000 {
			small++
		}
	}
	require.InEpsilon(t, 0.5, float64(small)/float64(len(flows)), 0.05)
	again, _ := Background(cfg)
	require.Equal(t, flows, again)

	cfg.SizeCDF = []CDFPoint{{Bytes: 10, P: 0.5}, {Bytes: 5, P: 1}}
	_, err = Background(cfg)
	require.ErrorContains(t, err, "size_cdf[1]")
	cfg.SizeCDF, cfg.Load = cdf, 1.5
	_, err = Background(cfg)
	require.ErrorContains(t, err, "load 1.5")
}
