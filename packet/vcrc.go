package packet

// VCRCLen is the length of the InfiniBand variant CRC in bytes (FACTS 1.2,
// VCRC row [R81][R79][R80]).
const VCRCLen = 2

// VCRC returns the InfiniBand variant CRC of b: the per-link CRC-16 that
// covers a native IB packet from the first LRH byte through the ICRC
// (FACTS 1.2 VCRC row). Polynomial 0x100B computed bit-reflected (0xD008),
// seed 0xFFFF and a final inversion, following the Endace DAG library [R80].
// The byte order of the VCRC on the wire is not confirmed from stored text,
// so this package offers the value only, not a writer.
func VCRC(b []byte) uint16 { return crc16VCRC.Checksum(b) }

// UpdateVCRC continues a VCRC over b. Start from VCRCStart, feed the bytes in
// pieces, and take VCRCFinish of the register:
// VCRCFinish(UpdateVCRC(UpdateVCRC(VCRCStart, a), b)) == VCRC(a||b).
func UpdateVCRC(reg uint16, b []byte) uint16 { return crc16VCRC.Update(reg, b) }

// VCRCStart is the VCRC register before the first byte (seed 0xFFFF, FACTS
// 1.2 VCRC row [R80]).
const VCRCStart uint16 = 0xFFFF

// VCRCFinish applies the final inversion to a VCRC register.
func VCRCFinish(reg uint16) uint16 { return crc16VCRC.Finish(reg) }
