package packet

import "encoding/binary"

// crc32IPv4FiveTuple is Hash for the default configuration (Fields5Tuple,
// HashCRC32, not symmetric) and an IPv4 key: the CRC register runs over
// the 13 bytes serialize writes (addresses, ports, protocol) straight from
// the key's fields, one slicing-by-8 step, one slicing-by-4 step and one
// byte, without the buffer and the field-by-field branches. Every switch
// hashes every packet with it; TestECMPFastPathIsTheGenericHash checks it
// against the generic path.
func crc32IPv4FiveTuple(seed uint32, k *FlowKey) uint32 {
	s := ieeeShort
	reg := ^seed ^ binary.LittleEndian.Uint32(k.Src[12:16])
	d := k.Dst[12:16]
	reg = s[7][byte(reg)] ^ s[6][byte(reg>>8)] ^ s[5][byte(reg>>16)] ^ s[4][reg>>24] ^
		s[3][d[0]] ^ s[2][d[1]] ^ s[1][d[2]] ^ s[0][d[3]]
	// the ports, big-endian, as four bytes in little-endian load order
	reg ^= uint32(k.SrcPort>>8) | uint32(k.SrcPort&0xFF)<<8 | uint32(k.DstPort>>8)<<16 | uint32(k.DstPort&0xFF)<<24
	reg = s[3][byte(reg)] ^ s[2][byte(reg>>8)] ^ s[1][byte(reg>>16)] ^ s[0][reg>>24]
	reg = s[0][byte(reg)^k.Protocol] ^ reg>>8
	return ^reg
}
