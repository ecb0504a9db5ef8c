package switchasic

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/assert"
)

func TestFlowletTable(t *testing.T) {
	const gap = 4 * rtlmodel.Microsecond
	f := NewFlowletTable(1024, gap)
	assert.Equal(t, 1024, f.Len())
	assert.Equal(t, gap, f.Gap())
	s := f.Slot(0xDEADBEEF, 2)
	assert.Less(t, s, 1024)
	assert.NotEqual(t, s, f.Slot(0xDEADBEEF, 3), "groups spread one flow over slots")

	tests := []struct {
		name   string
		group  int
		n      int
		now    rtlmodel.Time
		member int
		live   bool
	}{
		{"empty slot", 2, 8, 0, 0, false},
	}
	for _, tc := range tests {
		m, ok := f.Live(s, tc.group, tc.n, tc.now)
		assert.Equal(t, tc.live, ok, tc.name)
		assert.Equal(t, tc.member, m, tc.name)
	}
	f.Start(s, 2, 5, 10*rtlmodel.Microsecond)
	tests = []struct {
		name   string
		group  int
		n      int
		now    rtlmodel.Time
		member int
		live   bool
	}{
		{"same group within gap", 2, 8, 11 * rtlmodel.Microsecond, 5, true},
		{"other group aliasing the slot", 3, 8, 11 * rtlmodel.Microsecond, 0, false},
		{"group shrunk below the member", 2, 5, 11 * rtlmodel.Microsecond, 0, false},
		{"a packet from the past", 2, 8, 1 * rtlmodel.Microsecond, 5, true},
		{"exactly the gap after the refresh", 2, 8, 15 * rtlmodel.Microsecond, 5, true},
		{"one ps over the gap", 2, 8, 19*rtlmodel.Microsecond + 1, 0, false},
	}
	for _, tc := range tests {
		m, ok := f.Live(s, tc.group, tc.n, tc.now)
		assert.Equal(t, tc.live, ok, tc.name)
		assert.Equal(t, tc.member, m, tc.name)
	}
	assert.Panics(t, func() { NewFlowletTable(1000, gap) })
}
