package serdes

import (
	"math"
	"math/big"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// testFrame is a frame of some length in bytes (destination to FCS).
type testFrame struct {
	seq   int
	bytes int
}

func frameSize(f testFrame) int { return f.bytes }

// macSource hands frames to the PHY as fast as the PHY takes them, from
// cycle startCycle on.
type macSource struct {
	out        *rtlmodel.Link[testFrame]
	n, sent    int
	bytes      int
	startCycle uint64
}

func (s *macSource) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	if edge.Cycle < s.startCycle {
		return rtlmodel.Wake(s.startCycle)
	}
	if s.sent < s.n && s.out.CanSend() {
		s.out.Send(testFrame{seq: s.sent, bytes: s.bytes})
		s.sent++
	}
	if s.sent < s.n && s.out.Credits() > 0 {
		return edge.Next()
	}
	if s.sent < s.n {
		return rtlmodel.Never
	}
	return rtlmodel.Never
}

// macSink records when each good frame reaches the receiving MAC's client.
type macSink struct {
	in  *rtlmodel.Link[RxFrame[testFrame]]
	at  []rtlmodel.Time
	tim []RxTiming
}

func (s *macSink) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		f, ok := s.in.Recv()
		if !ok {
			return rtlmodel.Never
		}
		s.at = append(s.at, edge.Time)
		s.tim = append(s.tim, f.Timing)
	}
}

type phyBench struct {
	e    *rtlmodel.Engine
	src  *macSource
	phy  *PhyLink[testFrame]
	mac  *RxMAC[testFrame]
	sink *macSink
	rx   *rtlmodel.Domain
}

