package fabric

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestReadTraceCSV(t *testing.T) {
	in := "# a comment\nstart_ns, src ,dst,Bytes\n0,1,2,4096\n1500,3,0,1000000\n"
	flows, err := ReadTraceCSV(strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, []Flow{
		{ID: 0, Src: 1, Dst: 2, Bytes: 4096, Start: 0},
		{ID: 1, Src: 3, Dst: 0, Bytes: 1000000, Start: 1500 * rtlmodel.Nanosecond},
	}, flows)
	var buf bytes.Buffer
	require.NoError(t, WriteTraceCSV(&buf, flows))
	back, err := ReadTraceCSV(&buf)
	require.NoError(t, err)
	require.Equal(t, flows, back)
}

// The op column names each flow's operation; a row that leaves it empty,
// like a trace without the column, is a write. Written back, a trace
// keeps the column only when a flow is not a write.
func TestReadTraceCSVOperations(t *testing.T) {
	in := "src,dst,bytes,op,start_ns\n0,1,4096,read,0\n1,2,4096, Send ,0\n2,3,4294967295,,0\n3,0,4294967295,READ,0\n"
	flows, err := ReadTraceCSV(strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, []nic400g.Op{nic400g.OpRead, nic400g.OpSend, nic400g.OpWrite, nic400g.OpRead},
		[]nic400g.Op{flows[0].Op, flows[1].Op, flows[2].Op, flows[3].Op})
	require.Equal(t, []int{1, 1, 2, 0}, []int{flows[0].Poster(), flows[1].Poster(), flows[2].Poster(), flows[3].Poster()},
		"a read is posted where its data goes")
	var buf bytes.Buffer
	require.NoError(t, WriteTraceCSV(&buf, flows))
	require.True(t, strings.HasPrefix(buf.String(), "src,dst,bytes,start_ns,op\n0,1,4096,0,read\n"), buf.String())
	back, err := ReadTraceCSV(&buf)
	require.NoError(t, err)
	require.Equal(t, flows, back)

	buf.Reset()
	require.NoError(t, WriteTraceCSV(&buf, flows[2:3]))
	require.Equal(t, "src,dst,bytes,start_ns\n2,3,4294967295,0\n", buf.String(), "writes only: no op column")
}

// A UTF-8 byte order mark before the header, as some editors write one,
// is no part of the first column's name.
func TestReadTraceCSVSkipsByteOrderMark(t *testing.T) {
	flows, err := ReadTraceCSV(strings.NewReader("\ufeffsrc,dst,bytes,start_ns\n0,1,4096,10\n"))
	require.NoError(t, err)
	require.Equal(t, []Flow{{ID: 0, Src: 0, Dst: 1, Bytes: 4096, Start: 10 * rtlmodel.Nanosecond}}, flows)
}

// Every error names the line at fault, in its text and as a
// TraceLineError (an empty trace: line 1).
func TestReadTraceCSVErrorsNameTheLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "trace is empty"},
		{"src,dst,bytes\n", `line 1: the header has no "start_ns" column`},
		{"src,dst,bytes,start_ns,prio\n", `line 1: unknown column "prio"`},
		{"src,dst,src,start_ns\n", `line 1: column "src" appears twice`},
		{"src,dst,bytes,start_ns\n1,2,3,4\n1,2,x,4\n", `line 3: bytes "x" is not a whole number`},
		{"src,dst,bytes,start_ns\n1,2,3,4\n\n# c\n5,5,3,4\n", "line 5: src and dst are both 5"},
		{"src,dst,bytes,start_ns\n1,2,0,4\n", "line 2: bytes must be at least 1"},
		{"src,dst,bytes,start_ns\n1,2,3\n", "line 2: wrong number of fields"},
		{"src,dst,bytes,start_ns\n1,2,3,-4\n", `line 2: start_ns "-4"`},
		{"src,dst,bytes,start_ns\n1,2,3,18446744073709552\n", "line 2: start_ns 18446744073709552: at most 10000000000 (10 s"},
		{"src,dst,bytes,start_ns\n1,2,3,4\n1,2,3,10000000001\n", "line 3: start_ns 10000000001: at most"},
		{"src,dst,bytes,start_ns\n1,2,18446744073709551615,4\n", "line 2: bytes 18446744073709551615: at most 4294967295 (4 GiB − 1"},
		{"src,dst,bytes,start_ns\n1,2,4294967296,4\n", "line 2: bytes 4294967296: at most 4294967295 (4 GiB − 1"},
		{"\ufeffsrc,dst,bytes,start_ns\n\ufeff1,2,3,4\n", `line 2: src "\ufeff1" is not a whole number`},
		{"src,dst,bytes,start_ns\n1,2,3,\"4\n", "line 2:"},
		{"src,dst,bytes,start_ns,op\n1,2,3,4,write\n1,2,3,4,atomic\n", `line 3: operation "atomic": one of write, send, read`},
		{"src,dst,bytes,start_ns,op\n1,2,4294967296,4,read\n", "line 2: bytes 4294967296: at most 4294967295"},
		{"op,src,dst,bytes,start_ns,OP\n", `line 1: column "op" appears twice`},
	}
	for _, c := range cases {
		_, err := ReadTraceCSV(strings.NewReader(c.in))
		require.ErrorContains(t, err, c.want, "input %q", c.in)
		var le *TraceLineError
		require.ErrorAs(t, err, &le, "input %q", c.in)
		line := 1
		if n, ok := strings.CutPrefix(c.want, "line "); ok {
			line, err = strconv.Atoi(n[:strings.IndexByte(n, ':')])
			require.NoError(t, err)
		}
		require.Equal(t, line, le.Line, "input %q", c.in)
	}
}

// The parser never panics; what it accepts is a valid flow list that
// writes back to the same flows.
func FuzzReadTraceCSV(f *testing.F) {
	f.Add("src,dst,bytes,start_ns\n0,1,2,3\n")
	f.Add("start_ns,bytes,dst,src\n# x\n10,4096,7,2\n11,1,2,7\n")
	f.Add("src,dst,bytes,start_ns\n1,1,1,1\n")
	f.Add("src,dst\n\"")
	f.Add("op,src,dst,bytes,start_ns\nread,0,1,2,3\n,1,0,5,6\nsend,2,1,7,8\n")
	f.Fuzz(func(t *testing.T, in string) {
		flows, err := ReadTraceCSV(strings.NewReader(in))
		if err != nil {
			require.Contains(t, err.Error(), "trace")
			return
		}
		most := 0
		for _, fl := range flows {
			most = max(most, fl.Src+1, fl.Dst+1)
		}
		require.NoError(t, ValidateFlows(flows, most))
		var buf bytes.Buffer
		require.NoError(t, WriteTraceCSV(&buf, flows))
		back, err := ReadTraceCSV(&buf)
		require.NoError(t, err)
		require.Equal(t, len(flows), len(back))
		for i := range flows {
			require.Equal(t, flows[i], back[i])
		}
	})
}
