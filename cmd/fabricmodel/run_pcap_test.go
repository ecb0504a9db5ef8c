package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/require"
)

// --pcap writes the --trace-flows flows' frames as a pcapng file that
// gopacket's reader takes: frames on several cable directions, each with
// its length beyond the bytes kept; --trace alongside it writes its trace
// as before, and a file that cannot be made is an error naming --pcap.
func TestRunWritesAPcap(t *testing.T) {
	dir := t.TempDir()
	pcap, trace := filepath.Join(dir, "f.pcapng"), filepath.Join(dir, "t.jsonl")
	_, err := runCLI(t, "run", "--pcap", pcap, "--trace", trace, "--trace-flows", "0-1")
	require.NoError(t, err)
	f, err := os.Open(pcap)
	require.NoError(t, err)
	defer f.Close()
	rd, err := pcapgo.NewNgReader(f, pcapgo.DefaultNgReaderOptions)
	require.NoError(t, err)
	frames, links := 0, map[int]bool{}
	for {
		data, ci, err := rd.ReadPacketData()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		require.Equal(t, len(data), ci.CaptureLength)
		require.GreaterOrEqual(t, ci.Length, ci.CaptureLength)
		frames++
		links[ci.InterfaceIndex] = true
	}
	require.Greater(t, frames, 100)
	require.GreaterOrEqual(t, len(links), 4)
	st, err := os.Stat(trace)
	require.NoError(t, err)
	require.Positive(t, st.Size())

	_, err = runCLI(t, "run", "--pcap", dir)
	require.ErrorContains(t, err, "--pcap "+dir)
}
