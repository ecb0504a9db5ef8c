package fabric

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lossyScenario is a small 6:1 incast of 1 MB each with the given switch
// block and congestion control, for the notes' tests: with the default
// buffer its receiver's queue passes the default curve's 1.6 MB.
func lossyScenario(switchBlock, cc string) string {
	return `name: notes
seed: 1
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}
switch: ` + switchBlock + `
nic: {cc: ` + cc + `}
workload: {kind: incast, senders: 6, receiver: 0, bytes: 1048576}
`
}

// The note on unreachable ECN comes exactly when the run marks nothing:
// the default curve (from 1.6 MB) marks in the default buffer and in a
// 3.4 MB one, with no note; in a 2 MB lossy buffer it never marks, and
// the note names buffer_bytes's line; a curve set below the ceiling marks
// and draws no note; a curve set above it is named by its own line; and
// the PFC headroom of a lossless class, taken out of the shared pool of a
// 3.4 MB buffer, is enough to stop the curve's marks.
func TestNoteOnECNThatCannotMark(t *testing.T) {
	marks := func(src string) uint64 {
		return completeScenario(t, "notes.yaml", src).Results().ECNMarks
	}
	parse := func(src string) *Scenario {
		s, err := ParseScenario("notes.yaml", []byte(src))
		require.NoError(t, err)
		return s
	}

	for _, sw := range []string{"{}", "{buffer_bytes: 3400000}"} {
		src := lossyScenario(sw, "dcqcn")
		require.Empty(t, parse(src).Notes(), sw)
		require.NotZero(t, marks(src), "%s: the incast no longer reaches the default curve; make it larger", sw)
	}

	small := lossyScenario("{buffer_bytes: 2000000}", "dcqcn")
	notes := parse(small).Notes()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "notes.yaml:4: note: no data packet will be ECN-marked")
	require.Contains(t, notes[0], "holds at most 1002030 B")
	require.Contains(t, notes[0], "DCQCN cuts its rate only for the CNPs that marks draw, so its senders never slow down: each packet the buffer cannot hold is dropped")
	require.Zero(t, marks(small))

	// what the note says each congestion control makes of no marks
	for _, c := range []struct{ sw, cc, says string }{
		{"{buffer_bytes: 2000000, trimming: true}", "dcqcn-fw", "DCQCN cuts its rate only for the CNPs that marks draw, so its senders never slow down: each packet the buffer cannot hold is trimmed and resent at once"},
		{"{buffer_bytes: 2000000, trimming: true}", "nscc", "; congestion control sees only drops and trims. Set"},
		{"{buffer_bytes: 2000000}", "nscc", "; congestion control sees only drops. Set"},
	} {
		notes := parse(lossyScenario(c.sw, c.cc)).Notes()
		require.Len(t, notes, 1, "%s %s", c.sw, c.cc)
		require.Contains(t, notes[0], c.says, "%s %s", c.sw, c.cc)
	}

	low := lossyScenario("{buffer_bytes: 2000000, ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}}", "dcqcn")
	require.Empty(t, parse(low).Notes())
	require.NotZero(t, marks(low))

	high := lossyScenario("\n  buffer_bytes: 2000000\n  ecn: {kmin_bytes: 1100000, kmax_bytes: 1600000, pmax: 0.2}", "dcqcn")
	notes = parse(high).Notes()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "notes.yaml:6: note:", "the line of switch.ecn, which sets kmin_bytes")
	require.Zero(t, marks(high))

	// the headroom a lossless class reserves comes out of the shared pool
	reserved := lossyScenario("{buffer_bytes: 3400000, pfc_classes: [1]}", "dcqcn")
	require.Len(t, parse(reserved).Notes(), 1)
	require.Zero(t, marks(reserved))
}

// No note where nothing is lost: a lossless data class (its queues are
// not held by the dynamic threshold, though a lossy one would be here),
// a congestion control that reads no marks and a file that sets none, or
// the default buffer.
func TestNoNoteWhereMarksAreNotMissed(t *testing.T) {
	for _, src := range []string{
		lossyScenario("{buffer_bytes: 3400000, pfc_classes: [0]}", "dcqcn"),
		lossyScenario("{buffer_bytes: 2000000}", "swift"),
		lossyScenario("{lb: spray}", "dcqcn"),
	} {
		s, err := ParseScenario("notes.yaml", []byte(src))
		require.NoError(t, err)
		require.Empty(t, s.Notes(), src)
	}
}

