package packet

import "encoding/binary"

// span names one field of a header layout by its byte offset, so that a
// truncation error can name the field in which the buffer ends.
type span struct {
	off  int
	name string
}

// cut returns the Truncated error for a buffer of have bytes that needed
// need bytes, naming the field that holds the first missing byte.
func cut(header string, layout []span, need, have int) error {
	name := "header"
	for _, s := range layout {
		if s.off > have {
			break
		}
		name = s.name
	}
	return truncated(header, name, need, have)
}

// short returns the Truncated error an encoder reports when the caller's
// buffer cannot hold the header.
func short(header string, need, have int) error {
	return truncated(header, "buffer", need, have)
}

// tooWide reports a field value that does not fit its width on the wire.
func tooWide(header, field string, v uint64, bits uint) error {
	if v>>bits != 0 {
		return badField(header, field, BadValue, v)
	}
	return nil
}

// put24 writes the low 24 bits of v big-endian into b[0:3].
func put24(b []byte, v uint32) {
	_ = b[2]
	b[0] = byte(v >> 16)
	b[1] = byte(v >> 8)
	b[2] = byte(v)
}

// get24 reads a big-endian 24-bit value from b[0:3].
func get24(b []byte) uint32 {
	_ = b[2]
	return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])
}

// be is the network byte order used by every header in this package.
var be = binary.BigEndian

// b2u turns a flag into a bit.
func b2u(f bool) uint32 {
	if f {
		return 1
	}
	return 0
}
