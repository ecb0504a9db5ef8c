package packet

import (
	"fmt"
)

// HashFunc names an ECMP hash function, as the hash-function select of a
// switch ASIC does.
type HashFunc uint8

// The ECMP hash functions.
const (
	// HashCRC32 is CRC-32 (IEEE), 32-bit result.
	HashCRC32 HashFunc = iota + 1
	// HashCRC32C is CRC-32C (Castagnoli), 32-bit result.
	HashCRC32C
	// HashCRC16CCITTFalse is CRC-16/CCITT-FALSE, 16-bit result.
	HashCRC16CCITTFalse
	// HashCRC16ARC is CRC-16/ARC, 16-bit result.
	HashCRC16ARC
	// HashCRC16 is the CRC-16 given by ECMPConfig.CRC16, 16-bit result.
	HashCRC16
	// HashToeplitz is the Toeplitz hash with ECMPConfig.ToeplitzKey.
	HashToeplitz
	// HashXORFold XORs the serialised key as big-endian 16-bit words (the
	// last one zero-padded), 16-bit result: the cheapest hash a pipeline
	// can offer, and a weak one.
	HashXORFold
)

// String names the function.
func (f HashFunc) String() string {
	switch f {
	case HashCRC32:
		return "crc32"
	case HashCRC32C:
		return "crc32c"
	case HashCRC16CCITTFalse:
		return "crc16-ccitt-false"
	case HashCRC16ARC:
		return "crc16-arc"
	case HashCRC16:
		return "crc16"
	case HashToeplitz:
		return "toeplitz"
	case HashXORFold:
		return "xor-fold"
	}
	return fmt.Sprintf("hashfunc(%d)", uint8(f))
}

// ECMPConfig configures an ECMPHasher.
type ECMPConfig struct {
	// Fields selects the FlowKey fields hashed (serialised in the order
	// documented on FlowField).
	Fields FlowField
	// Func is the hash function.
	Func HashFunc
	// Symmetric orders the endpoints before hashing (lower address, then
	// lower port, first) so a flow and its reverse hash alike. It needs the
	// addresses and the ports selected in pairs.
	Symmetric bool
	// Seed varies the hash per device so that consecutive tiers do not make
	// correlated choices (hash polarisation). For the CRCs it is the
	// starting value in the form of a previous result (CRC-32 and CRC-32C
	// through crc32.Update, CRC-16 XORed into the start register, low 16
	// bits); for Toeplitz it is XORed into the result, for XOR-fold its low
	// 16 bits are.
	Seed uint32
	// CRC16 is the parameter set for HashCRC16.
	CRC16 CRC16Params
	// ToeplitzKey is the key for HashToeplitz; nil means MicrosoftRSSKey.
	// A key of k bytes hashes at most k-4 bytes of selected fields.
	ToeplitzKey []byte
}

// ECMPHasher hashes FlowKeys for ECMP and load-balancing decisions. Build it
// once with NewECMPHasher; Hash and Select allocate nothing and are safe for
// concurrent use.
type ECMPHasher struct {
	cfg   ECMPConfig
	crc16 *CRC16
	tz    *Toeplitz
	bits  uint
	// fiveTuple: cfg is the default's (Fields5Tuple, HashCRC32, not
	// symmetric), whose IPv4 keys take crc32IPv4FiveTuple
	fiveTuple bool
}

