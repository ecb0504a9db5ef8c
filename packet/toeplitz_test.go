package packet

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Microsoft RSS verification suite, numbers from
// MicrosoftDocs/windows-driver-docs:windows-driver-docs-pr/network/verifying-the-rss-hash-calculation.md
// (key MicrosoftRSSKey; input order source address, destination address,
// source port, destination port).
var msRSSVectors = []struct {
	dst, src     string
	dport, sport uint16
	addrOnly     uint32
	withPorts    uint32
}{
	{"161.142.100.80", "66.9.149.187", 1766, 2794, 0x323e8fc2, 0x51ccc178},
	{"65.69.140.83", "199.92.111.2", 4739, 14230, 0xd718262a, 0xc626b0ea},
	{"12.22.207.184", "24.19.198.95", 38024, 12898, 0xd2d0a5de, 0x5c2b394a},
	{"209.142.163.6", "38.27.205.30", 2217, 48228, 0x82989176, 0xafc7327f},
	{"202.188.127.2", "153.39.163.191", 1303, 44251, 0x5d1809c5, 0x10e828a2},
	{"3ffe:2501:200:3::1", "3ffe:2501:200:1fff::7", 1766, 2794, 0x2cc18cd5, 0x40207d3d},
	{"ff02::1", "3ffe:501:8::260:97ff:fe40:efab", 4739, 14230, 0x0f0c461c, 0xdde51bbf},
	{"fe80::200:f8ff:fe21:67cf", "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 38024, 44251, 0x4b61e985, 0x02d1feef},
}

// toeplitzBitwise is the textbook definition, one input bit at a time.
func toeplitzBitwise(key, in []byte) uint32 {
	var h uint32
	for i := range len(in) * 8 {
		if in[i/8]&(0x80>>(i%8)) == 0 {
			continue
		}
		var w uint32
		for j := range 32 {
			k := i + j
			w = w<<1 | uint32(key[k/8]>>(7-k%8)&1)
		}
		h ^= w
	}
	return h
}

func TestToeplitzMicrosoftVectors(t *testing.T) {
	tz, err := NewToeplitz(MicrosoftRSSKey[:])
	require.NoError(t, err)
	assert.Equal(t, 36, tz.MaxInput())
	for _, v := range msRSSVectors {
		t.Run(v.src, func(t *testing.T) {
			src, dst := netip.MustParseAddr(v.src), netip.MustParseAddr(v.dst)
			if src.Is4() {
				assert.Equal(t, v.addrOnly, tz.HashIPv4(src.As4(), dst.As4()))
				assert.Equal(t, v.withPorts, tz.HashIPv4Ports(src.As4(), dst.As4(), v.sport, v.dport))
				in := append(append(src.AsSlice(), dst.AsSlice()...), byte(v.sport>>8), byte(v.sport), byte(v.dport>>8), byte(v.dport))
				assert.Equal(t, v.withPorts, tz.Hash(in))
				assert.Equal(t, v.withPorts, toeplitzBitwise(MicrosoftRSSKey[:], in))
				return
			}
			assert.Equal(t, v.addrOnly, tz.HashIPv6(src.As16(), dst.As16()))
			assert.Equal(t, v.withPorts, tz.HashIPv6Ports(src.As16(), dst.As16(), v.sport, v.dport))
		})
	}
}

func TestToeplitzMatchesBitwise(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 100 {
		key := make([]byte, 5+r.IntN(60))
		for i := range key {
			key[i] = byte(r.Uint32())
		}
		tz, err := NewToeplitz(key)
		require.NoError(t, err)
		in := make([]byte, r.IntN(tz.MaxInput()+1))
		for i := range in {
			in[i] = byte(r.Uint32())
		}
		require.Equal(t, toeplitzBitwise(key, in), tz.Hash(in))
	}
}

func TestToeplitzSymmetric(t *testing.T) {
	sym, err := NewToeplitz(SymmetricRSSKey[:])
	require.NoError(t, err)
	sorted, err := NewSymmetricToeplitz(MicrosoftRSSKey[:])
	require.NoError(t, err)
	plain, err := NewToeplitz(MicrosoftRSSKey[:])
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(13, 14))
	asym := 0
	for range 1000 {
		var a4, b4 [4]byte
		var a6, b6 [16]byte
		for i := range a6 {
			a6[i], b6[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		copy(a4[:], a6[:])
		copy(b4[:], b6[:])
		pa, pb := uint16(r.Uint32()), uint16(r.Uint32())
		if r.IntN(4) == 0 {
			b4, b6 = a4, a6 // same address, ordering falls to the ports
		}
		for _, tz := range []*Toeplitz{sym, sorted} {
			require.Equal(t, tz.HashIPv4(a4, b4), tz.HashIPv4(b4, a4))
			require.Equal(t, tz.HashIPv4Ports(a4, b4, pa, pb), tz.HashIPv4Ports(b4, a4, pb, pa))
			require.Equal(t, tz.HashIPv6(a6, b6), tz.HashIPv6(b6, a6))
			require.Equal(t, tz.HashIPv6Ports(a6, b6, pa, pb), tz.HashIPv6Ports(b6, a6, pb, pa))
		}
		if plain.HashIPv4Ports(a4, b4, pa, pb) != plain.HashIPv4Ports(b4, a4, pb, pa) {
			asym++
		}
	}
	assert.Greater(t, asym, 900, "the Microsoft key alone is not symmetric")
}

func TestToeplitzKeyErrors(t *testing.T) {
	for _, n := range []int{0, 4, 257} {
		_, err := NewToeplitz(make([]byte, n))
		assert.Error(t, err)
		_, err = NewSymmetricToeplitz(make([]byte, n))
		assert.Error(t, err)
	}
	tz, err := NewToeplitz(make([]byte, 5))
	require.NoError(t, err)
	assert.Panics(t, func() { tz.Hash(make([]byte, 2)) })
}

func BenchmarkToeplitzIPv4Ports(b *testing.B) {
	tz, err := NewToeplitz(MicrosoftRSSKey[:])
	require.NoError(b, err)
	src, dst := [4]byte{66, 9, 149, 187}, [4]byte{161, 142, 100, 80}
	var sink uint32
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink ^= tz.HashIPv4Ports(src, dst, uint16(i), 4791)
	}
	_ = sink
}

func BenchmarkToeplitzIPv6Ports(b *testing.B) {
	tz, err := NewToeplitz(MicrosoftRSSKey[:])
	require.NoError(b, err)
	src := netip.MustParseAddr("3ffe:2501:200:1fff::7").As16()
	dst := netip.MustParseAddr("3ffe:2501:200:3::1").As16()
	var sink uint32
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink ^= tz.HashIPv6Ports(src, dst, uint16(i), 4791)
	}
	_ = sink
}

func FuzzToeplitz(f *testing.F) {
	f.Add(MicrosoftRSSKey[:], []byte{66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6})
	f.Fuzz(func(t *testing.T, key, in []byte) {
		tz, err := NewToeplitz(key)
		if len(key) < 5 || len(key) > 256 {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		if len(in) > tz.MaxInput() {
			in = in[:tz.MaxInput()]
		}
		require.Equal(t, toeplitzBitwise(key, in), tz.Hash(in))
	})
}
