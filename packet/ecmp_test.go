package packet

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var allHashFuncs = []HashFunc{HashCRC32, HashCRC32C, HashCRC16CCITTFalse, HashCRC16ARC, HashCRC16, HashToeplitz, HashXORFold}

func mustHasher(t testing.TB, cfg ECMPConfig) *ECMPHasher {
	t.Helper()
	h, err := NewECMPHasher(cfg)
	require.NoError(t, err)
	return h
}

func randomFlowKey(r *rand.Rand, v4 bool) FlowKey {
	var k FlowKey
	if v4 {
		k.SetIPv4([4]byte{byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())},
			[4]byte{byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())})
	} else {
		var s, d [16]byte
		for i := range s {
			s[i], d[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		k.SetIPv6(s, d)
	}
	k.Protocol = 17
	k.SrcPort, k.DstPort = uint16(r.Uint32()), uint16(r.Uint32())
	k.FlowLabel, k.DestQP, k.Entropy = r.Uint32(), r.Uint32(), uint16(r.Uint32())
	return k
}

func TestECMPToeplitzIsRSS(t *testing.T) {
	// With the RSS fields and the Microsoft key, the ECMP hash is the RSS
	// hash of the Microsoft verification suite.
	h4 := mustHasher(t, ECMPConfig{Fields: FieldsRSS, Func: HashToeplitz})
	h2 := mustHasher(t, ECMPConfig{Fields: FieldsAddrs, Func: HashToeplitz, ToeplitzKey: MicrosoftRSSKey[:]})
	for _, v := range msRSSVectors {
		src, dst := netip.MustParseAddr(v.src), netip.MustParseAddr(v.dst)
		k := FlowKey{Src: src.As16(), Dst: dst.As16(), IPv4: src.Is4(), SrcPort: v.sport, DstPort: v.dport, Protocol: 6}
		assert.Equal(t, v.withPorts, h4.Hash(&k), v.src)
		assert.Equal(t, v.addrOnly, h2.Hash(&k), v.src)
	}
}

func TestECMPFunctionsMatchPrimitives(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 200 {
		k := randomFlowKey(r, i%2 == 0)
		want := make([]byte, 0, flowKeyMaxLen)
		src, dst := k.addrs()
		want = append(append(want, src...), dst...)
		want = binary.BigEndian.AppendUint16(want, k.SrcPort)
		want = binary.BigEndian.AppendUint16(want, k.DstPort)
		want = append(want, k.Protocol)
		fl, qp := k.FlowLabel&0xFFFFF, k.DestQP&0xFFFFFF
		want = append(want, byte(fl>>16), byte(fl>>8), byte(fl), byte(qp>>16), byte(qp>>8), byte(qp))
		want = binary.BigEndian.AppendUint16(want, k.Entropy)

		var buf [flowKeyMaxLen]byte
		require.Equal(t, want, buf[:k.serialize(&buf, fieldsAll, false)])

		seed := r.Uint32()
		tests := []struct {
			f    HashFunc
			want uint32
		}{
			{HashCRC32, UpdateCRC32IEEE(seed, want)},
			{HashCRC32C, UpdateCRC32C(seed, want)},
			{HashCRC16CCITTFalse, uint32(crc16CCITTFalse.Finish(crc16CCITTFalse.Update(crc16CCITTFalse.Start()^uint16(seed), want)))},
		}
		for _, tc := range tests {
			h := mustHasher(t, ECMPConfig{Fields: fieldsAll, Func: tc.f, Seed: seed})
			require.Equal(t, tc.want, h.Hash(&k), tc.f.String())
		}
		h := mustHasher(t, ECMPConfig{Fields: fieldsAll, Func: HashCRC16ARC})
		require.Equal(t, uint32(CRC16ARC(want)), h.Hash(&k))
		h = mustHasher(t, ECMPConfig{Fields: fieldsAll, Func: HashCRC16, CRC16: VCRCParams})
		require.Equal(t, uint32(VCRC(want)), h.Hash(&k))
	}
	assert.Equal(t, uint16(0x0102^0x0304^0x0500), xorFold16([]byte{1, 2, 3, 4, 5}))
	h := mustHasher(t, ECMPConfig{Fields: FieldSrcPort | FieldDstPort, Func: HashXORFold, Seed: 0x10001})
	assert.Equal(t, uint(16), h.Bits())
	k := FlowKey{SrcPort: 0xC001, DstPort: 4791}
	assert.Equal(t, uint32(0xC001^4791^1), h.Hash(&k))
}

func TestECMPSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, f := range allHashFuncs {
		for _, fields := range []FlowField{FieldsAddrs, FieldsRSS, Fields5Tuple, Fields5Tuple | FieldDestQP} {
			cfg := ECMPConfig{Fields: fields, Func: f, Symmetric: true, Seed: 0x1234, CRC16: CRC16ARCParams}
			if f == HashToeplitz {
				cfg.ToeplitzKey = make([]byte, 64)
				for i := range cfg.ToeplitzKey {
					cfg.ToeplitzKey[i] = byte(r.Uint32())
				}
			}
			sym := mustHasher(t, cfg)
			cfg.Symmetric = false
			plain := mustHasher(t, cfg)
			asym := 0
			for i := range 300 {
				k := randomFlowKey(r, i%2 == 0)
				if i%5 == 0 {
					k.Dst = k.Src // equal addresses: the ports decide
				}
				rev := k
				rev.Src, rev.Dst, rev.SrcPort, rev.DstPort = k.Dst, k.Src, k.DstPort, k.SrcPort
				require.Equal(t, sym.Hash(&k), sym.Hash(&rev), "%v %x", f, fields)
				if plain.Hash(&k) != plain.Hash(&rev) {
					asym++
				}
			}
			if f != HashXORFold {
				assert.Positive(t, asym, "%v %x: the plain hash should tell directions apart", f, fields)
			}
		}
	}
}

