package vcd

import (
	"io"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// genReader produces a VCD of a given size on the fly, so that a test can
// read far more data than it holds.
type genReader struct {
	left int
	t    uint64
	buf  []byte
	head bool
}

func (g *genReader) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	if len(g.buf) == 0 {
		if !g.head {
			g.head = true
			g.buf = []byte("$timescale 1ps $end\n$scope module top $end\n$var wire 32 ! a [31:0] $end\n$var wire 1 \" clk $end\n$upscope $end\n$enddefinitions $end\n")
		} else {
			g.t += 400
			g.buf = append(g.buf, '#')
			g.buf = strconv.AppendUint(g.buf, g.t, 10)
			g.buf = append(g.buf, "\n1\"\nb"...)
			g.buf = strconv.AppendUint(g.buf, g.t&0xffffffff, 2)
			g.buf = append(g.buf, " !\n0\"\n"...)
		}
	}
	n := copy(p, g.buf)
	if n > g.left {
		n = g.left
	}
	g.buf = g.buf[:copy(g.buf, g.buf[n:])]
	g.left -= n
	return n, nil
}

// TestStreamingMemoryIsBounded reads 64 MB produced on the fly and checks
// that the heap does not grow with the input.
func TestStreamingMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MB")
	}
	const size = 64 << 20
	rd, err := NewReader(&genReader{left: size})
	require.NoError(t, err)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	changes := 0
	var err2 error
	for {
		var ev Event
		ev, err2 = rd.Next()
		if err2 != nil {
			break
		}
		if ev.Kind == EventChange {
			changes++
		}
	}
	// The generator may cut the last line short.
	if err2 != io.EOF {
		var se *SyntaxError
		require.ErrorAs(t, err2, &se)
	}
	runtime.ReadMemStats(&ms)
	allocated := ms.TotalAlloc - before
	assert.Greater(t, changes, 3_000_000)
	assert.Less(t, allocated, uint64(1<<20), "bytes allocated while reading %d changes", changes)
}
