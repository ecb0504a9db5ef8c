package fabric

import (
	"context"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// failIncast runs a 6:1 incast of 1 MB writes on a leaf-spine with the
// switch and NIC sections given, to its end, where some of its flows
// must have failed, and returns the run's one failure note and its
// slowest queue.
func failIncast(t *testing.T, sections string) (string, queueDrain) {
	t.Helper()
	s, err := ParseScenario("fail.yaml", []byte(`name: fail
seed: 5
topology:
  kind: leafspine
  leaves: 2
  spines: 1
  hosts_per_leaf: 4
workload:
  kind: incast
  senders: 6
  bytes: 1048576
`+sections))
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	err = r.Complete(context.Background(), 10*rtlmodel.Microsecond, 20*rtlmodel.Millisecond, nil)
	var fe *FlowsFailedError
	require.ErrorAs(t, err, &fe)
	notes := r.FailureNotes(r.Results())
	t.Log(notes)
	require.Len(t, notes, 1)
	q, ok := r.slowestDrain()
	require.True(t, ok)
	return notes[0], q
}

// A run whose QPs time out on packets still queued says so: six senders
// into one lossless port queue far more than a 4 us timeout's worth, and
// the note names that port, how long its deepest sample takes to drain,
// and nic.rto_us at its line.
func TestFailureNotesNameAQueueLongerThanTheTimeout(t *testing.T) {
	note, q := failIncast(t, "switch:\n  pfc_classes: [0]\nnic:\n  rto_us: 4\n  retry_count: 0\n")
	require.Greater(t, q.drain, 4*rtlmodel.Microsecond)
	require.Regexp(t, `^fail\.yaml:15: note: \d+ flow\(s\) ran out of retries, and the egress queue `+q.name+` held [0-9.]+ MB at its deepest sample, [0-9.]+ us of its 400 Gb/s: longer than the 4 us retransmission timeout`, note)
	require.Contains(t, note, "; raise nic.rto_us above")
	require.NotContains(t, note, "received twice", "a QP that fails at its first timeout resends nothing")
	require.NotContains(t, note, "switch.alpha", "a lossless queue is not held by the lossy queues' keys")
}

// A run whose QPs ran out of retries with every queue shorter than the
// timeout says what was lost: a lossy incast into a small buffer drops,
// and the note counts the drops and points at switch.trimming, at the
// line of the switch section that does not set it.
func TestFailureNotesCountDropsWhenNoQueueHeldTheTimeout(t *testing.T) {
	note, q := failIncast(t, "switch:\n  buffer_bytes: 400000\nnic:\n  cc: dcqcn\n  rto_us: 100\n  retry_count: 0\n")
	require.Less(t, q.drain, 100*rtlmodel.Microsecond)
	require.Regexp(t, `^fail\.yaml:12: note: \d+ flow\(s\) ran out of retries, and no queue held packets as long as the 100 us retransmission timeout \(the egress queue \S+ held`, note)
	require.Regexp(t, `lost or not sent \([1-9]\d* packets the switches dropped for want of buffer, 0 frames corrupted on the wire\); switch.trimming: true`, note)
}
