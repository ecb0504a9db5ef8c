package nic400g

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fabricmodel/fabricmodel/serdes"
)

// pcieGBps returns a rate in GB/s (1e9 bytes per second), for comparisons
// with FACTS 5.2.
func pcieGBps(r serdes.Rate) float64 { return r.BitsPerSecond().Float64() / 8e9 }

// TestPCIeRawRates: raw per-direction rates of x16 links of each
// generation, exact for Gen5 (FACTS 5.2: 63.0 GB/s).
func TestPCIeRawRates(t *testing.T) {
	c := DefaultPCIeConfig()
	require.NoError(t, c.Validate())
	assert.True(t, c.RawRate().Equal(serdes.RateOf(serdes.NewRat(32768_000_000_000, 65))))
	assert.InDelta(t, 63.0, pcieGBps(c.RawRate()), 0.05, "FACTS 5.2 raw per direction")
	assert.Equal(t, serdes.NewRat(8125, 512), c.ByteTime(), "one TLP byte on Gen5 x16, ps")
	for _, tc := range []struct {
		gen  PCIeGen
		gbps float64
	}{
		{Gen1, 4.0}, {Gen2, 8.0}, {Gen3, 15.754}, {Gen4, 31.508}, {Gen5, 63.015}, {Gen6, 118.0},
	} {
		c.Gen = tc.gen
		assert.InDelta(t, tc.gbps, pcieGBps(c.RawRate()), 0.001, tc.gen.String())
	}
	c = DefaultPCIeConfig()
	c.Lanes = 4
	assert.InDelta(t, 63.015/4, pcieGBps(c.RawRate()), 0.001, "Gen5 x4")
}

// TestPCIeTLPOverhead: 5–7 DW per TLP (S [R47]) by header size and ECRC.
func TestPCIeTLPOverhead(t *testing.T) {
	c := DefaultPCIeConfig()
	assert.Equal(t, uint32(24), c.MemOverhead(), "4-DW header: 6 DW")
	assert.Equal(t, uint32(20), c.CplOverhead(), "completion: 3-DW header, 5 DW")
	c.Addr64 = false
	assert.Equal(t, uint32(20), c.MemOverhead(), "3-DW header: 5 DW")
	c.Addr64, c.ECRC = true, true
	assert.Equal(t, uint32(28), c.MemOverhead(), "4-DW header and ECRC: 7 DW")
	c.Gen, c.ECRC = Gen6, false
	assert.Equal(t, uint32(16), c.MemOverhead(), "flit mode: header only")
}

// TestPCIePostedWriteKnownAnswer: a 4096-byte posted write at MPS 256 is
// 16 TLPs of 280 bytes, 4480 × 8125/512 = 71,093.75 ps on Gen5 x16.
func TestPCIePostedWriteKnownAnswer(t *testing.T) {
	c := DefaultPCIeConfig()
	assert.Equal(t, uint64(16), c.WriteTLPs(4096))
	assert.Equal(t, uint64(4480), c.WriteWireBytes(4096))
	assert.Equal(t, serdes.NewRat(284375, 4), c.PostedWriteWireTime(4096))
	assert.Equal(t, uint64(1), c.WriteTLPs(1))
	assert.Equal(t, uint64(2), c.WriteTLPs(257))
	assert.Equal(t, uint64(257+48), c.WriteWireBytes(257))
	c.MPS = 512
	assert.Equal(t, uint64(8), c.WriteTLPs(4096))
	assert.Equal(t, serdes.NewRat(4288*8125, 512), c.PostedWriteWireTime(4096))
}

