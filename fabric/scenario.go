package fabric

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
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

	// Dir is the directory a relative workload.file is read from:
	// LoadScenario sets it to the scenario file's; empty is the working
	// directory.
	Dir string `yaml:"-" json:"-"`

	src *scenarioSource // the file read, for the lines of errors; nil: not read from one
	// settings are the KEY=VALUE settings written over the file's keys
	// (ParseScenarioWith)
	settings []string
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
	// BufferBytes is each switch's shared buffer (0: the default, the
	// Tomahawk 5's 173.3 MB), at most MaxSwitchBufferBytes.
	BufferBytes uint64 `yaml:"buffer_bytes"`
	// Alpha is the dynamic threshold of the lossy queues: past its
	// reserve a queue may hold alpha times the shared pool's free cells.
	// A power of two from 1/128 to 256 (nil: the default, 1).
	Alpha *float64 `yaml:"alpha"`
	// QueueReserveBytes is what every egress queue of a lossy class is
	// guaranteed, whatever the shared pool holds, set aside from the
	// buffer (0: none).
	QueueReserveBytes uint64   `yaml:"queue_reserve_bytes"`
	LB                string   `yaml:"lb"` // perflow, spray, roundrobin, random, dlb
	PFCClasses        []int    `yaml:"pfc_classes"`
	ECN               *ECNSpec `yaml:"ecn"`
	Trimming          bool     `yaml:"trimming"`
	// TrimBytes is how many leading bytes a trimmed packet keeps, 1 to
	// MaxTrimBytes (0: the default, 64 (FACTS 2.5), or the NICs' headers
	// to their PSN's end where they are longer: 74 over RoCEv2 on IPv6).
	TrimBytes       int  `yaml:"trim_bytes"`
	CutThroughBytes *int `yaml:"cut_through_bytes"`
}

// MaxTrimBytes bounds switch.trim_bytes: a trimmed packet is a header,
// and the largest packet the NICs send carries 4096 bytes of payload.
const MaxTrimBytes = 4096

// ECNSpec is a WRED marking curve for every class: nothing marked up to
// KminBytes, the probability rising to Pmax just below KmaxBytes, every
// packet marked from there. A scenario file must give pmax unless Off;
// with Off (marking off on every class) the values given are still
// checked.
type ECNSpec struct {
	KminBytes uint64  `yaml:"kmin_bytes"`
	KmaxBytes uint64  `yaml:"kmax_bytes"`
	Pmax      float64 `yaml:"pmax"`
	Off       bool    `yaml:"off"`

	pmaxOmitted bool // read from text that gives no pmax (validate)
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
	// OOOReads has READ requesters place responses that arrive out of
	// order (nic400g.Config.OOOReads); off, they take them in PSN order.
	OOOReads bool `yaml:"ooo_reads"`
	// RTOUS is the retransmission timeout in microseconds (0: the NIC's
	// default, 200 us); RetryCount how many times a QP resends after
	// timeouts in a row before it fails (0 to 7, unset: 7; see
	// nic400g.Config.RetryCount).
	RTOUS      float64 `yaml:"rto_us"`
	RetryCount *int    `yaml:"retry_count"`
	// HPCCBaseRTTUS is HPCC's base RTT T in microseconds, to the
	// nanosecond (nic400g.Config.HPCCBaseRTT); 0 or absent: the fabric's
	// largest unloaded round trip between two hosts, as the HPCC artifact
	// computes it (FACTS 2.2). Only nic.cc hpcc reads it; under another
	// congestion control it is refused.
	HPCCBaseRTTUS float64 `yaml:"hpcc_base_rtt_us"`
}

// maxRTOUS bounds nic.rto_us: a second, beyond any timeout a fabric run
// would wait out (and far from overflowing picoseconds).
const maxRTOUS = 1e6

// maxHPCCBaseRTTUS bounds nic.hpcc_base_rtt_us: HPCC compares T with
// the INT timestamps' 24-bit nanosecond deltas, so T stays below 2^24 ns
// (nic400g.HPCCParams.BaseRTT).
const maxHPCCBaseRTTUS = float64(1<<24-1) / 1000

// minHPCCBaseRTTUS is the least nic.hpcc_base_rtt_us: HPCC's smallest
// window is its 1 Gb/s rate floor over T (nic400g.DefaultHPCCParams), at
// least a byte, so T is at least 8 ns.
const minHPCCBaseRTTUS = 0.008

// hpccBaseRTT is nic.hpcc_base_rtt_us to the nearest nanosecond.
func (n ScenarioNIC) hpccBaseRTT() rtlmodel.Time {
	return rtlmodel.Time(math.Round(n.HPCCBaseRTTUS*1000)) * rtlmodel.Nanosecond
}

