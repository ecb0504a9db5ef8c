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
