package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

// The switches' default trim keeps 64 bytes, which hold the PSN over
// RoCEv2 on IPv4 and UET but not over IPv6 (74 bytes to the BTH's end):
// a note says so, at switch.trimming's line or at switch.trim_bytes's
// when the file sets too few, and none comes with 74 bytes or more. The
// switches' traffic managers trim to switch.trim_bytes.
func TestNoteOnTrimsThatCutThePSN(t *testing.T) {
	const head = "name: t\ntopology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 4}\n" +
		"workload: {kind: incast, senders: 6, bytes: 262144}\n"
	notes := func(src string) []string {
		s, err := ParseScenario("t.yaml", []byte(head+src))
		require.NoError(t, err)
		return s.Notes()
	}
	got := notes("switch:\n  trimming: true\nnic: {stack: roce-ipv6}\n")
	require.Len(t, got, 1)
	require.Equal(t, "t.yaml:5: note: a trimmed packet keeps its first 64 bytes, short of the 74 bytes of Ethernet, IPv6, UDP and BTH "+
		"that hold its PSN: a real receiver could not tell which packet it was, and the model's NICs read the PSN from the packet's "+
		"descriptor to NACK it. Set switch.trim_bytes to 74 or more", got[0])
	got = notes("switch:\n  trimming: true\n  trim_bytes: 70\nnic: {stack: roce-ipv6}\n")
	require.Len(t, got, 1)
	require.Contains(t, got[0], "t.yaml:6: note: a trimmed packet keeps its first 70 bytes, short of the 74")
	require.Empty(t, notes("switch:\n  trimming: true\n  trim_bytes: 74\nnic: {stack: roce-ipv6}\n"))
	require.Empty(t, notes("switch:\n  trimming: true\nnic: {stack: roce-ipv4}\n"))
	require.Empty(t, notes("switch:\n  trimming: true\nnic: {stack: uet}\n"))

	// the switches' traffic managers trim to switch.trim_bytes
	for _, c := range []struct {
		src  string
		keep int
	}{{"", switchasic.DefaultTrimConfig().TrimBytes}, {"  trim_bytes: 96\n", 96}} {
		s, err := ParseScenario("t.yaml", []byte(head+"switch:\n  trimming: true\n"+c.src))
		require.NoError(t, err)
		cfg, err := s.switchConfig()
		require.NoError(t, err)
		require.Equal(t, c.keep, cfg.TM.Trim.TrimBytes)
	}
	_, err := ParseScenario("t.yaml", []byte(head+"switch:\n  trimming: true\n  trim_bytes: 5000\n"))
	require.ErrorContains(t, err, "t.yaml:6: switch.trim_bytes 5000: 1 to 4096 (0: the default, 64)")
}
