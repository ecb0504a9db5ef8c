package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// eqdsSenderStep is one send and one ACK carrying a pull's credit, with
// a NACK every 64 steps.
func eqdsSenderStep(s *EQDSSender, now *rtlmodel.Time, k *uint64) {
	*now += 84 * rtlmodel.Nanosecond
	*k++
	s.OnSend(*now, 4096)
	ev := AckEvent{AckedBytes: 4096, Credit: 4096, RTT: 4 * rtlmodel.Microsecond}
	if *k%64 == 0 {
		s.OnNACK(*now, 4096)
		ev.AckedBytes = 0
	}
	s.OnAck(*now, &ev)
	s.Advance(*now)
}

// BenchmarkEQDSOnAck: a send and an ACK with credit per op.
func BenchmarkEQDSOnAck(b *testing.B) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	s := NewEQDSSender(&p)
	var now rtlmodel.Time
	var k uint64
	b.ReportAllocs()
	for b.Loop() {
		eqdsSenderStep(s, &now, &k)
	}
}

// eqdsPacerStep requests a pull's worth for one of 1024 senders and
// grants whatever is due.
func eqdsPacerStep(r *RecvCreditPacer, now *rtlmodel.Time, k *uint32) {
	*k = (*k + 389) & 1023
	r.Request(*now, *k, 4096)
	*now = r.NextEvent()
	r.Grant(*now)
}

// BenchmarkRecvCreditPacerGrant: one request and one grant per op over
// 1024 senders.
func BenchmarkRecvCreditPacerGrant(b *testing.B) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	r, err := NewRecvCreditPacer(&p, 1024)
	if err != nil {
		b.Fatal(err)
	}
	var now rtlmodel.Time
	var k uint32
	b.ReportAllocs()
	for b.Loop() {
		eqdsPacerStep(r, &now, &k)
	}
}

func TestEQDSAllocatesNothing(t *testing.T) {
	p := DefaultEQDSParams(400e9, 4*rtlmodel.Microsecond)
	s := NewEQDSSender(&p)
	var now rtlmodel.Time
	var k uint64
	assert.Zero(t, testing.AllocsPerRun(2000, func() { eqdsSenderStep(s, &now, &k) }), "sender")
	r, err := NewRecvCreditPacer(&p, 1024)
	require.NoError(t, err)
	var kk uint32
	assert.Zero(t, testing.AllocsPerRun(2000, func() {
		eqdsPacerStep(r, &now, &kk)
		r.OnData(kk, 4096)
	}), "pacer")
}
