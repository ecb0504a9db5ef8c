package fabric

import (
	"errors"
	"fmt"

	"github.com/fabricmodel/fabricmodel/switchasic"
)

// trimBytes is what a trimmed packet keeps: switch.trim_bytes, or by
// default the switches' 64 bytes (FACTS 2.5), or more where the NICs'
// headers take more to hold the PSN (74 over RoCEv2 on IPv6), so that a
// trimmed header still says which packet it was.
func (s *Scenario) trimBytes() int {
	if s.Switch.TrimBytes > 0 {
		return s.Switch.TrimBytes
	}
	return max(switchasic.DefaultTrimConfig().TrimBytes, s.nicConfig(0, 1).Stack.PSNBytes())
}

// trimCutsThePSN is a note when switch.trim_bytes is fewer bytes than
// hold a packet's PSN (74 over RoCEv2 on IPv6, 54 over IPv4 and UET).
// The receiving NIC cannot tell which packet such a header was and drops
// it (rx_trim_unreadable), so a trim is a loss its sender finds only by
// its timeout.
func (s *Scenario) trimCutsThePSN() error {
	if !s.Switch.Trimming || s.Switch.TrimBytes == 0 {
		return nil
	}
	keep := s.Switch.TrimBytes
	stack := s.nicConfig(0, 1).Stack
	need, names := stack.PSNBytes(), stack.PSNHeaders()
	if keep >= need {
		return nil
	}
	return keyed("switch.trim_bytes", errors.New(fmt.Sprint("note: a trimmed packet keeps its first ", keep, " bytes, short of the ", need,
		" bytes of ", names, " that hold its PSN: the receiving NIC cannot tell which packet it was and drops it, ",
		"so a trim is a loss found by the timeout. Set switch.trim_bytes to ", need, " or more")))
}
