package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// nsccAckLoop is one ACK per call cycling through the four quadrants and
// a NACK now and then.
func nsccAckLoop(n *NSCC, now *rtlmodel.Time, k *uint64) {
	*now += 82 * rtlmodel.Nanosecond
	*k++
	n.OnSend(*now, 4096)
	rtt := 12*rtlmodel.Microsecond + rtlmodel.Time(*k%20)*rtlmodel.Microsecond
	ev := AckEvent{AckedBytes: 4096, RTT: rtt, ECE: *k%3 == 0}
	n.OnAck(*now, &ev)
	if *k%101 == 0 {
		n.OnNACK(*now, 4096)
	}
}

// BenchmarkNSCCOnAck: one ACK per op (plus a NACK every 101).
func BenchmarkNSCCOnAck(b *testing.B) {
	p := DefaultNSCCParams(400e9, 12*rtlmodel.Microsecond, true)
	n := NewNSCC(&p)
	var now rtlmodel.Time
	var k uint64
	b.ReportAllocs()
	for b.Loop() {
		nsccAckLoop(n, &now, &k)
	}
}

func TestNSCCAllocatesNothing(t *testing.T) {
	p := DefaultNSCCParams(400e9, 12*rtlmodel.Microsecond, true)
	n := NewNSCC(&p)
	var now rtlmodel.Time
	var k uint64
	assert.Zero(t, testing.AllocsPerRun(2000, func() { nsccAckLoop(n, &now, &k) }))
}
