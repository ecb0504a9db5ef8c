package switchasic

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/serdes"
	"github.com/stretchr/testify/require"
)

// host is a test endpoint on one switch port: it sends frames of a fixed
// size back to back (or paced) to destinations chosen by a pattern,
// obeys PFC frames from the switch, and records what it receives.
type host struct {
	h                *rtlmodel.Handle
	id               int
	pool             *packet.DescPool
	out              *rtlmodel.Link[*packet.Desc]
	in               *rtlmodel.Link[serdes.RxFrame[*packet.Desc]]
	payload          int // payload bytes per frame (RDMA WRITE MIDDLE)
	bytes            int // frame bytes, set from the first header built
	class            uint8
	ect              bool
	entropyPerPacket bool
	entropy          uint16 // the flow's UDP source port entropy when not per packet

	total, sent int
	dst         func(h *host, seq int) uint32
	startCycle  uint64
	rng         *rtlmodel.RNG
	tmpl        map[uint32][]byte
	scratch     []byte
	paused      [8]rtlmodel.Time
	prop        rtlmodel.Time // the switch egress wire's propagation: its first bit out is FirstBitIn less it

	received, trimmed, marked, pfcIn int
	recvBytes                        uint64
	firstBitOut                      []rtlmodel.Time // port-to-port latency per frame
	firstIn                          []rtlmodel.Time // first bit in at the switch
	latency                          *rtlmodel.Histogram
	trimmedClass                     map[uint8]int
	trimmedDSCP                      map[uint8]int    // the class bits of trimmed headers' DSCP
	badChecksums                     int              // IPv4 headers received with a wrong checksum
	badPFC                           int              // PFC frames whose header does not decode to their classes and quanta
	ttl                              uint8            // the TTL of the frames sent; 0: 64
	ttlIn                            map[uint8]int    // the TTLs of the IPv4 frames received
	macsIn                           map[[12]byte]int // the destination and source MACs of the frames received
	pfcSrc                           map[[6]byte]int
	lastRx                           rtlmodel.Time
	keep                             bool
	kept                             []*packet.Desc
	lite                             bool // count only (benchmarks)
	withINT                          bool // send packets that collect HPCC INT
	intHops                          []packet.INTHop
	rxTimes                          []rtlmodel.Time // reception time of each data frame, when keepTimes
	keepTimes                        bool

	// pfcOut, when its classes are non-zero, is a PFC frame the host sends
	// once, at the first edge at or after cycle pfcAt
	pfcOut pfcSend
}

// pfcSend is a PFC frame a test host sends to the switch.
type pfcSend struct {
	at      uint64 // cycle of the host's domain
	classes uint8
	quanta  [8]uint16
	sent    bool
}

// hostMAC is test host i's MAC address, which the switch is told.
func hostMAC(i int) [6]byte { return [6]byte{0x02, 0, 0, 0, 0, byte(i)} }

// ipOf is the test address plan: endpoint n is 10.n/24 bits.
func ipOf(n uint32) [4]byte { return [4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)} }

// header returns the RoCEv2 RDMA WRITE MIDDLE header template for dst.
func (hs *host) header(dst uint32, entropy uint16) []byte {
	if t, ok := hs.tmpl[dst]; ok && !hs.entropyPerPacket {
		return t
	}
	var f packet.RoCEv2
	f.Eth.EtherType = packet.EtherTypeIPv4
	tos := hs.class << 5
	if hs.ect {
		tos |= 0x02
	}
	ttl := uint8(64)
	if hs.ttl != 0 {
		ttl = hs.ttl
	}
	f.IP4 = packet.IPv4{IHL: 5, TTL: ttl, TOS: tos, Src: ipOf(uint32(hs.id)), Dst: ipOf(dst)}
	f.UDP.SrcPort = 0xC000 | entropy&0x3FFF
	f.BTH.OpCode = 0x07 // RDMA WRITE MIDDLE
	f.BTH.DestQP = dst + 1
	n, err := f.Build(hs.scratch, hs.scratch[200:200+hs.payload])
	if err != nil {
		panic(fmt.Sprintf("host: building a frame with %d payload bytes: %v", hs.payload, err))
	}
	hs.bytes = n
	hdr := append([]byte(nil), hs.scratch[:min(n, packet.HeaderCap)]...)
	if !hs.entropyPerPacket {
		hs.tmpl[dst] = hdr
	}
	return hdr
}

