package mesh

import (
	"strconv"

	"github.com/fabricmodel/fabricmodel/rtlmodel"
)

// Flit is a single-flit packet travelling through the mesh.
type Flit struct {
	Src, Dst int           // endpoint indexes
	Seq      uint32        // per-source sequence number
	Born     rtlmodel.Time // injection time
}

// String renders the flit for traces ("src>dst#seq@born").
func (f Flit) String() string {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, int64(f.Src), 10)
	b = append(b, '>')
	b = strconv.AppendInt(b, int64(f.Dst), 10)
	b = append(b, '#')
	b = strconv.AppendUint(b, uint64(f.Seq), 10)
	b = append(b, '@')
	b = strconv.AppendUint(b, uint64(f.Born), 10)
	return string(b)
}

func formatFlit(f Flit) string { return f.String() }
