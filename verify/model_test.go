package verify

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

func newModel(t *testing.T, block string, params map[string]uint64) Model {
	t.Helper()
	b, err := LookupBlock(block)
	require.NoError(t, err)
	p, err := b.Resolve(params)
	require.NoError(t, err)
	m, err := b.New(p)
	require.NoError(t, err)
	return m
}

func apply(t *testing.T, m Model, in Txn) []Txn {
	t.Helper()
	out, err := m.Apply(&in, nil)
	require.NoError(t, err)
	return out
}

func TestRegistryHasTheBlocks(t *testing.T) {
	var names []string
	for _, b := range Blocks() {
		names = append(names, b.Name)
		require.NotEmpty(t, b.Summary)
		require.NotNil(t, b.New)
		require.NotNil(t, b.Stimulus)
		for _, f := range append(append([]FieldSpec(nil), b.Input.Fields...), b.Output.Fields...) {
			require.True(t, f.Width >= 1 && f.Width <= 64, "%s.%s", b.Name, f.Name)
		}
	}
	require.Equal(t, []string{"dcqcn", "dwrr", "ecmp", "fcs", "icrc", "pfc", "psn", "rewrite", "rs544", "toeplitz", "wred"}, names)
	_, err := LookupBlock("crc")
	require.ErrorContains(t, err, `unknown block "crc" (known: dcqcn, dwrr`)
}

func TestEveryBlockRunsItsStimulus(t *testing.T) {
	for _, b := range Blocks() {
		t.Run(b.Name, func(t *testing.T) {
			p, err := b.Resolve(nil)
			require.NoError(t, err)
			v, err := ComputeVectors(b, p, b.Stimulus(rand.New(rand.NewPCG(1, 1)), p, 200))
			require.NoError(t, err)
			require.NotEmpty(t, v.Outputs)
			require.Len(t, v.Origin, len(v.Outputs))
			_, err = b.Resolve(map[string]uint64{"bogus": 1})
			require.ErrorContains(t, err, `has no parameter "bogus"`)
		})
	}
}

func TestFCSKnownAnswer(t *testing.T) {
	out := apply(t, newModel(t, "fcs", nil), Txn{Data: []byte("123456789")})
	require.Equal(t, []uint64{0xCBF43926}, out[0].Fields)
}

func TestToeplitzKnownAnswer(t *testing.T) {
	// Microsoft RSS verification suite, IPv4 with TCP ports.
	m := newModel(t, "toeplitz", nil)
	out := apply(t, m, beat(0x420995bb, 0xa18e6450, 2794, 1766))
	require.Equal(t, []uint64{0x51ccc178}, out[0].Fields)
}

func TestECMPMatchesHasher(t *testing.T) {
	m := newModel(t, "ecmp", map[string]uint64{"members": 6, "seed": 0x1234})
	h, err := packet.NewECMPHasher(packet.ECMPConfig{Fields: packet.Fields5Tuple, Func: packet.HashCRC32, Seed: 0x1234})
	require.NoError(t, err)
	var k packet.FlowKey
	k.SetIPv4([4]byte{10, 0, 0, 1}, [4]byte{10, 0, 1, 2})
	k.SrcPort, k.DstPort, k.Protocol = 0xc000, 4791, 17
	want := h.Hash(&k)
	out := apply(t, m, beat(0x0a000001, 0x0a000102, 0xc000, 4791, 17))
	require.Equal(t, []uint64{uint64(want), uint64(h.Select(want, 6))}, out[0].Fields)
	_, err = newECMPModel(Params{"members": 0, "func": 1})
	require.Error(t, err)
}

func TestICRCMatchesPacket(t *testing.T) {
	m := newModel(t, "icrc", nil)
	b, _ := LookupBlock("icrc")
	p, _ := b.Resolve(nil)
	for _, in := range b.Stimulus(rand.New(rand.NewPCG(2, 2)), p, 20) {
		want, err := packet.RoCEv2ICRC(in.Data)
		require.NoError(t, err)
		require.Equal(t, uint64(want), apply(t, m, in)[0].Fields[0])
	}
	_, err := m.Apply(&Txn{Data: []byte{0x60}}, nil)
	require.Error(t, err, "a truncated packet is rejected, not hashed")
}

