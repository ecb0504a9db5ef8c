package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/fabricmodel/fabricmodel/internal/yamlfile"
)

// Map is a signal map: which golden model a trace is checked against and
// which signals carry its transactions. A file looks like
//
//	block: fcs                 # a registered block (see Blocks)
//	params: {min_len: 60}      # optional, the block's parameters
//	scope: tb.top              # optional, put in front of every name
//	clock: {signal: clk, edge: rising}
//	reset: {signal: rst, active: high}
//	compare: {mode: exact, latency: 1, context: 5}
//	input:
//	  valid: s_tvalid
//	  ready: s_tready
//	  tdata: s_tdata
//	  tkeep: s_tkeep
//	  tlast: s_tlast
//	output:
//	  valid: fcs_valid
//	  fields: {fcs: fcs}
//	  mask: {fcs: 0xffffffff}
//
// A beat port maps each field of the block's port under fields; a frame
// port maps tdata (a multiple of 8 bits, lane 0 in bits 7:0), tlast and
// optionally tkeep (one bit per lane) and tuser (an input frame whose tuser
// is non-zero on any beat is dropped, as a MAC drops a frame marked bad).
// Without ready a transfer needs only valid; a valid of "1" makes every
// cycle a transfer. mask gives, per output field, the bits compared; 0
// makes the field a don't-care.
type Map struct {
	// Block is the golden model's name.
	Block string `yaml:"block"`
	// Params are the block's parameters; missing ones take their default.
	Params map[string]uint64 `yaml:"params"`
	// Scope, when set, is put in front of every signal name, with a dot.
	Scope string `yaml:"scope"`
	// Clock is the sampling clock.
	Clock ClockSpec `yaml:"clock"`
	// Reset is the reset, optional.
	Reset *ResetSpec `yaml:"reset"`
	// Compare chooses the scoreboard.
	Compare CompareSpec `yaml:"compare"`
	// Input and Output map the block's ports.
	Input  PortMap `yaml:"input"`
	Output PortMap `yaml:"output"`

	// Name is the file name used in errors.
	Name string `yaml:"-"`
	// Line of each top-level key, for errors found after decoding.
	lines map[string]int
}

// ClockSpec is the clock signal and its sampling edge.
type ClockSpec struct {
	// Signal is the clock.
	Signal Ref `yaml:"signal"`
	// Edge is "rising" (default) or "falling".
	Edge string `yaml:"edge"`
}

// ResetSpec is the reset signal and the level at which it is active.
type ResetSpec struct {
	// Signal is the reset.
	Signal Ref `yaml:"signal"`
	// Active is "high" (default) or "low".
	Active string `yaml:"active"`
}

// CompareSpec chooses how outputs are matched with expected outputs.
type CompareSpec struct {
	// Mode is "exact" (default: in order, each output exactly Latency
	// cycles after its input), "window" (in order, Latency to MaxLatency
	// cycles after) or "key" (out of order: matched by the Key field,
	// within MaxLatency cycles when it is not 0).
	Mode string `yaml:"mode"`
	// Latency is the number of cycles from an input's sampling edge to the
	// edge at which its output is sampled (exact), or the least (window).
	Latency uint64 `yaml:"latency"`
	// MaxLatency is the most cycles (window, key).
	MaxLatency uint64 `yaml:"max_latency"`
	// Key is the output field that matches outputs in key mode.
	Key string `yaml:"key"`
	// Context is the number of cycles shown on each side of a divergence
	// (default 5).
	Context *int `yaml:"context"`
}

// PortMap maps the signals of one port.
type PortMap struct {
	// Valid qualifies a transfer (beat or frame beat).
	Valid Ref `yaml:"valid"`
	// Ready, when set, must also be 1 for a transfer.
	Ready Ref `yaml:"ready"`
	// Fields maps each field of a beat port to a signal or constant.
	Fields map[string]Ref `yaml:"fields"`
	// Mask gives the compared bits of output fields (default all).
	Mask map[string]uint64 `yaml:"mask"`
	// TData, TKeep, TLast and TUser map an AXI-Stream frame port.
	TData Ref `yaml:"tdata"`
	TKeep Ref `yaml:"tkeep"`
	TLast Ref `yaml:"tlast"`
	TUser Ref `yaml:"tuser"`
}

// LoadMapFile reads and checks a signal map file.
func LoadMapFile(path string) (*Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return LoadMap(f, path)
}

// mapFile is the kind of file a signal map is, as errors name it.
var mapFile = yamlfile.Kind{Name: "signal map", Holds: "one map"}

// maxMapSize bounds a signal map file.
const maxMapSize = 1 << 20

// LoadMap decodes a signal map strictly (an unknown key is an error naming
// it, its line and the keys its mapping takes: "map.yaml:4: bogus: unknown
// key; a signal map takes block, params, ...") and checks it against its
// block: every field mapped, no unknown field, masks and compare settings
// that make sense. name is used in errors ("map.yaml:12: ..."). Signals
// are resolved later, against a VCD header.
func LoadMap(r io.Reader, name string) (*Map, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxMapSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > maxMapSize {
		return nil, fmt.Errorf("%s:%d: larger than %d bytes", name, bytes.Count(b[:maxMapSize], []byte{'\n'})+1, maxMapSize)
	}
	if l := badByteLine(b); l > 0 {
		return nil, fmt.Errorf("%s:%d: a control character or invalid UTF-8; a signal map is UTF-8 text", name, l)
	}
	root, err := mapFile.Document(b)
	if err != nil {
		return nil, locate(name, err, b)
	}
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: a signal map must be a YAML mapping (block:, clock:, input:, output:)", name, max(root.Line, 1))
	}
	m := &Map{Name: name, lines: map[string]int{}}
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		m.lines[top.Content[i].Value] = top.Content[i].Line
	}
	if err := yamlfile.Decode(mapFile, b, root, m); err != nil {
		return nil, locate(name, err, b)
	}
	m.Name = name
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}

// locate puts the file's name and line in front of each of the errors
// package yamlfile found in the text src, one per line; one without a line
// (the text ended too early) is at the last line, so that every error
// about a signal map names a line.
func locate(name string, err error, src []byte) error {
	end := bytes.Count(bytes.TrimRight(src, "\n"), []byte{'\n'}) + 1
	var lines []string
	for _, e := range yamlfile.Errors(err) {
		line := e.Line
		if line == 0 {
			line = end
		}
		lines = append(lines, yamlfile.Locate(name, yamlfile.AtLine(line, e.Err)).Error())
	}
	return errors.New(strings.Join(lines, "\n"))
}

// badByteLine returns the line of the first byte YAML refuses (a control
// character or invalid UTF-8), or 0 when there is none.
func badByteLine(b []byte) int {
	line := 1
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n':
			line++
		case r == utf8.RuneError && n <= 1, r < 0x20 && r != '\t' && r != '\r', r == 0x7f,
			r >= 0x80 && r <= 0x9f && r != 0x85, r == 0xfffe, r == 0xffff:
			return line
		}
		i += n
	}
	return 0
}

// errAt formats an error at a line of the map.
func (m *Map) errAt(line int, format string, args ...any) error {
	line = max(line, 1)
	return fmt.Errorf("%s:%d: %s", m.Name, line, fmt.Sprintf(format, args...))
}
