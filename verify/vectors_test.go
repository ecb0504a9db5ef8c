package verify

import (
	"bufio"
	"encoding/json"
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
}

func TestWriteBlocks(t *testing.T) {
	var b strings.Builder
	require.NoError(t, WriteBlocks(&b))
	for _, blk := range Blocks() {
		require.Contains(t, b.String(), blk.Name+"\n  "+blk.Summary)
	}
	require.Contains(t, b.String(), "param kmax (default 6400000)")
}
