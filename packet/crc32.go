package packet

import "hash/crc32"

// castagnoliTable is the CRC-32C table, built once; crc32.MakeTable selects
// the hardware-accelerated path where the CPU has one.
var castagnoliTable = crc32.MakeTable(crc32.Castagnoli)

// CRC32IEEE returns CRC-32 (ISO-HDLC, the Ethernet and zlib CRC: poly
// 0x04C11DB7 reflected, init and final XOR 0xFFFFFFFF) of b. It is the CRC
// behind the Ethernet FCS (FACTS 1.1 FCS row [R76]) and the RoCEv2 ICRC
// (FACTS 1.3 [R2][R3]). Check value on "123456789": 0xCBF43926.
func CRC32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// UpdateCRC32IEEE continues a CRC-32 (IEEE) over b from a previous result crc,
// so that UpdateCRC32IEEE(CRC32IEEE(a), b) == CRC32IEEE(a||b).
func UpdateCRC32IEEE(crc uint32, b []byte) uint32 { return crc32.Update(crc, crc32.IEEETable, b) }

// CRC32C returns CRC-32C (Castagnoli, poly 0x1EDC6F41 reflected, init and
// final XOR 0xFFFFFFFF) of b, one of the selectable ECMP hash functions.
// Check value on "123456789": 0xE3069283.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoliTable) }

// UpdateCRC32C continues a CRC-32C over b from a previous result crc.
func UpdateCRC32C(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoliTable, b) }
