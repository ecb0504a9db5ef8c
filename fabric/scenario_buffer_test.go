package fabric

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

// A switch buffer smaller than the cells of one of the largest frames the
// NICs send is refused at switch.buffer_bytes, naming the least it
// accepts: a first packet of nic.mtu payload with its headers, and HPCC's
// telemetry. At that least the run's flows complete.
func TestScenarioRefusesABufferBelowOneFrame(t *testing.T) {
	scenario := func(buffer uint64, cc string, mtu int) string {
		return scenarioBase + "workload:\n  kind: alltoall\n  bytes: 65536\n" + // lines 7 to 9
			fmt.Sprintf("switch:\n  buffer_bytes: %d\nnic:\n  cc: %s\n  mtu: %d\n", buffer, cc, mtu) // buffer_bytes at line 11
	}
	for _, c := range []struct {
		cc           string
		mtu, frame   int
		cells, least uint64
	}{
		// 78 B of Ethernet, IPv4, UDP, BTH, RETH, ICRC and FCS around the payload
		{"dcqcn", 4096, 4174, 17, 4318},
		{"dcqcn", 1160, 1238, 5, 1270},
		// HPCC's data packets carry 42 B of telemetry more: a cell more here
		{"hpcc", 1160, 1280, 6, 1524},
	} {
		_, err := ParseScenario("s.yaml", []byte(scenario(c.least-1, c.cc, c.mtu)))
		require.EqualError(t, err, fmt.Sprintf("s.yaml:11: switch.buffer_bytes %d: smaller than the largest frame the NICs send, %d B "+
			"(nic.mtu %d and the headers), which takes %d cells of 254 B: at least %d", c.least-1, c.frame, c.mtu, c.cells, c.least))
		_, err = ParseScenario("s.yaml", []byte(scenario(c.least, c.cc, c.mtu)))
		require.NoError(t, err, "%+v", c)
	}

	s, err := ParseScenario("s.yaml", []byte(scenario(4318, "dcqcn", 4096)))
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	require.NoError(t, r.Complete(t.Context(), 10*rtlmodel.Microsecond, 0, nil))
}

// switch.buffer_bytes takes buffers up to MaxSwitchBufferBytes, ten times
// the largest 51.2T buffer FACTS 4 lists (Teralynx 10, more than 200 MB),
// and so well past the default Tomahawk 5 buffer; one byte more is refused.
func TestSwitchBufferBytesBound(t *testing.T) {
	require.GreaterOrEqual(t, uint64(MaxSwitchBufferBytes), 10*uint64(switchasic.TH5BufferBytes))
	for _, c := range []struct {
		buffer uint64
		ok     bool
	}{{MaxSwitchBufferBytes, true}, {MaxSwitchBufferBytes + 1, false}} {
		_, err := ParseScenario("s.yaml", []byte(scenarioBase+scenarioWorkload+fmt.Sprintf("switch:\n  buffer_bytes: %d\n", c.buffer)))
		if c.ok {
			require.NoError(t, err)
			continue
		}
		require.ErrorContains(t, err, fmt.Sprintf("s.yaml:11: switch.buffer_bytes %d: bytes, at most %d", c.buffer, MaxSwitchBufferBytes))
	}
}
