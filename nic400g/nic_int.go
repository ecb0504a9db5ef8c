package nic400g

import "github.com/fabricmodel/fabricmodel/packet"

// CollectsINT reports whether the data packets of a NIC of configuration
// cfg collect in-band telemetry, which they do when its congestion
// control reads it (HPCC): each then carries packet.INTLen bytes more on
// the wire (reserveINT).
func CollectsINT(cfg Config) (bool, error) {
	f, err := newCCFactory(&cfg)
	if err != nil {
		return false, err
	}
	_, ok := f().(intReader)
	return ok, nil
}

// reserveINT makes a data packet collect HPCC in-band telemetry when the
// NIC's congestion control reads it: each switch egress pushes a hop
// record (packet.Desc.HasINT). The stack travels beside the header bytes,
// in the descriptor's tail, and the sender reserves its whole length on
// the wire, 42 bytes for five hops and the hop count, as HPCC's fixed INT
// header takes (FACTS 2.2 [R15]).
func (n *NIC) reserveINT(d *packet.Desc) {
	if n.collectINT {
		d.HasINT = true
		d.FrameBytes += packet.INTLen
	}
}

// echoINT puts the telemetry the last data packet collected on the
// acknowledgement d, for the sender's congestion control (flagINT). The
// ACK does not collect telemetry itself: switches push hop records only
// onto packets with HasINT, so the sender reads the data path's hops
// alone. The stack takes its 42 bytes on the ACK's wire as well.
func echoINT(d *packet.Desc, in *packet.INT) {
	d.Meta.Flags |= flagINT
	d.EditTail().INT = *in
	d.FrameBytes += packet.INTLen
}

// countINT counts an echoed INT stack the congestion control gets.
func (n *NIC) countINT(in *packet.INT) {
	n.st.intAcks.Inc()
	n.st.intHops.Add(uint64(in.NHop))
}
