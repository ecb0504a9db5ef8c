package vcd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.vcd")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("$var wire 4 ! a [3:0] $end $enddefinitions $end #0 $dumpvars bx ! $end #1 b1 ! r1.5 ! sX ! #2"))
	f.Add([]byte("$scope module crc[0] $end $var real 64 $ r $end $upscope $end $enddefinitions $end r-1e300 $"))
	f.Add([]byte("$timescale 1 fs $end $enddefinitions $end $comment c $end #18446744073709551615"))
}

// FuzzReader reads arbitrary bytes as a whole VCD file: it must return an
// error or the events, never panic, and every error must carry a line.
func FuzzReader(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data), WithMaxTokenLen(1<<20))
		if err != nil {
			checkErr(t, err, data)
			return
		}
		for i := 0; ; i++ {
			ev, err := rd.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				checkErr(t, err, data)
				return
			}
			if ev.Kind == EventChange {
				v := ev.Signal.Value()
				if v.Kind() == ValueBits && v.Width() != ev.Signal.Width {
					t.Fatalf("value of %d bits for a %d-bit signal", v.Width(), ev.Signal.Width)
				}
				_ = v.String()
				_, _ = v.Uint64()
			}
		}
	})
}

// FuzzHeader parses arbitrary bytes as definitions and checks the tree it
// returns is consistent.
func FuzzHeader(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ReadHeader(bytes.NewReader(data), WithMaxTokenLen(1<<20))
		if err != nil {
			checkErr(t, err, data)
			return
		}
		for _, v := range h.Vars {
			if v.Signal == nil || h.Signal(v.Code) != v.Signal {
				t.Fatalf("var %q: signal not indexed", v.FullName())
			}
			if len(h.Lookup(v.FullName())) == 0 {
				t.Fatalf("var %q not found by its full name", v.FullName())
			}
			if v.Width <= 0 {
				t.Fatalf("var %q: width %d", v.FullName(), v.Width)
			}
			_, _, _ = v.MSBLSB()
		}
	})
}

func checkErr(t *testing.T, err error, data []byte) {
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("error without a line: %T %v", err, err)
	}
	if se.Line < 1 || se.Line > bytes.Count(data, []byte("\n"))+1 {
		t.Fatalf("line %d out of range: %v", se.Line, err)
	}
}
