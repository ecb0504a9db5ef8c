package verify

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/packet"
)

// ipv4Tuple is the input format shared by the hash blocks.
var ipv4Tuple = []FieldSpec{
	{"src", 32, "IPv4 source address"},
	{"dst", 32, "IPv4 destination address"},
	{"sport", 16, "L4 source port"},
	{"dport", 16, "L4 destination port"},
}

func init() {
	register(&Block{
		Name: "ecmp",
		Summary: "ECMP hash unit: packet.ECMPHasher over the IPv4 5-tuple (packet.Fields5Tuple), " +
			"then Select over the group's members (multiply-shift)",
		Params: []ParamSpec{
			{"func", uint64(packet.HashCRC32), "hash function, a packet.HashFunc (1 crc32, 2 crc32c, 3 crc16-ccitt-false, 4 crc16-arc, 6 toeplitz, 7 xor-fold)",
				uint64(packet.HashCRC32), uint64(packet.HashXORFold)},
			{"seed", 0, "per-device hash seed (ECMPConfig.Seed)", 0, math.MaxUint32},
			{"symmetric", 0, "1: order the endpoints before hashing", 0, 1},
			{"members", 8, "members in the ECMP group", 1, math.MaxUint16},
		},
		Check: func(p Params) error {
			if packet.HashFunc(p["func"]) == packet.HashCRC16 {
				return fmt.Errorf("ecmp: func %d, a CRC-16 of a polynomial the block has no parameter for; use 1, 2, 3, 4, 6 or 7", p["func"])
			}
			return nil
		},
		Input: PortSpec{Kind: Beat, Doc: "one 5-tuple per valid cycle",
			Fields: append(append([]FieldSpec(nil), ipv4Tuple...), FieldSpec{"proto", 8, "IP protocol"})},
		Output: PortSpec{Kind: Beat, Doc: "hash and chosen member of each 5-tuple",
			Fields: []FieldSpec{{"hash", 32, "hash value in the low Bits() bits"}, {"member", 16, "selected member"}}},
		New:      newECMPModel,
		Stimulus: tupleStimulus(true),
	})
	register(&Block{
		Name:    "toeplitz",
		Summary: "Toeplitz RSS hash of the IPv4 4-tuple with the Microsoft RSS key: packet.Toeplitz.HashIPv4Ports",
		Params:  []ParamSpec{{"symmetric", 0, "1: packet.NewSymmetricToeplitz (endpoints ordered first)", 0, 1}},
		Input:   PortSpec{Kind: Beat, Doc: "one 4-tuple per valid cycle", Fields: ipv4Tuple},
		Output:  PortSpec{Kind: Beat, Doc: "the RSS hash", Fields: []FieldSpec{{"hash", 32, "Toeplitz hash"}}},
		New:     newToeplitzModel,
		Stimulus: func(r *rand.Rand, p Params, n int) []Txn {
			return tupleStimulus(false)(r, p, n)
		},
	})
}

func tupleStimulus(proto bool) func(r *rand.Rand, p Params, n int) []Txn {
	return func(r *rand.Rand, _ Params, n int) []Txn {
		out := make([]Txn, n)
		for i := range out {
			t := beat(uint64(r.Uint32()), uint64(r.Uint32()), uint64(r.IntN(1<<16)), uint64(r.IntN(1<<16)))
			if proto {
				t.Fields = append(t.Fields, uint64([]uint8{6, 17}[r.IntN(2)]))
			}
			out[i] = t
		}
		return out
	}
}

type ecmpModel struct {
	h       *packet.ECMPHasher
	members int
}

func newECMPModel(p Params) (Model, error) {
	if p["members"] == 0 || p["members"] > 65535 {
		return nil, fmt.Errorf("ecmp: members %d; use 1 to 65535", p["members"])
	}
	if p["func"] > 255 || p["seed"] > 0xffffffff {
		return nil, fmt.Errorf("ecmp: func %d or seed %#x out of range", p["func"], p["seed"])
	}
	h, err := packet.NewECMPHasher(packet.ECMPConfig{Fields: packet.Fields5Tuple, Func: packet.HashFunc(p["func"]),
		Seed: uint32(p["seed"]), Symmetric: p["symmetric"] != 0})
	if err != nil {
		return nil, err
	}
	return &ecmpModel{h: h, members: int(p["members"])}, nil
}

// Reset implements Model: the state after reset.
func (m *ecmpModel) Reset() {}

// Apply implements Model: one output, the hash and member of the 5-tuple.
func (m *ecmpModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	var k packet.FlowKey
	f := in.Fields
	k.SetIPv4(be4(f[0]), be4(f[1]))
	k.SrcPort, k.DstPort, k.Protocol = uint16(f[2]), uint16(f[3]), uint8(f[4])
	h := m.h.Hash(&k)
	return append(out, beat(uint64(h), uint64(m.h.Select(h, m.members)))), nil
}

type toeplitzModel struct{ tz *packet.Toeplitz }

func newToeplitzModel(p Params) (Model, error) {
	mk := packet.NewToeplitz
	if p["symmetric"] != 0 {
		mk = packet.NewSymmetricToeplitz
	}
	tz, err := mk(packet.MicrosoftRSSKey[:])
	if err != nil {
		return nil, err
	}
	return &toeplitzModel{tz: tz}, nil
}

// Reset implements Model: the state after reset.
func (m *toeplitzModel) Reset() {}

// Apply implements Model: one output, the RSS hash of the 4-tuple.
func (m *toeplitzModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	f := in.Fields
	h := m.tz.HashIPv4Ports(be4(f[0]), be4(f[1]), uint16(f[2]), uint16(f[3]))
	return append(out, beat(uint64(h))), nil
}

// be4 returns the low 32 bits of v as a big-endian address.
func be4(v uint64) [4]byte { return [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }
