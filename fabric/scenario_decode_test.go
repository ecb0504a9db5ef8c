package fabric

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// What the YAML library finds wrong in a scenario's text comes back in the
// scenario's terms, at the line of the file: the dotted key, what the key
// takes, and no Go type names.
func TestScenarioYAMLErrorsSpeakInKeys(t *testing.T) {
	for _, c := range []struct {
		name, yaml, want string
	}{
		{"unknown key", "name: x\ntopology:\n  kind: leafspine\n  leafs: 2\n" + scenarioWorkload,
			"s.yaml:4: topology.leafs: unknown key; topology takes kind, port_mode, radix, leaves, spines, hosts_per_leaf, " +
				"links_per_spine, k, rails, host_cable_mm, tier1_cable_mm, tier2_cable_mm, degraded_uplink"},
		{"unknown top key", "nmae: x\n" + scenarioBase[len("name: x\n"):] + scenarioWorkload,
			"s.yaml:1: nmae: unknown key; a scenario takes name, seed, max_time_us, topology, switch, nic, workload"},
		{"unknown key under a pointer", scenarioBase + scenarioWorkload + "switch:\n  ecn:\n    kmin: 3\n",
			"s.yaml:12: switch.ecn.kmin: unknown key; switch.ecn takes kmin_bytes, kmax_bytes, pmax, off"},
		{"unknown key in a list item", scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {bytes: 100, p: 1, q: 2}\n",
			"s.yaml:10: workload.size_cdf.0.q: unknown key; workload.size_cdf.0 takes bytes, p"},
		{"negative size", scenarioBase + "workload:\n  kind: permutation\n  bytes: -5\n",
			"s.yaml:9: workload.bytes: -5 is not a whole number of 0 or more"},
		{"word for a number", scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {bytes: 1, p: 0.5}\n    - {bytes: x, p: 1}\n",
			"s.yaml:11: workload.size_cdf.1.bytes: x is not a whole number of 0 or more"},
		// the key whose value it is, not the first of its kind on the line
		{"second value on a line", scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {p: 1, bytes: -7}\n",
			"s.yaml:10: workload.size_cdf.0.bytes: -7 is not a whole number of 0 or more"},
		{"long value", scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {p: 1, bytes: -123456789012}\n",
			"s.yaml:10: workload.size_cdf.0.bytes: -123456... is not a whole number of 0 or more"},
		// numbers the library would take as other numbers
		{"fraction for a whole number", "name: x\ntopology:\n  kind: leafspine\n  leaves: 2.9\n",
			"s.yaml:4: topology.leaves: 2.9 is not a whole number"},
		{"fraction for a size", scenarioBase + "workload:\n  kind: permutation\n  bytes: 65536.9\n",
			"s.yaml:9: workload.bytes: 65536.9 is not a whole number of 0 or more"},
		{"exponent for a whole number", "name: x\nseed: 1e3\n",
			"s.yaml:2: seed: 1e3 is not a whole number of 0 or more: write it in digits, with no point or exponent"},
		{"beyond 64 bits", "name: x\nseed: 18446744073709551616\n",
			"s.yaml:2: seed: 18446744073709551616 is out of range: 0 to 18446744073709551615"},
		{"beyond 64 bits in a list", scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {p: 1, bytes: 99999999999999999999999}\n",
			"s.yaml:10: workload.size_cdf.0.bytes: 99999999999999999999999 is out of range: 0 to 18446744073709551615"},
		{"quoted number", scenarioBase + "workload:\n  kind: permutation\n  bytes: \"65536\"\n",
			`s.yaml:9: workload.bytes: "65536" is a quoted string, and a whole number of 0 or more is wanted: write it without the quotes`},
		{"quoted fraction", scenarioBase + scenarioWorkload + "nic:\n  rto_us: '5.5'\n",
			`s.yaml:11: nic.rto_us: "5.5" is a quoted string, and a number is wanted: write it without the quotes`},
		{"not UTF-8", "name: sm\xffall\n", "s.yaml:1: byte 0xff, character 9 of the line, is not UTF-8"},
		{"not UTF-8 further on", "name: x\nseed: 1\n# caf\xe9\n", "s.yaml:3: byte 0xe9, character 6 of the line, is not UTF-8"},
		// keys the workload's kind would ignore
		{"key of another kind", scenarioBase + "workload:\n  kind: permutation\n  bytes: 10\n  senders: 2\n",
			"s.yaml:10: workload.senders: not a key of kind permutation, which takes kind, bytes, ranks, start_us, op"},
		{"size on a background", scenarioBase + "workload:\n  kind: background\n  bytes: 10\n  load: 0.5\n",
			"s.yaml:9: workload.bytes: not a key of kind background, which takes kind, ranks, load, size_cdf, duration_us, start_us, op"},
		{"start on a trace", scenarioBase + "workload:\n  kind: csv\n  file: t.csv\n  start_us: 5\n",
			"s.yaml:10: workload.start_us: not a key of kind csv, which takes kind, file"},
		{"op of a trace", scenarioBase + "workload:\n  kind: csv\n  file: t.csv\n  op: read\n",
			"s.yaml:10: workload.op: not a key of kind csv, which takes kind, file; a trace names each flow's operation in its op column"},
		{"list for a mapping", "name: x\ntopology: [1, 2]\n", "s.yaml:2: topology: a list is not a mapping"},
		{"list for a number", scenarioBase + scenarioWorkload + "nic:\n  mtu: [1]\n", "s.yaml:11: nic.mtu: a list is not a whole number"},
		{"key twice", "name: x\nname: y\n", "s.yaml:2: name: set twice (first at line 1)"},
		{"syntax", "name: x\n  bad: [\n", "s.yaml:2: mapping values are not allowed in this context"},
		{"empty", "", "s.yaml: no scenario: the file is empty or only comments"},
		{"only comments", "# nothing yet\n", "s.yaml: no scenario: the file is empty or only comments"},
		{"two documents", scenarioBase + scenarioWorkload + "---\nname: y\n",
			"s.yaml:10: a second YAML document: a scenario file holds one scenario"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseScenario("s.yaml", []byte(c.yaml))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.NotContains(t, err.Error(), "fabric.")
		})
	}
}

// Several problems the decoder finds are reported together, a line each.
func TestScenarioYAMLErrorsOneLineEach(t *testing.T) {
	_, err := ParseScenario("s.yaml", []byte("name: x\ntopology:\n  kind: leafspine\n  leafs: 2\nworkload:\n  kind: permutation\n  bogus: 1\n"))
	require.Error(t, err)
	require.Regexp(t, `^s\.yaml:4: topology\.leafs: unknown key; .*\ns\.yaml:7: workload\.bogus: unknown key; workload takes kind, bytes, `, err.Error())
}

// A sweep file given where a scenario is wanted is named as one, with the
// command that runs it, rather than each of its keys listed as unknown.
func TestScenarioSaysASweepFileIsOne(t *testing.T) {
	_, err := LoadScenario("../docs/explore_lb.yaml")
	require.EqualError(t, err, "../docs/explore_lb.yaml:6: this is a sweep file (it has evaluator and parameters), "+
		"not a scenario: run it with fabricmodel explore run")
	// a scenario with one of the keys is still told about that key
	_, err = ParseScenario("s.yaml", []byte(scenarioBase+scenarioWorkload+"parameters: 1\n"))
	require.ErrorContains(t, err, "s.yaml:10: parameters: unknown key; a scenario takes")
}
