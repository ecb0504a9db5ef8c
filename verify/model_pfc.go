package verify

import (
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/packet"
	"github.com/fabricmodel/fabricmodel/switchasic"
)

func init() {
	register(&Block{
		Name: "pfc",
		Summary: "a switch port's PFC frame generator: XOFF (0xFFFF quanta) and XON (0) for the classes asked, " +
			"as a MAC control frame padded to 60 bytes: switchasic.PFCHeader, packet.PFC",
		Params: []ParamSpec{
			{"src_mac", 0x02FF00000003, "the port's MAC, the 48-bit value as it reads left to right", 0, 1<<48 - 1},
		},
		Input: PortSpec{Kind: Beat, Doc: "one request per valid cycle", Fields: []FieldSpec{
			{"xoff", 8, "classes to pause, bit c for class c"},
			{"xon", 8, "classes to resume"},
		}},
		Output: PortSpec{Kind: Frame, Doc: "the frame from the destination MAC to the last byte of the pad, without the FCS (60 bytes)"},
		New: func(p Params) (Model, error) {
			m := &pfcModel{}
			putMAC(m.src[:], p["src_mac"])
			return m, nil
		},
		Stimulus: func(r *rand.Rand, _ Params, n int) []Txn {
			out := make([]Txn, n)
			for i := range out {
				out[i] = beat(uint64(r.IntN(256)), uint64(r.IntN(256)))
			}
			return out
		},
	})
}

type pfcModel struct{ src [6]byte }

// Reset implements Model: the generator keeps no state.
func (*pfcModel) Reset() {}

// Apply implements Model: one frame per request.
func (m *pfcModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	h := switchasic.PFCHeader(m.src, uint8(in.Fields[0]), uint8(in.Fields[1]))
	b := make([]byte, packet.EthernetMinFrame)
	if _, err := h.Encode(b); err != nil {
		return out, err
	}
	return append(out, Txn{Data: b}), nil
}
