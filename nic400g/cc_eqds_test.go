package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

func TestEQDSDefaultParams(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	require.NoError(t, p.Validate())
	assert.Equal(t, uint32(4096), p.CreditPerPull)
	assert.Equal(t, uint64(16_384), p.AckCoalesceBytes)
	assert.Equal(t, 200*rtlmodel.Microsecond, p.MinRTO)
	assert.Equal(t, uint32(256), p.Entropies)
	assert.Equal(t, uint32(4096), p.MaxInFlightPackets)
	assert.Equal(t, uint64(200_000), p.BDP())
	assert.Equal(t, uint64(200_000), p.SpeculativeBytes)
	assert.Equal(t, uint64(300_000), p.MaxWindow)
	assert.Equal(t, uint64(4160), p.WireBytes(4096))
	assert.Equal(t, uint64(4096+1+128), p.WireBytes(4097))
	pp := p.PathParams(EntropyUET)
	assert.Equal(t, uint32(256), pp.SetSize)
	require.NoError(t, pp.Validate())

	for _, c := range []struct {
		field string
		edit  func(*EQDSParams)
	}{
		{"LineRate", func(p *EQDSParams) { p.LineRate = 0 }},
		{"BaseRTT", func(p *EQDSParams) { p.BaseRTT = 0 }},
		{"MSS", func(p *EQDSParams) { p.MSS = 0 }},
		{"HeaderBytes", func(p *EQDSParams) { p.HeaderBytes = 0 }},
		{"CreditPerPull", func(p *EQDSParams) { p.CreditPerPull = 0 }},
		{"PacerPermille", func(p *EQDSParams) { p.PacerPermille = 1001 }},
		{"MaxWindow", func(p *EQDSParams) { p.MaxWindow = 1 }},
		{"SpeculativeBytes", func(p *EQDSParams) { p.SpeculativeBytes = p.MaxWindow + 1 }},
		{"AckCoalesceBytes", func(p *EQDSParams) { p.AckCoalesceBytes = 0 }},
		{"MinRTO", func(p *EQDSParams) { p.MinRTO = 0 }},
		{"MaxInFlightPackets", func(p *EQDSParams) { p.MaxInFlightPackets = 0 }},
		{"Entropies", func(p *EQDSParams) { p.Entropies = 100 }},
	} {
		p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
		c.edit(&p)
		assert.ErrorContains(t, p.Validate(), "EQDSParams."+c.field)
	}
	_, err := NewRecvCreditPacer(&p, 0)
	assert.Error(t, err)
}

func TestEQDSSenderCredit(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	p.SpeculativeBytes = 8192
	s := NewEQDSSender(&p)
	assert.Equal(t, "eqds", s.Name())
	assert.True(t, s.Speculating())
	assert.Equal(t, uint64(8192), s.Window())
	assert.Zero(t, s.Rate())

	// the speculative first window: two packets, then nothing without credit
	require.True(t, s.CanSend(4096))
	s.OnSend(0, 4096)
	s.OnSend(100, 4096)
	assert.False(t, s.Speculating())
	assert.False(t, s.CanSend(1))
	assert.Equal(t, uint64(8192), s.Window(), "in flight, no credit")
	assert.Equal(t, p.MinRTO, s.NextEvent(), "timer armed by the first send, at 0")

	// a pull and credit on an ACK
	s.OnPull(1000, 4096)
	s.OnAck(2000, &AckEvent{AckedBytes: 4096, Credit: 4096, RTT: 4 * rtlmodel.Microsecond})
	assert.Equal(t, uint64(8192), s.Credit())
	assert.Equal(t, uint64(4096), s.InFlight())
	assert.Equal(t, 2000+p.MinRTO, s.NextEvent(), "ACK progress restarts the timer; the estimate is below MinRTO")

	// a trim: the bytes wait for retransmission, and the next send is one
	s.OnNACK(3000, 4096)
	assert.Equal(t, uint64(4096), s.RetransmitPending())
	assert.Zero(t, s.InFlight())
	assert.Equal(t, rtlmodel.Forever, s.NextEvent(), "nothing in flight: timer stopped")
	s.OnSend(4000, 4096)
	assert.Zero(t, s.RetransmitPending())
	c := s.Counts()
	assert.Equal(t, uint64(4096), c.Retransmitted)
	assert.Equal(t, uint64(1), c.Trims)
	assert.Equal(t, c.Speculative+c.Granted, c.Spent+s.Credit()+c.Forfeited)

	// a timeout moves what is in flight to retransmission and backs off
	s.Advance(s.NextEvent() - 1)
	assert.Zero(t, s.Counts().Timeouts)
	s.Advance(s.NextEvent())
	assert.Equal(t, uint64(1), s.Counts().Timeouts)
	assert.Equal(t, uint64(4096), s.RetransmitPending())
	assert.Equal(t, 2*p.MinRTO, s.RTO(), "doubled")
	s.OnLoss(5000, LossTrimmed) // nothing in flight: nothing more to move
	assert.Equal(t, uint64(4096), s.RetransmitPending())
	s.OnCNP(5000)
	s.OnLoss(6000, LossTimeout)
	assert.Equal(t, 4*p.MinRTO, s.RTO())

	// speculation ends at the first pull or NACK; the allowance left is
	// given up, to be asked for again
	u := NewEQDSSender(&p)
	u.OnSend(0, 4096)
	u.OnNACK(10, 4096)
	assert.False(t, u.Speculating())
	assert.Equal(t, uint64(4096), u.TakeReclaim())
	assert.Zero(t, u.TakeReclaim())
	assert.Equal(t, uint64(4096), u.Counts().Forfeited)
	v := NewEQDSSender(&p)
	v.OnAck(0, &AckEvent{Credit: 100})
	assert.False(t, v.Speculating())
	assert.Equal(t, uint64(8192), v.TakeReclaim())
	assert.Equal(t, uint64(100), v.Credit())

	// the window cap
	q := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	w := NewEQDSSender(&q)
	w.OnPull(0, 1<<20)
	assert.Equal(t, q.MaxWindow, w.Window())
	for w.CanSend(4096) {
		w.OnSend(0, 4096)
	}
	assert.LessOrEqual(t, w.InFlight(), q.MaxWindow)
	assert.Greater(t, w.InFlight()+4096, q.MaxWindow)
}

func TestEQDSSenderRTOEstimate(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	p.MinRTO = rtlmodel.Microsecond
	s := NewEQDSSender(&p)
	s.OnSend(0, 4096)
	s.OnAck(0, &AckEvent{RTT: 100 * rtlmodel.Microsecond})
	// first sample: srtt = R, rttvar = R/2, RTO = R + 4·R/2 = 3R
	assert.Equal(t, 300*rtlmodel.Microsecond, s.RTO())
	s.OnAck(0, &AckEvent{RTT: 100 * rtlmodel.Microsecond})
	// rttvar ← 3/4·50 + 1/4·0 = 37.5 µs, RTO = 100 + 150
	assert.Equal(t, 250*rtlmodel.Microsecond, s.RTO())
}

