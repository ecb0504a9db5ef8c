package nic400g

import (
	"encoding/binary"
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// Under EQDS a QP pair's pulls, trim NACKs and ACKs carry the pair's flow
// entropy in their UDP source port, the value its data takes on a fixed
// path, so that a switch hashing the entropy spreads the control frames
// of different QP pairs over paths instead of sending all of them up one.
func TestEQDSControlFramesCarryTheirQPPairsEntropy(t *testing.T) {
	for _, stack := range []HeaderStack{RoCEv2IPv4, UET} {
		cfg := DefaultConfig(2)
		cfg.CC, cfg.Stack = "eqds", stack
		e := rtlmodel.NewEngine(rtlmodel.Options{Seed: 1})
		n, err := New(e, "nic", cfg, &packet.DescPool{})
		require.NoError(t, err)
		ports := map[uint16]bool{}
		for _, pair := range [][2]uint32{{5, 3}, {6, 3}, {7, 9}} {
			q := n.qp(pair[0])
			q.peer, q.peerQP = 1, pair[1]
			want := NewRoCEv2FixedPath(pair[0], pair[1]).Entropy
			for _, flags := range []uint16{flagPull, flagTrimNAK, flagAck} {
				d := n.sendCtrl(q, 0, flags, 0, 0)
				sport := binary.BigEndian.Uint16(d.Header()[packet.EthernetLen+packet.IPv4MinLen:])
				require.Equal(t, want, sport, "%v: QP %d to %d, flags %#x", stack, pair[0], pair[1], flags)
			}
			ports[want] = true
		}
		require.Len(t, ports, 3, "each QP pair a path of its own")
	}
}
