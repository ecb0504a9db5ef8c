package nic400g

import (
	"encoding/binary"
	"testing"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/stretchr/testify/require"
)

// A QP pair's control frames (ACKs, NAKs, CNPs; under EQDS pulls and trim
// NACKs) carry the pair's flow entropy in their UDP source port, the value
// its data takes on a fixed path, so that a switch hashing the entropy
// spreads the control frames of different QP pairs over paths instead of
// sending all of them up one.
func TestControlFramesCarryTheirQPPairsEntropy(t *testing.T) {
	for _, c := range []struct {
		cc    string
		stack HeaderStack
		flags []uint16
	}{
		{"eqds", RoCEv2IPv4, []uint16{flagPull, flagTrimNAK, flagAck}},
		{"eqds", UET, []uint16{flagPull, flagTrimNAK, flagAck}},
		{"dcqcn", RoCEv2IPv4, []uint16{flagAck, flagNAK, flagCNP}},
		{"dcqcn", UET, []uint16{flagAck, flagNAK, flagCNP}},
	} {
		cc, stack := c.cc, c.stack
		cfg := DefaultConfig(2)
		cfg.CC, cfg.Stack = cc, stack
		e := rtlmodel.NewEngine(rtlmodel.Options{Seed: 1})
		n, err := New(e, "nic", cfg, &packet.DescPool{})
		require.NoError(t, err)
		ports := map[uint16]bool{}
		for _, pair := range [][2]uint32{{5, 3}, {6, 3}, {7, 9}} {
			q := n.qp(pair[0])
			q.peer, q.peerQP = 1, pair[1]
			want := NewRoCEv2FixedPath(pair[0], pair[1]).Entropy
			for _, flags := range c.flags {
				d := n.sendCtrl(q, 0, flags, 0, 0)
				sport := binary.BigEndian.Uint16(d.Header()[packet.EthernetLen+packet.IPv4MinLen:])
				require.Equal(t, want, sport, "%s over %v: QP %d to %d, flags %#x", cc, stack, pair[0], pair[1], flags)
			}
			ports[want] = true
		}
		require.Len(t, ports, 3, "each QP pair a path of its own")
	}
}
