package switchasic

import (
	"fmt"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A port whose queued class is paused together with an idle class resumes
// that class when its own pause ends, not when the longer one does: the
// MMU's skipping of ports whose queued classes are all paused must not
// outlive the pause that held them.
func TestPausedClassResumesAtItsOwnPauseEnd(t *testing.T) {
	cfg := DefaultConfig()
	r := newRig(t, cfg, 3, rtlmodel.Options{Seed: 1})
	const frames = 50
	src, sink := r.hosts[0], r.hosts[2]
	src.class, src.total, src.startCycle = 3, frames, 800 // from 1 us, after the pause
	src.dst = func(*host, int) uint32 { return 2 }
	sink.keepTimes = true
	// class 3 for 10,000 quanta (12.8 us at 400G), idle class 5 for 60,000
	sink.pfcOut = pfcSend{classes: 1<<3 | 1<<5}
	sink.pfcOut.quanta[3], sink.pfcOut.quanta[5] = 10_000, 60_000
	require.NoError(t, r.e.Run(rtlmodel.Forever))

	require.Equal(t, uint64(1), r.sw.mmu.pfcRecv.Value())
	require.Len(t, sink.rxTimes, frames)
	first, last := sink.rxTimes[0], sink.rxTimes[frames-1]
	short := rtlmodel.Time(10_000 * 1280)
	t.Logf("class 3 paused 12.8 us beside class 5 paused 76.8 us: %d frames received from %.2f to %.2f us",
		frames, float64(first)/1e6, float64(last)/1e6)
	require.Greater(t, first, short, "nothing leaves before the class 3 pause ends")
	// the queued frames leave back to back once the pause ends: 50 frames
	// of about 4.2 KB at 400 Gb/s take 4.3 us
	require.Less(t, last-first, rtlmodel.Time(5_000_000), "the queue drains at line rate")
	require.Less(t, last, short+rtlmodel.Time(8_000_000))
}

// Frames of an unpaused class reach a port whose queued class is paused
// and leave at once: new work ends the MMU's skipping of the port.
func TestUnpausedClassPassesAPausedOne(t *testing.T) {
	cfg := DefaultConfig()
	r := newRig(t, cfg, 3, rtlmodel.Options{Seed: 1})
	const frames = 20
	paused, free, sink := r.hosts[0], r.hosts[1], r.hosts[2]
	paused.class, paused.total, paused.startCycle = 3, frames, 800 // from 1 us
	free.class, free.total, free.startCycle = 0, frames, 4000      // from 5 us
	paused.dst = func(*host, int) uint32 { return 2 }
	free.dst = paused.dst
	sink.keepTimes = true
	// class 3 for 20,000 quanta: 25.6 us at 400G
	sink.pfcOut = pfcSend{classes: 1 << 3}
	sink.pfcOut.quanta[3] = 20_000
	require.NoError(t, r.e.Run(rtlmodel.Forever))

	require.Len(t, sink.rxTimes, 2*frames)
	pause := rtlmodel.Time(20_000 * 1280)
	var during int
	for _, at := range sink.rxTimes {
		if at < pause {
			during++
		}
	}
	t.Logf("class 3 paused 25.6 us: %d of %d class 0 frames received during the pause, the last class 3 frame at %.2f us",
		during, frames, float64(sink.rxTimes[2*frames-1])/1e6)
	require.Equal(t, frames, during, "class 0 is not held behind class 3")
	require.Greater(t, sink.rxTimes[frames], pause, "class 3 waits for its pause")
}

// Each paused (port, class) counts its pause exactly: 10,000 and 60,000
// quanta of 512 bit times at 400 Gb/s are 12.8 and 76.8 us, whatever the
// traffic, and a settle before a pause ends counts it up to then only.
func TestPFCPauseTimeIsCountedPerPortAndClass(t *testing.T) {
	cfg := DefaultConfig()
	r := newRig(t, cfg, 3, rtlmodel.Options{Seed: 1})
	src, sink := r.hosts[0], r.hosts[2]
	src.class, src.total, src.startCycle = 3, 50, 800
	src.dst = func(*host, int) uint32 { return 2 }
	sink.pfcOut = pfcSend{classes: 1<<3 | 1<<5}
	sink.pfcOut.quanta[3], sink.pfcOut.quanta[5] = 10_000, 60_000
	counter := func(c int) uint64 {
		m, ok := r.e.Stats().Lookup(fmt.Sprintf("sw/port2/pfc_paused/c%d", c))
		require.True(t, ok, "class %d has a pause counter", c)
		return m.(*rtlmodel.Counter).Value()
	}

	require.NoError(t, r.e.Run(40*rtlmodel.Microsecond))
	r.sw.SettleCounters(r.e.Now())
	require.Equal(t, uint64(12_800_000), counter(3), "class 3: its whole pause")
	class5 := counter(5)
	require.Greater(t, class5, uint64(39*rtlmodel.Microsecond), "class 5: paused from the frame's arrival to the settle")
	require.Less(t, class5, uint64(40*rtlmodel.Microsecond))
	r.sw.SettleCounters(r.e.Now())
	require.Equal(t, class5, counter(5), "settling twice at one time adds nothing")

	require.NoError(t, r.e.Run(200*rtlmodel.Microsecond))
	r.sw.SettleCounters(r.e.Now())
	require.Equal(t, uint64(76_800_000), counter(5), "class 5: its whole pause")
	_, ok := r.e.Stats().Lookup("sw/port0/pfc_paused/c3")
	require.False(t, ok, "a port never paused has no counter")
	total, longest := r.sw.PausedTime()
	require.Equal(t, rtlmodel.Time(12_800_000+76_800_000), total)
	require.Equal(t, rtlmodel.Time(76_800_000), longest)
}
