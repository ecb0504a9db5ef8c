package nic400g

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// wireSays is what a frame's header bytes say, decoded by the stack's
// decoder, in the terms its descriptor is checked against.
type wireSays struct {
	psn     uint32 // BTH PSN; UET: request PSN, CACK_PSN or NACK PSN
	destQP  uint32 // the BTH's destination QP number (not UET)
	ack     bool   // an ACK (AETH syndrome ACK; UET ACK or ACK_CC)
	nak     bool   // a NAK or trim NACK (AETH NAK; UET NACK)
	cnp     bool
	payload int    // payload bytes
	length  uint64 // the message length a RETH or SES request names
	offset  uint64 // its address: RETH VA, SES buffer offset
	hasAddr bool
	retx    bool // UET: the request's or ACK's retrans flag
	sesOp   uint8
	// UET: the SES header's start and end of message, and after the
	// start its payload length and message offset
	som, eom         bool
	sesPay, sesMsgAt uint32
}

// decodeWire decodes d's headers with the decoder of stack.
func decodeWire(stack HeaderStack, d *packet.Desc) (wireSays, error) {
	var w wireSays
	var tr *packet.Transport
	switch stack {
	case RoCEv2IPv4, RoCEv2IPv6:
		var f packet.RoCEv2
		if err := f.DecodeHeaders(d.Header(), int(d.FrameBytes)); err != nil {
			return w, err
		}
		if want := stack == RoCEv2IPv6; f.IsIPv6() != want {
			return w, fmt.Errorf("IPv6 %v, want %v", f.IsIPv6(), want)
		}
		w.payload = f.PayloadLen
		tr = &f.Transport
	case LeanNative:
		// the whole packet, its payload zeros: PktLen must bound it
		frame := make([]byte, d.FrameBytes)
		copy(frame, d.Header())
		var p packet.IBPacket
		if err := p.Decode(frame); err != nil {
			return w, err
		}
		if p.End() != len(frame) {
			return w, fmt.Errorf("the packet ends at %d of a %d-byte frame", p.End(), len(frame))
		}
		w.payload = p.PayloadLen
		tr = &p.Transport
	case UET:
		// the whole frame but its FCS, its payload zeros: the IP and UDP
		// lengths must bound it
		frame := make([]byte, d.FrameBytes-4)
		copy(frame, d.Header())
		var u packet.UET
		if err := u.Decode(frame); err != nil {
			return w, err
		}
		if end := packet.EthernetLen + int(u.IP4.TotalLength); end != len(frame) && (end > len(frame) || len(frame) > 60) {
			return w, fmt.Errorf("the IP packet ends at %d of a %d-byte frame", end, len(frame))
		}
		w.payload = u.PayloadLen
		switch u.PDSType {
		case packet.PDSTypeAck:
			w.psn, w.ack, w.retx = u.Ack.CAckPSN, true, u.Ack.Retrans
		case packet.PDSTypeAckCC:
			w.psn, w.ack, w.retx = u.AckCC.CAckPSN, true, u.AckCC.Retrans
		case packet.PDSTypeNack:
			w.psn, w.nak = u.Nack.NackPSN, true
		default:
			w.psn, w.retx = u.Req.PSN, u.Req.Retrans
			w.length, w.offset, w.hasAddr = uint64(u.SESStandard.RequestLength), u.SESStandard.BufferOffset, true
			w.sesOp = u.SESStandard.Opcode
			w.som, w.eom = u.SESStandard.SOM, u.SESStandard.EOM
			w.sesPay, w.sesMsgAt = uint32(u.SESStandard.PayloadLength()), u.SESStandard.MessageOffset()
		}
		return w, nil
	}
	w.psn, w.destQP = tr.BTH.PSN, tr.BTH.DestQP
	op := tr.BTH.OpCode
	w.cnp = op.IsCNP()
	if op.HasAETH() && op == packet.RCAcknowledge {
		w.ack = tr.AETH.Syndrome == 0x1F
		w.nak = tr.AETH.Syndrome == 0x60
	}
	if op.HasRETH() {
		w.length, w.offset, w.hasAddr = uint64(tr.RETH.DMALen), tr.RETH.VA, true
	}
	return w, nil
}

