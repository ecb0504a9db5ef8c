package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// An RDMA READ back to back: one request with a RETH naming the length,
// READ_RESPONSE_FIRST/MIDDLE/LAST (AETH on FIRST and LAST) returning every
// byte once, in order, with the PSNs the request reserved; the requester
// completes with the bytes read, and a write posted after the read takes
// the PSNs after them.
func TestReadBackToBack(t *testing.T) {
	const bytes = 5*4096 + 300
	e, a, _ := backToBack(t, DefaultConfig(1), DefaultConfig(2))
	var done []Completion
	a.OnComplete = func(c Completion) { done = append(done, c) }
	var resp []packet.DescMeta
	var reqs []packet.BTH
	var reth packet.RETH
	var aeths []bool
	onFrames(e, func(link string, d *packet.Desc) {
		switch {
		case link == "wire/a>b" && d.Meta.Flags&flagReadReq != 0:
			bth := roceBTH(t, d)
			reqs = append(reqs, bth)
			require.NoError(t, reth.Decode(d.Hdr[14+20+8+12:d.HdrLen]))
		case link == "wire/b>a" && d.Meta.Flags&flagReadResp != 0 && d.Meta.Flags&flagData != 0:
			resp = append(resp, d.Meta)
			bth := roceBTH(t, d)
			aeths = append(aeths, bth.OpCode.HasAETH())
		}
	})
	ops := opcodesOn(t, e, "wire/b>a", flagReadResp)
	attachDriver(t, e, a, []WorkRequest{
		{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000},
		{QP: 3, Dst: 2, DestQP: 5, Op: OpWrite, Bytes: 64, Inline: true, Posted: 1100},
	})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Len(t, reqs, 1, "one request")
	require.Equal(t, packet.RCReadRequest, reqs[0].OpCode)
	require.Equal(t, uint32(bytes), reth.DMALen)
	require.Len(t, done, 2)
	require.Equal(t, OpRead, done[0].Op)
	require.Equal(t, uint64(bytes), done[0].Bytes)
	require.Equal(t, OpWrite, done[1].Op, "completions in order")
	require.Equal(t, []packet.OpCode{packet.RCReadResponseFirst, packet.RCReadResponseMid, packet.RCReadResponseMid,
		packet.RCReadResponseMid, packet.RCReadResponseMid, packet.RCReadResponseLast}, *ops)
	require.Equal(t, []bool{true, false, false, false, false, true}, aeths)
	var off uint64
	for i, m := range resp {
		require.Equal(t, reqs[0].PSN+uint32(i), m.PSN, "responses carry the PSNs the request reserved")
		require.Equal(t, off, m.Offset)
		off += uint64(m.Payload)
	}
	require.Equal(t, uint64(bytes), off, "every byte returned once")
	require.Equal(t, PSN(reqs[0].PSN+6+1), a.store.Context(3).SendPSN, "the write after the read took the next PSN")
	require.Zero(t, a.pool.Live())
}

// A 256 MiB read back to back runs at the stack's wire efficiency.
func TestReadGoodputNearLineRate(t *testing.T) {
	const bytes = 256 << 20
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "none", "none"
	e, a, _ := backToBack(t, ca, cb)
	var done Completion
	a.OnComplete = func(c Completion) { done = c }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Equal(t, uint64(bytes), done.Bytes)
	gbps := float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9
	_, want := packet.StackRoCEv2IPv4.Goodput(400_000_000_000, 4096)
	t.Logf("256 MiB RDMA READ, doorbell to CQE: %.2f Gb/s (analytical wire efficiency %.2f Gb/s)", gbps, want/1e9)
	require.Greater(t, gbps, 0.995*want/1e9)
}

// A read under random frame loss of about 1e-4 in both directions still
// completes: the requester finds the gaps and issues the rest again.
func TestReadUnderRandomLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 256 MiB under loss")
	}
	const bytes = 256 << 20
	ber := berForFrameLoss(1e-4, 4178*8*257/256/5140.0)
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	for _, c := range []*Config{&ca, &cb} {
		c.CC = "none"
		c.Wire.PreFECBER = ber
	}
	ca.Wire.Seed, cb.Wire.Seed = 21, 22
	e, a, b := backToBack(t, ca, cb)
	var done Completion
	a.OnComplete = func(c Completion) { done = c }
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Forever))
	require.Equal(t, uint64(bytes), done.Bytes)
	_, lost := b.Phy().Wire().Frames()
	gbps := float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9
	t.Logf("256 MiB RDMA READ at pre-FEC BER %.3e: %.2f Gb/s; %d response frames lost, %d re-issued requests, %d responses sent, %d timeouts",
		ber, gbps, lost, a.st.readReissues.Value(), b.st.readResps.Value(), a.st.timeouts.Value())
	require.Greater(t, lost, uint64(5))
	require.Greater(t, a.st.readReissues.Value(), uint64(0))
	require.Zero(t, a.pool.Live())
}

// A read completes under every congestion control: window and delay
// based ones at the responder take the requester's response feedback.
func TestReadUnderEveryCongestionControl(t *testing.T) {
	const bytes = 8 << 20
	for _, cc := range CCNames {
		ca, cb := DefaultConfig(1), DefaultConfig(2)
		ca.CC, cb.CC = cc, cc
		e, a, b := backToBack(t, ca, cb)
		var done Completion
		a.OnComplete = func(c Completion) { done = c }
		attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: bytes, Posted: 1000}})
		require.NoError(t, e.Run(rtlmodel.Forever))
		require.Equal(t, uint64(bytes), done.Bytes, cc)
		require.Zero(t, a.pool.Live(), cc)
		gbps := float64(bytes) * 8 / (float64(done.Visible-done.Posted) / 1e12) / 1e9
		t.Logf("%-8s 8 MiB read: %.1f Gb/s, %d responses", cc, gbps, b.st.readResps.Value())
	}
}