// A go-back-N receiver behind paths chosen packet by packet draws a note
// at nic.recovery; selective repeat, fixed paths or a switch that keeps a
// flow on its path draw none.
func TestNoteOnGoBackNOverSprayedPaths(t *testing.T) {
	const head = "name: g\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}\nworkload: {kind: permutation, bytes: 65536}\n"
	for _, c := range []struct{ lb, nic, want string }{
		{"perflow", "{recovery: gbn, paths: spray}", "g.yaml:5: note: a go-back-N receiver discards every data packet that arrives out of order, and nic.paths spray"},
		{"random", "{recovery: gbn}", "and switch.lb random spreads"},
		{"perflow", "{recovery: sr, paths: pathaware, reorder_tolerance: 64}", ""},
		{"dlb", "{recovery: gbn}", ""},
		{"spray", "{recovery: gbn, paths: fixed}", ""},
	} {
		s, err := ParseScenario("g.yaml", []byte(head+"switch: {lb: "+c.lb+"}\nnic: "+c.nic+"\n"))
		require.NoError(t, err)
		notes := s.Notes()
		if c.want == "" {
			require.Empty(t, notes, "lb %s, nic %s", c.lb, c.nic)
			continue
		}
		require.Len(t, notes, 1)
		require.Contains(t, notes[0], c.want)
	}
}

// Selective repeat with the single-path reorder tolerance over sprayed
// paths draws a note, located at the nic block when the file leaves the
// tolerance out, and the run shows what it says: every retransmission is
// received twice. A tolerance of 64 draws none and resends nothing.
func TestNoteOnSinglePathReorderToleranceOverSprayedPaths(t *testing.T) {
	const head = "name: r\nseed: 1\ntopology: {kind: fattree, k: 4}\nswitch: {pfc_classes: [0], lb: spray}\nworkload: {kind: permutation, bytes: 1048576}\n"
	src := head + "nic: {cc: dcqcn, paths: spray}\n"
	s, err := ParseScenario("r.yaml", []byte(src))
	require.NoError(t, err)
	notes := s.Notes()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "r.yaml:6: note: selective repeat takes a packet as lost once 3 later ones are acknowledged, and nic.paths spray")
	res := completeScenario(t, "r.yaml", src).Results()
	require.NotZero(t, res.Retransmits)
	require.Equal(t, res.Retransmits, res.DuplicatesReceived)

	src = head + "nic: {cc: dcqcn, paths: spray, reorder_tolerance: 64}\n"
	s, err = ParseScenario("r.yaml", []byte(src))
	require.NoError(t, err)
	require.Empty(t, s.Notes())
	require.Zero(t, completeScenario(t, "r.yaml", src).Results().Retransmits)
}

// A scenario that never validated has no notes, and asking is safe.
func TestNotesOfAnEmptyScenario(t *testing.T) {
	require.Empty(t, (&Scenario{}).Notes())
	require.Empty(t, (&Scenario{NIC: ScenarioNIC{CC: "dcqcn", Paths: "spray", Recovery: "gbn"}}).Notes())
}

// Go-back-N on a trimming fabric draws the note too, for the packets
// behind each trimmed one; selective repeat there draws none.
func TestNoteOnGoBackNWithTrimming(t *testing.T) {
	const head = "name: g\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}\nworkload: {kind: permutation, bytes: 65536}\nswitch: {trimming: true}\n"
	s, err := ParseScenario("g.yaml", []byte(head+"nic: {recovery: gbn}\n"))
	require.NoError(t, err)
	notes := s.Notes()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "g.yaml:5: note: a go-back-N receiver discards every data packet behind one that switch.trimming cut")
	s, err = ParseScenario("g.yaml", []byte(head+"nic: {recovery: sr}\n"))
	require.NoError(t, err)
	require.Empty(t, s.Notes())
}

// Reads over sprayed paths draw a note at workload.op's line, and the run
// shows what it says: responses dropped and reads re-issued. Requesters
// that place responses out of order (nic.ooo_reads) draw none, and on
// one path per flow there is no note and nothing is re-issued.
func TestNoteOnReadsOverSprayedPaths(t *testing.T) {
	src := func(paths string) string {
		return "name: rd\nseed: 3\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n" +
			"switch: {pfc_classes: [0], ecn: {kmin_bytes: 100000, kmax_bytes: 400000, pmax: 0.2}}\n" +
			"nic: {cc: dcqcn, paths: " + paths + ", reorder_tolerance: 64}\n" +
			"workload:\n  kind: permutation\n  bytes: 262144\n  op: read\n"
	}
	s, err := ParseScenario("rd.yaml", []byte(src("spray")))
	require.NoError(t, err)
	notes := s.Notes()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "rd.yaml:9: note: a READ requester takes its responses in PSN order")
	r := completeScenario(t, "rd.yaml", src("spray"))
	require.NotZero(t, sumCounters(r.Cluster.Engine, "/read_reissues")["/read_reissues"])
	require.NotZero(t, r.Results().NICDrops)

	s, err = ParseScenario("rd.yaml", []byte(src("spray, ooo_reads: true")))
	require.NoError(t, err)
	require.Empty(t, s.Notes(), "requesters that place responses out of order")

	s, err = ParseScenario("rd.yaml", []byte(src("fixed")))
	require.NoError(t, err)
	require.Empty(t, s.Notes())
	r = completeScenario(t, "rd.yaml", src("fixed"))
	require.Zero(t, sumCounters(r.Cluster.Engine, "/read_reissues")["/read_reissues"])
	require.Zero(t, r.Results().NICDrops)
}

