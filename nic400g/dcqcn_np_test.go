package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func TestNotificationPointSpacing(t *testing.T) {
	np, err := NewNotificationPoint(NPIntervalPaper, 16)
	require.NoError(t, err)
	assert.True(t, np.OnCE(7, 0), "first CE of a flow sends a CNP")
	assert.False(t, np.OnCE(7, 49*us))
	assert.True(t, np.OnCE(9, 49*us), "flows are independent")
	assert.True(t, np.OnCE(7, 50*us), "one interval later")
	assert.False(t, np.OnCE(7, 99*us+999))
	assert.True(t, np.OnCE(7, 100*us))
	ce, sent, supp, over := np.Counts()
	assert.Equal(t, [4]uint64{6, 4, 2, 0}, [4]uint64{ce, sent, supp, over})
	assert.Equal(t, 2, np.Flows())

	linux, err := NewNotificationPoint(NPIntervalLinux, 4)
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		assert.True(t, linux.OnCE(1, 5*us), "0 µs spacing: a CNP per CE")
	}
	_, err = NewNotificationPoint(us, 0)
	assert.Error(t, err)
}

// TestNotificationPointFullTable: a full table drops stale flows (which
// changes no decision) and, when none is stale, answers without state.
func TestNotificationPointFullTable(t *testing.T) {
	const flows = 8
	np, err := NewNotificationPoint(10*us, flows)
	require.NoError(t, err)
	for q := uint32(0); q < flows; q++ {
		require.True(t, np.OnCE(q*1024, 0))
	}
	assert.True(t, np.OnCE(99, 5*us), "no slot and nothing stale: CNP without an entry")
	_, _, _, over := np.Counts()
	assert.Equal(t, uint64(1), over)
	assert.False(t, np.OnCE(3*1024, 5*us), "existing flows keep their spacing")
	// at 10 µs every flow is stale: inserting flow 100 clears them
	assert.True(t, np.OnCE(100, 10*us))
	assert.Equal(t, 1, np.Flows())
	assert.False(t, np.OnCE(100, 12*us))
	assert.True(t, np.OnCE(0, 12*us))
}

// TestNotificationPointAgainstMap compares the table, under churn that
// keeps it full, with a map that never forgets.
func TestNotificationPointAgainstMap(t *testing.T) {
	const flows, interval = 64, 20 * us
	np, err := NewNotificationPoint(interval, flows)
	require.NoError(t, err)
	ref := map[uint32]rtlmodel.Time{}
	rng := rtlmodel.NewRNG(3, "np")
	now := rtlmodel.Time(0)
	for i := 0; i < 200_000; i++ {
		now += rtlmodel.Time(rng.Uint64n(uint64(us)))
		// at most `flows` flows are ever within one interval of a CNP:
		// keys come from a sliding range
		base := uint32(now / (interval / 2))
		qp := (base + uint32(rng.Uint64n(flows/4))) * 977
		last, seen := ref[qp]
		want := !seen || now-last >= interval
		if want {
			ref[qp] = now
		}
		require.Equal(t, want, np.OnCE(qp, now), "step %d qp %d", i, qp)
	}
	_, _, _, over := np.Counts()
	assert.Equal(t, uint64(0), over)
}

// TestNotificationPointGrowsAsFlowsCome: the table starts at 16 slots and
// doubles when an entry would fill it past half, up to the size that
// holds maxFlows; a notification point whose table had that size from
// the start decides every CE alike, through growth, stale sweeps and
// overflows.
func TestNotificationPointGrowsAsFlowsCome(t *testing.T) {
	const flows, interval = 100, 20 * us
	np, err := NewNotificationPoint(interval, flows)
	require.NoError(t, err)
	full, err := NewNotificationPoint(interval, flows)
	require.NoError(t, err)
	full.resize(npTableSize(flows))
	assert.Len(t, np.keys, 16)
	assert.Len(t, full.keys, 256)

	for q := uint32(0); q < 8; q++ {
		np.OnCE(q, 0)
	}
	assert.Len(t, np.keys, 16, "8 entries fill 16 slots to half")
	np.OnCE(8, 0)
	assert.Len(t, np.keys, 32)
	for q := uint32(0); q < 9; q++ {
		full.OnCE(q, 0)
	}

	rng := rtlmodel.NewRNG(11, "np-grow")
	now := rtlmodel.Time(0)
	sizes := map[int]bool{}
	for i := 0; i < 100_000; i++ {
		now += rtlmodel.Time(rng.Uint64n(uint64(us / 4)))
		qp := uint32(rng.Uint64n(300)) * 613 // more flows than entries: sweeps and overflows
		require.Equal(t, full.OnCE(qp, now), np.OnCE(qp, now), "step %d qp %d", i, qp)
		require.Equal(t, full.Flows(), np.Flows(), "step %d", i)
		sizes[len(np.keys)] = true
	}
	assert.Len(t, np.keys, 256, "grown to the size that holds 100 flows, no further")
	assert.Equal(t, map[int]bool{32: true, 64: true, 128: true, 256: true}, sizes)
	ce, sent, supp, over := np.Counts()
	ce2, sent2, supp2, over2 := full.Counts()
	assert.Equal(t, [4]uint64{ce2, sent2, supp2, over2}, [4]uint64{ce, sent, supp, over})
	assert.NotZero(t, over, "the sequence reaches overflows")
	assert.NotZero(t, supp, "and suppressions")
}
