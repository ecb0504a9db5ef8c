package fabric

import (
	"errors"
	"fmt"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

// psnHeaders is how many leading bytes of a data packet the NICs frame on
// stack take to hold its PSN, and what they are: Ethernet, IP and UDP,
// then the BTH (RoCEv2) or the PDS request header (UET), which carry the
// destination QP or PDC and the PSN.
func psnHeaders(stack nic400g.HeaderStack) (bytes int, names string) {
	switch stack {
	case nic400g.RoCEv2IPv6:
		return packet.EthernetLen + packet.IPv6Len + packet.UDPLen + packet.BTHLen, "Ethernet, IPv6, UDP and BTH"
	case nic400g.UET:
		return packet.EthernetLen + packet.IPv4MinLen + packet.UDPLen + packet.PDSRequestLen, "Ethernet, IPv4, UDP and PDS"
	}
	return packet.EthernetLen + packet.IPv4MinLen + packet.UDPLen + packet.BTHLen, "Ethernet, IPv4, UDP and BTH"
}

// trimCutsThePSN is a note when the switches trim packets to fewer bytes
// than hold their PSN: the default 64 over RoCEv2 on IPv6, whose headers
// up to the BTH's end take 74. A real receiver could not tell which
// packet such a header was, nor NACK it; the model's NICs read the QP and
// PSN from the packet's descriptor and NACK it all the same.
func (s *Scenario) trimCutsThePSN() error {
	if !s.Switch.Trimming {
		return nil
	}
	keep := switchasic.DefaultTrimConfig().TrimBytes
	key := "switch.trimming"
	if s.Switch.TrimBytes > 0 {
		keep, key = s.Switch.TrimBytes, "switch.trim_bytes"
	}
	need, names := psnHeaders(s.nicConfig(0, 1).Stack)
	if keep >= need {
		return nil
	}
	return keyed(key, errors.New(fmt.Sprint("note: a trimmed packet keeps its first ", keep, " bytes, short of the ", need,
		" bytes of ", names, " that hold its PSN: a real receiver could not tell which packet it was, and the model's NICs ",
		"read the PSN from the packet's descriptor to NACK it. Set switch.trim_bytes to ", need, " or more")))
}
