package serdes

import "fmt"

// Bit order: a symbol stream is sent symbol by symbol, and each 10-bit
// symbol least significant bit first (the bit order of the clause 91
// transmit path; tag U, as recalled and as in the public clause 91 model
// cited at GFPoly). Packed bytes hold that bit stream least significant bit
// first: stream bit i is bit i%8 of byte i/8.

// PackedLen returns the number of bytes that hold n 10-bit symbols.
func PackedLen(n int) int { return (n*GFBits + 7) / 8 }

// PackSymbols packs syms (each below 1024) into dst, which must hold
// PackedLen(len(syms)) bytes; unused bits of the last byte are zeroed. It
// does not allocate.
func PackSymbols(dst []byte, syms []uint16) {
	if len(dst) < PackedLen(len(syms)) {
		panic(fmt.Sprintf("serdes: PackSymbols needs %d bytes, got %d", PackedLen(len(syms)), len(dst)))
	}
	var acc uint32
	nacc := 0
	o := 0
	for _, s := range syms {
		if s >= GFSize {
			panic("serdes: PackSymbols given a symbol wider than 10 bits")
		}
		acc |= uint32(s) << nacc
		nacc += GFBits
		for nacc >= 8 {
			dst[o] = byte(acc)
			o++
			acc >>= 8
			nacc -= 8
		}
	}
	if nacc > 0 {
		dst[o] = byte(acc)
	}
}

// UnpackSymbols fills syms from the packed stream src, the inverse of
// PackSymbols. src must hold PackedLen(len(syms)) bytes. It does not
// allocate.
func UnpackSymbols(syms []uint16, src []byte) {
	if len(src) < PackedLen(len(syms)) {
		panic(fmt.Sprintf("serdes: UnpackSymbols needs %d bytes, got %d", PackedLen(len(syms)), len(src)))
	}
	var acc uint32
	nacc := 0
	i := 0
	for k := range syms {
		for nacc < GFBits {
			acc |= uint32(src[i]) << nacc
			i++
			nacc += 8
		}
		syms[k] = uint16(acc & gfOrder)
		acc >>= GFBits
		nacc -= GFBits
	}
}

// SymbolsToBits writes the bit stream of syms into dst, one bit (0 or 1)
// per byte, in line order; dst must hold 10*len(syms) bytes.
func SymbolsToBits(dst []byte, syms []uint16) {
	if len(dst) < len(syms)*GFBits {
		panic(fmt.Sprintf("serdes: SymbolsToBits needs %d bytes, got %d", len(syms)*GFBits, len(dst)))
	}
	for k, s := range syms {
		for b := 0; b < GFBits; b++ {
			dst[k*GFBits+b] = byte(s>>b) & 1
		}
	}
}

// BitsToSymbols is the inverse of SymbolsToBits: src holds one bit per
// byte (only bit 0 is used), 10*len(syms) of them.
func BitsToSymbols(syms []uint16, src []byte) {
	if len(src) < len(syms)*GFBits {
		panic(fmt.Sprintf("serdes: BitsToSymbols needs %d bytes, got %d", len(syms)*GFBits, len(src)))
	}
	for k := range syms {
		var s uint16
		for b := 0; b < GFBits; b++ {
			s |= uint16(src[k*GFBits+b]&1) << b
		}
		syms[k] = s
	}
}