// TestPCIeEfficiencyFACTS reproduces FACTS 5.2: 57.6 GB/s at MPS 256 and
// 60.2 GB/s at MPS 512, and 400 Gb/s of payload (50 GB/s) is 79–87 % of
// the link.
func TestPCIeEfficiencyFACTS(t *testing.T) {
	c := DefaultPCIeConfig()
	assert.Equal(t, serdes.NewRat(256, 280), c.WriteEfficiency(256))
	assert.Equal(t, serdes.NewRat(512, 536), c.WriteEfficiency(512))
	at256, at512 := pcieGBps(c.WritePayloadRate(256)), pcieGBps(c.WritePayloadRate(512))
	assert.InDelta(t, 57.6, at256, 0.05)
	assert.InDelta(t, 60.2, at512, 0.05)
	raw := pcieGBps(c.RawRate())
	assert.InDelta(t, 0.79, 50/raw, 0.005, "50 GB/s of the raw link")
	assert.InDelta(t, 0.87, 50/at256, 0.005, "50 GB/s of the MPS-256 link")
	assert.InDelta(t, 0.83, 50/at512, 0.005, "50 GB/s of the MPS-512 link")

	// Read data: completions at MPS carry 400 Gb/s, at RCB they do not.
	assert.InDelta(t, 63.015*256/276, pcieGBps(c.ReadPayloadRate()), 0.001)
	c.Completions = CplAtRCB
	assert.InDelta(t, 48.01, pcieGBps(c.ReadPayloadRate()), 0.01)
	assert.Less(t, pcieGBps(c.ReadPayloadRate()), 50.0)

	// DLLP overhead scales every figure.
	c = DefaultPCIeConfig()
	c.DLLPOverhead = serdes.NewRat(1, 64)
	assert.InDelta(t, 57.61*63/64, pcieGBps(c.WritePayloadRate(256)), 0.01)
	assert.True(t, c.LinkRate().Equal(c.RawRate().Scale(serdes.NewRat(63, 64))))
}

// TestPCIeReadSplit: read requests split at MRRS, completions at RCB or
// MPS.
func TestPCIeReadSplit(t *testing.T) {
	c := DefaultPCIeConfig()
	assert.Equal(t, uint64(8), c.ReadRequests(4096))
	assert.Equal(t, uint64(8*24), c.ReadRequestWireBytes(4096))
	assert.Equal(t, uint64(16), c.CompletionTLPs(4096), "512-byte requests, 256-byte completions")
	assert.Equal(t, uint64(4096+16*20), c.CompletionWireBytes(4096))
	assert.Equal(t, uint64(1), c.CompletionTLPs(64))
	assert.Equal(t, uint64(3), c.CompletionTLPs(600), "512 → 2 completions, 88 → 1")
	assert.Zero(t, c.CompletionTLPs(0))
	c.Completions = CplAtRCB
	assert.Equal(t, uint64(64), c.CompletionTLPs(4096), "one per 64-byte RCB")
	assert.Equal(t, uint64(4), c.CompletionTLPs(256), "a 256-byte QP context")
	assert.Equal(t, uint64(2), c.CompletionTLPs(100))
	assert.Equal(t, uint64(4096+64*20), c.CompletionWireBytes(4096))
	c.RCB = 128
	assert.Equal(t, uint64(32), c.CompletionTLPs(4096))
	c.MRRS = 128
	c.Completions = CplAtMPS
	assert.Equal(t, uint64(32), c.CompletionTLPs(4096), "MRRS below MPS: one completion per request")
	req, cpl := c.ReadWireTimes(4096)
	assert.Equal(t, c.WireTime(32*24), req)
	assert.Equal(t, c.WireTime(4096+32*20), cpl)
}

// TestPCIeValidate names the field at fault.
func TestPCIeValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*PCIeConfig)
		want string
	}{
		{"gen", func(c *PCIeConfig) { c.Gen = 7 }, "Gen"},
		{"lanes", func(c *PCIeConfig) { c.Lanes = 12 }, "Lanes"},
		{"mps", func(c *PCIeConfig) { c.MPS = 300 }, "MPS"},
		{"mrrs", func(c *PCIeConfig) { c.MRRS = 8192 }, "MRRS"},
		{"rcb", func(c *PCIeConfig) { c.RCB = 32 }, "RCB"},
		{"split", func(c *PCIeConfig) { c.Completions = 9 }, "Completions"},
		{"dllp", func(c *PCIeConfig) { c.DLLPOverhead = serdes.NewRat(1, 2) }, "DLLPOverhead"},
	} {
		c := DefaultPCIeConfig()
		tc.mod(&c)
		err := c.Validate()
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want)
		_, err = NewPCIeLink(c)
		assert.Error(t, err)
	}
	assert.Equal(t, "Gen5", Gen5.String())
	assert.Equal(t, "128b/130b", Gen5.CodingName())
	assert.Equal(t, "rcb", CplAtRCB.String())
	assert.Equal(t, "upstream", Upstream.String())
}
