package nic400g

import (
	"math"
	"testing"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A message's credit request past what a request field holds (4 GiB) is
// asked for in parts, on the packets after the first, rather than cut to
// its low 32 bits; and a retransmission carries its packet's request as
// it was first sent, asking for nothing more.
func TestEQDSAskOfAMessagePast4GiB(t *testing.T) {
	p := DefaultEQDSParams(400_000_000_000, 3*rtlmodel.Microsecond)
	q := &qpState{eq: NewEQDSSender(&p)}
	m := &message{wr: WorkRequest{Bytes: 5 << 30}}
	want := m.wr.Bytes - p.SpeculativeBytes

	first := sentPkt{offset: 0}
	q.eqdsAsk(&first, m, false)
	require.Equal(t, uint32(math.MaxUint32), first.ask)
	require.True(t, q.eq.Reclaiming())
	second := sentPkt{offset: 4096}
	q.eqdsAsk(&second, m, false)
	require.Equal(t, want, uint64(first.ask)+uint64(second.ask))
	require.False(t, q.eq.Reclaiming())
	require.Equal(t, want, q.eq.Owed())

	again := second
	q.eqdsAsk(&again, m, true)
	require.Equal(t, second.ask, again.ask)
	require.Equal(t, want, q.eq.Owed(), "a retransmission asks for nothing more")
}
