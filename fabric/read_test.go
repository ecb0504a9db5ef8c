package fabric

import (
	"testing"

	"github.com/fabricmodel/fabricmodel/nic400g"
	"github.com/fabricmodel/fabricmodel/rtlmodel"
	"github.com/fabricmodel/fabricmodel/switchasic"
	"github.com/stretchr/testify/require"
)

// RDMA READ, WRITE and SEND through one switch: NIC 0 reads 64 MiB from
// NIC 1 while it writes to and sends to it; everything completes, in
// posting order per QP, and the read runs near line rate.
func TestReadWriteSendThroughSwitch(t *testing.T) {
	s, err := NewStar(2, switchasic.DefaultConfig(), func(i int) nic400g.Config { return nic400g.DefaultConfig(uint32(i)) },
		rtlmodel.Options{Seed: 1})
	require.NoError(t, err)
	var done []nic400g.Completion
	s.NICs[0].OnComplete = func(c nic400g.Completion) {
		if !c.Responder {
			done = append(done, c)
		}
	}
	const bytes = 64 << 20
	addPoster(t, s.Engine, s.NICs[0], s.NICs[0].Host(), []nic400g.WorkRequest{
		{QP: 1, Dst: 1, DestQP: 2, Op: nic400g.OpRead, Bytes: bytes, Posted: rtlmodel.Microsecond},
		{QP: 3, Dst: 1, DestQP: 4, Op: nic400g.OpWrite, Bytes: bytes, Posted: rtlmodel.Microsecond},
		{QP: 1, Dst: 1, DestQP: 2, Op: nic400g.OpSend, Bytes: 4096, Posted: rtlmodel.Microsecond},
	})
	require.NoError(t, s.Engine.Run(rtlmodel.Forever))
	require.Len(t, done, 3)
	var read, send nic400g.Completion
	for _, c := range done {
		switch c.Op {
		case nic400g.OpRead:
			read = c
		case nic400g.OpSend:
			send = c
		}
	}
	require.Equal(t, uint64(bytes), read.Bytes)
	require.GreaterOrEqual(t, send.Visible, read.Visible, "the send after the read on QP 1 completes after it")
	gbps := float64(bytes) * 8 / (float64(read.Visible-read.Posted) / 1e12) / 1e9
	t.Logf("64 MiB RDMA READ through the switch beside a 64 MiB WRITE the other way: %.1f Gb/s", gbps)
	require.Greater(t, gbps, 380.0)
}
