package packet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// MicrosoftRSSKey is the 40-byte secret key of the Microsoft RSS
// verification suite ("Verifying the RSS Hash Calculation",
// MicrosoftDocs/windows-driver-docs:windows-driver-docs-pr/network/verifying-the-rss-hash-calculation.md),
// the default key of most NIC RSS implementations.
var MicrosoftRSSKey = [40]byte{
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
}

// SymmetricRSSKey is 0x6d5a repeated, the key of Woo and Park's symmetric
// RSS. Its 16-bit period makes the hash of (src, dst, sport, dport) equal the
// hash of (dst, src, dport, sport), because the two addresses (and the two
// ports) sit a multiple of 16 bits apart in the input.
var SymmetricRSSKey = [40]byte{
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
	0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a, 0x6d, 0x5a,
}

// Toeplitz is the RSS Toeplitz hash for one key. For every input bit set,
// counting from the most significant bit of the first byte, it XORs in the
// 32 key bits that start at that bit position. The constructor folds this
// into one 256-entry table per input byte position, so hashing costs one
// lookup and one XOR per input byte, allocates nothing, and is safe for
// concurrent use.
//
// A key of k bytes hashes inputs of up to k-4 bytes: 36 bytes with a 40-byte
// key, enough for an IPv6 4-tuple (16+16+2+2).
type Toeplitz struct {
	table         [][256]uint32
	sortEndpoints bool
}

// NewToeplitz builds the tables for key (5 to 256 bytes; the key is copied).
func NewToeplitz(key []byte) (*Toeplitz, error) {
	if len(key) < 5 || len(key) > 256 {
		return nil, fmt.Errorf("packet: Toeplitz key is %d bytes, want 5 to 256", len(key))
	}
	t := &Toeplitz{table: make([][256]uint32, len(key)-4)}
	for pos := range t.table {
		// The 40 key bits from byte pos hold the 32-bit window of each of
		// the 8 input bits of this byte position.
		w := uint64(binary.BigEndian.Uint32(key[pos:]))<<8 | uint64(key[pos+4])
		tab := &t.table[pos]
		for v := 1; v < 256; v++ {
			low := bits.TrailingZeros(uint(v)) // value bit low is input bit 7-low
			tab[v] = tab[v&(v-1)] ^ uint32(w>>(1+low))
		}
	}
	return t, nil
}

// NewSymmetricToeplitz is NewToeplitz with the endpoints ordered before
// hashing: the lower (address, port) goes first, so a flow and its reverse
// hash the same with any key.
func NewSymmetricToeplitz(key []byte) (*Toeplitz, error) {
	t, err := NewToeplitz(key)
	if err != nil {
		return nil, err
	}
	t.sortEndpoints = true
	return t, nil
}

// MaxInput is the longest input Hash accepts, in bytes.
func (t *Toeplitz) MaxInput() int { return len(t.table) }

// Hash returns the Toeplitz hash of in. Endpoint ordering does not apply
// here: the input is hashed as given. It panics if in is longer than
// MaxInput, which is a caller bug, not bad outside input.
func (t *Toeplitz) Hash(in []byte) uint32 {
	if len(in) > len(t.table) {
		panic(fmt.Sprintf("packet: Toeplitz input of %d bytes exceeds the key's %d", len(in), len(t.table)))
	}
	var h uint32
	for i, v := range in {
		h ^= t.table[i][v]
	}
	return h
}

// hashAt XORs the hash of b placed at byte offset off into h.
func (t *Toeplitz) hashAt(h uint32, off int, b []byte) uint32 {
	tab := t.table[off : off+len(b)]
	for i, v := range b {
		h ^= tab[i][v]
	}
	return h
}

// HashIPv4 hashes the RSS 2-tuple input source address then destination
// address (8 bytes, as in the Microsoft verification suite).
func (t *Toeplitz) HashIPv4(src, dst [4]byte) uint32 {
	if t.sortEndpoints && bytes.Compare(src[:], dst[:]) > 0 {
		src, dst = dst, src
	}
	return t.hashAt(t.hashAt(0, 0, src[:]), 4, dst[:])
}

// HashIPv4Ports hashes the RSS 4-tuple input source address, destination
// address, source port, destination port (12 bytes, ports big-endian).
func (t *Toeplitz) HashIPv4Ports(src, dst [4]byte, sport, dport uint16) uint32 {
	if t.sortEndpoints && endpointGreater(src[:], dst[:], sport, dport) {
		src, dst, sport, dport = dst, src, dport, sport
	}
	p := [4]byte{byte(sport >> 8), byte(sport), byte(dport >> 8), byte(dport)}
	return t.hashAt(t.hashAt(t.hashAt(0, 0, src[:]), 4, dst[:]), 8, p[:])
}

// HashIPv6 hashes source then destination address (32 bytes).
func (t *Toeplitz) HashIPv6(src, dst [16]byte) uint32 {
	if t.sortEndpoints && bytes.Compare(src[:], dst[:]) > 0 {
		src, dst = dst, src
	}
	return t.hashAt(t.hashAt(0, 0, src[:]), 16, dst[:])
}

// HashIPv6Ports hashes source address, destination address, source port,
// destination port (36 bytes; needs a key of at least 40 bytes).
func (t *Toeplitz) HashIPv6Ports(src, dst [16]byte, sport, dport uint16) uint32 {
	if t.sortEndpoints && endpointGreater(src[:], dst[:], sport, dport) {
		src, dst, sport, dport = dst, src, dport, sport
	}
	p := [4]byte{byte(sport >> 8), byte(sport), byte(dport >> 8), byte(dport)}
	return t.hashAt(t.hashAt(t.hashAt(0, 0, src[:]), 16, dst[:]), 32, p[:])
}

// endpointGreater reports whether (src, sport) orders after (dst, dport),
// comparing addresses first.
func endpointGreater(src, dst []byte, sport, dport uint16) bool {
	switch c := bytes.Compare(src, dst); {
	case c > 0:
		return true
	case c < 0:
		return false
	}
	return sport > dport
}
