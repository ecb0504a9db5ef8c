package nic400g

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func TestHPCCParams(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	require.NoError(t, p.Validate())
	assert.Equal(t, uint64(600_000), p.BDP(), "400G × 12 µs")
	assert.Equal(t, uint64(600_000), p.MaxWindow)
	assert.Equal(t, uint64(240), p.WAI, "160 Mb/s × 12 µs")
	assert.Equal(t, uint64(1500), p.MinWindow, "1 Gb/s × 12 µs")
	assert.InDelta(t, 0.95, float64(p.Eta)/HPCCUOne, 1.0/HPCCUOne)
	q := DefaultHPCCParams(100e9, HTSimHPCCBaseRTT)
	assert.Equal(t, uint64(60), q.WAI, "40 Mb/s × 12 µs at 100G")

	for _, c := range []struct {
		field string
		mod   func(*HPCCParams)
	}{
		{"LineRate", func(p *HPCCParams) { p.LineRate = 0 }},
		{"BaseRTT", func(p *HPCCParams) { p.BaseRTT = 1500 }},
		{"BaseRTT", func(p *HPCCParams) { p.BaseRTT = 0 }},
		{"Eta", func(p *HPCCParams) { p.Eta = HPCCUOne + 1 }},
		{"MinWindow", func(p *HPCCParams) { p.MinWindow = 0 }},
		{"MaxWindow", func(p *HPCCParams) { p.MaxWindow = 10 }},
		{"WAI", func(p *HPCCParams) { p.WAI = 1 << 33 }},
	} {
		bad := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
		c.mod(&bad)
		err := bad.Validate()
		require.Error(t, err, c.field)
		assert.Contains(t, err.Error(), c.field)
		_, err = NewHPCC(&bad)
		assert.Error(t, err)
	}
}

// hopU is the float reading of HPCCHopU.
func hopU(cur, prev packet.INTHop, tNs float64) (u, tau float64) {
	tau = float64((cur.Time - prev.Time) & intTimeMask)
	tx := float64((cur.Bytes-prev.Bytes)&intBytesMask) * 128
	b := float64(cur.LineRateBps())
	q := float64(min(cur.QLen, prev.QLen)) * 80
	return tx*8/(tau*1e-9)/b + q/(b*tNs*1e-9/8), tau
}

func TestHPCCHopUKnownAnswer(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	cases := []struct {
		name      string
		prev, cur packet.INTHop
		want      float64
	}{
		// 390·128 B in 1 µs at 400G: 399.36 Gb/s; queue 100·80 B over 600 KB.
		{"busy", packet.INTHop{LineRate: 4, Time: 5000, Bytes: 1000, QLen: 120}, packet.INTHop{LineRate: 4, Time: 6000, Bytes: 1390, QLen: 100}, 0.9984 + 8000.0/600000},
		// both counters wrap
		{"wrap", packet.INTHop{LineRate: 4, Time: 1<<24 - 500, Bytes: 1<<20 - 90, QLen: 7}, packet.INTHop{LineRate: 4, Time: 500, Bytes: 300, QLen: 9}, 0.9984 + 560.0/600000},
		// a 100G hop: its own BDP of 150 KB
		{"100G", packet.INTHop{LineRate: 2, Time: 0, Bytes: 0, QLen: 3000}, packet.INTHop{LineRate: 2, Time: 12000, Bytes: 1000, QLen: 3000}, 128000*8/12e-6/100e9 + 240000.0/150000},
		// a deep queue: U near 17.5
		{"deep", packet.INTHop{LineRate: 4, Time: 0, Bytes: 0, QLen: 1<<17 - 1}, packet.INTHop{LineRate: 4, Time: 12000, Bytes: 4688, QLen: 1<<17 - 1}, 4688*128*8/12e-6/400e9 + float64(1<<17-1)*80/600000},
	}
	for _, c := range cases {
		u, tau, ok := HPCCHopU(&c.cur, &c.prev, p.BDP()*uint64(c.cur.LineRateBps())/400e9)
		require.True(t, ok, c.name)
		ref, rtau := hopU(c.cur, c.prev, 12000)
		assert.InDelta(t, c.want, ref, 1e-9, c.name)
		assert.Equal(t, rtau, float64(tau), c.name)
		// each of the two terms is truncated: at most 2 LSB below exact
		assert.InDelta(t, ref*HPCCUOne-1, float64(u), 1.0, "%s: u %d, exact %.3f LSB", c.name, u, ref*HPCCUOne)
		assert.LessOrEqual(t, float64(u), ref*HPCCUOne)
	}
	same := packet.INTHop{LineRate: 4, Time: 7}
	_, _, ok := HPCCHopU(&same, &same, 600000)
	assert.False(t, ok, "τ = 0 carries nothing")
	bad := packet.INTHop{LineRate: 6, Time: 9}
	_, _, ok = HPCCHopU(&bad, &same, 600000)
	assert.False(t, ok, "unassigned line-rate code")
}