func (hs *host) Eval(edge rtlmodel.Edge) rtlmodel.Wake {
	for {
		f, ok := hs.in.Recv()
		if !ok {
			break
		}
		hs.receive(f, edge.Time)
	}
	if po := &hs.pfcOut; po.classes != 0 && !po.sent {
		if edge.Cycle < po.at || !hs.out.CanSend() {
			return rtlmodel.Wake(max(po.at, edge.Cycle+1))
		}
		p := hs.pool.Get()
		p.Kind, p.FrameBytes = packet.KindPFC, 64
		pfc := p.EditTail()
		pfc.PFCClasses, pfc.PFCQuanta = po.classes, po.quanta
		hs.out.Send(p)
		po.sent = true
	}
	if edge.Cycle < hs.startCycle {
		return rtlmodel.Wake(hs.startCycle)
	}
	if hs.sent < hs.total && hs.out.CanSend() && !hs.isPaused(edge.Time) {
		dst := hs.dst(hs, hs.sent)
		p := hs.pool.Get()
		entropy := hs.entropy
		if hs.entropyPerPacket {
			entropy = uint16(hs.rng.Intn(1 << 14))
		}
		p.HdrLen = uint8(copy(p.Hdr[:], hs.header(dst, entropy)))
		p.FrameBytes = uint32(hs.bytes)
		p.Src, p.Dst, p.Born = uint32(hs.id), dst, uint64(edge.Time)
		p.HasINT = hs.withINT
		hs.out.Send(p)
		hs.sent++
	}
	if hs.sent < hs.total {
		if until := hs.pausedUntil(edge.Time); until > 0 {
			d := hs.h.Domain()
			return rtlmodel.Wake(d.CycleAt(d.FirstEdgeAtOrAfter(until)))
		}
		if hs.out.Credits() > 0 {
			return edge.Next()
		}
	}
	return rtlmodel.Never
}

func (hs *host) isPaused(now rtlmodel.Time) bool { return hs.paused[hs.class] > now }

func (hs *host) pausedUntil(now rtlmodel.Time) rtlmodel.Time {
	if hs.paused[hs.class] > now {
		return hs.paused[hs.class]
	}
	return 0
}

