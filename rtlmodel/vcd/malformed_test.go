package vcd

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readErr reads f to the end and returns the first error other than io.EOF.
func readErr(f string) error {
	rd, err := NewReader(strings.NewReader(f), WithName("bad.vcd"))
	if err != nil {
		return err
	}
	for {
		_, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func TestMalformedInputHasLineNumbers(t *testing.T) {
	const hdr = "$timescale 1ns $end\n$scope module top $end\n$var wire 4 ! a $end\n$var real 64 \" r $end\n$upscope $end\n$enddefinitions $end\n"
	// hdr is six lines; body lines start at 7.
	for _, tc := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"no enddefinitions", "$scope module top $end\n$var wire 1 ! a $end\n", 3, "end of file before $enddefinitions"},
		{"unclosed comment", "$comment\nnever closed\n", 1, "$comment is not closed"},
		{"bad timescale", "\n$timescale 3 ns $end\n$enddefinitions $end", 2, "bad $timescale"},
		{"stray word", "$version x $end\nhello\n", 2, `unexpected "hello" in the definitions`},
		{"stray end", "\n\n$end\n", 3, "$end without a command"},
		{"upscope at top", "$upscope $end\n", 1, "$upscope without an open $scope"},
		{"scope without name", "$scope module $end\n", 1, "$scope needs a type and a name"},
		{"scope too many words", "$scope module a b $end\n", 1, "too many words in $scope"},
		{"var too short", "\n$var wire 1 ! $end\n", 2, "$var needs"},
		{"var width", "$var wire 0 ! a $end\n", 1, "bad $var size"},
		{"var width text", "$var wire eight ! a $end\n", 1, "bad $var size"},
		{"var width huge", "$var wire 999999999 ! a $end\n", 1, "bad $var size"},
		{"var junk after name", "$var wire 8 ! a junk $end\n", 1, `unexpected "junk"`},
		{"var interrupted", "$var wire 8 !\n$scope module a $end\n", 2, "$var is not closed by $end"},
		{"width clash", "$var wire 8 ! a $end\n$var wire 4 ! b $end\n", 2, "declared with size 4, earlier with 8"},
		{"bad time", hdr + "#12a\n", 7, `bad time "#12a"`},
		{"time back", hdr + "#5\n#4\n", 8, "time 4 goes back from 5"},
		{"unknown code", hdr + "#1\n1?\n", 8, `unknown identifier code "?"`},
		{"scalar without code", hdr + "\n1\n", 8, "without an identifier code"},
		{"vector without code", hdr + "b101", 7, "without an identifier code"},
		{"vector bad char", hdr + "#0\nb1021 !\n", 8, "invalid value character '2'"},
		{"vector too wide", hdr + "b10000 !\n", 7, "value of 5 bits for a 4-bit signal"},
		{"empty vector", hdr + "b !\n", 7, "empty vector value"},
		{"bad real", hdr + "r1.2.3 \"\n", 7, "bad real value"},
		{"end without section", hdr + "$end\n", 7, "$end without an open section"},
		{"nested section", hdr + "$dumpvars\n$dumpall\n", 8, "$dumpall inside an open $dumpvars section"},
		{"garbage in body", hdr + "#1\n\n\n@@@\n", 10, `unexpected "@@@" among the value changes`},
		{"unclosed body comment", hdr + "$comment oops\n", 7, "$comment is not closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := readErr(tc.in)
			require.Error(t, err)
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "%T %v", err, err)
			assert.Equal(t, tc.line, se.Line, err.Error())
			assert.Contains(t, se.Msg, tc.msg)
			assert.Equal(t, "bad.vcd", se.Name)
			assert.True(t, strings.HasPrefix(err.Error(), "bad.vcd:"), err.Error())
		})
	}
}

func TestErrorIsSticky(t *testing.T) {
	rd, err := NewReader(strings.NewReader("$var wire 1 ! a $end $enddefinitions $end\n#1\n?\n1!\n"))
	require.NoError(t, err)
	_, err = rd.Next()
	require.NoError(t, err)
	_, err1 := rd.Next()
	require.Error(t, err1)
	_, err2 := rd.Next()
	assert.Equal(t, err1, err2)
	assert.Equal(t, "vcd: line 3: unexpected \"?\" among the value changes", err1.Error())
}

type errReader struct{ n int }

func (e *errReader) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, errors.New("device gone")
	}
	e.n--
	return copy(p, "$var wire 1 ! a $end\n"), nil
}

func TestReadErrorsPropagate(t *testing.T) {
	_, err := NewReader(&errReader{n: 2})
	require.ErrorContains(t, err, "device gone")
	assert.ErrorContains(t, err, "line 3")
}

func TestTokenLimit(t *testing.T) {
	long := "$var wire 1 ! a $end $enddefinitions $end\nb" + strings.Repeat("0", 600<<10) + "1 !\n"
	err := readErr(long)
	require.NoError(t, err, "long vectors beyond the initial buffer are fine")
	rd, err := NewReader(strings.NewReader(long), WithMaxTokenLen(300<<10))
	require.NoError(t, err)
	_, err = rd.Next()
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Msg, "token longer than")
	assert.Equal(t, 2, se.Line)
}

func TestLongCommentIsCut(t *testing.T) {
	f := "$comment " + strings.Repeat("word ", 100_000) + "$end $enddefinitions $end"
	h, err := ReadHeader(strings.NewReader(f))
	require.NoError(t, err)
	require.Len(t, h.Comments, 1)
	assert.LessOrEqual(t, len(h.Comments[0]), maxBody+len("word "))
}