// ScenarioWorkload selects the traffic.
type ScenarioWorkload struct {
	Kind string `yaml:"kind"` // incast, permutation, alltoall, ring_allreduce, hd_allreduce, background, csv
	// Bytes is the flow size (incast, permutation, all-to-all) or the
	// collective's buffer size (all-reduce).
	Bytes uint64 `yaml:"bytes"`
	// Senders is the incast fan-in (the first Senders endpoints send to
	// Receiver); Ranks the collective's size (0: every endpoint). On a
	// rails fabric the workload runs in each plane, and these count the
	// plane's endpoints (Receiver 0 is endpoint r of rail r).
	Senders  int `yaml:"senders"`
	Receiver int `yaml:"receiver"`
	Ranks    int `yaml:"ranks"`
	// Background traffic: offered load per host, flow sizes and duration.
	Load       float64    `yaml:"load"`
	SizeCDF    []CDFPoint `yaml:"size_cdf"`
	DurationUS uint64     `yaml:"duration_us"`
	// File is a CSV trace (src,dst,bytes,start_ns, and op if it likes)
	// for kind csv; a relative path is read from the scenario file's
	// directory.
	File    string `yaml:"file"`
	StartUS uint64 `yaml:"start_us"`
	// Op is how every flow of a generated workload moves its data: write
	// (an RDMA WRITE, the default), send, or read (an RDMA READ that the
	// flow's destination posts to fetch the data from its source). A
	// trace names each flow's in its op column.
	Op string `yaml:"op"`
}

// op is the operation workload.op names (write when it is empty).
func (w *ScenarioWorkload) op() (nic400g.Op, error) {
	if w.Op == "" {
		return nic400g.OpWrite, nil
	}
	return nic400g.ParseOp(w.Op)
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

// LoadScenario reads a scenario file; a relative workload.file in it is
// read from the file's directory.
func LoadScenario(path string) (*Scenario, error) {
	return LoadScenarioWith(path, nil)
}

// TraceFile is the path of the trace a workload of kind csv reads:
// workload.file, beside the scenario file (Dir) when it is relative; ""
// for the other kinds.
func (s *Scenario) TraceFile() string {
	path := s.Workload.File
	if s.Workload.Kind != "csv" || path == "" {
		return ""
	}
	if s.Dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(s.Dir, path)
	}
	return path
}

// ParseScenario decodes a scenario strictly and checks it; errors carry
// the file name and the line of the key at fault ("s.yaml:12: ..."), and
// so do the errors NewRun finds in it later.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	return parseScenario(&scenarioSource{name: name}, data, true)
}

// parseScenario decodes and checks text data read from src; with lines
// the errors give the lines of data, and src keeps its tree.
func parseScenario(src *scenarioSource, data []byte, lines bool) (*Scenario, error) {
	var s Scenario
	s.src = src
	if err := decodeScenario(&s, s.src, data, lines); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, s.locate(err)
	}
	return &s, nil
}

// Validate checks what the YAML schema cannot: names and ranges of values,
// and the device settings the scenario changes, so that a bad value is
// reported with its key (and, from a file, its line) before anything is
// built.
func (s *Scenario) Validate() error {
	if err := s.Topology.validate(); err != nil {
		return topologyError(err)
	}
	switch s.Workload.Kind {
	case "incast", "permutation", "alltoall", "ring_allreduce", "hd_allreduce", "background", "csv":
	default:
		return keyed("workload.kind", fmt.Errorf("workload.kind %q: one of incast, permutation, alltoall, ring_allreduce, hd_allreduce, background, csv", s.Workload.Kind))
	}
	if s.Workload.Kind != "csv" && s.Workload.Kind != "background" && s.Workload.Bytes == 0 {
		return keyed("workload.bytes", fmt.Errorf("workload.bytes: a flow needs at least one byte"))
	}
	if _, err := s.Workload.op(); err != nil {
		return keyed("workload.op", fmt.Errorf("workload.op: %w", err))
	}
	if err := s.checkBounds(); err != nil {
		return err
	}
	if s.Workload.Kind == "csv" && s.Workload.File == "" {
		return keyed("workload.file", fmt.Errorf("workload.file: kind csv needs a trace file (src,dst,bytes,start_ns)"))
	}
	if err := s.Switch.validate(); err != nil {
		return err
	}
	c, err := s.switchConfig()
	if err != nil {
		return err
	}
	// the switch with the most ports reserves the most PFC headroom, and
	// the most queue reserve
	counts := s.switchPortCounts()
	tm := withPorts(c.TM, counts[len(counts)-1])
	if err := tm.Validate(); err != nil {
		withoutReserve := tm
		withoutReserve.QueueReserveBytes = 0
		if tm.QueueReserveBytes > 0 && withoutReserve.Validate() == nil {
			return keyed("switch.queue_reserve_bytes", fmt.Errorf("switch.queue_reserve_bytes %d on a switch of %d ports: %w",
				tm.QueueReserveBytes, tm.Ports, err))
		}
		return keyed("switch", fmt.Errorf("switch: %w", err))
	}
	if err := s.NIC.validate(); err != nil {
		return err
	}
	if err := s.checkHPCCOnePath(); err != nil {
		return err
	}
	return s.checkBufferHoldsAFrame()
}