func TestSelectMemberExactSpread(t *testing.T) {
	// Over the whole 16-bit hash space each member gets floor or ceil of
	// 65536/n values.
	for _, n := range []int{1, 2, 3, 7, 48, 64, 100} {
		counts := make([]int, n)
		for h := range 1 << 16 {
			counts[SelectMember(uint32(h)|0xABCD0000, 16, n)]++
		}
		lo, hi := (1<<16)/n, ((1<<16)+n-1)/n
		for m, c := range counts {
			require.True(t, c == lo || c == hi, "n=%d member %d got %d", n, m, c)
		}
	}
	assert.Equal(t, 0, SelectMember(0, 32, 5))
	assert.Equal(t, 4, SelectMember(0xFFFFFFFF, 32, 5))
	assert.Panics(t, func() { SelectMember(1, 32, 0) })
}

func TestECMPSelectDistribution(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	const flows = 60000
	keys := make([]FlowKey, flows)
	for i := range keys {
		// RoCEv2-like flows between a few hosts: only the UDP source port
		// and the QP vary, as in a real fabric.
		k := FlowKey{Protocol: 17, DstPort: 4791, SrcPort: 0xC000 | uint16(r.IntN(1<<14)), DestQP: uint32(r.IntN(1 << 24))}
		k.SetIPv4([4]byte{10, 0, 0, byte(r.IntN(4))}, [4]byte{10, 0, 1, byte(r.IntN(4))})
		keys[i] = k
	}
	key := make([]byte, 48)
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	for _, f := range allHashFuncs {
		h := mustHasher(t, ECMPConfig{Fields: Fields5Tuple | FieldDestQP, Func: f, CRC16: VCRCParams, ToeplitzKey: key})
		for _, n := range []int{8, 48} {
			counts := make([]int, n)
			for i := range keys {
				counts[h.Select(h.Hash(&keys[i]), n)]++
			}
			// Chi-square with n-1 degrees of freedom; 3x the mean is far
			// beyond any plausible fluctuation of a good hash.
			exp := float64(flows) / float64(n)
			chi := 0.0
			for _, c := range counts {
				d := float64(c) - exp
				chi += d * d / exp
			}
			t.Logf("%v n=%d chi-square %.1f (dof %d)", f, n, chi, n-1)
			assert.Less(t, chi, 3*float64(n-1), "%v n=%d counts %v", f, n, counts)
		}
	}
}

