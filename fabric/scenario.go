package fabric

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fabricmodel/fabricmodel/nic400g"
)

// Scenario is one run: a topology, the devices' parameters, a workload and
// a seed. It is read from YAML strictly: an unknown key is an error that
// names it and its line.
type Scenario struct {
	Name string `yaml:"name"`
	Seed uint64 `yaml:"seed"`
	// MaxTimeUS stops the run at this simulated time (0: until done).
	MaxTimeUS uint64           `yaml:"max_time_us"`
	Topology  ScenarioTopology `yaml:"topology"`
	Switch    ScenarioSwitch   `yaml:"switch"`
	NIC       ScenarioNIC      `yaml:"nic"`
	Workload  ScenarioWorkload `yaml:"workload"`
}

// ScenarioTopology is the fabric: a topology description (leafspine,
// fattree or rails, see TopologyConfig) and a lane failure to apply.
type ScenarioTopology struct {
	TopologyConfig `yaml:",inline"`
	// DegradedUplink fails lanes of one switch port's transmit side at the
	// start: "switch/port/lanes" with the switch's index in
	// Cluster.Switches() (for example "0/8/2": port 8 of the first leaf
	// loses 2 of its 4 lanes and runs at 200G).
	DegradedUplink string `yaml:"degraded_uplink"`
}

// ScenarioSwitch sets the switch parameters a scenario changes.
type ScenarioSwitch struct {
	BufferBytes     uint64   `yaml:"buffer_bytes"`
	LB              string   `yaml:"lb"` // perflow, spray, roundrobin, random, dlb
	PFCClasses      []int    `yaml:"pfc_classes"`
	ECN             *ECNSpec `yaml:"ecn"`
	Trimming        bool     `yaml:"trimming"`
	CutThroughBytes *int     `yaml:"cut_through_bytes"`
}

// ECNSpec is a WRED marking curve for every class.
type ECNSpec struct {
	KminBytes uint64  `yaml:"kmin_bytes"`
	KmaxBytes uint64  `yaml:"kmax_bytes"`
	Pmax      float64 `yaml:"pmax"`
	Off       bool    `yaml:"off"`
}

// ScenarioNIC sets the NIC parameters a scenario changes.
type ScenarioNIC struct {
	CC             string `yaml:"cc"`
	Paths          string `yaml:"paths"` // fixed, spray, pathaware
	MTU            int    `yaml:"mtu"`
	Stack          string `yaml:"stack"`    // roce-ipv4, roce-ipv6, uet (the NIC also frames ib, which the switch does not forward)
	Recovery       string `yaml:"recovery"` // sr, gbn
	ReorderPackets int    `yaml:"reorder_packets"`
	ReorderTol     int    `yaml:"reorder_tolerance"`
}

// ScenarioWorkload selects the traffic.
type ScenarioWorkload struct {
	Kind string `yaml:"kind"` // incast, permutation, alltoall, ring_allreduce, hd_allreduce, background, csv
	// Bytes is the flow size (incast, permutation, all-to-all) or the
	// collective's buffer size (all-reduce).
	Bytes uint64 `yaml:"bytes"`
	// Senders is the incast fan-in (the first Senders endpoints send to
	// Receiver); Ranks the collective's size (0: every endpoint).
	Senders  int `yaml:"senders"`
	Receiver int `yaml:"receiver"`
	Ranks    int `yaml:"ranks"`
	// Background traffic: offered load per host, flow sizes and duration.
	Load       float64    `yaml:"load"`
	SizeCDF    []CDFPoint `yaml:"size_cdf"`
	DurationUS uint64     `yaml:"duration_us"`
	// File is a CSV trace (src,dst,bytes,start_ns) for kind csv.
	File    string `yaml:"file"`
	StartUS uint64 `yaml:"start_us"`
}

//go:embed default_scenario.yaml
var defaultScenario []byte

// DefaultScenario is the embedded scenario `fabricmodel run` runs with no
// file: a small leaf-spine fabric with DCQCN.
func DefaultScenario() (*Scenario, error) {
	return ParseScenario("default_scenario.yaml", defaultScenario)
}

// DefaultScenarioYAML returns the embedded default scenario's text, for
// tools that edit it before parsing.
func DefaultScenarioYAML() []byte { return bytes.Clone(defaultScenario) }

// LoadScenario reads a scenario file.
func LoadScenario(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseScenario(path, data)
}

// ParseScenario decodes a scenario strictly and checks it; errors carry
// the file name and line.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// Validate checks what the YAML schema cannot.
func (s *Scenario) Validate() error {
	if err := s.Topology.TopologyConfig.Validate(); err != nil {
		return fmt.Errorf("topology: %w", err)
	}
	switch s.Workload.Kind {
	case "incast", "permutation", "alltoall", "ring_allreduce", "hd_allreduce", "background", "csv":
	default:
		return fmt.Errorf("workload.kind %q: one of incast, permutation, alltoall, ring_allreduce, hd_allreduce, background, csv", s.Workload.Kind)
	}
	if s.Workload.Kind != "csv" && s.Workload.Kind != "background" && s.Workload.Bytes == 0 {
		return fmt.Errorf("workload.bytes: a flow needs at least one byte")
	}
	if _, err := s.switchConfig(); err != nil {
		return err
	}
	return s.NIC.validate()
}

// validate checks the NIC keys by name, so a misspelt value is an error
// rather than the default.
func (n ScenarioNIC) validate() error {
	if n.CC != "" && !slices.Contains(nic400g.CCNames, n.CC) {
		return fmt.Errorf("nic.cc %q: one of %s", n.CC, strings.Join(nic400g.CCNames, ", "))
	}
	oneOf := func(key, v string, allowed ...string) error {
		if v != "" && !slices.Contains(allowed, v) {
			return fmt.Errorf("nic.%s %q: one of %s", key, v, strings.Join(allowed, ", "))
		}
		return nil
	}
	stack := oneOf("stack", n.Stack, "roce-ipv4", "roce-ipv6", "ib", "uet")
	if n.Stack == "ib" {
		// the NIC frames native IB (back to back, budgets), but the
		// switch is an Ethernet switch and would drop every frame
		stack = fmt.Errorf("nic.stack %q: the switch model forwards Ethernet frames (roce-ipv4, roce-ipv6, uet); "+
			"every native IB frame would be dropped as malformed at the first switch", n.Stack)
	}
	return errors.Join(
		oneOf("paths", n.Paths, "fixed", "spray", "pathaware"),
		stack,
		oneOf("recovery", n.Recovery, "sr", "gbn"))
}
