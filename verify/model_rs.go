package verify

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/fabricmodel/fabricmodel/serdes"
)

func init() {
	register(&Block{
		Name:    "rs544",
		Summary: "RS(544,514) KP4 encoder: serdes.RS544().Encode; the output is the 30 parity symbols",
		Input: PortSpec{Kind: Frame, Doc: fmt.Sprintf("a message of %d 10-bit symbols, each in two bytes, least-significant byte first (%d bytes)",
			serdes.RS544K, 2*serdes.RS544K)},
		Output: PortSpec{Kind: Frame, Doc: fmt.Sprintf("the %d parity symbols in the same packing (%d bytes)",
			serdes.RS544N-serdes.RS544K, 2*(serdes.RS544N-serdes.RS544K))},
		New: func(Params) (Model, error) {
			return &rsModel{msg: make([]uint16, serdes.RS544K), cw: make([]uint16, serdes.RS544N)}, nil
		},
		Stimulus: func(r *rand.Rand, _ Params, n int) []Txn {
			out := make([]Txn, n)
			for i := range out {
				b := make([]byte, 2*serdes.RS544K)
				for j := 0; j < len(b); j += 2 {
					binary.LittleEndian.PutUint16(b[j:], uint16(r.IntN(serdes.GFSize)))
				}
				out[i] = Txn{Data: b}
			}
			return out
		},
	})
}

type rsModel struct{ msg, cw []uint16 }

// Reset implements Model: the state after reset.
func (m *rsModel) Reset() {}

// Apply implements Model: one output, the parity symbols of the message.
func (m *rsModel) Apply(in *Txn, out []Txn) ([]Txn, error) {
	if len(in.Data) != 2*serdes.RS544K {
		return out, fmt.Errorf("rs544: message of %d bytes, want %d", len(in.Data), 2*serdes.RS544K)
	}
	for i := range m.msg {
		s := binary.LittleEndian.Uint16(in.Data[2*i:])
		if s >= serdes.GFSize {
			return out, fmt.Errorf("rs544: symbol %d is %#x, wider than 10 bits", i, s)
		}
		m.msg[i] = s
	}
	serdes.RS544().Encode(m.msg, m.cw)
	par := m.cw[serdes.RS544K:]
	b := make([]byte, 2*len(par))
	for i, s := range par {
		binary.LittleEndian.PutUint16(b[2*i:], s)
	}
	return append(out, Txn{Data: b}), nil
}