// hpccDriver feeds an HPCC sender one-hop INT records of a 400G link
// whose utilisation and queue the test chooses.
type hpccDriver struct {
	h              *HPCC
	now            rtlmodel.Time
	timeNs, bytes  uint64
	seq, acked     uint64
	in             packet.INT
	lastQ          uint32
	tauNs          uint64
	txFrac, qBytes float64
}

func newHPCCDriver(t *testing.T, p *HPCCParams) *hpccDriver {
	h, err := NewHPCC(p)
	require.NoError(t, err)
	d := &hpccDriver{h: h, tauNs: 1000}
	d.in.NHop = 1
	return d
}

// ack sends one 4 KB packet and returns an ACK with a fresh INT record
// τ ns after the last one, showing tx = txFrac of 400G and a queue of
// qBytes. A full ACK acknowledges everything sent (so it passes the
// previous reference update); any other acknowledges nothing new.
func (d *hpccDriver) ack(full bool) {
	d.now += rtlmodel.Time(d.tauNs) * rtlmodel.Nanosecond
	d.timeNs += d.tauNs
	d.bytes += uint64(d.txFrac * 50 * float64(d.tauNs)) // 400G = 50 B/ns
	d.h.onSendPayload(4096)
	d.seq += 4096
	var acked uint64
	if full {
		acked, d.acked = d.seq-d.acked, d.seq
	}
	d.in.Hops[0] = packet.INTHop{LineRate: 4, Time: uint32(d.timeNs & intTimeMask),
		Bytes: uint32(d.bytes / 128 & intBytesMask), QLen: uint32(d.qBytes / 80)}
	d.h.OnAck(d.now, &AckEvent{AckedBytes: acked, INT: &d.in})
}

// TestHPCCStepKnownAnswer checks every ACK of a varied trace against a
// float reading of the FACTS 2.2 rules applied to the sender's previous
// state: the EWMA within 1 LSB of U, the window within 1 B plus what one
// LSB of U moves it.
func TestHPCCStepKnownAnswer(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	d := newHPCCDriver(t, &p)
	h := d.h
	d.txFrac, d.qBytes = 1, 0
	d.ack(true) // first INT: records only
	assert.Equal(t, p.MaxWindow, h.Window())
	_, up, fr := h.Counts()
	assert.Zero(t, up+fr)

	eta := float64(p.Eta) / HPCCUOne
	prevHop := d.in.Hops[0]
	steps := []struct {
		tx, q float64
		tau   uint64
		full  bool
	}{}
	for i := range 60 {
		s := struct {
			tx, q float64
			tau   uint64
			full  bool
		}{tx: 0.5 + 0.02*float64(i%30), q: float64((i * 37000) % 400000), tau: uint64(300 + 700*(i%25)), full: i%4 == 0}
		steps = append(steps, s)
	}
	for i, s := range steps {
		u0, wc0, stage0, w0 := float64(h.U()), float64(h.RefWindow()), h.IncStage(), h.Window()
		d.txFrac, d.qBytes, d.tauNs = s.tx, s.q, s.tau
		d.ack(s.full)
		cur := d.in.Hops[0]
		u, tau := hopU(cur, prevHop, 12000)
		prevHop = cur
		tau = math.Min(tau, 12000)
		wantU := (u0*(12000-tau) + u*HPCCUOne*tau) / 12000
		assert.InDelta(t, wantU, float64(h.U()), 2, "step %d: U", i)
		U := float64(h.U()) / HPCCUOne
		var w float64
		mult := U >= eta || stage0 >= p.MaxStage
		if mult {
			w = wc0/(U/eta) + float64(p.WAI)
		} else {
			w = wc0 + float64(p.WAI)
		}
		w = math.Min(math.Max(w, float64(p.MinWindow)), float64(p.MaxWindow))
		assert.InDelta(t, w, float64(h.Window()), 1+w/(U*HPCCUOne), "step %d: W (U %.4f, stage %d, W %d)", i, U, stage0, w0)
		if s.full {
			assert.Equal(t, h.Window(), h.RefWindow(), "step %d: full update sets W_c", i)
			if mult {
				assert.Zero(t, h.IncStage())
			} else {
				assert.Equal(t, stage0+1, h.IncStage())
			}
		} else {
			assert.Equal(t, uint64(wc0), h.RefWindow(), "step %d: fast react keeps W_c", i)
			assert.Equal(t, stage0, h.IncStage())
		}
		assert.Equal(t, Kbps(min(h.Window()*8e9/12e6, 400e6)), h.Rate(), "step %d: rate W/T", i)
	}
}

