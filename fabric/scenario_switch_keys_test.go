package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The switch's ECN and PFC keys take no value silently: an ECN block
// with marking on must give pmax (left out it would mean "never mark
// below kmax_bytes"), the values beside off: true are still checked, and
// a PFC class listed twice is refused at its second listing.
func TestScenarioSwitchKeysAreNotTakenSilently(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"no pmax", "switch:\n  ecn:\n    kmin_bytes: 1000\n    kmax_bytes: 20000\n",
			"s.yaml:11: switch.ecn: no pmax: give the marking probability just below kmax_bytes, 0 to 1 (0 marks only at and above kmax_bytes), or off: true"},
		{"pmax beside off", "switch:\n  ecn:\n    off: true\n    pmax: 7\n",
			"s.yaml:13: switch.ecn.pmax 7: a probability, 0 to 1 (checked with off: true too)"},
		{"kmin above kmax beside off", "switch:\n  ecn: {off: true, kmin_bytes: 20000, kmax_bytes: 1000, pmax: 0.5}\n",
			"s.yaml:11: switch.ecn: KmaxBytes 1000 must exceed KminBytes 20000 (checked with off: true too)"},
		{"class twice", "switch:\n  pfc_classes: [0, 0]\n",
			"s.yaml:11: switch.pfc_classes: class 0 listed twice (items 0 and 1)"},
		{"class twice, a line each", "switch:\n  pfc_classes:\n    - 3\n    - 1\n    - 3\n",
			"s.yaml:14: switch.pfc_classes: class 3 listed twice (items 0 and 2)"},
		{"off alone", "switch:\n  ecn: {off: true}\n", ""},
		{"off beside a curve", "switch:\n  ecn: {off: true, kmin_bytes: 1000, kmax_bytes: 20000, pmax: 0.2}\n", ""},
		{"pmax 0 given", "switch:\n  ecn: {kmin_bytes: 1000, kmax_bytes: 20000, pmax: 0}\n", ""},
		{"classes once", "switch:\n  pfc_classes: [0, 3]\n", ""},
	} {
		_, err := ParseScenario("s.yaml", []byte(scenarioBase+scenarioWorkload+c.yaml))
		if c.want == "" {
			require.NoError(t, err, c.name)
			continue
		}
		require.EqualError(t, err, c.want, c.name)
	}
}
