package packet

import "hash/crc32"

// CRC32ZeroExtend returns crc32.Update(crc, crc32.IEEETable, p) for p of n
// zero bytes, without reading n bytes: with no data the CRC register update
// is linear over GF(2), so appending 1024 zeros is one 32x32 bit-matrix
// product, done with four table lookups. The models carry payloads as
// lengths; their ICRC covers the payload as zeros (nic400g).
func CRC32ZeroExtend(crc uint32, n int) uint32 {
	r := ^crc
	for ; n >= zeroBlock; n -= zeroBlock {
		r = zeroTab[0][byte(r)] ^ zeroTab[1][byte(r>>8)] ^ zeroTab[2][byte(r>>16)] ^ zeroTab[3][r>>24]
	}
	if n == 0 {
		return ^r // crc32.Update of nothing, without its dispatch
	}
	return crc32.Update(^r, crc32.IEEETable, zeroBytes[:n])
}

// zeroBlock is the run of zeros one table step appends.
const zeroBlock = 1024

var (
	zeroBytes [zeroBlock]byte
	// zeroTab[k][v] is the register after zeroBlock zero bytes starting
	// from v<<8k.
	zeroTab = buildZeroTab()
)

func buildZeroTab() *[4][256]uint32 {
	tab := crc32.IEEETable
	var basis [32]uint32
	for i := range basis {
		r := uint32(1) << uint(i)
		for range zeroBlock {
			r = tab[byte(r)] ^ r>>8
		}
		basis[i] = r
	}
	t := new([4][256]uint32)
	for k := range t {
		for v := range 256 {
			var r uint32
			for b := range 8 {
				if v&(1<<uint(b)) != 0 {
					r ^= basis[8*k+b]
				}
			}
			t[k][v] = r
		}
	}
	return t
}
