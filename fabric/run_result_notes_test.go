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

// trimStormScenario is a 15:1 incast of 256 KB in 1 KB packets into a
// trimming switch whose ECN marks from 100 KB, under the congestion
// control cc.
func trimStormScenario(cc string) string {
	return `name: storm
seed: 823
topology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 8}
switch: {lb: spray, trimming: true, buffer_bytes: 2000000, ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}}
nic: {cc: ` + cc + `, mtu: 1024}
workload: {kind: incast, senders: 15, bytes: 262144}
`
}

// Under DCQCN, which ignores trims, the storm trims each packet many
// times over, and the note says so at nic.cc's line with the run's
// counts; Swift and NSCC, which slow down for trims as it says, trim a
// fifth as much or less and draw no note, nor does experiment 3's lossy
// fabric, which trims fewer packets than it places.
func TestResultNoteOnATrimStorm(t *testing.T) {
	r := completeScenario(t, "storm.yaml", trimStormScenario("dcqcn"))
	res := r.Results()
	require.Equal(t, uint64(15*256), res.DataPackets)
	require.Greater(t, res.Trims, res.DataPackets)
	notes := r.ResultNotes(res)
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], fmt.Sprint("storm.yaml:5: note: the switches trimmed ", res.Trims, " packets, ",
		strconv.FormatFloat(float64(res.Trims)/float64(res.DataPackets), 'f', 1, 64), " for each of the 3840 packets placed"))
	require.Contains(t, notes[0], ": DCQCN slows down for CNPs alone, so each trimmed packet is resent at once")

	for _, cc := range []string{"swift", "nscc"} {
		other := completeScenario(t, "storm.yaml", trimStormScenario(cc))
		ores := other.Results()
		require.Less(t, ores.Trims*5, res.Trims, cc)
		require.Empty(t, other.ResultNotes(ores), cc)
	}

	s, err := LoadScenario("../docs/scenarios/exp3_lossy_trimming.yaml")
	require.NoError(t, err)
	lossy := completeRun(t, s)
	lres := lossy.Results()
	require.Positive(t, lres.Trims)
	require.Empty(t, lossy.ResultNotes(lres))
}