func TestRSMatchesEncoder(t *testing.T) {
	m := newModel(t, "rs544", nil)
	msg := make([]uint16, serdes.RS544K)
	data := make([]byte, 2*serdes.RS544K)
	for i := range msg {
		msg[i] = uint16(i*37) % serdes.GFSize
		binary.LittleEndian.PutUint16(data[2*i:], msg[i])
	}
	cw := make([]uint16, serdes.RS544N)
	serdes.RS544().Encode(msg, cw)
	out := apply(t, m, Txn{Data: data})
	require.Len(t, out[0].Data, 60)
	for i, s := range cw[serdes.RS544K:] {
		require.Equal(t, s, binary.LittleEndian.Uint16(out[0].Data[2*i:]))
	}
	binary.LittleEndian.PutUint16(data, 1024)
	_, err := m.Apply(&Txn{Data: data}, nil)
	require.ErrorContains(t, err, "wider than 10 bits")
	_, err = m.Apply(&Txn{Data: data[:10]}, nil)
	require.Error(t, err)
}

func TestDCQCNMatchesReactionPoint(t *testing.T) {
	m := newModel(t, "dcqcn", nil)
	p := nic400g.FirmwareParams(400e9)
	rp := nic400g.NewReactionPoint(&p)
	steps := []Txn{beat(DCQCNCNP, 1000, 0), beat(DCQCNAdvance, 6000, 0), beat(DCQCNCNP, 7000, 0), beat(DCQCNBytes, 9000, 5000), beat(DCQCNAdvance, 400_000, 0)}
	for _, s := range steps {
		now := rtlmodel.Time(s.Fields[1]) * rtlmodel.Nanosecond
		switch s.Fields[0] {
		case DCQCNCNP:
			rp.OnCNP(now)
		case DCQCNBytes:
			rp.OnBytesSent(now, s.Fields[2])
		default:
			rp.Advance(now)
		}
		out := apply(t, m, s)
		require.Equal(t, []uint64{uint64(rp.Rate()), uint64(rp.Target()), uint64(rp.Alpha())}, out[0].Fields)
	}
	require.Less(t, rp.Rate(), p.LineRate, "the CNPs cut the rate")
	_, err := m.Apply(&Txn{Fields: []uint64{DCQCNAdvance, 10, 0}}, nil)
	require.ErrorContains(t, err, "before the previous one")
	m.Reset()
	_, err = m.Apply(&Txn{Fields: []uint64{3, 10, 0}}, nil)
	require.ErrorContains(t, err, "unknown op")
}

func TestPSNResults(t *testing.T) {
	m := newModel(t, "psn", map[string]uint64{"start": 10})
	cases := []struct{ psn, result, adv, epsn uint64 }{
		{10, 0, 1, 11}, {12, 1, 0, 11}, {12, 2, 0, 11}, {9, 2, 0, 11}, {11 + 64, 3, 0, 11}, {11, 0, 2, 13},
	}
	for _, c := range cases {
		require.Equal(t, []uint64{c.result, c.adv, c.epsn}, apply(t, m, beat(c.psn))[0].Fields, "psn %d", c.psn)
	}
}

func TestDWRRShares(t *testing.T) {
	m := newModel(t, "dwrr", map[string]uint64{"queues": 2, "quantum0": 1000, "quantum1": 2000})
	require.Equal(t, []uint64{DWRRNone, 0}, apply(t, m, beat(DWRRDequeue, 0, 0))[0].Fields)
	require.Empty(t, apply(t, m, beat(DWRRSetHead, 0, 500)))
	require.Empty(t, apply(t, m, beat(DWRRSetHead, 1, 500)))
	var bytes [2]uint64
	for range 300 {
		o := apply(t, m, beat(DWRRDequeue, 0, 0))[0]
		bytes[o.Fields[0]] += o.Fields[1]
	}
	require.InDelta(t, 2.0, float64(bytes[1])/float64(bytes[0]), 0.05)
	_, err := m.Apply(&Txn{Fields: []uint64{DWRRSetHead, 5, 100}}, nil)
	require.Error(t, err)
}

