package fabric

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// captureRun runs a 2x2 leaf-spine's permutation of two-packet flows
// with the frames of its first flow from one leaf to the other captured,
// and returns the pcapng bytes and the flow.
func captureRun(t *testing.T) ([]byte, Flow) {
	t.Helper()
	s, err := ParseScenario("c.yaml", []byte(`
topology: {kind: leafspine, leaves: 2, spines: 2, hosts_per_leaf: 2}
workload: {kind: permutation, bytes: 8192}
`))
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	id := slices.IndexFunc(r.Flows, func(f Flow) bool { return f.Src/2 != f.Dst/2 })
	require.GreaterOrEqual(t, id, 0)
	c, err := r.CaptureFlows([]int{id})
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	var buf bytes.Buffer
	n, err := c.WriteTo(&buf)
	require.NoError(t, err)
	require.EqualValues(t, buf.Len(), n)
	require.Positive(t, c.Len())
	return buf.Bytes(), r.Flows[id]
}

// A capture reads back with gopacket's pcapng reader and its decoders, an
// implementation of its own: a flow from one leaf to the other crosses
// four cables each way, one interface per cable direction; every frame is
// Ethernet, IPv4 and UDP to the RoCEv2 port, whole, its ICRC the one its
// NIC sealed, which the switches' rewrite leaves valid, and on each cable it has
// the TTL the switches before it left: 64 from the sender, one less after
// each switch. The same run writes the same bytes.
func TestCaptureReadsBackInWiresharksFormat(t *testing.T) {
	b, f := captureRun(t)
	rd, err := pcapgo.NewNgReader(bytes.NewReader(b), pcapgo.DefaultNgReaderOptions)
	require.NoError(t, err)
	frames, ttls := 0, map[string]map[uint8]int{}
	for {
		data, ci, err := rd.ReadPacketData()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		frames++
		require.Equal(t, ci.Length, ci.CaptureLength, "whole frames")
		intf, err := rd.Interface(ci.InterfaceIndex)
		require.NoError(t, err)
		p := gopacket.NewPacket(data, layers.LayerTypeEthernet, gopacket.Default)
		ip, ok := p.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
		require.True(t, ok, "%s: %v", intf.Name, p)
		udp, ok := p.Layer(layers.LayerTypeUDP).(*layers.UDP)
		require.True(t, ok, "%s: %v", intf.Name, p)
		require.EqualValues(t, 4791, udp.DstPort)
		end := 14 + int(ip.Length)
		require.NoError(t, packet.CheckRoCEv2ICRC(data[14:end]), "%s: the ICRC its NIC sealed still matches the headers the switches rewrote", intf.Name)
		require.Equal(t, ci.Length, max(end, 60), "the frame ends with the IP packet, or its padding")
		require.Contains(t, []uint32{uint32(f.Src), uint32(f.Dst)}, uint32(ip.DstIP[3]), "the flow's endpoints")
		if ttls[intf.Name] == nil {
			ttls[intf.Name] = map[uint8]int{}
		}
		ttls[intf.Name][ip.TTL]++
	}
	require.Equal(t, 0, len(ttls)%2, "both ways on each cable: %v", ttls)
	require.Len(t, ttls, 8, "host, leaf, spine, leaf, host: four cables, each way: %v", ttls)
	seen := map[uint8]bool{}
	for link, byTTL := range ttls {
		require.Len(t, byTTL, 1, "%s: one TTL on a cable, for one direction of one path", link)
		for ttl := range byTTL {
			seen[ttl] = true
		}
	}
	require.Equal(t, map[uint8]bool{64: true, 63: true, 62: true, 61: true}, seen, "64 from the sender, one less after each switch: %v", ttls)
	require.Positive(t, frames)
	again, _ := captureRun(t)
	require.Equal(t, b, again, "the same run, the same capture")
	t.Logf("%d frames on %d cable directions: %v", frames, len(ttls), ttls)
}

// A capture of the default scenario's flow 0, which meets PFC, holds the
// PFC frames sent on the cables its frames crossed, and none on others:
// 802.1Qbb frames (packet.PFC) that pause class 0, the scenario's
// lossless class, or resume it.
func TestCaptureHoldsThePausesOnTheFlowsCables(t *testing.T) {
	s, err := DefaultScenario()
	require.NoError(t, err)
	r, err := NewRun(s)
	require.NoError(t, err)
	c, err := r.CaptureFlows([]int{0})
	require.NoError(t, err)
	require.NoError(t, r.Complete(context.Background(), 10*rtlmodel.Microsecond, 0, nil))
	var buf bytes.Buffer
	_, err = c.WriteTo(&buf)
	require.NoError(t, err)
	rd, err := pcapgo.NewNgReader(&buf, pcapgo.DefaultNgReaderOptions)
	require.NoError(t, err)
	data, pauses := map[int]bool{}, map[int]int{}
	for {
		b, ci, err := rd.ReadPacketData()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if b[12] != 0x88 || b[13] != 0x08 {
			data[ci.InterfaceIndex] = true
			continue
		}
		var h packet.PFC
		require.NoError(t, h.Decode(b))
		require.Equal(t, uint8(1), h.Classes, "class 0, the lossless one")
		require.Len(t, b, 60)
		pauses[ci.InterfaceIndex]++
	}
	require.NotEmpty(t, pauses)
	n := 0
	for intf, k := range pauses {
		require.True(t, data[intf], "interface %d: pauses on a cable the flow did not cross", intf)
		n += k
	}
	t.Logf("%d PFC frames on %d of the flow's %d cable directions", n, len(pauses), len(data))
}
