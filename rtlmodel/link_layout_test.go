package rtlmodel

import (
	"testing"
	"unsafe"
)

// What a send, a delivery, a Recv and a credit return read of a link lies
// in its first five cache lines, and each of its queues within one line:
// the link is out of the caches each time an item crosses it, and every
// further line is one more miss. (A link is allocated in a size class that
// is a multiple of 64 bytes, so its lines are the lines of memory.)
func TestLinkHotFieldsInItsFirstFiveLines(t *testing.T) {
	const line = 64
	var l Link[*int]
	ends := map[string]uintptr{
		"lastAt":       unsafe.Offsetof(l.lastAt) + 8,
		"latencyPs":    unsafe.Offsetof(l.latencyPs) + 8,
		"creditPs":     unsafe.Offsetof(l.creditPs) + 8,
		"rxDelay":      unsafe.Offsetof(l.rxDelay) + 8,
		"creditWanted": unsafe.Offsetof(l.creditWanted) + 1,
		"ahead":        unsafe.Offsetof(l.ahead) + 8,
		"taker":        unsafe.Offsetof(l.taker) + unsafe.Sizeof(l.taker),
		"credits":      unsafe.Offsetof(l.credits) + 8,
		"toPeriod":     unsafe.Offsetof(l.toPeriod) + 8,
		"toPhase":      unsafe.Offsetof(l.toPhase) + 8,
		"told":         unsafe.Offsetof(l.told) + 8,
		"credIdx":      unsafe.Offsetof(l.credIdx) + 8,
		"transfers.v":  unsafe.Offsetof(l.transfers) + unsafe.Offsetof(l.transfers.v) + 8,
	}
	for name, end := range ends {
		if end > 5*line {
			t.Errorf("%s ends at byte %d, beyond the first five lines", name, end)
		}
	}
	for name, q := range map[string][2]uintptr{
		"q":       {unsafe.Offsetof(l.q), unsafe.Sizeof(l.q)},
		"returns": {unsafe.Offsetof(l.returns), unsafe.Sizeof(l.returns)},
	} {
		if q[0]/line != (q[0]+q[1]-1)/line {
			t.Errorf("queue %s at bytes %d to %d spans two lines", name, q[0], q[0]+q[1])
		}
	}
}
