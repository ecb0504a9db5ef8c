package verify

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

func init() {
	register(&Block{
		Name:    "fcs",
		Summary: "Ethernet FCS (CRC-32, IEEE) over a frame: packet.FCS",
		Params: []ParamSpec{
			{"min_len", 60, "shortest frame the stimulus draws, bytes", 0, switchasic.MaxFrameBytes},
			{"max_len", 200, "longest frame the stimulus draws, bytes", 0, switchasic.MaxFrameBytes},
		},
		Check:  lengthsInOrder("fcs"),
		Input:  PortSpec{Kind: Frame, Doc: "a frame from the destination MAC to the last byte of the pad, without the FCS"},
		Output: PortSpec{Kind: Beat, Doc: "the frame's FCS", Fields: []FieldSpec{{"fcs", 32, "CRC-32 value; on the wire least-significant byte first"}}},
		New:    func(Params) (Model, error) { return fcsModel{}, nil },
		Stimulus: func(r *rand.Rand, p Params, n int) []Txn {
			return frameStimulus(r, n, int(p["min_len"]), int(p["max_len"]), nil)
		},
	})
	register(&Block{
		Name:    "icrc",
		Summary: "RoCEv2 invariant CRC over IP, UDP, BTH and payload with the variant fields masked: packet.RoCEv2ICRC",
		Params: []ParamSpec{
			{"min_len", roceHeaderLen, "shortest packet the stimulus draws, bytes; IPv4, UDP and BTH take 40", roceHeaderLen, switchasic.MaxFrameBytes},
			{"max_len", 300, "longest packet the stimulus draws, bytes", roceHeaderLen, switchasic.MaxFrameBytes},
		},
		Check:  lengthsInOrder("icrc"),
		Input:  PortSpec{Kind: Frame, Doc: "a RoCEv2 packet from the first byte of the IP header to the last payload byte, without the ICRC"},
		Output: PortSpec{Kind: Beat, Doc: "the packet's ICRC", Fields: []FieldSpec{{"icrc", 32, "ICRC value; on the wire least-significant byte first"}}},
		New:    func(Params) (Model, error) { return icrcModel{}, nil },
		Stimulus: func(r *rand.Rand, p Params, n int) []Txn {
			return frameStimulus(r, n, int(p["min_len"]), int(p["max_len"]), roceHeader)
		},
	})
}

type fcsModel struct{}

// Reset implements Model: the state after reset.
func (fcsModel) Reset() {}

// Apply implements Model: one output, the FCS of the frame.
func (fcsModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	return append(out, beat(uint64(packet.FCS(in.Data)))), nil
}

type icrcModel struct{}

// Reset implements Model: the state after reset.
func (icrcModel) Reset() {}

// Apply implements Model: one output, the ICRC of the packet.
func (icrcModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	c, err := packet.RoCEv2ICRC(in.Data)
	if err != nil {
		return out, err
	}
	return append(out, beat(uint64(c))), nil
}

// lengthsInOrder is the Check of a block whose stimulus draws lengths
// from min_len to max_len: the shortest may not exceed the longest.
func lengthsInOrder(block string) func(p Params) error {
	return func(p Params) error {
		if p["min_len"] > p["max_len"] {
			return fmt.Errorf("%s: min_len %d above max_len %d", block, p["min_len"], p["max_len"])
		}
		return nil
	}
}

// frameStimulus draws n frames of random bytes with lengths in [lo, hi]
// (lo <= hi); fix, when given, shapes the bytes of each frame.
func frameStimulus(r *rand.Rand, n, lo, hi int, fix func([]byte)) []Txn {
	out := make([]Txn, n)
	for i := range out {
		b := make([]byte, lo+r.IntN(hi-lo+1))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		if fix != nil {
			fix(b)
		}
		out[i] = Txn{Data: b}
	}
	return out
}

// roceHeaderLen is the IPv4, UDP and BTH headers roceHeader writes.
const roceHeaderLen = 40

// roceHeader turns the first 40 bytes of b into IPv4 (IHL 5, protocol
// UDP, total length), UDP (port 4791) and BTH headers.
func roceHeader(b []byte) {
	b[0] = 0x45
	binary.BigEndian.PutUint16(b[2:], uint16(len(b)+packet.ICRCLen))
	b[9] = 17
	binary.BigEndian.PutUint16(b[22:], 4791)
	binary.BigEndian.PutUint16(b[24:], uint16(len(b)-20+packet.ICRCLen))
}
