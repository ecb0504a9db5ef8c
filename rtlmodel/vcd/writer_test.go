package vcd

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriterGolden(t *testing.T) {
	var out bytes.Buffer
	w, err := NewWriter(&out, WriterOptions{Timescale: Timescale{Magnitude: 10, Unit: Nanosecond}})
	require.NoError(t, err)
	require.NoError(t, w.PushScope(ScopeModule, "top"))
	clk, err := w.Declare(VarWire, 1, "clk")
	require.NoError(t, err)
	data, err := w.Declare(VarReg, 8, "data")
	require.NoError(t, err)
	require.NoError(t, w.PushScope(ScopeBegin, "blk"))
	temp, err := w.Declare(VarReal, 64, "temp")
	require.NoError(t, err)
	require.NoError(t, w.Alias(data, VarWire, "data_q"))
	ev, err := w.Declare(VarEvent, 1, "done")
	require.NoError(t, err)
	require.NoError(t, w.PopScope())
	require.NoError(t, w.PopScope())

	require.NoError(t, w.SetUint64(clk, 0))
	require.NoError(t, w.Time(0))
	require.NoError(t, w.SetUint64(data, 5))
	require.NoError(t, w.Time(10))
	require.NoError(t, w.SetUint64(clk, 1))
	require.NoError(t, w.SetUint64(clk, 1)) // unchanged: not written
	require.NoError(t, w.SetBits(data, "1z"))
	require.NoError(t, w.SetReal(temp, 1.5))
	require.NoError(t, w.Time(15)) // no change at 15: no #15
	require.NoError(t, w.Time(20))
	require.NoError(t, w.SetBits(data, "x"))
	require.NoError(t, w.Trigger(ev))
	require.NoError(t, w.SetUint64(clk, 0))
	require.NoError(t, w.Time(30))
	require.NoError(t, w.Close())

	want := `$version
	fabricmodel rtlmodel/vcd
$end
$timescale 10ns $end
$scope module top $end
$var wire 1 ! clk $end
$var reg 8 " data [7:0] $end
$scope begin blk $end
$var real 64 # temp $end
$var wire 8 " data_q [7:0] $end
$var event 1 $ done $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
bx "
r0 #
$end
b101 "
#10
1!
b1z "
r1.5 #
#20
bx "
1$
0!
#30
`
	assert.Equal(t, want, out.String())
}

func TestWriterErrors(t *testing.T) {
	var out bytes.Buffer
	_, err := NewWriter(&out, WriterOptions{Timescale: Timescale{Magnitude: 3, Unit: Nanosecond}})
	require.Error(t, err)

	w, err := NewWriter(&out, WriterOptions{})
	require.NoError(t, err)
	require.Error(t, w.PopScope())
	_, err = w.Declare(VarWire, 0, "a")
	require.Error(t, err)
	_, err = w.Declare(VarWire, 1, "has space")
	require.Error(t, err)
	_, err = w.Declare(VarEvent, 2, "e")
	require.Error(t, err)
	a, err := w.Declare(VarWire, 4, "a")
	require.NoError(t, err)
	r, err := w.Declare(VarReal, 64, "r")
	require.NoError(t, err)
	require.Error(t, w.SetUint64(a, 16), "does not fit")
	require.Error(t, w.SetBits(a, "10000"))
	require.NoError(t, w.SetBits(a, "01111"), "leading zero beyond width is fine")
	require.Error(t, w.SetBits(a, "12"))
	require.Error(t, w.SetBits(a, ""))
	require.Error(t, w.SetReal(a, 1))
	require.Error(t, w.SetUint64(r, 1))
	require.ErrorIs(t, w.SetUint64(99, 1), ErrBadHandle)
	require.NoError(t, w.Time(100))
	require.Error(t, w.Time(99), "time going back")
	_, err = w.Declare(VarWire, 1, "late")
	require.ErrorIs(t, err, ErrDefinitionsEnded)
	require.NoError(t, w.Close())
	require.ErrorIs(t, w.Close(), ErrClosed)
	require.ErrorIs(t, w.SetUint64(a, 1), ErrClosed)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterReportsWriteErrors(t *testing.T) {
	w, err := NewWriter(failWriter{}, WriterOptions{BufferSize: 16})
	require.NoError(t, err)
	_, err = w.Declare(VarWire, 1, "a")
	require.Error(t, err)
	require.ErrorContains(t, w.Close(), "disk full")
}

func TestWriterDateAndWide(t *testing.T) {
	var out bytes.Buffer
	w, err := NewWriter(&out, WriterOptions{Date: "today", Comment: "hello $end"})
	require.NoError(t, err)
	wide, err := w.Declare(VarWire, 100, "wide")
	require.NoError(t, err)
	require.NoError(t, w.SetUint64(wide, 3))
	require.NoError(t, w.Time(0))
	require.NoError(t, w.SetBits(wide, "z"+strings.Repeat("1", 70)))
	require.NoError(t, w.SetBits(wide, "z"+strings.Repeat("1", 70)))
	require.NoError(t, w.Close())
	s := out.String()
	assert.True(t, strings.HasPrefix(s, "$date\n\ttoday\n$end\n"), s)
	assert.Contains(t, s, "$comment\n\thello $ end\n$end\n")
	assert.Contains(t, s, "b11 !\n")
	assert.Equal(t, 1, strings.Count(s, "bz"+strings.Repeat("1", 70)+" !\n"), "written once, compressed")
}

func TestIdentCode(t *testing.T) {
	assert.Equal(t, "!", IdentCode(0))
	assert.Equal(t, "~", IdentCode(93))
	assert.Equal(t, "!!", IdentCode(94))
	assert.Equal(t, "!\"", IdentCode(95))
	seen := map[string]bool{}
	for i := 0; i < 20000; i++ {
		c := IdentCode(i)
		require.False(t, seen[c], c)
		seen[c] = true
		for _, r := range c {
			require.True(t, r >= '!' && r <= '~')
		}
	}
}

func TestCompress(t *testing.T) {
	for in, want := range map[string]string{
		"0001": "1", "0000": "0", "00x1": "0x1", "xxx1": "x1", "zzzz": "z", "1000": "1000", "0z": "0z",
	} {
		assert.Equal(t, want, string(compress([]byte(in))), in)
	}
}