func TestECMPConfigErrors(t *testing.T) {
	tests := []ECMPConfig{
		{Fields: 0, Func: HashCRC32},
		{Fields: 1 << 12, Func: HashCRC32},
		{Fields: FieldsRSS, Func: 0},
		{Fields: FieldsRSS, Func: 99},
		{Fields: FieldSrcAddr | FieldDstPort, Func: HashCRC32, Symmetric: true},
		{Fields: Fields5Tuple, Func: HashToeplitz}, // 37 bytes > 36
		{Fields: FieldsRSS, Func: HashToeplitz, ToeplitzKey: []byte{1, 2}},
	}
	for i, cfg := range tests {
		_, err := NewECMPHasher(cfg)
		assert.Error(t, err, "case %d", i)
	}
	h := mustHasher(t, ECMPConfig{Fields: Fields5Tuple, Func: HashCRC16ARC})
	assert.Equal(t, uint(16), h.Bits())
	assert.Equal(t, Fields5Tuple, h.Config().Fields)
	assert.Equal(t, "hashfunc(99)", HashFunc(99).String())
}

func benchmarkECMP(b *testing.B, f HashFunc) {
	h := mustHasher(b, ECMPConfig{Fields: FieldsRSS | FieldProtocol | FieldDestQP, Func: f, Symmetric: true, ToeplitzKey: make([]byte, 48)})
	var k FlowKey
	k.SetIPv4([4]byte{10, 0, 0, 1}, [4]byte{10, 0, 1, 2})
	k.Protocol, k.DstPort, k.DestQP = 17, 4791, 0x118
	sink := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k.SrcPort = 0xC000 | uint16(i)
		sink += h.Select(h.Hash(&k), 48)
	}
	_ = sink
}

func BenchmarkECMPHashCRC32(b *testing.B)    { benchmarkECMP(b, HashCRC32) }
func BenchmarkECMPHashCRC16(b *testing.B)    { benchmarkECMP(b, HashCRC16CCITTFalse) }
func BenchmarkECMPHashToeplitz(b *testing.B) { benchmarkECMP(b, HashToeplitz) }
func BenchmarkECMPHashXORFold(b *testing.B)  { benchmarkECMP(b, HashXORFold) }

// TestECMPFastPathIsTheGenericHash checks the default configuration's IPv4
// path (crc32IPv4FiveTuple) against the CRC of the serialised key, for
// random keys and seeds and the edge values of the ports and protocol.
func TestECMPFastPathIsTheGenericHash(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := range 2000 {
		k := randomFlowKey(r, true)
		k.Protocol = uint8(r.Uint32())
		switch i % 4 {
		case 1:
			k.SrcPort, k.DstPort = 0, 0xFFFF
		case 2:
			k.SrcPort, k.DstPort, k.Protocol = 0xFFFF, 0, 0xFF
		}
		seed := r.Uint32()
		h := mustHasher(t, ECMPConfig{Fields: Fields5Tuple, Func: HashCRC32, Seed: seed})
		require.True(t, h.fiveTuple)
		var buf [flowKeyMaxLen]byte
		want := UpdateCRC32IEEE(seed, buf[:k.serialize(&buf, Fields5Tuple, false)])
		require.Equal(t, want, h.Hash(&k), "key %+v seed %#x", k, seed)
	}
	for _, cfg := range []ECMPConfig{
		{Fields: Fields5Tuple, Func: HashCRC32, Symmetric: true},
		{Fields: Fields5Tuple, Func: HashCRC32C},
		{Fields: Fields5Tuple | FieldDestQP, Func: HashCRC32},
	} {
		assert.False(t, mustHasher(t, cfg).fiveTuple, "%+v", cfg)
	}
}

// benchmarkECMPFiveTuple hashes IPv4 keys with the default configuration,
// through its fast path or, with generic, the serialised key.
func benchmarkECMPFiveTuple(b *testing.B, generic bool) {
	h := mustHasher(b, ECMPConfig{Fields: Fields5Tuple, Func: HashCRC32, Seed: 7})
	h.fiveTuple = !generic
	var k FlowKey
	k.SetIPv4([4]byte{10, 0, 0, 1}, [4]byte{10, 0, 1, 2})
	k.Protocol, k.DstPort = 17, 4791
	sink := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k.SrcPort = 0xC000 | uint16(i)
		sink += h.Select(h.Hash(&k), 32)
	}
	_ = sink
}

func BenchmarkECMPHashFiveTupleIPv4(b *testing.B)        { benchmarkECMPFiveTuple(b, false) }
func BenchmarkECMPHashFiveTupleIPv4Generic(b *testing.B) { benchmarkECMPFiveTuple(b, true) }