func TestRecvCreditPacerExactPacing(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	r, err := NewRecvCreditPacer(&p, 3)
	require.NoError(t, err)
	assert.Equal(t, rtlmodel.Forever, r.NextEvent(), "idle pacer sleeps")
	start := 5 * rtlmodel.Microsecond
	r.Request(start, 1, 99*4096)
	assert.Equal(t, start, r.NextEvent(), "first pull at once")
	_, _, ok := r.Grant(start - 1)
	assert.False(t, ok)
	// 4160 wire bytes at 0.99 · 400 Gb/s is 84,040.40… ps: 99 pulls take
	// exactly 8,320,000 ps, with the remainder carried
	var times []rtlmodel.Time
	for now := start; ; now = r.NextEvent() {
		who, c, ok := r.Grant(now)
		if !ok {
			break
		}
		assert.Equal(t, uint32(1), who)
		assert.Equal(t, uint64(4096), c)
		times = append(times, now)
	}
	require.Len(t, times, 99)
	assert.Equal(t, rtlmodel.Time(84040), times[1]-times[0])
	assert.Equal(t, rtlmodel.Time(84041), times[3]-times[2], "remainder carried")
	assert.Equal(t, rtlmodel.Forever, r.NextEvent())
	req, granted, pulls := r.Totals()
	assert.Equal(t, uint64(99*4096), req)
	assert.Equal(t, req, granted)
	assert.Equal(t, uint64(99), pulls)
	// the 99th pull's wire time ends at exactly start + 8.32 µs: a new
	// request then is granted at once, and one much later is too (no idle
	// time is banked)
	r.Request(start+8_320_000, 0, 1)
	assert.Equal(t, start+8_320_000, r.NextEvent())
	_, c, _ := r.Grant(r.NextEvent())
	assert.Equal(t, uint64(1), c, "partial credit: what is pending")
	later := start + rtlmodel.Millisecond
	r.Request(later, 2, 10)
	assert.Equal(t, later, r.NextEvent())
}

func TestRecvCreditPacerRoundRobin(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	r, err := NewRecvCreditPacer(&p, 4)
	require.NoError(t, err)
	r.Request(0, 2, 3*4096)
	r.Request(0, 0, 1*4096)
	r.Request(0, 3, 2*4096+100)
	assert.Equal(t, 3, r.Waiting())
	var order []uint32
	var credit []uint64
	for now := rtlmodel.Time(0); r.NextEvent() != rtlmodel.Forever; now = r.NextEvent() {
		who, c, ok := r.Grant(now)
		require.True(t, ok)
		order = append(order, who)
		credit = append(credit, c)
	}
	assert.Equal(t, []uint32{2, 0, 3, 2, 3, 2, 3}, order)
	assert.Equal(t, []uint64{4096, 4096, 4096, 4096, 4096, 4096, 100}, credit)
	for i := range uint32(4) {
		rq, g := r.SenderTotals(i)
		assert.Equal(t, rq, g)
		assert.Zero(t, r.Pending(i))
	}

	// ACK coalescing at 16,384 B
	assert.Zero(t, r.OnData(1, 12288))
	assert.Equal(t, uint64(16384), r.OnData(1, 4096))
	assert.Zero(t, r.OnData(1, 100))
	assert.Equal(t, uint64(100), r.Unacked(1))
	assert.Zero(t, r.Unacked(1))

	// charging unsolicited bytes delays the next pull by their wire time
	r.Charge(0, 0)
	now := 10 * rtlmodel.Millisecond
	r.Charge(now, 4096)
	r.Request(now, 0, 4096)
	assert.Equal(t, now+84040, r.NextEvent())
	assert.Equal(t, uint64(4096), r.Charged())
}

// A message's first packet carries its credit request, so when nothing
// asked for is still to come it may leave without the credit it needs,
// and the first credit granted repays what it borrowed; while credit is
// owed it waits for it like any packet.
func TestEQDSSenderStartsMessageWithoutCredit(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	p.SpeculativeBytes = 10000
	s := NewEQDSSender(&p)
	// two packets of earlier messages leave 1808 bytes of allowance
	s.OnSend(0, 4096)
	s.OnSend(10, 4096)
	require.Equal(t, uint64(1808), s.Speculative())
	assert.False(t, s.CanSend(4096), "not enough allowance for a packet")
	assert.Zero(t, s.Owed())
	require.True(t, s.CanStart(4096), "nothing is owed: nobody would ever pull")

	// the next message's first packet asks for the 16384-1808 bytes the
	// allowance will not cover and borrows 2288
	s.Ask(16384 - 1808)
	s.OnSend(20, 4096)
	assert.Equal(t, uint64(16384-1808), s.Owed())
	assert.False(t, s.CanStart(4096), "credit is owed: wait for it")
	s.OnPull(100, 4096)
	assert.Equal(t, uint64(4096-2288), s.Credit(), "the pull repays the borrowed bytes first")
	s.OnPull(200, 16384-1808-4096)
	assert.Zero(t, s.Owed())
	assert.Equal(t, uint64(16384-4096), s.Credit(), "the rest of the message, exactly")
	c := s.Counts()
	assert.Equal(t, c.Speculative+c.Granted, c.Spent+s.Credit()+c.Forfeited, "allowance + granted = spent + held + given up")
}

