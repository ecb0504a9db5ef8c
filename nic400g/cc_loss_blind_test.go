package nic400g

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// IgnoresLoss names exactly the congestion controls whose rate, window
// and timers a trim leaves as they were, after 64 packets sent: the
// others (Swift, NSCC, EQDS) answer it.
func TestIgnoresLossNamesTheControlsATrimLeavesAlone(t *testing.T) {
	for _, name := range CCNames {
		cfg := DefaultConfig(0)
		cfg.CC = name
		f, err := newCCFactory(&cfg)
		require.NoError(t, err, name)
		cc := f()
		now := rtlmodel.Time(0)
		for range 64 {
			now += 100 * rtlmodel.Nanosecond
			cc.OnSend(now, 4096)
		}
		now += 10 * rtlmodel.Microsecond
		cc.Advance(now)
		rate, window, next := cc.Rate(), cc.Window(), cc.NextEvent()
		cc.OnLoss(now, LossTrimmed)
		same := rate == cc.Rate() && window == cc.Window() && next == cc.NextEvent()
		require.Equal(t, IgnoresLoss(name), same, "%s: rate %v, window %d, next event %v before the trim; %v, %d, %v after",
			name, rate, window, next, cc.Rate(), cc.Window(), cc.NextEvent())
	}
}

// ReadsCNPs names exactly the congestion controls the NIC turns marks
// into CNPs for (cnpReader).
func TestReadsCNPsNamesTheControlsThatReadThem(t *testing.T) {
	for _, name := range CCNames {
		cfg := DefaultConfig(0)
		cfg.CC = name
		f, err := newCCFactory(&cfg)
		require.NoError(t, err, name)
		_, reads := f().(cnpReader)
		require.Equal(t, reads, ReadsCNPs(name), name)
	}
}