// buildPhy wires MAC source -> PhyLink -> RxMAC -> sink, the transmitter
// at 1.25 GHz and the receiver at rxPeriod.
func buildPhy(t testing.TB, cfg WireConfig, rxPeriod rtlmodel.Time, opts rtlmodel.Options, src *macSource) *phyBench {
	e := rtlmodel.NewEngine(opts)
	tx, err := e.AddDomain("tx", 800, 0)
	require.NoError(t, err)
	rx, err := e.AddDomain("rx", rxPeriod, 0)
	require.NoError(t, err)
	b := &phyBench{e: e, src: src, sink: &macSink{}, rx: rx}
	hs, err := e.Add(tx, "port0/mac_tx", src)
	require.NoError(t, err)
	b.phy, err = NewPhyLink[testFrame](e, tx, "port0/phy", cfg, frameSize)
	require.NoError(t, err)
	b.mac, err = NewRxMAC[testFrame](e, rx, "port1/mac_rx")
	require.NoError(t, err)
	hk, err := e.Add(rx, "port1/client", b.sink)
	require.NoError(t, err)
	in, err := rtlmodel.NewLink[testFrame]("port0/mac>phy", hs, b.phy.Handle(),
		rtlmodel.LinkConfig{Latency: 1, Width: 1, Credits: 2, CreditLatency: 1})
	require.NoError(t, err)
	wire, err := rtlmodel.NewLink[RxFrame[testFrame]]("port0/phy>port1", b.phy.Handle(), b.mac.Handle(),
		rtlmodel.LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	up, err := rtlmodel.NewLink[RxFrame[testFrame]]("port1/mac>client", b.mac.Handle(), hk,
		rtlmodel.LinkConfig{Latency: 1, Width: 1})
	require.NoError(t, err)
	src.out = in
	require.NoError(t, b.phy.Connect(in, wire))
	b.mac.Connect(wire, up)
	b.sink.in = up
	return b
}

func default400G() WireConfig {
	return WireConfig{Lanes: 4, Interleave: 2, CableMillimetres: 2000,
		TxLatency: 20 * rtlmodel.Nanosecond, RxPipeline: 40 * rtlmodel.Nanosecond}
}

// ceilRat returns ceil(r) as a Time.
func ceilRat(r *big.Rat) rtlmodel.Time {
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(q).Cmp(r) < 0 {
		q.Add(q, big.NewInt(1))
	}
	return rtlmodel.Time(q.Uint64())
}

// Connect declares the wire link's lookahead: a frame reaches the
// receiver no sooner after the MAC's edge that sends it than the MAC's
// link (one 800 ps cycle) and the wire's least latency (20 ns transmit
// pipeline, 10 ns of cable, two 5440-bit codewords' fill at 425 Gb/s,
// 40 ns receive pipeline); a 64-byte frame is decoded later than that.
func TestPhyLinkDeclaresItsLookahead(t *testing.T) {
	b := buildPhy(t, default400G(), 625, rtlmodel.Options{}, &macSource{n: 1, bytes: 64, startCycle: 10})
	want := rtlmodel.Time(800 + 20_000 + 10_000 + 25_600 + 40_000)
	require.Equal(t, want, b.phy.out.Lookahead())
	require.NoError(t, b.e.Run(rtlmodel.Forever))
	require.Len(t, b.sink.tim, 1)
	require.GreaterOrEqual(t, b.sink.tim[0].Decoded()-10*800, want)
}

// A PhyLink counts the frames and frame bytes it sends, under its path's
// statistics and through Wire().Frames and Bytes, which a fabric's link
// utilisation reads without looking the names up.
func TestPhyLinkCountsFramesAndBytes(t *testing.T) {
	b := buildPhy(t, default400G(), 625, rtlmodel.Options{}, &macSource{n: 7, bytes: 1500})
	require.NoError(t, b.e.Run(rtlmodel.Forever))
	require.Len(t, b.sink.tim, 7)
	frames, bad := b.phy.Wire().Frames()
	require.Equal(t, uint64(7), frames)
	require.Zero(t, bad)
	require.Equal(t, uint64(7*1500), b.phy.Bytes())
	require.Equal(t, uint64(PreambleSFDBytes+IPGBytes), b.phy.Wire().FramingBytes())
	for name, want := range map[string]uint64{"port0/phy/frames": frames, "port0/phy/bytes": b.phy.Bytes()} {
		m, ok := b.e.Stats().Lookup(name)
		require.True(t, ok, name)
		require.Equal(t, want, m.(*rtlmodel.Counter).Value(), name)
	}
}

func TestFrameArrivesAtThePredictedCycle(t *testing.T) {
	for _, tick := range []bool{false, true} {
		cfg := default400G()
		b := buildPhy(t, cfg, 625, rtlmodel.Options{AlwaysTick: tick}, &macSource{n: 1, bytes: 4096, startCycle: 10})
		require.NoError(t, b.e.Run(rtlmodel.Forever))
		require.Len(t, b.sink.at, 1)

		// Independent prediction in exact rationals: handed to the PHY at
		// tx cycle 11 (sent at cycle 10, link latency 1), TX pipeline,
		// preamble+frame at 400 Gb/s, 2 m of cable, two interleaved
		// 5440-bit codewords at 425 Gb/s, RX pipeline; then the receiver's
		// next edge, plus one cycle from the RX MAC to its client.
		exact := new(big.Rat).SetInt64(11 * 800)
		exact.Add(exact, big.NewRat(20_000, 1))
		exact.Add(exact, big.NewRat((8+4096)*8*1_000_000_000_000, 400_000_000_000))
		exact.Add(exact, big.NewRat(10_000, 1))
		exact.Add(exact, big.NewRat(2*5440*1_000_000_000_000, 425_000_000_000))
		exact.Add(exact, big.NewRat(40_000, 1))
		decoded := ceilRat(exact)
		want := b.rx.FirstEdgeAtOrAfter(decoded) + 625
		require.Equal(t, want, b.sink.at[0], "always-tick=%v", tick)
		require.Equal(t, decoded, b.sink.tim[0].Decoded())
		t.Logf("4 KB frame: handed at 8.8 ns, first bit out %v, last bit in %v, decoded %v, at the client %v",
			b.sink.tim[0].FirstBitIn-b.phy.Wire().Propagation(), b.sink.tim[0].LastBitIn(), decoded, want)
	}
}

func TestBackToBackFramesDoNotDrift(t *testing.T) {
	const n = 20000
	b := buildPhy(t, default400G(), 800, rtlmodel.Options{}, &macSource{n: n, bytes: 4096})
	require.NoError(t, b.e.Run(rtlmodel.Forever))
	require.Len(t, b.sink.tim, n)
	start := b.sink.tim[0].FirstBitIn                                    // the first bit out plus the cable, for every frame
	slot := big.NewRat((8+4096+12)*8*1_000_000_000_000, 400_000_000_000) // 82.32 ns
	for k, tm := range b.sink.tim {
		exact := new(big.Rat).Mul(slot, big.NewRat(int64(k), 1))
		fl, _ := exact.Float64()
		require.Equal(t, start+rtlmodel.Time(math.Floor(fl)), tm.FirstBitIn, "frame %d", k)
	}
}

// One second of back-to-back 4 KB frames on the wire model: the last
// frame ends exactly where the exact rational says, to the picosecond.
func TestOneSecondOfFramesHasNoCumulativeDrift(t *testing.T) {
	w, err := NewWire(default400G())
	require.NoError(t, err)
	slotBits := uint64(8+4096+12) * 8
	var frames uint64
	for w.Free() < rtlmodel.Second {
		w.Transmit(0, 4096)
		frames++
	}
	num := new(big.Int).SetUint64(frames * slotBits)
	num.Mul(num, big.NewInt(1_000_000_000_000))
	exact := new(big.Rat).SetFrac(num, big.NewInt(400_000_000_000))
	floor := new(big.Int).Quo(exact.Num(), exact.Denom())
	require.Equal(t, rtlmodel.Time(20_000+floor.Uint64()), w.Free())
	t.Logf("%d frames in one second; wire free at %v (exact %s ps after the first bit)", frames, w.Free(), exact.FloatString(3))
	require.Equal(t, uint64(12147716), frames)
}

func TestLaneFailureDegradesTheRateAtItsTime(t *testing.T) {
	w, err := NewWire(default400G())
	require.NoError(t, err)
	require.NoError(t, w.DegradeAt(1*rtlmodel.Microsecond, 2))
	var before, after FrameTiming
	for w.Free() < 2*rtlmodel.Microsecond {
		tm := w.Transmit(0, 4096)
		if tm.FirstBitOut < rtlmodel.Microsecond {
			before = tm
		} else if after.FirstBitOut == 0 {
			after = tm
		}
	}
	require.Equal(t, LaneGroup(2), w.Lanes())
	// 4104 bytes at 400 Gb/s take 82.08 ns; at 200 Gb/s 164.16 ns.
	require.InDelta(t, 82080, float64(before.LastBitOut-before.FirstBitOut), 1)
	require.InDelta(t, 164160, float64(after.LastBitOut-after.FirstBitOut), 1)
	// The FEC fill doubles too: two codewords at 212.5 Gb/s.
	require.Equal(t, rtlmodel.Time(51200), w.FECFill())
}

func TestPhyLinkDegradesAtACycle(t *testing.T) {
	b := buildPhy(t, default400G(), 800, rtlmodel.Options{}, &macSource{n: 40, bytes: 4096})
	require.NoError(t, b.phy.DegradeAtCycle(1000, 2)) // 800 ns
	require.NoError(t, b.e.Run(rtlmodel.Forever))
	require.Len(t, b.sink.tim, 40)
	for _, tm := range b.sink.tim {
		d := tm.Serialisation()
		if tm.FirstBitIn-b.phy.Wire().Propagation() < 800*rtlmodel.Nanosecond {
			require.InDelta(t, 82080, float64(d), 1, "400G before the lane failure")
		} else {
			require.InDelta(t, 164160, float64(d), 1, "200G from the failure on")
		}
	}
	require.Equal(t, LaneGroup(2), b.phy.Wire().Lanes())
}

func TestCutThroughReceiverAndEgress(t *testing.T) {
	cfg := default400G()
	cfg.CutThroughBytes = 64
	w, err := NewWire(cfg)
	require.NoError(t, err)
	tm := w.Transmit(0, 4096)
	// the first 8+64 bytes at 400 Gb/s take 1.44 ns
	require.Equal(t, tm.FirstBitIn+1440+25600+40000, tm.Ready)
	require.Less(t, tm.Ready, tm.Decoded)

	// an egress at the same rate may start before the ingress tail but
	// not finish before it; a faster one waits for the whole frame
	out, err := NewWire(default400G())
	require.NoError(t, err)
	tail := tm.Decoded
	e := out.TransmitAfter(tm.Ready, 4096, tail, false)
	require.Less(t, e.FirstBitOut, tail)
	require.GreaterOrEqual(t, e.LastBitOut, tail)
	fast, err := NewWire(WireConfig{Lanes: 8, Interleave: 2, TxLatency: cfg.TxLatency, RxPipeline: cfg.RxPipeline})
	require.NoError(t, err)
	require.GreaterOrEqual(t, fast.TransmitAfter(tm.Ready, 4096, tail, true).FirstBitOut, tail)
}

func TestUncorrectableCodewordsDropFramesAtTheReceivingMAC(t *testing.T) {
	cfg := default400G()
	cfg.PreFECBER = 2e-3
	cfg.Seed = 3
	const n = 20000
	b := buildPhy(t, cfg, 800, rtlmodel.Options{}, &macSource{n: n, bytes: 1500})
	require.NoError(t, b.e.Run(rtlmodel.Forever))
	dropped := b.mac.Dropped()
	require.Equal(t, uint64(n), dropped+b.mac.Received())
	_, bad := b.phy.Wire().Frames()
	require.Equal(t, bad, dropped, "every frame the FEC lost is dropped at the receiving MAC")
	require.Greater(t, dropped, uint64(0))
}

// The wire's frame losses follow from its codeword losses: a frame is
// lost when any codeword it touches is, codewords shared by neighbouring
// frames taking both with them.
func TestFrameLossMatchesCodewordLoss(t *testing.T) {
	cfg := default400G()
	cfg.PreFECBER = 1.5e-3
	cfg.Seed = 11
	w, err := NewWire(cfg)
	require.NoError(t, err)
	p := w.Sampler().Prob()
	var expect, variance float64
	const n = 200000
	for i := 0; i < n; i++ {
		tm := w.Transmit(0, 1500)
		q := 1 - math.Pow(1-p, float64(tm.Codewords))
		expect += q
		variance += q * (1 - q)
	}
	_, bad := w.Frames()
	s := w.Sampler()
	cw := float64(s.Codewords())
	require.InDelta(t, cw*p, float64(s.Lost()), 5*math.Sqrt(cw*p*(1-p))+1, "codeword losses")
	// shared codewords correlate neighbours: allow twice the variance
	require.InDelta(t, expect, float64(bad), 5*math.Sqrt(2*variance)+1, "frame losses")
	t.Logf("BER %.1e: codeword loss p=%.3e; %d of %d codewords lost; %d of %d frames lost (expected %.0f)",
		cfg.PreFECBER, p, s.Lost(), s.Codewords(), bad, n, expect)
}

func TestSerializerCeilTimeMatchesRationals(t *testing.T) {
	for _, g := range []LaneGroup{1, 2, 4, 8} {
		s := NewSerializer(g.MACRate())
		for _, n := range []uint64{1, 8, 64 * 8, 4178 * 8, 9216 * 8, 123457} {
			require.Equal(t, ceilPS(g.MACRate().SerialTime(n)), s.CeilTime(n), "%v %d bits", g, n)
		}
	}
}

func TestTransmitAllocatesNothing(t *testing.T) {
	w, err := NewWire(default400G())
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(1000, func() { w.TransmitAfter(0, 4158, 1_000_000, false) })
	require.Zero(t, allocs)
}

func TestLeanFramingHasNoPreambleOrGap(t *testing.T) {
	cfg := default400G()
	cfg.NoEthernetFraming = true
	w, err := NewWire(cfg)
	require.NoError(t, err)
	a := w.Transmit(0, 4122)
	b := w.Transmit(0, 4122)
	// 4122 B at 400 Gb/s: 82.44 ns, back to back with no gap
	require.Equal(t, rtlmodel.Time(82440), a.LastBitOut-a.FirstBitOut)
	require.Equal(t, a.LastBitOut, b.FirstBitOut)
	require.Zero(t, w.FramingBytes())
}
