package packet

// CRC16Params describes a 16-bit CRC in the Rocksoft/RevEng model: the
// generator polynomial written MSB-first without its x^16 term, the initial
// register value, whether input bytes and the final register are bit-reflected,
// and the value XORed into the result. Switch ASICs offer several CRC-16s as
// ECMP and LAG hash functions; the InfiniBand VCRC is one too (FACTS 1.2 VCRC
// row [R80]).
type CRC16Params struct {
	Name    string // catalogue name, for reports
	Poly    uint16 // generator, MSB-first, x^16 implied
	Init    uint16 // register value before the first byte
	Reflect bool   // reflect input bytes and the output (RefIn = RefOut)
	XorOut  uint16 // XORed into the register after the last byte
}

// The CRC-16 variants this package names. Check values on the ASCII string
// "123456789" are from the RevEng CRC catalogue
// (https://reveng.sourceforge.io/crc-catalogue/16.htm).
var (
	// CRC16CCITTFalseParams is CRC-16/CCITT-FALSE (also CRC-16/IBM-3740):
	// poly 0x1021, init 0xFFFF, not reflected, no final XOR; check 0x29B1.
	CRC16CCITTFalseParams = CRC16Params{Name: "CRC-16/CCITT-FALSE", Poly: 0x1021, Init: 0xFFFF}
	// CRC16ARCParams is CRC-16/ARC (also CRC-16/LHA, CRC-IBM): poly 0x8005,
	// init 0, reflected, no final XOR; check 0xBB3D.
	CRC16ARCParams = CRC16Params{Name: "CRC-16/ARC", Poly: 0x8005, Reflect: true}
	// VCRCParams is the InfiniBand variant CRC: poly 0x100B
	// (x^16+x^12+x^3+x+1), computed bit-reflected (0xD008), seed 0xFFFF and a
	// final inversion, as in the Endace DAG library (FACTS 1.2 VCRC row
	// [R80]; the IBTA text itself was not read).
	VCRCParams = CRC16Params{Name: "IB-VCRC", Poly: 0x100B, Init: 0xFFFF, Reflect: true, XorOut: 0xFFFF}
)

// CRC16 is a table-driven 16-bit CRC for one parameter set. Build it once
// with NewCRC16 and share it; it holds no per-call state and is safe for
// concurrent use. Checksum and Update do not allocate.
type CRC16 struct {
	params CRC16Params
	table  [256]uint16
}

// NewCRC16 builds the 256-entry table for p.
func NewCRC16(p CRC16Params) *CRC16 {
	c := &CRC16{params: p}
	if p.Reflect {
		rpoly := reflect16(p.Poly)
		for i := range 256 {
			r := uint16(i)
			for range 8 {
				if r&1 != 0 {
					r = r>>1 ^ rpoly
				} else {
					r >>= 1
				}
			}
			c.table[i] = r
		}
		return c
	}
	for i := range 256 {
		r := uint16(i) << 8
		for range 8 {
			if r&0x8000 != 0 {
				r = r<<1 ^ p.Poly
			} else {
				r <<= 1
			}
		}
		c.table[i] = r
	}
	return c
}

// Params returns the parameter set the table was built for.
func (c *CRC16) Params() CRC16Params { return c.params }

// Checksum returns the CRC of b.
func (c *CRC16) Checksum(b []byte) uint16 {
	return c.Finish(c.Update(c.Start(), b))
}

// Start returns the register value before any byte, for streaming with
// Update and Finish. In reflected mode the register is kept reflected.
func (c *CRC16) Start() uint16 {
	if c.params.Reflect {
		return reflect16(c.params.Init)
	}
	return c.params.Init
}

// Update feeds b into the register reg and returns the new register.
func (c *CRC16) Update(reg uint16, b []byte) uint16 {
	if c.params.Reflect {
		for _, v := range b {
			reg = reg>>8 ^ c.table[byte(reg)^v]
		}
		return reg
	}
	for _, v := range b {
		reg = reg<<8 ^ c.table[byte(reg>>8)^v]
	}
	return reg
}

// Finish turns a register into the CRC value (final XOR applied).
func (c *CRC16) Finish(reg uint16) uint16 {
	return reg ^ c.params.XorOut
}

// reflect16 reverses the bit order of v.
func reflect16(v uint16) uint16 {
	var r uint16
	for range 16 {
		r = r<<1 | v&1
		v >>= 1
	}
	return r
}

// Tables for the named variants, built once at package initialisation.
var (
	crc16CCITTFalse = NewCRC16(CRC16CCITTFalseParams)
	crc16ARC        = NewCRC16(CRC16ARCParams)
	crc16VCRC       = NewCRC16(VCRCParams)
)

// CRC16CCITTFalse returns CRC-16/CCITT-FALSE of b (see CRC16CCITTFalseParams).
func CRC16CCITTFalse(b []byte) uint16 { return crc16CCITTFalse.Checksum(b) }

// CRC16ARC returns CRC-16/ARC of b (see CRC16ARCParams).
func CRC16ARC(b []byte) uint16 { return crc16ARC.Checksum(b) }