// A NAK for a sequence error (go-back-N) ends speculation and nothing
// else: the packets it names were dropped whole and the receiver pulls
// for none of them, so no credit is owed for them. The owner's rewind
// takes them out of flight (OnRewind), and their unpaid resends put them
// back.
func TestEQDSSequenceNAKOwesNoCredit(t *testing.T) {
	p := DefaultEQDSParams(400_000_000_000, 3*rtlmodel.Microsecond)
	s := NewEQDSSender(&p)
	s.OnSend(0, 4096)
	s.OnSend(10, 4096)
	s.OnLoss(20, LossNACK)
	assert.False(t, s.Speculating())
	assert.Zero(t, s.Owed(), "a sequence NAK asks for nothing")
	assert.Zero(t, s.RetransmitPending())
	assert.Equal(t, uint64(8192), s.InFlight())
	s.OnRewind(20, 4096)
	assert.Equal(t, uint64(4096), s.InFlight())
	s.OnSendUnpaid(30, 4096)
	assert.Equal(t, uint64(8192), s.InFlight())
	assert.True(t, s.Reclaiming(), "the allowance given up waits to be asked for")
	assert.True(t, s.CanStart(4096), "with nothing owed, the packet that asks may borrow")
}

// A sender with nothing in flight and credit owed runs its timer for the
// pulls, restarted by each pull: a pull lost in the fabric is never sent
// again, so when the timer expires the credit owed is presumed granted and
// the sender goes on. A timeout of what was in flight leaves the timer on
// while credit is owed.
func TestEQDSPullTimerPresumesLostPulls(t *testing.T) {
	p := DefaultEQDSParams(400_000_000_000, 3*rtlmodel.Microsecond)
	s := NewEQDSSender(&p)
	s.Ask(3 * 4096)
	s.OnPull(0, 4096)
	require.Equal(t, uint64(2*4096), s.Owed())
	require.Equal(t, p.MinRTO, s.NextEvent(), "owed, nothing in flight: the pull timer runs")
	s.OnPull(1000, 4096)
	require.Equal(t, 1000+p.MinRTO, s.NextEvent(), "a pull restarts it")
	s.Advance(1000 + p.MinRTO)
	c := s.Counts()
	require.Equal(t, uint64(4096), c.Presumed)
	require.Equal(t, uint64(1), c.PullTimeouts)
	require.Zero(t, c.Timeouts, "no data timed out")
	require.Zero(t, s.Owed())
	require.Equal(t, uint64(3*4096), s.Credit())
	require.Equal(t, rtlmodel.Forever, s.NextEvent(), "nothing owed, nothing in flight")
	require.Equal(t, c.Speculative+c.Granted+c.Presumed, c.Spent+s.Credit()+c.Forfeited)

	u := NewEQDSSender(&p)
	u.OnSend(0, 4096)
	u.Ask(4096)
	u.Advance(u.NextEvent())
	require.Equal(t, uint64(1), u.Counts().Timeouts)
	require.NotEqual(t, rtlmodel.Forever, u.NextEvent(), "credit still owed after a data timeout: the pull timer runs")
}