// A trace's reads over sprayed paths draw the note too, once the flows
// are read, located at workload.file and counting the reads; a trace of
// writes draws none.
func TestNoteOnTraceReadsOverSprayedPaths(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		rows, want string
	}{
		{"0,1,65536,0,read\n1,0,65536,0,write\n2,3,4096,0,read\n", "s.yaml:5: note: 2 of the trace's flows are RDMA READs, whose requester takes the responses in PSN order"},
		{"0,1,65536,0,write\n1,0,65536,0,send\n", ""},
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "t.csv"), []byte("src,dst,bytes,start_ns,op\n"+c.rows), 0o644))
		src := "name: x\ntopology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 2}\nswitch: {lb: roundrobin}\nnic: {reorder_tolerance: 64}\nworkload: {kind: csv, file: t.csv}\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, "s.yaml"), []byte(src), 0o644))
		s, err := LoadScenario(filepath.Join(dir, "s.yaml"))
		require.NoError(t, err)
		r, err := NewRun(s)
		require.NoError(t, err)
		notes := r.Notes()
		if c.want == "" {
			require.Empty(t, notes)
			continue
		}
		require.Len(t, notes, 1)
		require.Contains(t, notes[0], c.want)
		require.Contains(t, notes[0], "switch.lb roundrobin spreads the responses")
	}
}

// switch.alpha and switch.queue_reserve_bytes on a fabric whose data
// class is lossless draw a note at the first of them: they hold the
// lossy queues only. On a lossy fabric, or with neither set, there is
// none.
func TestNoteOnLossyQueueKeysOverLosslessData(t *testing.T) {
	s, err := ParseScenario("q.yaml", []byte(lossyScenario("{pfc_classes: [0], alpha: 4, queue_reserve_bytes: 2000}", "dcqcn")))
	require.NoError(t, err)
	notes := s.Notes()
	require.Len(t, notes, 1)
	require.Equal(t, "q.yaml:4: note: switch.alpha and switch.queue_reserve_bytes hold only the lossy queues, and the data class 0 is lossless (switch.pfc_classes): they govern the acknowledgements' queues and trimmed headers', not the data's", notes[0])
	for _, block := range []string{"{alpha: 4, queue_reserve_bytes: 2000}", "{pfc_classes: [0]}"} {
		s, err := ParseScenario("q.yaml", []byte(lossyScenario(block, "dcqcn")))
		require.NoError(t, err)
		require.Empty(t, s.Notes(), block)
	}
}

// Marking off under DCQCN: a note at switch.ecn.off's line, which says
// what holds the senders back instead (PFC on a lossless data class, the
// buffer's drops or trims on a lossy one); none under a congestion
// control that does not wait for CNPs. The run agrees: no mark, and no
// note after it either.
func TestNoteOnECNOffUnderDCQCN(t *testing.T) {
	for _, c := range []struct{ sw, says string }{
		{"\n  pfc_classes: [0]\n  ecn: {off: true}", "PFC pause frames alone hold them back"},
		{"\n  trimming: true\n  ecn: {off: true}", "each packet the buffer cannot hold is trimmed and resent at once"},
		{"\n  buffer_bytes: 8000000\n  ecn: {off: true}", "each packet the buffer cannot hold is dropped"},
	} {
		src := lossyScenario(c.sw, "dcqcn")
		s, err := ParseScenario("notes.yaml", []byte(src))
		require.NoError(t, err)
		notes := s.Notes()
		require.Len(t, notes, 1, c.sw)
		require.Contains(t, notes[0], "notes.yaml:6: note: the switches mark no packet, and DCQCN cuts its rate only for the CNPs that marks draw, so its senders never slow down: "+c.says)
		r := completeScenario(t, "notes.yaml", src)
		res := r.Results()
		require.Zero(t, res.ECNMarks, c.sw)
		if strings.Contains(c.sw, "pfc_classes") {
			require.Positive(t, res.PFCFrames, "the lossless incast pauses, as the note says")
		}
		require.Empty(t, r.ResultNotes(res), c.sw)
	}
	s, err := ParseScenario("notes.yaml", []byte(lossyScenario("\n  pfc_classes: [0]\n  ecn: {off: true}", "swift")))
	require.NoError(t, err)
	require.Empty(t, s.Notes())
}
