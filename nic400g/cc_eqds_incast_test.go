package nic400g

import (
	"container/heap"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// The EQDS incast loop: n senders, each on its own 400G link, into one
// switch egress port toward one 400G receiver. Hops take 1 µs each way
// (sender → switch → receiver; pulls, ACKs and NACKs return in 2 µs).
// The switch trims a data packet to its 64 B header when the data queue
// would pass trimAt bytes and forwards headers ahead of data; the
// receiver pulls for the payload of each trimmed header and NACKs it.
// Each sender's first packet announces its backlog beyond the speculative
// window; the receiver's RecvCreditPacer grants it in paced pulls.

const (
	eqHop    = rtlmodel.Microsecond
	eqPsPerB = 20 // ps per byte at 400 Gb/s
)

// event kinds of the incast loop
const (
	evTxDone = iota
	evAtSwitch
	evEgressDone
	evAtRecv
	evPull
	evAck
	evNack
	evPacer
	evTimer
	evRequest
)

type eqEvent struct {
	at      rtlmodel.Time
	seq     uint64
	kind    int
	who     uint32
	bytes   uint64 // payload
	req     uint64 // backlog announced
	trimmed bool
	spec    bool // sent in the speculative window
}

type eqHeap []eqEvent

func (h eqHeap) Len() int { return len(h) }
func (h eqHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h eqHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eqHeap) Push(x any)   { *h = append(*h, x.(eqEvent)) }
func (h *eqHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

type eqSender struct {
	cc        EQDSSender
	remaining uint64 // new bytes not yet sent
	busy      bool
	announced bool
	timerAt   rtlmodel.Time
	delivered uint64 // payload delivered to the receiver
	window    uint64 // delivered inside the measuring window
}

type eqdsIncast struct {
	p        *EQDSParams
	pacer    *RecvCreditPacer
	snd      []eqSender
	h        eqHeap
	seq      uint64
	dataQ    []eqEvent
	hiQ      []eqEvent
	qBytes   uint64 // wire bytes in the data queue
	egress   bool
	pacerAt  rtlmodel.Time
	trimAt   uint64
	flow     uint64        // bytes per sender
	charge   bool          // charge speculative arrivals to the pacer
	from, to rtlmodel.Time // measuring window

	served, maxQ, trims, acks, nacks uint64
	maxQAll                          uint64
}

func (s *eqdsIncast) push(e eqEvent) {
	e.seq = s.seq
	s.seq++
	heap.Push(&s.h, e)
}

func (s *eqdsIncast) wakePacer() {
	if ne := s.pacer.NextEvent(); ne < s.pacerAt {
		s.pacerAt = ne
		s.push(eqEvent{at: ne, kind: evPacer})
	}
}

func (s *eqdsIncast) armTimer(i uint32) {
	x := &s.snd[i]
	if ne := x.cc.NextEvent(); ne != rtlmodel.Forever && ne != x.timerAt {
		x.timerAt = ne
		s.push(eqEvent{at: ne, kind: evTimer, who: i})
	}
}

// reclaim asks the receiver again for the speculative allowance sender i
// gave up when speculation ended (a control packet, 2 hops).
func (s *eqdsIncast) reclaim(now rtlmodel.Time, i uint32) {
	if r := s.snd[i].cc.TakeReclaim(); r != 0 {
		s.push(eqEvent{at: now + 2*eqHop, kind: evRequest, who: i, req: r})
	}
}

func (s *eqdsIncast) trySend(now rtlmodel.Time, i uint32) {
	x := &s.snd[i]
	if x.busy {
		return
	}
	mss := uint64(s.p.MSS)
	n := min(mss, x.remaining)
	if r := x.cc.RetransmitPending(); r != 0 {
		n = min(mss, r)
	} else if n == 0 {
		return
	}
	if !x.cc.CanSend(uint32(n)) {
		return
	}
	if x.cc.RetransmitPending() == 0 {
		x.remaining -= n
	}
	var req uint64
	if !x.announced {
		x.announced = true
		total := x.remaining + n
		req = total - min(total, s.p.SpeculativeBytes)
	}
	spec := x.cc.Speculating()
	x.cc.OnSend(now, uint32(n))
	ser := rtlmodel.Time(n+uint64(s.p.HeaderBytes)) * eqPsPerB
	x.busy = true
	s.push(eqEvent{at: now + ser, kind: evTxDone, who: i})
	s.push(eqEvent{at: now + ser + eqHop, kind: evAtSwitch, who: i, bytes: n, req: req, spec: spec})
	s.armTimer(i)
}

func (s *eqdsIncast) startEgress(now rtlmodel.Time) {
	var e eqEvent
	switch {
	case len(s.hiQ) != 0:
		e, s.hiQ = s.hiQ[0], s.hiQ[1:]
	case len(s.dataQ) != 0:
		e, s.dataQ = s.dataQ[0], s.dataQ[1:]
		s.qBytes -= e.bytes + uint64(s.p.HeaderBytes)
	default:
		s.egress = false
		return
	}
	s.egress = true
	wire := uint64(s.p.HeaderBytes)
	if !e.trimmed {
		wire += e.bytes
	}
	e.kind, e.at = evEgressDone, now+rtlmodel.Time(wire)*eqPsPerB
	s.push(e)
	if now >= s.from && now < s.to {
		s.served += wire
	}
}

func (s *eqdsIncast) run(until rtlmodel.Time) {
	for s.h.Len() != 0 {
		e := heap.Pop(&s.h).(eqEvent)
		now := e.at
		if now > until {
			return
		}
		inWin := now >= s.from && now < s.to
		switch e.kind {
		case evTxDone:
			s.snd[e.who].busy = false
			s.trySend(now, e.who)
		case evAtSwitch:
			wire := e.bytes + uint64(s.p.HeaderBytes)
			if s.qBytes+wire > s.trimAt {
				e.trimmed = true
				s.trims++
				s.hiQ = append(s.hiQ, e)
			} else {
				s.qBytes += wire
				s.dataQ = append(s.dataQ, e)
			}
			s.maxQAll = max(s.maxQAll, s.qBytes)
			if inWin {
				s.maxQ = max(s.maxQ, s.qBytes)
			}
			if !s.egress {
				s.startEgress(now)
			}
		case evEgressDone:
			e.kind, e.at = evAtRecv, now+eqHop
			s.push(e)
			s.startEgress(now)
		case evAtRecv:
			if e.req != 0 {
				s.pacer.Request(now, e.who, e.req)
			}
			if e.trimmed {
				s.pacer.Request(now, e.who, e.bytes)
				s.push(eqEvent{at: now + 2*eqHop, kind: evNack, who: e.who, bytes: e.bytes})
			} else {
				x := &s.snd[e.who]
				if e.spec && s.charge {
					s.pacer.Charge(now, e.bytes)
				}
				x.delivered += e.bytes
				if inWin {
					x.window += e.bytes
				}
				if a := s.pacer.OnData(e.who, e.bytes); a != 0 {
					s.push(eqEvent{at: now + 2*eqHop, kind: evAck, who: e.who, bytes: a})
				}
				if x.delivered == s.flow {
					if a := s.pacer.Unacked(e.who); a != 0 { // end of the flow
						s.push(eqEvent{at: now + 2*eqHop, kind: evAck, who: e.who, bytes: a})
					}
				}
			}
			s.wakePacer()
		case evPacer:
			if now != s.pacerAt {
				continue
			}
			s.pacerAt = rtlmodel.Forever
			for {
				who, c, ok := s.pacer.Grant(now)
				if !ok {
					break
				}
				s.push(eqEvent{at: now + 2*eqHop, kind: evPull, who: who, bytes: c})
			}
			s.wakePacer()
		case evPull:
			s.snd[e.who].cc.OnPull(now, e.bytes)
			s.reclaim(now, e.who)
			s.trySend(now, e.who)
		case evAck:
			s.acks++
			ev := AckEvent{AckedBytes: e.bytes}
			s.snd[e.who].cc.OnAck(now, &ev)
			s.armTimer(e.who)
			s.trySend(now, e.who)
		case evNack:
			s.nacks++
			s.snd[e.who].cc.OnNACK(now, uint32(e.bytes))
			s.reclaim(now, e.who)
			s.armTimer(e.who)
			s.trySend(now, e.who)
		case evRequest:
			s.pacer.Request(now, e.who, e.req)
			s.wakePacer()
		case evTimer:
			x := &s.snd[e.who]
			if now != x.timerAt {
				continue
			}
			x.timerAt = 0
			x.cc.Advance(now)
			s.armTimer(e.who)
		}
	}
}

func newEQDSIncast(t *testing.T, p *EQDSParams, n int, flow uint64, trimAt uint64) *eqdsIncast {
	t.Helper()
	pacer, err := NewRecvCreditPacer(p, n)
	require.NoError(t, err)
	s := &eqdsIncast{p: p, pacer: pacer, snd: make([]eqSender, n), pacerAt: rtlmodel.Forever, trimAt: trimAt, flow: flow}
	for i := range s.snd {
		s.snd[i].cc.Init(p)
		s.snd[i].remaining = flow
		s.trySend(0, uint32(i))
	}
	return s
}

func TestEQDSIncastFullLinkNoStandingQueue(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	require.NoError(t, p.Validate())
	mtu := uint64(p.MSS + p.HeaderBytes)
	for _, c := range []struct {
		name   string
		charge bool
		trimAt uint64
		maxQ   uint64
	}{
		// speculative arrivals charged to the pacer: the first-window
		// burst drains and no queue stands
		{"charged", true, 1 << 20, 2 * mtu},
		// not charged: the burst leaves a queue as deep as the switch keeps
		// below its trim threshold, drained only by the 1 % pacing slack,
		// so the threshold must be small (a few packets, as NDP-style
		// trimming switches use: E)
		{"uncharged", false, 8 * mtu, 2 * mtu},
	} {
		t.Run(c.name, func(t *testing.T) {
			const n = 16
			s := newEQDSIncast(t, &p, n, 8<<20, c.trimAt)
			s.charge = c.charge
			s.from, s.to = 300*rtlmodel.Microsecond, 1500*rtlmodel.Microsecond
			s.run(s.to)

			util := float64(s.served) / float64(uint64(s.to-s.from)/eqPsPerB)
			share := make([]float64, n)
			for i := range s.snd {
				share[i] = float64(s.snd[i].window)
			}
			j := jainIndex(share)
			t.Logf("%d senders: receiver link %.4f busy, max data queue %d B in the window (%d B overall), Jain %.5f, %d trims, %d ACKs, %d B charged",
				n, util, s.maxQ, s.maxQAll, j, s.trims, s.acks, s.pacer.Charged())
			assert.GreaterOrEqual(t, util, 0.985, "pulls keep the receiver link full")
			assert.LessOrEqual(t, util, 1.0)
			assert.LessOrEqual(t, s.maxQ, c.maxQ, "bounded queue after the speculative window")
			assert.GreaterOrEqual(t, j, 0.95)
			assert.NotZero(t, s.trims, "the speculative first windows overflow the switch and are trimmed")

			// accounting: every sender's credit is spent or held, the
			// pacer's credit granted or pending
			req, granted, pulls := s.pacer.Totals()
			var pending uint64
			for i := range s.snd {
				c := s.snd[i].cc.Counts()
				assert.Equal(t, c.Speculative+c.Granted, c.Spent+s.snd[i].cc.Credit()+c.Forfeited, "sender %d credit", i)
				assert.Equal(t, c.Sent, c.Spent, "sender %d sent only against credit", i)
				assert.Zero(t, c.Timeouts)
				pending += s.pacer.Pending(uint32(i))
			}
			assert.Equal(t, req, granted+pending)
			assert.NotZero(t, pulls)
		})
	}
}

func TestEQDSIncastCompletesWithConservedCredit(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	const n, flow = 8, 3<<20 + 1000 // not a multiple of the MSS
	s := newEQDSIncast(t, &p, n, flow, 256<<10)
	s.from, s.to = 0, 0
	s.run(10 * rtlmodel.Millisecond)
	req, granted, _ := s.pacer.Totals()
	assert.Equal(t, req, granted, "every credit requested was granted")
	var retx uint64
	for i := range s.snd {
		x := &s.snd[i]
		c := x.cc.Counts()
		assert.Equal(t, uint64(flow), x.delivered, "sender %d: every byte delivered once", i)
		assert.Equal(t, uint64(flow), c.Acked, "sender %d: every byte ACKed", i)
		assert.Equal(t, c.Sent, c.Acked+c.Trimmed, "sender %d: sent = ACKed + trimmed", i)
		assert.Equal(t, c.Trimmed, c.Retransmitted, "sender %d: each trimmed byte resent", i)
		assert.Equal(t, c.Speculative+c.Granted, c.Spent+x.cc.Credit()+c.Forfeited, "sender %d credit", i)
		assert.Zero(t, x.cc.InFlight())
		assert.Zero(t, x.cc.RetransmitPending())
		assert.Zero(t, c.Timeouts)
		assert.Equal(t, rtlmodel.Forever, x.cc.NextEvent(), "timer stops with nothing in flight")
		r, g := s.pacer.SenderTotals(uint32(i))
		assert.Equal(t, r, g)
		// credit asked for = backlog beyond the first window + trimmed
		// bytes + allowance given up
		assert.Equal(t, uint64(flow)-p.SpeculativeBytes+c.Trimmed+c.Forfeited, r, "sender %d", i)
		assert.Equal(t, c.Spent, c.Sent, "sender %d sent only against credit", i)
		retx += c.Retransmitted
	}
	assert.NotZero(t, retx, "trims were retransmitted")

	// the same configuration gives the same run, event for event
	again := newEQDSIncast(t, &p, n, flow, 256<<10)
	again.run(10 * rtlmodel.Millisecond)
	assert.Equal(t, s.seq, again.seq)
	for i := range s.snd {
		assert.Equal(t, s.snd[i].cc.Counts(), again.snd[i].cc.Counts())
	}
	t.Logf("%d senders × %d B: %d trims, %d B retransmitted, %d ACKs, %d NACKs", n, flow, s.trims, retx, s.acks, s.nacks)
}