// validate checks the switch values that the switch's own checks would
// only find when the fabric is built, or not at all.
func (w ScenarioSwitch) validate() error {
	if w.ECN != nil {
		if err := w.ECN.validate(); err != nil {
			return err
		}
	}
	if err := w.checkPFCClassesOnce(); err != nil {
		return err
	}
	if w.BufferBytes > 0 {
		tm := switchasic.DefaultConfig().TM
		tm.BufferBytes = w.BufferBytes
		if err := tm.Validate(); err != nil {
			return keyed("switch.buffer_bytes", fmt.Errorf("switch.buffer_bytes %d: %w", w.BufferBytes, err))
		}
	}
	if _, err := w.alphaShift(); err != nil {
		return err
	}
	if w.TrimBytes < 0 || w.TrimBytes > MaxTrimBytes {
		return keyed("switch.trim_bytes", fmt.Errorf("switch.trim_bytes %d: 1 to %d (0: the default, 64 or the headers to the PSN)", w.TrimBytes, MaxTrimBytes))
	}
	if b := w.CutThroughBytes; b != nil && (*b < 0 || *b > packet.HeaderCap) {
		return keyed("switch.cut_through_bytes", fmt.Errorf("switch.cut_through_bytes %d: 0 (store and forward) to %d", *b, packet.HeaderCap))
	}
	return nil
}

// validate checks the NIC keys by name, so a misspelt value is an error
// rather than the default, and their ranges (0 keeps the default).
func (n ScenarioNIC) validate() error {
	var errs []error
	if n.CC != "" && !slices.Contains(nic400g.CCNames, n.CC) {
		errs = append(errs, keyed("nic.cc", fmt.Errorf("nic.cc %q: one of %s", n.CC, strings.Join(nic400g.CCNames, ", "))))
	}
	oneOf := func(key, v string, allowed ...string) {
		if v != "" && !slices.Contains(allowed, v) {
			errs = append(errs, keyed("nic."+key, fmt.Errorf("nic.%s %q: one of %s", key, v, strings.Join(allowed, ", "))))
		}
	}
	oneOf("paths", n.Paths, "fixed", "spray", "pathaware")
	if n.Stack == "ib" {
		// the NIC frames native IB (back to back, budgets), but the
		// switch is an Ethernet switch and would drop every frame
		errs = append(errs, keyed("nic.stack", fmt.Errorf("nic.stack %q: the switch model forwards Ethernet frames (roce-ipv4, roce-ipv6, uet); "+
			"every native IB frame would be dropped as malformed at the first switch", n.Stack)))
	} else {
		oneOf("stack", n.Stack, "roce-ipv4", "roce-ipv6", "ib", "uet")
	}
	oneOf("recovery", n.Recovery, "sr", "gbn")
	if n.MTU != 0 && (n.MTU < nic400g.MinMTU || n.MTU > nic400g.MaxMTU) {
		errs = append(errs, keyed("nic.mtu", fmt.Errorf("nic.mtu %d: payload bytes per packet, %d to %d (0: the default)",
			n.MTU, nic400g.MinMTU, nic400g.MaxMTU)))
	}
	if n.ReorderPackets < 0 {
		errs = append(errs, keyed("nic.reorder_packets", fmt.Errorf("nic.reorder_packets %d: 0 (the default) or more", n.ReorderPackets)))
	}
	if n.ReorderTol < 0 {
		errs = append(errs, keyed("nic.reorder_tolerance", fmt.Errorf("nic.reorder_tolerance %d: 0 (the default) or more", n.ReorderTol)))
	}
	if !(n.RTOUS >= 0 && n.RTOUS <= maxRTOUS) {
		errs = append(errs, keyed("nic.rto_us", fmt.Errorf("nic.rto_us %v: microseconds, above 0 and at most %v (0: the default)", n.RTOUS, maxRTOUS)))
	}
	if n.HPCCBaseRTTUS != 0 && n.CC != "hpcc" {
		// as workload keys their kind does not read are refused
		cc := n.CC
		if cc == "" {
			cc = nic400g.DefaultConfig(0).CC
		}
		errs = append(errs, keyed("nic.hpcc_base_rtt_us", fmt.Errorf("nic.hpcc_base_rtt_us: only nic.cc hpcc reads it, and this scenario's NICs run %s", cc)))
	}
	if t := n.HPCCBaseRTTUS; !(t == 0 || t >= minHPCCBaseRTTUS && t <= maxHPCCBaseRTTUS) {
		errs = append(errs, keyed("nic.hpcc_base_rtt_us", fmt.Errorf("nic.hpcc_base_rtt_us %v: HPCC's base RTT in microseconds, %v to %v "+
			"(0: the fabric's largest unloaded round trip)", t, minHPCCBaseRTTUS, maxHPCCBaseRTTUS)))
	}
	if r := n.RetryCount; r != nil && (*r < 0 || *r > nic400g.MaxRetryCount) {
		errs = append(errs, keyed("nic.retry_count", fmt.Errorf("nic.retry_count %d: 0 to %d (the RC QP's 3-bit retry_cnt)", *r, nic400g.MaxRetryCount)))
	}
	return errors.Join(errs...)
}