// TestHPCCLaws: above η the reference window shrinks by η/U (plus
// W_AI); below η it grows by W_AI per update until maxStage forces a
// multiplicative update.
func TestHPCCLaws(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	d := newHPCCDriver(t, &p)
	h := d.h
	d.tauNs = 12000 // τ = T: U takes u at once
	d.txFrac, d.qBytes = 1, 300000
	d.ack(false)
	w0 := h.RefWindow()
	d.ack(true)
	U := float64(h.U()) / HPCCUOne
	assert.InDelta(t, 1.5, U, 0.001, "line rate plus half a BDP queued")
	assert.InDelta(t, float64(w0)*0.95/U+240, float64(h.RefWindow()), 2)
	assert.Less(t, h.RefWindow(), w0)

	// U = 0.5 < η: +W_AI for maxStage updates, then a multiplicative one
	d.txFrac, d.qBytes = 0.5, 0
	for i := range p.MaxStage {
		before := h.RefWindow()
		d.ack(true)
		assert.Equal(t, before+p.WAI, h.RefWindow(), "additive step %d", i)
		assert.Equal(t, i+1, h.IncStage())
	}
	before := h.RefWindow()
	d.ack(true)
	assert.Zero(t, h.IncStage(), "maxStage forces a multiplicative update")
	assert.Equal(t, p.MaxWindow, h.RefWindow(), "η/U = 1.9 grows the window, capped at the BDP")
	assert.Greater(t, h.RefWindow(), before)

	// fast react: the window follows U, the reference stays
	d.txFrac, d.qBytes = 1, 600000
	ref := h.RefWindow()
	d.ack(false)
	assert.Equal(t, ref, h.RefWindow())
	assert.Less(t, h.Window(), ref)
	p.FastReact = false
	d2 := newHPCCDriver(t, &p)
	d2.txFrac, d2.qBytes, d2.tauNs = 1, 600000, 12000
	d2.ack(false)
	d2.ack(false)
	assert.Equal(t, p.MaxWindow, d2.h.Window(), "without fast react only reference updates act")

	// a new hop count only stores the records
	d.in.NHop = 2
	d.in.Hops[1] = d.in.Hops[0]
	w := h.Window()
	d.ack(true)
	assert.Equal(t, w, h.Window())
	assert.Equal(t, rtlmodel.Forever, h.NextEvent())
	assert.Equal(t, "hpcc", h.Name())
}

