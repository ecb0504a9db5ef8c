package serdes

import (
	"testing"
)

// FuzzDecode feeds arbitrary received words to the decoder: it never
// panics on 10-bit symbols, a word it calls clean has zero syndromes, a word
// it corrects becomes a codeword at most t symbols away, and a word it flags
// is left untouched.
func FuzzDecode(f *testing.F) {
	c := RS544()
	cw := make([]uint16, RS544N)
	msg := make([]uint16, RS544K)
	randomMessage(NewRNG(1), msg)
	c.Encode(msg, cw)
	seed := make([]byte, PackedLen(RS544N))
	PackSymbols(seed, cw)
	f.Add(seed, uint64(0), uint8(0))
	f.Add(seed, uint64(99), uint8(15))
	f.Add(seed, uint64(7), uint8(16))
	f.Add(make([]byte, PackedLen(RS544N)), uint64(3), uint8(40))
	d := NewDecoder(c)
	check := NewDecoder(c)
	rx := make([]uint16, RS544N)
	perm := make([]int, RS544N)
	f.Fuzz(func(t *testing.T, raw []byte, rngSeed uint64, nerr uint8) {
		buf := make([]byte, PackedLen(RS544N))
		copy(buf, raw)
		UnpackSymbols(rx, buf)
		injectSymbolErrors(NewRNG(rngSeed), rx, int(nerr)%RS544N, perm)
		before := append([]uint16(nil), rx...)
		res := d.Decode(rx)
		switch res.Status {
		case DecodeClean:
			if _, dirty := check.Syndromes(rx); dirty {
				t.Fatal("clean word with non-zero syndromes")
			}
		case DecodeCorrected:
			if _, dirty := check.Syndromes(rx); dirty {
				t.Fatal("corrected word is not a codeword")
			}
			diff := 0
			for i := range rx {
				if rx[i] != before[i] {
					diff++
				}
			}
			if diff != res.Symbols || diff > RS544T {
				t.Fatalf("corrected %d symbols, reported %d", diff, res.Symbols)
			}
		case DecodeUncorrectable:
			for i := range rx {
				if rx[i] != before[i] {
					t.Fatal("flagged word was modified")
				}
			}
		}
	})
}
