package verify

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	require.NoError(t, sc.Err())
	return out
}

func TestVectorsFramePacking(t *testing.T) {
	_, dir := writeVectors(t, "fcs", nil, []Txn{{Data: []byte{0, 1, 2, 3, 4, 5, 6, 7, 8}}, {Data: []byte("123456789")}})
	require.Equal(t, []string{
		"0ff0706050403020100", "1010000000000000008",
		"0ff3837363534333231", "1010000000000000039",
	}, readLines(t, filepath.Join(dir, "stimulus.hex")))
	exp := readLines(t, filepath.Join(dir, "expected.hex"))
	require.Equal(t, "cbf43926", exp[1])
	var mf manifest
	b, err := os.ReadFile(filepath.Join(dir, "vectors.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &mf))
	require.Equal(t, "fcs", mf.Block)
	require.Equal(t, 4, mf.Input.Lines)
	require.Equal(t, 2, mf.Input.Transactions)
	require.Equal(t, 73, mf.Input.Width)
	require.Equal(t, []layoutField{{"tlast", 72, 72}, {"tkeep", 71, 64}, {"tdata", 63, 0}}, mf.Input.Layout)
	require.Equal(t, []layoutField{{"fcs", 31, 0}}, mf.Output.Layout)
	js := readLines(t, filepath.Join(dir, "expected.jsonl"))
	require.Equal(t, `{"n":1,"input":1,"fields":{"fcs":3421780262}}`, js[1])
	js = readLines(t, filepath.Join(dir, "stimulus.jsonl"))
	require.Equal(t, `{"n":1,"data":"313233343536373839","len":9}`, js[1])
}

func TestVectorsBeatPacking(t *testing.T) {
	_, dir := writeVectors(t, "dcqcn", nil, []Txn{beat(DCQCNCNP, 0x12345, 0xabc)})
	// op (2 bits), time_ns (40), bytes (32): 74 bits, 19 hex digits.
	require.Equal(t, []string{"1000001234500000abc"}, readLines(t, filepath.Join(dir, "stimulus.hex")))
	require.Len(t, readLines(t, filepath.Join(dir, "expected.hex"))[0], 28) // 40+40+32 bits
}

func TestGenerateVectorsIsDeterministic(t *testing.T) {
	read := func(seed uint64) string {
		v, err := GenerateVectors("psn", map[string]uint64{"start": 5}, 300, seed)
		require.NoError(t, err)
		dir := t.TempDir()
		require.NoError(t, v.WriteDir(dir))
		var all strings.Builder
		for _, f := range []string{"stimulus.hex", "expected.hex", "stimulus.jsonl", "expected.jsonl", "vectors.json"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			require.NoError(t, err)
			all.Write(b)
		}
		return all.String()
	}
	a, b, c := read(1), read(1), read(2)
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
	_, err := GenerateVectors("psn", nil, 0, 1)
	require.ErrorContains(t, err, "count 0")
	_, err = GenerateVectors("psn", map[string]uint64{"size": 1}, 5, 1)
	require.ErrorContains(t, err, `no parameter "size"`)
	_, err = GenerateVectors("rs", nil, 5, 1)
	require.ErrorContains(t, err, "unknown block")
}

func TestParseParams(t *testing.T) {
	p, err := ParseParams([]string{"kmin=0x10", "seed = 7", "pmax=1_000"})
	require.NoError(t, err)
	require.Equal(t, map[string]uint64{"kmin": 16, "seed": 7, "pmax": 1000}, p)
	_, err = ParseParams([]string{"kmin"})
	require.ErrorContains(t, err, "write name=value")
	_, err = ParseParams([]string{"kmin=-1"})
	require.Error(t, err)
	// the last of two would win without a word
	_, err = ParseParams([]string{"queues=2", "kmin=1", "queues=3"})
	require.EqualError(t, err, `parameter "queues=3": queues given twice (first "queues=2")`)
}

// Every parameter of every block resolves at both ends of its range and
// is an error giving the range just outside it; vectors at either end
// come out, or a clear error of the model, never a panic.
func TestParamRangesHoldForEveryBlock(t *testing.T) {
	for _, b := range Blocks() {
		for _, s := range b.Params {
			for _, v := range []uint64{s.Min, s.Max} {
				given := map[string]uint64{s.Name: v}
				if s.Name == "min_len" {
					given["max_len"] = max(v, s.Default)
				}
				if s.Name == "max_len" {
					given["min_len"] = min(v, s.Min)
				}
				if s.Name == "kmin" {
					given["kmax"] = v + 1
				}
				if s.Name == "kmax" {
					given["kmin"] = v - 1
				}
				_, err := b.Resolve(given)
				require.NoError(t, err, "%s %v", b.Name, given)
				_, _ = GenerateVectors(b.Name, given, 3, 1)
				// alone, a value at its end may not go with another's
				// default: the error says so in the block's terms
				_, err = GenerateVectors(b.Name, map[string]uint64{s.Name: v}, 3, 1)
				if err != nil {
					require.Regexp(t, "^"+b.Name+": ", err.Error())
					require.NotRegexp(t, `[a-z][A-Z]`, err.Error(), "a Go name rather than the block's parameter")
				}
			}
			if s.Min > 0 {
				_, err := b.Resolve(map[string]uint64{s.Name: s.Min - 1})
				require.EqualError(t, err, fmt.Sprintf("%s: %s %d; use %s", b.Name, s.Name, s.Min-1, s.Allowed()))
			}
			if s.Max < math.MaxUint64 {
				_, err := b.Resolve(map[string]uint64{s.Name: s.Max + 1})
				require.EqualError(t, err, fmt.Sprintf("%s: %s %d; use %s", b.Name, s.Name, s.Max+1, s.Allowed()))
			}
		}
	}
}

func TestGenerateVectorsRejectsParametersBeforeDrawing(t *testing.T) {
	for _, tc := range []struct {
		block  string
		params map[string]uint64
		want   string
	}{
		{"dwrr", map[string]uint64{"queues": 0}, "dwrr: queues 0; use 1 to 8"},
		{"wred", map[string]uint64{"kmin": 0, "kmax": 0}, "wred: kmax 0; use 1 to 4294967295"},
		{"wred", map[string]uint64{"kmin": 100, "kmax": 100}, "wred: kmax 100 must exceed kmin 100"},
		{"wred", map[string]uint64{"kmin": 4294967294}, "wred: kmax 6400000 must exceed kmin 4294967294"},
		{"psn", map[string]uint64{"window": 100}, "psn: window 100; use a power of two from 64 to 8388608"},
		{"fcs", map[string]uint64{"min_len": 300, "max_len": 10}, "fcs: min_len 300 above max_len 10"},
		{"icrc", map[string]uint64{"min_len": 10}, "icrc: min_len 10; use 40 to 9600"},
		{"dcqcn", map[string]uint64{"paper": 7}, "dcqcn: paper 7; use 0 or 1"},
		{"toeplitz", map[string]uint64{"symmetric": 2}, "toeplitz: symmetric 2; use 0 or 1"},
		{"ecmp", map[string]uint64{"func": 5}, "ecmp: func 5, a CRC-16"},
	} {
		_, err := GenerateVectors(tc.block, tc.params, 10, 1)
		require.ErrorContains(t, err, tc.want, "%s %v", tc.block, tc.params)
	}
	// what vectors.json records is what drew the frames
	v, err := GenerateVectors("icrc", map[string]uint64{"min_len": 40, "max_len": 40}, 10, 1)
	require.NoError(t, err)
	require.Equal(t, uint64(40), v.Params["min_len"])
	for _, in := range v.Inputs {
		require.Len(t, in.Data, 40)
	}
}

func TestWriteBlocks(t *testing.T) {
	var b strings.Builder
	require.NoError(t, WriteBlocks(&b))
	for _, blk := range Blocks() {
		require.Contains(t, b.String(), blk.Name+"\n  "+blk.Summary)
	}
	require.Contains(t, b.String(), "param kmax (default 6400000; 1 to 4294967295)")
	require.Contains(t, b.String(), "param symmetric (default 0; 0 or 1)")
}
