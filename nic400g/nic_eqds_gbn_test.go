package nic400g

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// Under EQDS a go-back-N receiver that drops the packets arriving behind
// a trimmed one does for each what it does for a trimmed packet: it
// NACKs it and pulls for its payload, and the sender resends each once,
// against credit. With the fourth packet of a 16-packet message trimmed
// on its first try, the packets behind it that arrive before its resend
// are dropped; the sender resends the trimmed packet and each dropped one
// once, and every byte it sends is paid for by the speculative allowance
// or pulled credit. (Rewinding at the trim NACK, it resent every packet
// behind the trimmed one without credit, and again at the sequence NAK.)
func TestEQDSGoBackNResendsWhatItDroppedAgainstPulls(t *testing.T) {
	ca, cb := DefaultConfig(1), DefaultConfig(2)
	ca.CC, cb.CC = "eqds", "eqds"
	ca.Recovery, cb.Recovery = GoBackN, GoBackN
	const trimmedPSN = 3
	trimmed := false
	retx := 0
	e, a, b, m := trimmedBackToBack(t, ca, cb, func(d *packet.Desc, _ rtlmodel.Time) wireAct {
		if d.Meta.Flags&flagRetx != 0 {
			retx++
		}
		if d.Meta.PSN == trimmedPSN && !trimmed {
			trimmed = true
			return wireTrim
		}
		return wirePass
	})
	var done []Completion
	var sender *EQDSSender
	a.OnComplete = func(c Completion) {
		done = append(done, c)
		sender = a.qps[c.QP].eq
	}
	attachDriver(t, e, a, []WorkRequest{{QP: 3, Dst: 2, DestQP: 5, Bytes: 16 * 4096, Posted: 1000}})
	require.NoError(t, e.Run(rtlmodel.Millisecond))
	require.Len(t, done, 1)
	require.Equal(t, StatusOK, done[0].Status)
	require.Equal(t, 1, m.trims)
	dropped := counter(t, e, "nicB/rx_ooo_dropped")
	require.GreaterOrEqual(t, dropped, uint64(4), "packets behind the trimmed one arrived before its resend")
	require.Equal(t, 1+int(dropped), retx, "the trimmed packet and each dropped one resent once")
	require.Equal(t, uint64(retx), counter(t, e, "nicA/retransmits"))
	require.Zero(t, counter(t, e, "nicB/rx_duplicate"))
	require.Zero(t, counter(t, e, "nicA/timeouts"))
	require.Equal(t, uint64(1), counter(t, e, "nicA/trim_nack_received"), "one trim")
	require.Equal(t, dropped+1, counter(t, e, "nicA/nak_received"), "a NACK for each packet dropped out of order, and the sequence NAK for the hole")
	c := sender.Counts()
	require.Equal(t, c.Sent, c.Spent, "every byte sent against the allowance or pulled credit")
	require.Zero(t, b.EQDSPacer().Pending(5), "no credit left owed")
}