// TestHPCCReferenceOncePerRTT: the reference window moves only when the
// ACKs pass what had been sent at the previous reference update.
func TestHPCCReferenceOncePerRTT(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	h, err := NewHPCC(&p)
	require.NoError(t, err)
	var in packet.INT
	in.NHop = 1
	ack := func(sent, acked uint64) {
		in.Hops[0].Time += 1000
		in.Hops[0].Bytes += 390
		in.Hops[0].QLen = 1000
		h.onSendPayload(uint32(sent))
		h.OnAck(0, &AckEvent{AckedBytes: acked, INT: &in})
	}
	ack(100_000, 0) // first: the reference update mark is 100 KB sent
	for range 24 {
		ack(4096, 4096)
	}
	// 24·4 KB = 98 KB acknowledged, not past 100 KB: fast reacts only
	_, up, fr := h.Counts()
	assert.Zero(t, up)
	assert.Equal(t, uint64(24), fr)
	ack(4096, 4096) // 102,400 B > 100,000 B: the mark moves to 202,400 B sent
	_, up, _ = h.Counts()
	assert.Equal(t, uint64(1), up)
	for range 24 {
		ack(0, 4096)
	}
	_, up, _ = h.Counts()
	assert.Equal(t, uint64(1), up, "200,704 B acknowledged, not past 202,400 B")
	ack(0, 4096)
	_, up, _ = h.Counts()
	assert.Equal(t, uint64(2), up, "204,800 B acknowledged ends the second RTT")
}

func BenchmarkHPCCOnAck(b *testing.B) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	h, err := NewHPCC(&p)
	require.NoError(b, err)
	var in packet.INT
	in.NHop = 3
	ev := AckEvent{AckedBytes: 4096, INT: &in}
	now := rtlmodel.Time(0)
	var tns, bytes uint32
	b.ReportAllocs()
	for b.Loop() {
		now += 80 * rtlmodel.Nanosecond
		tns += 80
		bytes += 32
		for i := range in.NHop {
			in.Hops[i] = packet.INTHop{LineRate: 4, Time: tns & intTimeMask, Bytes: bytes & intBytesMask, QLen: (bytes >> uint(i)) & 1023}
		}
		h.onSendPayload(4096)
		h.OnAck(now, &ev)
	}
}

func TestHPCCAllocatesNothing(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	h, err := NewHPCC(&p)
	require.NoError(t, err)
	var in packet.INT
	in.NHop = 2
	ev := AckEvent{AckedBytes: 4096, INT: &in}
	now := rtlmodel.Time(0)
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		now += us
		in.Hops[0].Time += 1000
		in.Hops[0].Bytes += 300
		in.Hops[1].Time += 1000
		h.onSendPayload(4096)
		h.OnAck(now, &ev)
		h.Advance(now)
	}))
}

// TestHPCCMultiHop: the most utilised hop sets U and τ; a hop of another
// line rate is measured against its own B and B·T.
func TestHPCCMultiHop(t *testing.T) {
	p := DefaultHPCCParams(400e9, HTSimHPCCBaseRTT)
	h, err := NewHPCC(&p)
	require.NoError(t, err)
	var in packet.INT
	in.NHop = 2
	in.Hops[0] = packet.INTHop{LineRate: 4, Time: 100, Bytes: 10}
	in.Hops[1] = packet.INTHop{LineRate: 2, Time: 300, Bytes: 20, QLen: 500}
	h.OnAck(0, &AckEvent{INT: &in})
	prev := in
	// hop 0: 400G at 30 %, 12 µs; hop 1: 100G full with 40 KB queued, 20 µs (capped at T)
	in.Hops[0] = packet.INTHop{LineRate: 4, Time: 12100, Bytes: 10 + 1406}
	in.Hops[1] = packet.INTHop{LineRate: 2, Time: 20300, Bytes: 20 + 1953, QLen: 500}
	h.onSendPayload(4096)
	h.OnAck(0, &AckEvent{AckedBytes: 4096, INT: &in})
	u0, _ := hopU(in.Hops[0], prev.Hops[0], 12000)
	u1, _ := hopU(in.Hops[1], prev.Hops[1], 12000)
	require.Greater(t, u1, u0)
	assert.InDelta(t, u1*HPCCUOne, float64(h.U()), 2, "τ ≥ T: U is the busiest hop's u")
	assert.InDelta(t, 1.0+40000.0/150000, u1, 0.01)
}
