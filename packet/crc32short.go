package packet

import (
	"encoding/binary"
	"hash/crc32"
)

// shortCRC is a CRC-32 of a short buffer, eight bytes a step (slicing by
// eight: table k gives a byte's effect on the register k bytes later), for
// the masked header prefixes of the ICRCs and the ECMP keys. Those live in
// arrays on the caller's stack, which hash/crc32 would move to the heap
// (its accelerated paths are called through function values), and are too
// short for its vector paths to start; a byte at a time, a 40-byte IPv4
// prefix costs three times as long.
type shortCRC [8][256]uint32

// newShortCRC builds the tables of the CRC whose byte table is tab.
func newShortCRC(tab *crc32.Table) *shortCRC {
	s := &shortCRC{}
	s[0] = *tab
	for i := range 256 {
		r := s[0][i]
		for k := 1; k < 8; k++ {
			r = s[0][byte(r)] ^ r>>8
			s[k][i] = r
		}
	}
	return s
}

var (
	ieeeShort       = newShortCRC(crc32.IEEETable)
	castagnoliShort = newShortCRC(castagnoliTable)
)

// register runs the CRC register reg (not inverted) over b.
func (s *shortCRC) register(reg uint32, b []byte) uint32 {
	for len(b) >= 8 {
		reg ^= binary.LittleEndian.Uint32(b)
		reg = s[7][byte(reg)] ^ s[6][byte(reg>>8)] ^ s[5][byte(reg>>16)] ^ s[4][reg>>24] ^
			s[3][b[4]] ^ s[2][b[5]] ^ s[1][b[6]] ^ s[0][b[7]]
		b = b[8:]
	}
	for _, v := range b {
		reg = s[0][byte(reg)^v] ^ reg>>8
	}
	return reg
}

// update continues a CRC result prev over b, as crc32.Update does.
func (s *shortCRC) update(prev uint32, b []byte) uint32 { return ^s.register(^prev, b) }
