package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A frame for a QP beyond the receiver's count is dropped and counted
// (bad_qp), as a NIC drops a packet for an invalid QP, rather than
// indexing the QP table out of range; the sender's retries go the same
// way until its QP fails.
func TestFrameForAQPBeyondTheCountIsDropped(t *testing.T) {
	cb := DefaultConfig(2)
	cb.QPs = 4
	e, a, b := backToBack(t, DefaultConfig(1), cb)
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 100, Bytes: 4096, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.NotZero(t, b.st.badQP.Value())
	require.Equal(t, b.st.badQP.Value(), a.st.txData.Value(), "every data packet sent is dropped")
	require.Zero(t, b.st.rxData.Value())
	require.Len(t, done, 1)
	require.NotEqual(t, StatusOK, done[0].Status)
}
