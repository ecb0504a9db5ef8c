package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// BenchmarkDCQCNOnCNP: one CNP every 10 µs, so every call also runs the
// timer expiries in between (a decrease check, α updates, increases).
func BenchmarkDCQCNOnCNP(b *testing.B) {
	p := PaperParams(400e9)
	rp := NewReactionPoint(&p)
	b.ReportAllocs()
	now := rtlmodel.Time(0)
	for b.Loop() {
		now += 10 * us
		rp.OnCNP(now)
	}
}

// BenchmarkDCQCNAdvance: advance to each next timer expiry in turn.
func BenchmarkDCQCNAdvance(b *testing.B) {
	p := PaperParams(400e9)
	rp := NewReactionPoint(&p)
	rp.OnCNP(0)
	b.ReportAllocs()
	for b.Loop() {
		rp.Advance(rp.NextEvent())
	}
}

// BenchmarkDCQCNBytesSent: a 4 KB packet report per call with the
// firmware byte counter in the two-counter variant.
func BenchmarkDCQCNBytesSent(b *testing.B) {
	p := FirmwareParams(400e9)
	p.Variant = TwoCounter
	rp := NewReactionPoint(&p)
	rp.OnCNP(0)
	rp.Advance(4 * us)
	b.ReportAllocs()
	now := 4 * us
	for b.Loop() {
		now += 10 * rtlmodel.Nanosecond
		rp.OnBytesSent(now, 4096)
	}
}

// BenchmarkNotificationPointOnCE: CE arrivals over 4096 flows.
func BenchmarkNotificationPointOnCE(b *testing.B) {
	np, err := NewNotificationPoint(NPIntervalPaper, 4096)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	now := rtlmodel.Time(0)
	var qp uint32
	for b.Loop() {
		now += 10 * rtlmodel.Nanosecond
		qp = (qp + 977) & 4095
		np.OnCE(qp, now)
	}
}
