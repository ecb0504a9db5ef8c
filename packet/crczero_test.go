package packet

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// Appending zeros by table gives crc32.Update over real zero bytes, for
// lengths on and off the 1024-byte steps.
func TestCRC32ZeroExtendMatchesUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	zeros := make([]byte, 20000)
	for _, n := range []int{0, 1, 1023, 1024, 1025, 2048, 4096, 4100, 9000, 19999} {
		for range 50 {
			c := r.Uint32()
			if got, want := CRC32ZeroExtend(c, n), crc32.Update(c, crc32.IEEETable, zeros[:n]); got != want {
				t.Fatalf("n=%d crc=%08x: %08x, want %08x", n, c, got, want)
			}
		}
	}
}

func BenchmarkCRC32ZeroExtend4096(b *testing.B) {
	var c uint32
	for b.Loop() {
		c = CRC32ZeroExtend(c, 4096)
	}
	_ = c
}

func BenchmarkCRC32Update4096Zeros(b *testing.B) {
	zeros := make([]byte, 4096)
	var c uint32
	for b.Loop() {
		c = crc32.Update(c, crc32.IEEETable, zeros)
	}
	_ = c
}
