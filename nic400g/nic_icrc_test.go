package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// corrupter sits on the wire and flips one header byte of chosen data
// frames: byte at in the frames whose order among data frames is in nth.
type corrupter struct {
	h       *rtlmodel.Handle
	in, out *rtlmodel.Link[serdes.RxFrame[*packet.Desc]]
	at      int
	nth     map[int]bool
	seen    int
	flipped int
}

func (c *corrupter) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for c.out.CanSend() {
		f, ok := c.in.Recv()
		if !ok {
			break
		}
		if f.Frame.Meta.Flags&flagData != 0 {
			if c.nth[c.seen] {
				f.Frame.Hdr[c.at] ^= 0x10
				c.flipped++
			}
			c.seen++
		}
		c.out.Send(f)
	}
	return rtlmodel.Never
}

// corrupted connects a to b through a corrupter and b to a directly.
func corrupted(t *testing.T, at int, nth map[int]bool) (*rtlmodel.Engine, *NIC, *NIC, *corrupter) {
	e := rtlmodel.NewEngine(rtlmodel.Options{Seed: 1, WatchdogCycles: 10_000_000})
	pool := &packet.DescPool{}
	a, err := New(e, "nicA", DefaultConfig(1), pool)
	require.NoError(t, err)
	b, err := New(e, "nicB", DefaultConfig(2), pool)
	require.NoError(t, err)
	dom, err := e.AddDomain("wire", 800, 0)
	require.NoError(t, err)
	c := &corrupter{at: at, nth: nth}
	c.h, err = e.Add(dom, "wire/corrupter", c)
	require.NoError(t, err)
	lc := rtlmodel.LinkConfig{Latency: 1, Width: 4}
	c.in, err = rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/a>c", a.Phy().Handle(), c.h, lc)
	require.NoError(t, err)
	c.out, err = rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/c>b", c.h, b.Handle(), lc)
	require.NoError(t, err)
	ba, err := rtlmodel.NewLink[serdes.RxFrame[*packet.Desc]]("wire/b>a", b.Phy().Handle(), a.Handle(), lc)
	require.NoError(t, err)
	require.NoError(t, a.ConnectWire(c.in, ba))
	require.NoError(t, b.ConnectWire(ba, c.out))
	return e, a, b, c
}

// A header byte flipped on the way (the BTH PSN) fails the ICRC: the
// packet is dropped and counted, and recovery resends it; a flipped TTL,
// which the ICRC masks (FACTS 1.3), passes; clean traffic passes.
func TestICRCDropsCorruptedHeaders(t *testing.T) {
	const bytes = 64 * 4096
	const bthPSN = 14 + 20 + 8 + 11 // last byte of the BTH PSN
	const ttl = 14 + 8
	for _, c := range []struct {
		name    string
		at      int
		nth     map[int]bool
		dropped uint64
	}{
		{"clean", bthPSN, nil, 0},
		{"PSN flipped", bthPSN, map[int]bool{5: true, 20: true, 40: true}, 3},
		{"TTL flipped (masked)", ttl, map[int]bool{5: true, 20: true}, 0},
	} {
		e, a, b, cor := corrupted(t, c.at, c.nth)
		var done []Completion
		b.OnComplete = func(c Completion) { done = append(done, c) }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: bytes, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Forever))
		require.Len(t, done, 1, c.name)
		require.Equal(t, uint64(bytes), done[0].Bytes, c.name)
		require.Equal(t, len(c.nth), cor.flipped, c.name)
		require.Equal(t, c.dropped, b.st.icrcDrops.Value(), c.name)
		require.Zero(t, a.st.icrcDrops.Value(), "%s: ACKs pass their check", c.name)
		t.Logf("%-22s %d header bytes flipped, %d frames dropped for their ICRC, %d retransmitted",
			c.name, cor.flipped, b.st.icrcDrops.Value(), a.st.retransmits.Value())
	}
}

// Sealing and checking a packet's ICRC allocates nothing, for every stack
// that has one, whatever the payload length.
func TestICRCAllocatesNothing(t *testing.T) {
	for _, st := range []HeaderStack{RoCEv2IPv4, RoCEv2IPv6, LeanNative} {
		cfg := DefaultConfig(1)
		cfg.Stack = st
		n := &NIC{cfg: cfg}
		d := &packet.Desc{}
		payload := uint32(4096)
		allocs := testing.AllocsPerRun(200, func() {
			payload = payload%4096 + 1
			h := hdr{dst: 2, destQP: 5, op: packet.RCWriteMiddle, psn: 77, payload: payload}
			n.writeHeaders(d, &h)
			n.sealICRC(d)
			if !n.icrcGood(d) {
				t.Fatal("a clean packet fails its ICRC")
			}
			d.Hdr[d.HdrLen-1] ^= 1 // the PSN's low byte
			if n.icrcGood(d) {
				t.Fatal("a flipped PSN passes the ICRC")
			}
		})
		require.Zero(t, allocs, st.String())
	}
}

// The ICRC of a packet with its payload elided is the ICRC of the same
// packet with a real payload of zeros (packet.PutRoCEv2ICRC).
func TestICRCMatchesZeroPayloadPacket(t *testing.T) {
	n := &NIC{cfg: DefaultConfig(1)}
	d := &packet.Desc{}
	h := hdr{dst: 2, destQP: 5, op: packet.RCWriteFirst, psn: 9, payload: 1001, length: 1 << 20}
	n.writeHeaders(d, &h)
	n.sealICRC(d)
	ip := d.Hdr[14:d.HdrLen]
	pkt := make([]byte, len(ip)+1001+3+packet.ICRCLen) // payload, pad, ICRC
	copy(pkt, ip)
	require.NoError(t, packet.PutRoCEv2ICRC(pkt))
	require.NoError(t, packet.CheckRoCEv2ICRC(pkt))
	want := uint32(pkt[len(pkt)-4]) | uint32(pkt[len(pkt)-3])<<8 | uint32(pkt[len(pkt)-2])<<16 | uint32(pkt[len(pkt)-1])<<24
	require.Equal(t, want, d.Meta.ICRC)
}

// With Config.NoICRC the NIC neither seals nor checks: a flipped header
// byte is not caught by the ICRC.
func TestNoICRCSkipsTheCheck(t *testing.T) {
	cfg := DefaultConfig(1)
	cfg.NoICRC = true
	n := &NIC{cfg: cfg}
	d := &packet.Desc{}
	h := hdr{dst: 2, destQP: 5, op: packet.RCWriteMiddle, psn: 77, payload: 4096}
	n.writeHeaders(d, &h)
	n.sealICRC(d)
	require.Zero(t, d.Meta.ICRC)
	d.Hdr[d.HdrLen-1] ^= 1
	require.True(t, n.icrcGood(d))
}
