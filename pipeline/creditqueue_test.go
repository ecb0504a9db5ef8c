package pipeline

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

func TestCreditQueueBytes(t *testing.T) {
	q := NewCreditQueue[int](CreditQueueConfig{Capacity: 3000, Credits: 2000})
	require.True(t, q.Push(1, 1500))
	require.True(t, q.Push(2, 1000))
	require.False(t, q.CanPush(501))
	require.False(t, q.Push(3, 501), "3001 bytes do not fit in 3000")
	require.True(t, q.Push(3, 500))
	require.EqualValues(t, 3000, q.Used())

	v, b, ok := q.Pop()
	require.True(t, ok)
	require.Equal(t, 1, v)
	require.EqualValues(t, 1500, b)
	require.EqualValues(t, 500, q.Credits())
	require.False(t, q.CanSend(), "1000 bytes wait for credits")
	_, _, ok = q.Pop()
	require.False(t, ok)
	require.Equal(t, 2, q.Len(), "a refused pop changes nothing")
	q.Return(500)
	v, _, ok = q.Pop()
	require.True(t, ok)
	require.Equal(t, 2, v)
	v, b, ok = q.Discard()
	require.True(t, ok)
	require.Equal(t, 3, v)
	require.EqualValues(t, 500, b)
	require.EqualValues(t, 0, q.Credits(), "a discard spends no credits")
	require.Zero(t, q.Used())
	_, _, ok = q.Head()
	require.False(t, ok)
	_, _, ok = q.Discard()
	require.False(t, ok)
	q.Return(2000)
	require.Panics(t, func() { q.Return(1) }, "more credits than the downstream buffer")
}

func TestCreditQueueCells(t *testing.T) {
	q := NewCreditQueue[string](CreditQueueConfig{Capacity: 10, CellBytes: 64, Credits: 4})
	require.EqualValues(t, 1, q.Units(1))
	require.EqualValues(t, 1, q.Units(64))
	require.EqualValues(t, 2, q.Units(65))
	require.True(t, q.Push("a", 65))  // 2 cells
	require.True(t, q.Push("b", 192)) // 3 cells
	require.True(t, q.Push("c", 320)) // 5 cells
	require.False(t, q.Push("d", 1))  // 11 > 10
	require.EqualValues(t, 10, q.Used())
	_, _, ok := q.Pop()
	require.True(t, ok)
	require.EqualValues(t, 2, q.Credits())
	require.False(t, q.CanSend(), "3 cells, 2 credits")
	q.Return(2)
	h, b, _ := q.Head()
	require.Equal(t, "b", h)
	require.EqualValues(t, 192, b)
	require.True(t, q.CanSend())
}

func TestCreditQueueOrderGrowthStatsAllocs(t *testing.T) {
	q := NewCreditQueue[int](CreditQueueConfig{})
	reg := rtlmodel.NewRegistry()
	q.Observe(reg, "tm/q0")
	for i := range 1000 {
		require.True(t, q.Push(i, uint32(64+i)))
	}
	require.EqualValues(t, 1000, q.Len())
	for i := range 1000 {
		v, b, ok := q.Pop()
		require.True(t, ok, "no flow control: always sendable")
		require.Equal(t, i, v)
		require.EqualValues(t, 64+i, b)
	}
	m, ok := reg.Lookup("tm/q0/occupancy")
	require.True(t, ok)
	require.EqualValues(t, 1000*64+999*1000/2, m.(*rtlmodel.Gauge).Max())
	m, _ = reg.Lookup("tm/q0/sent")
	require.EqualValues(t, 1000, m.(*rtlmodel.Counter).Value())

	c := NewCreditQueue[int](CreditQueueConfig{Capacity: 1 << 20, CellBytes: 256, Credits: 64})
	c.Observe(reg, "tm/q1")
	allocs := testing.AllocsPerRun(1000, func() {
		for i := range 8 {
			c.Push(i, 1500)
		}
		for c.CanSend() {
			_, b, _ := c.Pop()
			c.Return(c.Units(b))
		}
	})
	require.Zero(t, allocs, "steady state allocates nothing")
}
