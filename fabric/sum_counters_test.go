package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// TestSumCountersMatchesWholeSuffixes checks the one-pass sum over the
// registry: a counter counts toward every suffix its name ends in, even
// two suffixes that share their last element; a name that only ends in
// the last element, or has it as a prefix of its own, does not count;
// gauges are not counters; and a suffix nothing matches sums to zero.
func TestSumCountersMatchesWholeSuffixes(t *testing.T) {
	e := rtlmodel.NewEngine(rtlmodel.Options{})
	st := e.Stats()
	add := func(name string, v uint64) {
		c := st.Counter(name, "frames", "")
		for range v {
			c.Inc()
		}
	}
	add("leaf0/mmu/pfc_sent", 3)
	add("leaf1/mmu/pfc_sent", 4)
	add("nic0/pfc_sent", 5)
	add("nic1/pfc_sent_late", 100)
	add("pfc_sent", 7)
	add("nic0/rx_data", 11)
	st.Gauge("leaf2/mmu/pfc_sent", "frames", "").Set(1000)
	got := sumCounters(e, "/mmu/pfc_sent", "/pfc_sent", "/rx_data", "/trimmed")
	want := map[string]uint64{"/mmu/pfc_sent": 7, "/pfc_sent": 12, "/rx_data": 11, "/trimmed": 0}
	for s, w := range want {
		if got[s] != w {
			t.Errorf("sum of %q = %d, want %d", s, got[s], w)
		}
	}
}
