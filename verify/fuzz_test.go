package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var mapErrRe = regexp.MustCompile(`^fuzz\.yaml:\d+: `)

// FuzzLoadMap: any input loads or fails with errors that name the file and
// a line, and never panics.
func FuzzLoadMap(f *testing.F) {
	f.Add([]byte(goodMap))
	files, _ := filepath.Glob(filepath.Join(rtlDir, "*", "map.yaml"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("block: [\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("block: fcs\x00\n"))
	f.Add([]byte("---\n- 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := LoadMap(bytes.NewReader(b), "fuzz.yaml")
		if err != nil {
			for _, l := range strings.Split(err.Error(), "\n") {
				if !mapErrRe.MatchString(l) {
					t.Fatalf("error without file and line: %q", l)
				}
			}
			return
		}
		if m.Block == "" {
			t.Fatal("a map without a block loaded")
		}
	})
}

var runErrRe = regexp.MustCompile(`^(fuzz\.vcd|synth\.yaml):\d+: `)

// FuzzRun: any VCD checks or fails with an error naming a line, and never
// panics.
func FuzzRun(f *testing.F) {
	f.Add(synthTrace(f, "toeplitz", nil, toeplitzStim(6), synthOpts{resetCycles: 1}))
	f.Add(synthTrace(f, "toeplitz", nil, toeplitzStim(6), synthOpts{resetCycles: 1, xbits: func(int) []uint64 { return []uint64{1} }}))
	f.Add([]byte("$scope module tb $end $var reg 1 ! clk $end $upscope $end $enddefinitions $end #0 0! #5 1! #10 0!"))
	m := synthMap(f, "toeplitz", "mode: window, latency: 1, max_latency: 3", "")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := Run(m, bytes.NewReader(b), "fuzz.vcd")
		if err != nil && !runErrRe.MatchString(err.Error()) {
			t.Fatalf("error without file and line: %q", err)
		}
	})
}

// FuzzRunFrames drives the frame path (tdata, tkeep, tlast, tuser) of the
// fcs block with arbitrary VCD bodies.
func FuzzRunFrames(f *testing.F) {
	hdr := "$timescale 1ns $end $scope module tb $end $var reg 1 ! clk $end $var reg 1 \" v $end " +
		"$var reg 16 # d [15:0] $end $var reg 2 $ k [1:0] $end $var reg 1 % l $end $var reg 1 & u $end " +
		"$var reg 1 ' ov $end $var reg 32 ( f [31:0] $end $upscope $end $enddefinitions $end\n"
	f.Add([]byte(hdr + "#0 0! 1\" b1010101011110000 # b11 $ 1% 0& 0' b0 (\n#5 1!\n#10 0! 1' b11 (\n#15 1!\n"))
	f.Add([]byte(hdr + "#0 0! 1\" bx # b1x $ x% 1& 1' bz (\n#5 1!\n#10 0!\n#15 1!\n"))
	mapText := "block: fcs\nscope: tb\nclock: {signal: clk}\ncompare: {mode: key, key: fcs}\n" +
		"input: {valid: v, tdata: d, tkeep: k, tlast: l, tuser: u}\noutput: {valid: ov, fields: {fcs: f}}\n"
	m, err := LoadMap(strings.NewReader(mapText), "synth.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := Run(m, bytes.NewReader(append([]byte(hdr), body...)), "fuzz.vcd")
		if err != nil && !runErrRe.MatchString(err.Error()) {
			t.Fatalf("error without file and line: %q", err)
		}
	})
}

// FuzzParseParams: name=value lists parse or fail, never panic.
func FuzzParseParams(f *testing.F) {
	f.Add("kmin=10,kmax=0x20")
	f.Add("=,x")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseParams(strings.Split(s, ","))
		if err == nil && p == nil {
			t.Fatal("nil map without an error")
		}
	})
}
