package serdes

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type rsVector struct {
	name     string
	errors   int
	msg, cw  []uint16
	rx, want []uint16
	status   string
}

func parseSymbols(t *testing.T, fields []string) []uint16 {
	t.Helper()
	out := make([]uint16, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseUint(f, 16, 16)
		require.NoError(t, err)
		out[i] = uint16(v)
	}
	return out
}

func loadRSVectors(t *testing.T) (gen []uint16, vs []rsVector) {
	t.Helper()
	f, err := os.Open("testdata/rs544_vectors.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<16)
	var cur *rsVector
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		switch fs[0] {
		case "field_poly":
			require.Equal(t, "0x409", fs[1])
		case "code":
			require.Equal(t, []string{"544", "514"}, fs[1:])
		case "gen_ascending":
			gen = parseSymbols(t, fs[1:])
		case "vector":
			vs = append(vs, rsVector{name: strings.Join(fs[1:], " ")})
			cur = &vs[len(vs)-1]
			cur.errors, err = strconv.Atoi(fs[3])
			require.NoError(t, err)
		case "msg":
			cur.msg = parseSymbols(t, fs[1:])
		case "cw":
			cur.cw = parseSymbols(t, fs[1:])
		case "rx":
			cur.rx = parseSymbols(t, fs[1:])
		case "expect":
			cur.status = fs[1]
			cur.want = parseSymbols(t, fs[2:])
		default:
			t.Fatalf("unknown line %q", fs[0])
		}
	}
	require.NoError(t, sc.Err())
	return gen, vs
}

func TestRS544AgainstIndependentVectors(t *testing.T) {
	gen, vs := loadRSVectors(t)
	c := RS544()
	require.Equal(t, gen, c.Generator(), "generator polynomial")
	require.Len(t, vs, 35)
	d := NewDecoder(c)
	cw := make([]uint16, RS544N)
	for _, v := range vs {
		t.Run(v.name, func(t *testing.T) {
			require.Len(t, v.msg, RS544K)
			c.Encode(v.msg, cw)
			require.Equal(t, v.cw, cw, "codeword")
			rx := append([]uint16(nil), v.rx...)
			res := d.Decode(rx)
			switch v.status {
			case "clean":
				require.Equal(t, DecodeClean, res.Status)
			case "ok":
				require.Equal(t, DecodeCorrected, res.Status)
				require.Equal(t, v.errors, res.Symbols)
			case "fail":
				require.Equal(t, DecodeUncorrectable, res.Status)
			case "miscorrect":
				require.Equal(t, DecodeCorrected, res.Status)
			default:
				t.Fatalf("unknown status %q", v.status)
			}
			require.Equal(t, v.want, rx, "decoder output")
		})
	}
}
