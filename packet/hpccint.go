package packet

// HPCC INT sizes (FACTS 2.2 [R15]).
const (
	// INTHopLen is one per-hop INT record.
	INTHopLen = 8
	// INTMaxHops is the number of hop records the header has room for.
	INTMaxHops = 5
	// INTLen is the whole INT header: five hop records and a 16-bit hop count.
	INTLen = INTMaxHops*INTHopLen + 2
	// INTByteUnit is the txBytes unit in bytes.
	INTByteUnit = 128
	// INTQLenUnit is the qLen unit in bytes.
	INTQLenUnit = 80
)

// intLineRates maps the 3-bit line-rate code to bits per second; codes 5..7
// are unassigned (FACTS 2.2 [R15]).
var intLineRates = [8]uint64{25e9, 50e9, 100e9, 200e9, 400e9}

// INTHop is one HPCC in-band telemetry record (FACTS 2.2 [R15]): line-rate
// code 3b, timestamp 24b (ns, wraps), txBytes 20b (128 B units), qLen 17b
// (80 B units). On the wire the record is one big-endian 64-bit word with
// the fields in that order from the most significant bit; the HPCC artifact
// stores the same bit-field in host order, so the byte order is this
// model's choice.
type INTHop struct {
	LineRate uint8  // 3-bit code: 0=25G 1=50G 2=100G 3=200G 4=400G
	Time     uint32 // 24 bits, ns
	Bytes    uint32 // 20 bits, units of 128 B
	QLen     uint32 // 17 bits, units of 80 B
}

// LineRateBps is the line rate the code stands for, or 0 for codes 5..7.
func (h *INTHop) LineRateBps() uint64 { return intLineRates[h.LineRate&7] }

// TxBytes is the transmitted byte counter in bytes.
func (h *INTHop) TxBytes() uint64 { return uint64(h.Bytes) * INTByteUnit }

// QueueBytes is the queue length in bytes.
func (h *INTHop) QueueBytes() uint64 { return uint64(h.QLen) * INTQLenUnit }

func (h *INTHop) word() (uint64, error) {
	for _, f := range [...]struct {
		name string
		v    uint64
		bits uint
	}{{"LineRate", uint64(h.LineRate), 3}, {"Time", uint64(h.Time), 24},
		{"Bytes", uint64(h.Bytes), 20}, {"QLen", uint64(h.QLen), 17}} {
		if err := tooWide("INT", f.name, f.v, f.bits); err != nil {
			return 0, err
		}
	}
	return uint64(h.LineRate)<<61 | uint64(h.Time)<<37 | uint64(h.Bytes)<<17 | uint64(h.QLen), nil
}

func (h *INTHop) setWord(w uint64) {
	h.LineRate = uint8(w >> 61)
	h.Time = uint32(w >> 37 & (1<<24 - 1))
	h.Bytes = uint32(w >> 17 & (1<<20 - 1))
	h.QLen = uint32(w & (1<<17 - 1))
}

// INT is the HPCC INT hop stack: INTMaxHops record slots and the count of
// slots in use, 42 bytes in all (FACTS 2.2 [R15]). Slots beyond NHop are
// carried as they are, so encode(decode(b)) == b.
type INT struct {
	Hops [INTMaxHops]INTHop
	NHop uint16 // records in use, 0..5
}

// Push appends a hop record; it reports false when all slots are used.
func (h *INT) Push(hop INTHop) bool {
	if h.NHop >= INTMaxHops {
		return false
	}
	h.Hops[h.NHop] = hop
	h.NHop++
	return true
}

// Encode writes the header into b.
func (h *INT) Encode(b []byte) (int, error) {
	if len(b) < INTLen {
		return 0, short("INT", INTLen, len(b))
	}
	if h.NHop > INTMaxHops {
		return 0, badField("INT", "NHop", BadValue, uint64(h.NHop))
	}
	for i := range h.Hops {
		w, err := h.Hops[i].word()
		if err != nil {
			return 0, err
		}
		be.PutUint64(b[i*INTHopLen:], w)
	}
	be.PutUint16(b[INTMaxHops*INTHopLen:], h.NHop)
	return INTLen, nil
}

// Decode reads the header from the start of b.
func (h *INT) Decode(b []byte) error {
	if len(b) < INTLen {
		f := "NHop"
		if len(b) < INTMaxHops*INTHopLen {
			f = "Hops"
		}
		return truncated("INT", f, INTLen, len(b))
	}
	n := be.Uint16(b[INTMaxHops*INTHopLen:])
	if n > INTMaxHops {
		return badField("INT", "NHop", BadValue, uint64(n))
	}
	for i := range h.Hops {
		h.Hops[i].setWord(be.Uint64(b[i*INTHopLen:]))
	}
	h.NHop = n
	return nil
}
