package verify

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
)

// rewriteFrames draws the rewrite block's stimulus with its first three
// frames untagged, so that BUG_TAG first shows on a known frame: the
// first tagged one after them that has a hop left.
func rewriteFrames(n int) []Txn {
	b, _ := LookupBlock("rewrite")
	p, _ := b.Resolve(nil)
	var out []Txn
	for _, f := range b.Stimulus(rand.New(rand.NewPCG(31, 32)), p, 4*n) {
		if len(out) < 3 && rewriteTagged(f) {
			continue
		}
		out = append(out, f)
		if len(out) == n {
			break
		}
	}
	return out
}

func rewriteTagged(f Txn) bool { return f.Data[12] == 0x81 && f.Data[13] == 0x00 }

// rewriteHopLeft reports whether f came with a TTL (hop limit) above 1.
func rewriteHopLeft(f Txn) bool {
	var eth packet.Ethernet
	if eth.Decode(f.Data) != nil {
		return false
	}
	at := eth.Len() + 8
	if eth.EtherType == packet.EtherTypeIPv6 {
		at = eth.Len() + 7
	}
	return f.Data[at] > 1
}

// The reference rewrite RTL passes: every frame with a hop left comes out
// as the model rewrites it, six cycles after it went in, and the others
// do not come out.
func TestRTLRewriteClean(t *testing.T) {
	frames := rewriteFrames(60)
	v, dir := writeVectors(t, "rewrite", nil, frames)
	kept := 0
	for _, f := range frames {
		if rewriteHopLeft(f) {
			kept++
		}
	}
	require.Less(t, kept, len(frames), "some frames have no hop left")
	vcdPath, out := runIverilog(t, "rewrite", "rewrite_top", nil, dir)
	require.Equal(t, 0, tbErrors(t, out), "the testbench's own check against expected.hex: %s", out)
	res, err := RunFile(loadRTLMap(t, "rewrite"), vcdPath)
	require.NoError(t, err)
	require.True(t, res.Passed(), res.Summary())
	require.EqualValues(t, len(frames), res.Inputs)
	require.EqualValues(t, kept, res.Matched)
	require.Len(t, v.Outputs, kept)
	t.Log(res.Summary())
}

// Under BUG_TAG the RTL reads a tag's TPID as the EtherType and leaves a
// tagged frame's TTL and checksum as they came: the first divergence is
// the first tagged frame with a hop left, six cycles after its last beat.
func TestRTLRewriteBugTag(t *testing.T) {
	frames := rewriteFrames(60)
	first, matched := -1, 0
	for i, f := range frames {
		if rewriteTagged(f) && rewriteHopLeft(f) {
			first = i
			break
		}
		if rewriteHopLeft(f) {
			matched++
		}
	}
	require.Greater(t, first, 2)
	_, dir := writeVectors(t, "rewrite", nil, frames)
	vcdPath, _ := runIverilog(t, "rewrite", "rewrite_top", []string{"BUG_TAG"}, dir)
	res, err := RunFile(loadRTLMap(t, "rewrite"), vcdPath)
	require.NoError(t, err)
	require.False(t, res.Passed())
	d := res.Divergence
	require.Equal(t, KindMismatch, d.Kind, res.Summary())
	require.Equal(t, fcsSchedule(frames)[first]+6, d.Cycle, res.Summary())
	require.EqualValues(t, matched, res.Matched)
	t.Log(res.Summary())
}
