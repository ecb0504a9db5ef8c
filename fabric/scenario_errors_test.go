package fabric

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// scenarioBase is a valid scenario of 4 endpoints; its lines 1 to 6 are
// name and topology, so what a case appends starts at line 7.
const scenarioBase = "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"

const scenarioWorkload = "workload:\n  kind: permutation\n  bytes: 1000\n"

// A bad value is reported with the file, the line of its key and the key,
// whether the file's checks find it or the build of the run does; a value
// the run would have taken silently (a negative MTU, an ECN probability
// outside [0, 1]) is an error too.
func TestScenarioValueErrorsCarryTheirLine(t *testing.T) {
	for _, c := range []struct {
		name, yaml, want string
		line             int
		atBuild          bool
	}{
		{"leaves", "name: x\ntopology:\n  kind: leafspine\n  leaves: 0\n  spines: 2\n  hosts_per_leaf: 2\n" + scenarioWorkload, "leaves 0", 4, false},
		{"kind", "name: x\ntopology:\n  kind: ring\n" + scenarioWorkload, `kind "ring"`, 3, false},
		{"workload kind", scenarioBase + "workload:\n  kind: gossip\n  bytes: 1\n", `workload.kind "gossip"`, 8, false},
		// a key the file lacks: the line of the key that should hold it
		{"no bytes", scenarioBase + "workload:\n  kind: permutation\n", "workload.bytes", 7, false},
		{"mtu", scenarioBase + scenarioWorkload + "nic:\n  mtu: 5000\n", "nic.mtu 5000", 11, false},
		{"negative mtu", scenarioBase + scenarioWorkload + "nic:\n  cc: dcqcn\n  mtu: -1\n", "nic.mtu -1", 12, false},
		{"reorder", scenarioBase + scenarioWorkload + "nic:\n  reorder_tolerance: -2\n", "nic.reorder_tolerance -2", 11, false},
		{"cc", scenarioBase + scenarioWorkload + "nic:\n  cc: reno\n", `nic.cc "reno"`, 11, false},
		{"rto", scenarioBase + scenarioWorkload + "nic:\n  cc: dcqcn\n  rto_us: -5\n", "nic.rto_us -5", 12, false},
		{"hpcc base rtt", scenarioBase + scenarioWorkload + "nic:\n  cc: hpcc\n  hpcc_base_rtt_us: -1\n", "nic.hpcc_base_rtt_us -1", 12, false},
		{"hpcc base rtt past 2^24 ns", scenarioBase + scenarioWorkload + "nic:\n  hpcc_base_rtt_us: 16777.216\n",
			"nic.hpcc_base_rtt_us 16777.216: HPCC's base RTT in microseconds, 0.008 to 16777.215", 11, false},
		{"hpcc base rtt without hpcc", scenarioBase + scenarioWorkload + "nic:\n  cc: dcqcn\n  hpcc_base_rtt_us: 3\n",
			"nic.hpcc_base_rtt_us: only nic.cc hpcc reads it, and this scenario's NICs run dcqcn", 12, false},
		{"hpcc base rtt under its window's floor", scenarioBase + scenarioWorkload + "nic:\n  cc: hpcc\n  hpcc_base_rtt_us: 0.007\n",
			"nic.hpcc_base_rtt_us 0.007: HPCC's base RTT in microseconds, 0.008 to", 12, false},
		{"retry count", scenarioBase + scenarioWorkload + "nic:\n  retry_count: 8\n", "nic.retry_count 8", 11, false},
		{"lb", scenarioBase + scenarioWorkload + "switch:\n  lb: hashing\n", `switch.lb "hashing"`, 11, false},
		{"kmax", scenarioBase + scenarioWorkload + "switch:\n  ecn:\n    kmin_bytes: 500\n    kmax_bytes: 100\n", "switch.ecn: KmaxBytes 100 must exceed KminBytes 500", 13, false},
		{"pmax", scenarioBase + scenarioWorkload + "switch:\n  ecn:\n    kmin_bytes: 1\n    kmax_bytes: 2\n    pmax: -1\n", "pmax -1", 14, false},
		{"cut-through", scenarioBase + scenarioWorkload + "switch:\n  cut_through_bytes: 500\n", "cut_through_bytes 500", 11, false},
		{"buffer", scenarioBase + scenarioWorkload + "switch:\n  lb: spray\n  buffer_bytes: 10\n", "switch.buffer_bytes 10: TMConfig.BufferBytes 10", 12, false},
		{"alpha", scenarioBase + scenarioWorkload + "switch:\n  alpha: 0.3\n", "switch.alpha 0.3: a power of two from 1/128 to 256", 11, false},
		{"alpha too large", scenarioBase + scenarioWorkload + "switch:\n  alpha: 512\n", "switch.alpha 512: a power of two", 11, false},
		{"queue reserve", scenarioBase + scenarioWorkload + "switch:\n  buffer_bytes: 1000000\n  queue_reserve_bytes: 50000\n",
			"switch.queue_reserve_bytes 50000 on a switch of 4 ports: TMConfig.QueueReserveBytes 50000: 197 cells for each of 4 ports × 8 lossy classes need 6304 cells in all, but the shared pool has 3937", 12, false},
		{"queue reserve bound", scenarioBase + scenarioWorkload + "switch:\n  queue_reserve_bytes: 2000000001\n",
			"switch.queue_reserve_bytes 2000000001: bytes, at most 2000000000", 11, false},
		{"csv without file", scenarioBase + "workload:\n  kind: csv\n", "workload.file", 7, false},
		{"op", scenarioBase + scenarioWorkload + "  op: atomic\n", `workload.op: operation "atomic": one of write, send, read`, 10, false},
		{"read too long", scenarioBase + "workload:\n  kind: permutation\n  op: read\n  bytes: 4294967296\n",
			"workload.bytes 4294967296: bytes, at most 4294967295 (4 GiB − 1, the 32-bit length of a work request", 10, false},
		// times, lengths and sizes that would overflow their conversion
		{"max time", "name: x\nmax_time_us: 18446744073710\n" + scenarioBase[len("name: x\n"):] + scenarioWorkload,
			"max_time_us 18446744073710: microseconds, at most 10000000 (10 s of simulated time)", 2, false},
		{"start", scenarioBase + scenarioWorkload + "  start_us: 18446744073710\n", "workload.start_us 18446744073710: microseconds, at most 10000000", 10, false},
		{"duration", scenarioBase + "workload:\n  kind: background\n  load: 0.5\n  duration_us: 10000001\n  size_cdf:\n    - {bytes: 100, p: 1}\n",
			"workload.duration_us 10000001: microseconds, at most 10000000", 10, false},
		{"host cable", "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n  host_cable_mm: 3689348814741911\n" + scenarioWorkload,
			"topology.host_cable_mm 3689348814741911: millimetres, at most 1000000 (1 km", 7, false},
		{"tier1 cable", "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n  tier1_cable_mm: 1000001\n" + scenarioWorkload,
			"topology.tier1_cable_mm 1000001: millimetres", 7, false},
		{"flow bytes", scenarioBase + "workload:\n  kind: permutation\n  bytes: 68719476737\n", "workload.bytes 68719476737: bytes, at most 4294967295 (4 GiB − 1", 9, false},
		{"write too long", scenarioBase + "workload:\n  kind: permutation\n  bytes: 4294967296\n", "workload.bytes 4294967296: bytes, at most 4294967295", 9, false},
		{"size cdf bytes", scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {bytes: 100, p: 0.5}\n    - {bytes: 18446744073709551615, p: 1}\n",
			"workload.size_cdf.1.bytes 18446744073709551615: bytes, at most", 11, false},
		{"switch buffer", scenarioBase + scenarioWorkload + "switch:\n  buffer_bytes: 18446744073709551615\n",
			"switch.buffer_bytes 18446744073709551615: bytes, at most 2000000000 (2 GB, ten times the largest buffer of a 51.2T switch", 11, false},
		{"negative ranks", scenarioBase + "workload:\n  kind: ring_allreduce\n  bytes: 65536\n  ranks: -3\n", "workload.ranks -3: the endpoints taking part", 10, false},
		// found when the run is built
		{"incast senders", scenarioBase + "workload:\n  kind: incast\n  senders: 100\n  bytes: 10\n", "incast of 100 senders", 9, true},
		{"incast receiver", scenarioBase + "workload:\n  kind: incast\n  senders: 2\n  receiver: 50\n  bytes: 10\n", "into endpoint 50", 10, true},
		{"ranks", scenarioBase + "workload:\n  kind: ring_allreduce\n  ranks: 99\n  bytes: 1000\n", "ranks 99", 9, true},
		{"size cdf point", scenarioBase + "workload:\n  kind: background\n  load: 0.5\n  duration_us: 10\n  size_cdf:\n" +
			"    - {bytes: 100, p: 0.5}\n    - {bytes: 10, p: 1}\n", "size_cdf[1]", 13, true},
		{"load", scenarioBase + "workload:\n  kind: background\n  load: 2\n  duration_us: 10\n  size_cdf:\n    - {bytes: 100, p: 1}\n", "load 2", 9, true},
		{"background flows", scenarioBase + "workload:\n  kind: background\n  load: 1\n  duration_us: 10000000\n  size_cdf:\n    - {bytes: 1, p: 1}\n",
			"background would draw about 2e+12 flows", 10, true},
		{"degraded uplink", "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n  degraded_uplink: 9/9/9\n" + scenarioWorkload,
			"switch 9: the fabric has switches 0 to 3", 7, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseScenario("s.yaml", []byte(c.yaml))
			if c.atBuild {
				require.NoError(t, err)
				_, err = NewRun(s)
			}
			require.Error(t, err)
			prefix := fmt.Sprintf("s.yaml:%d: ", c.line)
			require.True(t, strings.HasPrefix(err.Error(), prefix), "%q does not start with %q", err, prefix)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// Several bad NIC values are reported together, each on its own line with
// its own line number.
func TestScenarioJoinedErrorsLineEach(t *testing.T) {
	_, err := ParseScenario("s.yaml", []byte(scenarioBase+scenarioWorkload+"nic:\n  cc: reno\n  paths: ecmp\n  mtu: 9\n"))
	require.Error(t, err)
	require.Equal(t, []string{
		`s.yaml:11: nic.cc "reno": one of none, dcqcn, dcqcn-fw, hpcc, timely, swift, nscc, eqds`,
		`s.yaml:12: nic.paths "ecmp": one of fixed, spray, pathaware`,
		`s.yaml:13: nic.mtu 9: payload bytes per packet, 256 to 4096 (0: the default)`,
	}, strings.Split(err.Error(), "\n"))
}

// A scenario built in code (no file) keeps its errors as they are.
func TestScenarioWithoutFileKeepsErrors(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	c := *s
	c.src = nil
	c.Workload.Kind, c.Workload.Senders = "incast", 1000
	_, err = NewRun(&c)
	require.EqualError(t, err, "workload: incast of 1000 senders into endpoint 0 on 32 endpoints")
}

// On a rails fabric a workload runs within each plane, so an incast or
// collective too large for a plane is refused naming the plane's
// endpoints and the fabric's, the count Results.Endpoints reports.
func TestRailsWorkloadErrorsCountTheFabric(t *testing.T) {
	rails := "name: x\ntopology:\n  kind: rails\n  rails: 4\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 4\n"
	span := "8 endpoints of each of 4 rail planes (32 endpoints in all; the workload runs within each plane)"
	for _, c := range []struct{ workload, want string }{
		{"workload:\n  kind: incast\n  senders: 8\n  bytes: 10\n", "s.yaml:10: workload: incast of 8 senders into endpoint 0 on " + span},
		{"workload:\n  kind: alltoall\n  ranks: 9\n  bytes: 10\n", "s.yaml:10: workload: ranks 9: only " + span},
	} {
		s, err := ParseScenario("s.yaml", []byte(rails+c.workload))
		require.NoError(t, err)
		require.Equal(t, 32, s.Topology.Endpoints())
		_, err = NewRun(s)
		require.EqualError(t, err, c.want)
	}
}

// A trace file is read from beside its scenario, and a flow the fabric
// cannot carry is reported at its line of the trace (comments counted):
// an endpoint it does not have, or a flow between rails of a rails
// fabric, which would otherwise retransmit into a plane that has no path.
func TestScenarioTraceFlowsCheckedAtTheirLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	write("ok.csv", "src,dst,bytes,start_ns\n0,1,4096,0\n")
	write("far.csv", "src,dst,bytes,start_ns\n# a comment\n0,1,4096,0\n1,9,4096,0\n")
	write("cross.csv", "src,dst,bytes,start_ns\n0,2,4096,0\n0,1,4096,0\n")
	leafspine := "name: x\ntopology:\n  kind: leafspine\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"
	rails := "name: x\ntopology:\n  kind: rails\n  rails: 2\n  leaves: 2\n  spines: 2\n  hosts_per_leaf: 2\n"
	for _, c := range []struct{ scenario, want string }{
		{leafspine + "workload:\n  kind: csv\n  file: ok.csv\n", ""},
		{leafspine + "workload:\n  kind: csv\n  file: far.csv\n", "far.csv:4: flow 1 from 1 to 9: endpoints are 0..3 (the trace of s.yaml:9)"},
		{rails + "workload:\n  kind: csv\n  file: cross.csv\n", "cross.csv:3: flow 1 goes from rail 0 (endpoint 0) to rail 1 (endpoint 1); a rails fabric carries traffic within a rail only (the trace of s.yaml:10)"},
	} {
		s, err := LoadScenario(write("s.yaml", c.scenario))
		require.NoError(t, err)
		_, err = NewRun(s)
		if c.want == "" {
			require.NoError(t, err)
			continue
		}
		require.EqualError(t, err, filepath.Join(dir, strings.ReplaceAll(c.want, "(the trace of ", "(the trace of "+dir+string(filepath.Separator))))
	}
}

// The scenario parser never panics, every error it returns names the
// file, and an error about a key gives a line of the file.
func FuzzParseScenario(f *testing.F) {
	f.Add(scenarioBase + scenarioWorkload)
	f.Add(scenarioBase + scenarioWorkload + "nic:\n  mtu: 5000\n  cc: reno\n")
	f.Add(scenarioBase + "workload:\n  kind: background\n  size_cdf:\n    - {bytes: 1, p: 2}\n")
	f.Add(scenarioBase + scenarioWorkload + "switch:\n  ecn:\n    kmin_bytes: 9\n    pmax: 7\n")
	f.Add("topology: [1, 2]\n")
	f.Add("name: {a: b}\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseScenario("f.yaml", []byte(in))
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f.yaml"), "%q does not name the file", err)
			var ke *keyError
			var root yaml.Node
			if errors.As(err, &ke) && yaml.Unmarshal([]byte(in), &root) == nil && yamlfile.KeyLine(&root, ke.key) > 0 {
				require.Regexp(t, `^f\.yaml:[0-9]+: `, err.Error())
			}
			return
		}
		require.NoError(t, s.Validate())
	})
}