func (hs *host) receive(f serdes.RxFrame[*packet.Desc], now rtlmodel.Time) {
	p := f.Frame
	if f.Timing.BadFCS() {
		hs.pool.Put(p)
		return
	}
	if p.Kind == packet.KindPFC {
		hs.pfcIn++
		var h packet.PFC
		if err := h.Decode(p.Header()); err != nil || h.Classes != p.Tail().PFCClasses || h.Quanta != p.Tail().PFCQuanta {
			hs.badPFC++ // the header bytes say other than the descriptor
		}
		hs.pfcSrc[h.Src]++
		for c := 0; c < 8; c++ {
			if pfc := p.Tail(); pfc.PFCClasses&(1<<uint(c)) != 0 {
				// 512 bit times at 400 Gb/s are 1.28 ns (FACTS 2.7)
				hs.paused[c] = now + rtlmodel.Time(pfc.PFCQuanta[c])*1280
			}
		}
		hs.pool.Put(p)
		return
	}
	hs.received++
	hs.recvBytes += uint64(p.FrameBytes)
	hs.lastRx = now
	if hs.keepTimes {
		hs.rxTimes = append(hs.rxTimes, now)
	}
	if p.Trimmed {
		hs.trimmed++
		hs.trimmedClass[p.Class]++
		if off, v6, ok := ipOffset(p.Header()); ok && !v6 {
			hs.trimmedDSCP[p.Header()[off+1]>>5]++
		}
	}
	if off, v6, ok := ipOffset(p.Header()); ok && !v6 {
		if packet.CheckIPv4HeaderChecksum(p.Header()[off:off+packet.IPv4MinLen]) != nil {
			hs.badChecksums++
		}
		hs.ttlIn[p.Header()[off+8]]++
		hs.macsIn[[12]byte(p.Header()[:12])]++
	}
	if p.Marked {
		hs.marked++
	}
	if in := &p.Tail().INT; p.HasINT && in.NHop > 0 {
		hs.intHops = append(hs.intHops, in.Hops[in.NHop-1])
	}
	if !hs.lite {
		hs.firstBitOut = append(hs.firstBitOut, f.Timing.FirstBitIn-hs.prop-rtlmodel.Time(p.FirstBitIn))
		hs.firstIn = append(hs.firstIn, rtlmodel.Time(p.FirstBitIn))
	}
	hs.latency.Record(uint64(f.Timing.FirstBitIn-hs.prop) - p.FirstBitIn)
	if hs.keep {
		hs.kept = append(hs.kept, p)
		return
	}
	hs.pool.Put(p)
}

// rig is a switch with one host per port.
type rig struct {
	e     *rtlmodel.Engine
	sw    *Switch
	hosts []*host
	pool  *packet.DescPool
}

// newRig builds a switch from cfg with a host on each of the first nHosts
// ports; host i is endpoint i, routed to port i.
func newRig(t testing.TB, cfg Config, nHosts int, opts rtlmodel.Options) *rig {
	e := rtlmodel.NewEngine(opts)
	pool := &packet.DescPool{}
	sw, err := New(e, "sw", cfg, pool)
	require.NoError(t, err)
	hostDom, err := e.AddDomain("host", 800, 0)
	require.NoError(t, err)
	r := &rig{e: e, sw: sw, pool: pool}
	for i := 0; i < nHosts; i++ {
		hs := &host{id: i, pool: pool, payload: 4096, class: 0, tmpl: map[uint32][]byte{},
			scratch: make([]byte, 16384), latency: e.Stats().Histogram(fmt.Sprintf("host%d/latency", i), "ps", ""),
			trimmedClass: map[uint8]int{}, trimmedDSCP: map[uint8]int{}, pfcSrc: map[[6]byte]int{},
			ttlIn: map[uint8]int{}, macsIn: map[[12]byte]int{}}
		hs.h, err = e.Add(hostDom, fmt.Sprintf("host%d", i), hs)
		require.NoError(t, err)
		hs.rng = hs.h.RNG()
		hs.entropy = uint16(i)
		phy, err := serdes.NewPhyLink[*packet.Desc](e, hostDom, fmt.Sprintf("host%d/phy", i), sw.NeighbourWire(i), frameBytes)
		require.NoError(t, err)
		hs.out, err = rtlmodel.NewLink[*packet.Desc](fmt.Sprintf("host%d>phy", i), hs.h, phy.Handle(),
			rtlmodel.LinkConfig{Latency: 1, Width: 1, Credits: 2, CreditLatency: 1})
		require.NoError(t, err)
		rx, err := sw.AttachRx(i, phy)
		require.NoError(t, err)
		require.NoError(t, phy.Connect(hs.out, rx))
		hs.in, err = sw.AttachTx(i, hs.h)
		require.NoError(t, err)
		hs.prop = sw.TxPhy(i).Wire().Propagation()
		g, err := sw.Forwarding().AddGroup([]int{i})
		require.NoError(t, err)
		require.NoError(t, sw.Forwarding().SetRoute(uint32(i), g))
		sw.SetNeighbourMAC(i, hostMAC(i))
		r.hosts = append(r.hosts, hs)
	}
	return r
}