// Every frame a NIC sends, on each header stack, decodes with the
// stack's decoder and says on the wire what its descriptor says: its
// destination QP's number (the index plus 2, QPNs 0 and 1 being IB's
// special QPs); a data packet, READ request or response its PSN, payload
// and (where it carries one) address and length, a UET request its SES opcode, retrans flag,
// start and end of message and, after the start, payload length and
// message offset;
// an ACK the PSN before the one expected; a NAK or trim NACK the PSN it
// names. The frames come from WRITEs, SENDs and READs over a wire that
// trims, drops and reorders both ways, so they include resends, NAKs,
// trim NACKs and duplicate ACKs.
func TestEveryFrameSaysOnTheWireWhatItsDescriptorSays(t *testing.T) {
	for _, stack := range []HeaderStack{RoCEv2IPv4, RoCEv2IPv6, LeanNative, UET} {
		counts := map[string]int{}
		for seed := uint64(1); seed <= 16; seed++ {
			ca, cb := DefaultConfig(1), DefaultConfig(2)
			ca.Stack, cb.Stack = stack, stack
			ca.RTO, cb.RTO = 20*rtlmodel.Microsecond, 20*rtlmodel.Microsecond
			e, a, _ := scriptedCable(t, ca, cb, chaosWire(seed, 0.1, 0.1, 0.2), chaosWire(seed+100, 0.1, 0.1, 0.2))
			onFrames(e, func(link string, d *packet.Desc) {
				if link != "wire/a>b/in" && link != "wire/b>a/in" {
					return
				}
				m := d.Meta
				w, err := decodeWire(stack, d)
				require.NoError(t, err, "%v seed %d: %v", stack, seed, d)
				if stack != UET {
					require.Equal(t, m.DestQP+2, w.destQP, "%v: QP i is QPN i+2, past QP0 and QP1 %v", stack, d)
				}
				switch {
				case m.Flags&flagPull != 0:
					counts["pull"]++
				case m.Flags&flagCNP != 0:
					require.True(t, w.cnp || stack == UET, "%v: a CNP", stack)
					counts["cnp"]++
				case m.Flags&(flagNAK|flagTrimNAK) != 0:
					require.True(t, w.nak, "%v: a NAK %v", stack, d)
					require.Equal(t, m.PSN, w.psn, "%v: the PSN a NAK names", stack)
					counts["nak"]++
				case m.Flags&flagAck != 0:
					require.True(t, w.ack, "%v: an ACK %v", stack, d)
					require.Equal(t, uint32(PSN(m.PSN).Sub(1)), w.psn, "%v: an ACK names the last PSN it acknowledges", stack)
					counts["ack"]++
				default:
					require.Equal(t, m.PSN, w.psn, "%v: a request's PSN %v", stack, d)
					if m.Flags&flagData != 0 {
						require.Equal(t, int(m.Payload), w.payload, "%v: payload", stack)
					}
					switch {
					case w.hasAddr && m.Flags&flagReadReq != 0:
						// the range asked for, from the offset, within the message
						require.Equal(t, m.Offset, w.offset, "%v: the address %v", stack, d)
						require.Positive(t, w.length, "%v: %v", stack, d)
						require.LessOrEqual(t, w.offset+w.length, m.Length, "%v: the range asked for %v", stack, d)
					case w.hasAddr:
						require.Equal(t, m.Length, w.length, "%v: the message length %v", stack, d)
						require.Equal(t, m.Offset, w.offset, "%v: the address %v", stack, d)
					}
					if stack == UET {
						require.Equal(t, m.Flags&flagRetx != 0, w.retx, "%v: retrans %v", stack, d)
						want := packet.SESOpWrite
						switch {
						case m.Flags&flagReadReq != 0:
							want = packet.SESOpRead
						case m.Flags&flagReadResp != 0:
							want = packet.SESOpNoOp
						case m.Flags&flagSend != 0:
							want = packet.SESOpSend
						}
						require.Equal(t, want, w.sesOp, "%v: SES opcode %v", stack, d)
						switch {
						case m.Flags&flagReadReq != 0:
							require.True(t, w.som && w.eom, "%v: a read request is a message of its own %v", stack, d)
						default:
							require.Equal(t, m.Offset == 0, w.som, "%v: SOM %v", stack, d)
							require.Equal(t, m.Offset+uint64(m.Payload) >= m.Length, w.eom, "%v: EOM %v", stack, d)
							if !w.som {
								require.Equal(t, m.Payload, w.sesPay, "%v: SES payload length %v", stack, d)
								require.Equal(t, uint32(m.Offset), w.sesMsgAt, "%v: SES message offset %v", stack, d)
							}
						}
					}
					if m.Flags&flagRetx != 0 {
						counts["resent"]++
					}
					counts["request"]++
				}
			})
			mtu := uint64(ca.MTU)
			attachDriver(t, e, a, []WorkRequest{
				{QP: 3, Dst: 2, DestQP: 5, Bytes: 5*mtu + 100, Posted: 1000},
				{QP: 3, Dst: 2, DestQP: 5, Op: OpSend, Bytes: 3 * mtu, Posted: 1000},
				{QP: 3, Dst: 2, DestQP: 5, Op: OpRead, Bytes: 4 * mtu, Posted: 1000},
			})
			require.NoError(t, e.Run(10*rtlmodel.Millisecond))
		}
		t.Logf("%v: %v", stack, counts)
		kinds := []string{"request", "resent", "ack", "nak"}
		if stack == RoCEv2IPv6 {
			kinds = kinds[:3] // its read requests cut to 64 bytes lose their PSN, and no NACK names it
		}
		for _, kind := range kinds {
			require.Positive(t, counts[kind], "%v: frames of kind %s seen (%v)", stack, kind, counts)
		}
	}
}