func TestWREDEnds(t *testing.T) {
	m := newModel(t, "wred", nil)
	require.Equal(t, []uint64{0, 0}, apply(t, m, beat(1_600_000))[0].Fields)
	require.Equal(t, []uint64{1, 65536}, apply(t, m, beat(6_400_000))[0].Fields)
	mid := apply(t, m, beat(4_000_000))[0].Fields[1]
	require.InDelta(t, 13107/2, float64(mid), 2)
	_, err := newWREDModel(Params{"kmin": 5, "kmax": 5, "pmax": 1, "seed": 1})
	require.Error(t, err)
}

func newTestRand() *rand.Rand { return rand.New(rand.NewPCG(11, 12)) }

// The rewrite block writes the port's and the next hop's MACs, takes one
// from the TTL with the IPv4 checksum still valid, leaves the rest of the
// frame as it came, drops a frame without a hop left, and with dst_known
// 0 keeps the destination MAC.
func TestRewriteBlock(t *testing.T) {
	b, err := LookupBlock("rewrite")
	require.NoError(t, err)
	p, err := b.Resolve(nil)
	require.NoError(t, err)
	in := b.Stimulus(rand.New(rand.NewPCG(3, 3)), p, 400)
	m := newModel(t, "rewrite", nil)
	keep := newModel(t, "rewrite", map[string]uint64{"dst_known": 0})
	var v4, v6, dropped int
	for _, f := range in {
		out := apply(t, m, f)
		var eth packet.Ethernet
		require.NoError(t, eth.Decode(f.Data))
		off := eth.Len()
		ttlAt := off + 8
		if eth.EtherType == packet.EtherTypeIPv6 {
			ttlAt = off + 7
		}
		if f.Data[ttlAt] <= 1 {
			require.Empty(t, out, "no hop left")
			dropped++
			continue
		}
		require.Len(t, out, 1)
		got := out[0].Data
		require.Equal(t, []byte{0x02, 0, 0, 0, 0, 0x05, 0x02, 0xFF, 0, 0, 0, 0x03}, got[:12])
		require.Equal(t, f.Data[ttlAt]-1, got[ttlAt])
		require.Equal(t, f.Data[12:ttlAt], got[12:ttlAt])
		if eth.EtherType == packet.EtherTypeIPv4 {
			require.NoError(t, packet.CheckIPv4HeaderChecksum(got[off:off+packet.IPv4MinLen]))
			require.Equal(t, f.Data[ttlAt+1:ttlAt+2], got[ttlAt+1:ttlAt+2])
			require.Equal(t, f.Data[ttlAt+4:], got[ttlAt+4:])
			v4++
		} else {
			require.Equal(t, f.Data[ttlAt+1:], got[ttlAt+1:])
			v6++
		}
		kept := apply(t, keep, f)
		require.Equal(t, f.Data[:6], kept[0].Data[:6], "dst_known 0")
	}
	require.Positive(t, v4)
	require.Positive(t, v6)
	require.Positive(t, dropped)
	_, err = m.Apply(&Txn{Data: make([]byte, 20)}, nil)
	require.ErrorContains(t, err, "no whole IPv4 or IPv6 header")
}

// The pfc block's frame: the MAC control header the switch sends, XOFF
// quanta for the classes paused, 0 for those resumed, zero pad to 60
// bytes.
func TestPFCBlock(t *testing.T) {
	out := apply(t, newModel(t, "pfc", nil), beat(0x28, 0x01))
	require.Len(t, out, 1)
	want := "0180c2000001" + "02ff00000003" + "8808" + "0101" + "00" + "29" +
		"0000" + "0000" + "0000" + "ffff" + "0000" + "ffff" + "0000" + "0000" + strings.Repeat("00", 26)
	require.Equal(t, want, hex.EncodeToString(out[0].Data))
	var h packet.PFC
	require.NoError(t, h.Decode(out[0].Data))
	require.Equal(t, uint8(0x29), h.Classes)
}