// NewECMPHasher validates cfg and builds the tables it needs. It returns an
// error for an empty or unknown field set, an unknown function, a symmetric
// configuration whose fields are not in src/dst pairs, or a Toeplitz key too
// short for the selected fields.
func NewECMPHasher(cfg ECMPConfig) (*ECMPHasher, error) {
	if cfg.Fields == 0 || cfg.Fields&^fieldsAll != 0 {
		return nil, fmt.Errorf("packet: ECMP field set 0x%x is empty or has unknown bits", uint16(cfg.Fields))
	}
	if cfg.Symmetric {
		a, p := cfg.Fields&FieldsAddrs, cfg.Fields&(FieldSrcPort|FieldDstPort)
		if (a != 0 && a != FieldsAddrs) || (p != 0 && p != FieldSrcPort|FieldDstPort) {
			return nil, fmt.Errorf("packet: symmetric ECMP hashing needs source and destination selected together (fields 0x%x)", uint16(cfg.Fields))
		}
	}
	h := &ECMPHasher{cfg: cfg, bits: 32}
	h.fiveTuple = cfg.Fields == Fields5Tuple && cfg.Func == HashCRC32 && !cfg.Symmetric
	switch cfg.Func {
	case HashCRC32, HashCRC32C:
	case HashXORFold:
		h.bits = 16
	case HashCRC16CCITTFalse:
		h.crc16, h.bits = crc16CCITTFalse, 16
	case HashCRC16ARC:
		h.crc16, h.bits = crc16ARC, 16
	case HashCRC16:
		h.crc16, h.bits = NewCRC16(cfg.CRC16), 16
	case HashToeplitz:
		key := cfg.ToeplitzKey
		if key == nil {
			key = MicrosoftRSSKey[:]
		}
		tz, err := NewToeplitz(key)
		if err != nil {
			return nil, err
		}
		if need := flowKeyLen(cfg.Fields); need > tz.MaxInput() {
			return nil, fmt.Errorf("packet: Toeplitz key of %d bytes hashes at most %d bytes, the selected fields need up to %d", len(key), tz.MaxInput(), need)
		}
		h.tz = tz
	default:
		return nil, fmt.Errorf("packet: unknown ECMP hash function %v", cfg.Func)
	}
	return h, nil
}

// Config returns the configuration the hasher was built from.
func (h *ECMPHasher) Config() ECMPConfig { return h.cfg }

// Bits is the width of the hash values: 16 for the CRC-16s and XOR-fold, 32
// otherwise.
func (h *ECMPHasher) Bits() uint { return h.bits }

// Hash returns the hash of the selected fields of k, in the low Bits() bits.
func (h *ECMPHasher) Hash(k *FlowKey) uint32 {
	if h.fiveTuple && k.IPv4 {
		return crc32IPv4FiveTuple(h.cfg.Seed, k)
	}
	var buf [flowKeyMaxLen]byte
	swap := h.cfg.Symmetric && k.reversed(h.cfg.Fields)
	b := buf[:k.serialize(&buf, h.cfg.Fields, swap)]
	switch h.cfg.Func {
	case HashCRC32:
		return ieeeShort.update(h.cfg.Seed, b)
	case HashCRC32C:
		return castagnoliShort.update(h.cfg.Seed, b)
	case HashToeplitz:
		return h.tz.Hash(b) ^ h.cfg.Seed
	case HashXORFold:
		return uint32(xorFold16(b) ^ uint16(h.cfg.Seed))
	}
	c := h.crc16
	return uint32(c.Finish(c.Update(c.Start()^uint16(h.cfg.Seed), b)))
}

// Select maps a hash from Hash to one of n members, n > 0.
//
// It uses multiply-shift (member = hash*n >> Bits()) instead of hash mod n:
// the member is picked by the high-order bits, and hardware needs a
// multiplier, not a divider. Neither method can split the 2^Bits() hash
// values evenly unless n divides 2^Bits(); both give every member either
// floor or ceil of 2^Bits()/n values, so the largest relative imbalance
// between members is below n/2^Bits() (under 0.1 % for 64 members with a
// 16-bit hash). With n above 2^Bits() some members are never chosen.
// Select panics if n <= 0: an empty group is a caller bug.
func (h *ECMPHasher) Select(hash uint32, n int) int { return SelectMember(hash, h.bits, n) }

// SelectMember is Select for a hash of the given width in bits (1 to 32).
func SelectMember(hash uint32, bits uint, n int) int {
	if n <= 0 {
		panic(fmt.Sprintf("packet: SelectMember over %d members", n))
	}
	if bits < 32 {
		hash &= 1<<bits - 1
	}
	return int(uint64(hash) * uint64(n) >> bits)
}

// xorFold16 XORs b as big-endian 16-bit words, zero-padding the last.
func xorFold16(b []byte) uint16 {
	var h uint16
	for len(b) >= 2 {
		h ^= uint16(b[0])<<8 | uint16(b[1])
		b = b[2:]
	}
	if len(b) == 1 {
		h ^= uint16(b[0]) << 8
	}
	return h
}
