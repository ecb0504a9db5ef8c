package packet

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A frame's headers alone decode to the same fields as the whole frame.
func TestDecodeHeadersMatchesDecode(t *testing.T) {
	buf := make([]byte, 5000)
	var f RoCEv2
	f.Eth.EtherType = EtherTypeIPv4
	f.IP4 = IPv4{IHL: 5, TTL: 64, Src: [4]byte{10, 0, 0, 1}, Dst: [4]byte{10, 0, 0, 2}, TOS: 2}
	f.UDP.SrcPort = 0xC123
	f.BTH.OpCode = 0x06 // RDMA WRITE FIRST: BTH + RETH
	f.BTH.DestQP = 77
	f.RETH.DMALen = 4096
	n, err := f.Build(buf, make([]byte, 4096))
	require.NoError(t, err)
	var whole, heads RoCEv2
	require.NoError(t, whole.Decode(buf[:n]))
	hdr := EthernetLen + IPv4MinLen + UDPLen + BTHLen + RETHLen
	require.NoError(t, heads.DecodeHeaders(buf[:hdr], n))
	require.Equal(t, whole, heads)

	// a length field claiming more than the frame is still an error
	err = heads.DecodeHeaders(buf[:hdr], n-100)
	var fe *FieldError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "TotalLength", fe.Field)
	// and a buffer shorter than the headers is truncated
	require.Error(t, heads.DecodeHeaders(buf[:hdr-4], n))
}

func FuzzDecodeRoCEv2Headers(f *testing.F) {
	buf := make([]byte, 200)
	var r RoCEv2
	r.Eth.EtherType = EtherTypeIPv4
	r.IP4 = IPv4{IHL: 5, TTL: 64}
	r.BTH.OpCode = 0x0A
	n, _ := r.Build(buf, make([]byte, 100))
	f.Add(buf[:70], n)
	f.Fuzz(func(t *testing.T, b []byte, frameLen int) {
		var d RoCEv2
		_ = d.DecodeHeaders(b, frameLen)
	})
}
