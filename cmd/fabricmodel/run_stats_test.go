package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// --stats-json and --stats-csv write every device's counters, gauges and
// histograms; they agree with each other and with the results (the NICs'
// data packets received are the results' delivered data packets), and
// they are the same, byte for byte, in every engine mode: run plain,
// edge by edge (--lockstep) and in a shuffled evaluation order.
func TestRunWritesTheDeviceStats(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	js, cs := filepath.Join(dir, "s.json"), filepath.Join(dir, "s.csv")
	_, err := runCLI(t, "run", "--json", res, "--stats-json", js, "--stats-csv", cs)
	require.NoError(t, err)

	var results struct {
		DataPackets uint64 `json:"data_packets_delivered"`
	}
	b, err := os.ReadFile(res)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &results))

	var doc struct {
		Schema  string `json:"schema"`
		Version int    `json:"version"`
		Metrics []struct {
			Name  string   `json:"name"`
			Kind  string   `json:"kind"`
			Value *float64 `json:"value"`
			Count *uint64  `json:"count"`
			Min   *float64 `json:"min"`
		} `json:"metrics"`
	}
	b, err = os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Equal(t, "fabricmodel.stats", doc.Schema)
	fromJSON := map[string]float64{}
	oneWay := regexp.MustCompile(`^nic[0-9]+/one_way_latency$`)
	var messages uint64
	for _, m := range doc.Metrics {
		if m.Value != nil {
			fromJSON[m.Name] = *m.Value
		}
		if oneWay.MatchString(m.Name) {
			// each flow of the default scenario is one WRITE, posted at
			// time 0, and its latency is at least the 2 MB at 400G
			require.NotNil(t, m.Count, m.Name)
			messages += *m.Count
			if *m.Count > 0 {
				require.Greater(t, *m.Min, 2e6*8/400e9*1e12, m.Name)
			}
		}
	}
	require.Equal(t, uint64(32), messages, "the responders' doorbell-to-CQE latencies recorded, one per flow")
	rxPlaced := regexp.MustCompile(`^nic[0-9]+/rx_placed$`)
	var received float64
	nics := 0
	for name, v := range fromJSON {
		if rxPlaced.MatchString(name) {
			received += v
			nics++
		}
	}
	require.Equal(t, 32, nics, "a data-packet count per NIC of the 32-endpoint default")
	require.Equal(t, float64(results.DataPackets), received, "the NICs' data packets placed against the results'")
	require.Positive(t, fromJSON["leaf0/port0/tx/frames"], "the first leaf's first port sent frames")

	f, err := os.Open(cs)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"name", "kind", "unit", "value", "count", "min", "max", "mean", "p50", "p90", "p99", "p999"}, rows[0])
	require.Len(t, rows[1:], len(doc.Metrics), "a CSV row per metric")
	for _, row := range rows[1:] {
		if want, ok := fromJSON[row[0]]; ok && row[1] == "counter" {
			got, err := strconv.ParseFloat(row[3], 64)
			require.NoError(t, err, row[0])
			require.Equal(t, want, got, row[0])
		}
	}

	plain, err := os.ReadFile(cs)
	require.NoError(t, err)
	for _, mode := range [][]string{{"--lockstep"}, {"--shuffle-seed", "3"}} {
		other := filepath.Join(dir, "other.csv")
		_, err := runCLI(t, append(append([]string{"run"}, mode...), "--stats-csv", other)...)
		require.NoError(t, err)
		b, err := os.ReadFile(other)
		require.NoError(t, err)
		require.Equal(t, string(plain), string(b), "the stats of %v differ from the plain run's", mode)
	}
}
