package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A trimmed packet keeps 64 bytes by default, or the NICs' headers to the
// end of the PSN's where they are longer (74 over RoCEv2 on IPv6); set
// fewer than hold the PSN, switch.trim_bytes draws a note at its line,
// and none comes with 74 bytes or more, nor over IPv4 or UET at 64. The
// switches' traffic managers trim to what the scenario says.
func TestNoteOnTrimsThatCutThePSN(t *testing.T) {
	const head = "name: t\ntopology: {kind: leafspine, leaves: 2, spines: 1, hosts_per_leaf: 4}\n" +
		"workload: {kind: incast, senders: 6, bytes: 262144}\n"
	parse := func(src string) *Scenario {
		s, err := ParseScenario("t.yaml", []byte(head+src))
		require.NoError(t, err)
		return s
	}
	got := parse("switch:\n  trimming: true\n  trim_bytes: 64\nnic: {stack: roce-ipv6}\n").Notes()
	require.Len(t, got, 1)
	require.Equal(t, "t.yaml:6: note: a trimmed packet keeps its first 64 bytes, short of the 74 bytes of Ethernet, IPv6, UDP and BTH "+
		"that hold its PSN: the receiving NIC cannot tell which packet it was and drops it, so a trim is a loss found by the timeout. "+
		"Set switch.trim_bytes to 74 or more", got[0])
	for _, src := range []string{
		"switch:\n  trimming: true\nnic: {stack: roce-ipv6}\n",
		"switch:\n  trimming: true\n  trim_bytes: 74\nnic: {stack: roce-ipv6}\n",
		"switch:\n  trimming: true\n  trim_bytes: 64\nnic: {stack: roce-ipv4}\n",
		"switch:\n  trimming: true\n  trim_bytes: 64\nnic: {stack: uet}\n",
	} {
		require.Empty(t, parse(src).Notes(), src)
	}
	for _, c := range []struct {
		src  string
		keep int
	}{
		{"switch:\n  trimming: true\n", 64},
		{"switch:\n  trimming: true\nnic: {stack: uet}\n", 64},
		{"switch:\n  trimming: true\nnic: {stack: roce-ipv6}\n", 74},
		{"switch:\n  trimming: true\n  trim_bytes: 96\nnic: {stack: roce-ipv6}\n", 96},
		{"switch:\n  trimming: true\n  trim_bytes: 60\n", 60},
	} {
		cfg, err := parse(c.src).switchConfig()
		require.NoError(t, err)
		require.Equal(t, c.keep, cfg.TM.Trim.TrimBytes, c.src)
	}
	_, err := ParseScenario("t.yaml", []byte(head+"switch:\n  trimming: true\n  trim_bytes: 5000\n"))
	require.ErrorContains(t, err, "t.yaml:6: switch.trim_bytes 5000: 1 to 4096")
}
