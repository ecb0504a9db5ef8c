package fabric

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The default scenario's DCQCN never cuts a rate: its lossless queues,
// held by PFC, stay below the default curve's start, so nothing is
// marked. The note says so at nic.cc's line with the run's own pause
// frames and deepest queue, and its advice holds: a curve that starts
// below that queue marks, DCQCN acts, and the note is gone.
func TestResultNoteOnDCQCNThatNeverMarked(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	r := completeRun(t, s)
	res := r.Results()
	require.Zero(t, res.ECNMarks)
	require.NotZero(t, res.PFCFrames)
	notes := r.ResultNotes(res)
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "default_scenario.yaml:16: note: DCQCN never cut a rate: no packet was ECN-marked")
	require.Contains(t, notes[0], fmt.Sprint(res.PFCFrames, " PFC pause frames alone held the senders back"))
	m := regexp.MustCompile(`starts at a queue of (\d+) B, and the deepest egress queue the run sampled \((\S+)\) held (\d+) B\. Set switch.ecn kmin_bytes and kmax_bytes below (\d+) for DCQCN to act`).FindStringSubmatch(notes[0])
	require.NotNil(t, m, notes[0])
	kmin, _ := strconv.ParseUint(m[1], 10, 64)
	deepest, _ := strconv.ParseUint(m[3], 10, 64)
	require.Equal(t, m[3], m[4])
	require.Less(t, deepest, kmin)
	require.True(t, strings.HasPrefix(m[2], "leaf") || strings.HasPrefix(m[2], "spine"), m[2])

	src := string(DefaultScenarioYAML())
	src = strings.Replace(src, "  pfc_classes: [0]\n", fmt.Sprintf("  pfc_classes: [0]\n  ecn: {kmin_bytes: %d, kmax_bytes: %d, pmax: 0.2}\n", deepest/2, deepest), 1)
	marked := completeScenario(t, "marked.yaml", src)
	mres := marked.Results()
	require.NotZero(t, mres.ECNMarks, "a curve below the deepest queue marks")
	require.Empty(t, marked.ResultNotes(mres))
}

// No note where DCQCN had nothing to miss or is not the control: a
// congestion control that reads no CNPs, a lossy data class (the
// scenario's own note covers a curve it cannot reach), and a run whose
// queues were marked; the same incast, lossless under DCQCN with the
// default curve, has it.
func TestNoResultNoteWhereDCQCNWasNotIdle(t *testing.T) {
	for _, c := range []struct {
		src    string
		paused bool
	}{
		{lossyScenario("{pfc_classes: [0]}", "swift"), true},
		{lossyScenario("{buffer_bytes: 2000000}", "dcqcn"), false},
		{lossyScenario("{pfc_classes: [0], ecn: {kmin_bytes: 20000, kmax_bytes: 400000, pmax: 0.2}}", "dcqcn"), true},
	} {
		r := completeScenario(t, "notes.yaml", c.src)
		res := r.Results()
		require.Equal(t, c.paused, res.PFCFrames > 0, c.src)
		require.Empty(t, r.ResultNotes(res), c.src)
	}
	r := completeScenario(t, "notes.yaml", lossyScenario("{pfc_classes: [0]}", "dcqcn"))
	res := r.Results()
	require.Zero(t, res.ECNMarks)
	require.Len(t, r.ResultNotes(res), 1, "the same incast under DCQCN with the default curve")
}
